// A Hono API under /v1 on Node.js (@hono/node-server), its routes on a Hono
// of their own mounted with app.route('/v1', api), as Hono's "Grouping" guide
// writes a larger app. Hono answers an unknown path with 404 "404 Not Found"
// as text/plain (EH-2 fails); a method no route answers gets that 404 too
// (HM-3 fails); nothing sets API-Version (VH-1 fails, VH-4 warns).
// tests/integration/test_fixes.py replaces each line marked "fix:<check>" with
// probes/fixes/hono.yaml's text, the change it offers for this shape where it
// offers one per shape (stack.json).
const fs = require('fs');
const path = require('path');
const { Hono } = require('hono');
const { serve } = require('@hono/node-server');

const doc = JSON.parse(fs.readFileSync(path.join(__dirname, 'openapi.json'), 'utf8'));
const api = new Hono();
api.get('/', (c) => c.json({ items: '/v1/items' }));
api.get('/items', (c) => c.json([{ id: 1 }]));
api.get('/openapi.json', (c) => c.json(doc, 200, { 'Access-Control-Allow-Origin': '*' }));
// fix:HM-3

const app = new Hono();
// fix:VH-1 fix:VH-4
app.route('/v1', api);
// fix:EH-2
const port = Number(process.argv[2]);
const host = '127.0.0.1';
serve({ fetch: app.fetch, port, hostname: host }); // fix:TS-1
