// A Koa API under /v1 on @koa/router with a prefix, as the router's README
// writes one (router.routes() and router.allowedMethods()). The router ignores
// a trailing slash, so GET /v1/items/ is served (NT-2 fails); Koa's 404 and
// the router's 501 to TRACE are text/plain (EH-2 fails, HM-3 fails: 501, not
// 405); nothing sets API-Version (VH-1 fails, VH-4 warns).
// tests/integration/test_fixes.py replaces each line marked "fix:<check>" with
// probes/fixes/koa.yaml's text for that check.
const fs = require('fs');
const path = require('path');
const Koa = require('koa');
const Router = require('@koa/router');

const doc = JSON.parse(fs.readFileSync(path.join(__dirname, 'openapi.json'), 'utf8'));
const app = new Koa();
const router = new Router({ prefix: '/v1' }); // fix:HM-3

router.get('/', (ctx) => { ctx.body = { items: '/v1/items' }; });
router.get('/items', (ctx) => { ctx.body = [{ id: 1 }]; });
router.get('/openapi.json', (ctx) => { ctx.set('Access-Control-Allow-Origin', '*'); ctx.body = doc; });

// fix:VH-1 fix:VH-4
// fix:EH-2
// fix:NT-2
app.use(router.routes());
app.use(router.allowedMethods());
const port = Number(process.argv[2]);
const host = '127.0.0.1';
app.listen(port, host); // fix:TS-1
