// A Fastify API under /v1. An unknown path gets Fastify's JSON 404
// ({"message": "Route GET:/v1/x not found", ...}, application/json), not a
// problem (EH-2 fails); a method no route has gets that 404 too, TRACE on
// /v1/items included (HM-3 fails). tests/integration/test_fixes.py replaces
// each line marked "fix:<check>" with probes/fixes/fastify.yaml's text for that check.
const fs = require('fs');
const path = require('path');
const Fastify = require('fastify');

const doc = JSON.parse(fs.readFileSync(path.join(__dirname, 'openapi.json'), 'utf8'));
const app = Fastify(); // fix:TS-1

app.addHook('onSend', async (request, reply, payload) => {
  reply.header('API-Version', '1.0.0');
  return payload;
});
app.get('/v1', async () => ({ items: '/v1/items' }));
app.get('/v1/items', async () => [{ id: 1 }]);
app.get('/v1/openapi.json', async (request, reply) => reply.header('Access-Control-Allow-Origin', '*').send(doc));
// fix:HM-3
// fix:EH-2

app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
