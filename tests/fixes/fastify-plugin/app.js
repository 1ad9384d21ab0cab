// A Fastify API under /v1 as a plugin registered with a prefix, as Fastify's
// "Getting Started" splits routes into plugins. An unknown path gets Fastify's
// JSON 404 ({"message": "Route GET:/v1/x not found", ...}), not a problem
// (EH-2 fails); a method no route has gets that 404 too, TRACE on /v1/items
// included (HM-3 fails). tests/integration/test_fixes.py replaces each line
// marked "fix:<check>" with probes/fixes/fastify.yaml's text for that check.
const fs = require('fs');
const path = require('path');
const Fastify = require('fastify');

const doc = JSON.parse(fs.readFileSync(path.join(__dirname, 'openapi.json'), 'utf8'));
const app = Fastify(); // fix:TS-1

app.addHook('onSend', async (request, reply, payload) => {
  reply.header('API-Version', '1.0.0');
  return payload;
});

async function api(fastify) {
  fastify.get('/', async () => ({ items: '/v1/items' }));
  fastify.get('/items', async () => [{ id: 1 }]);
  fastify.get('/openapi.json', async (request, reply) => reply.header('Access-Control-Allow-Origin', '*').send(doc));
}

app.register(api, { prefix: '/v1' });
// fix:HM-3
// fix:EH-2

app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
