// A Hono API under /v1 on Node.js (@hono/node-server). Hono answers an unknown
// path with 404 "404 Not Found" as text/plain (EH-2 fails); a method no route
// answers gets that 404 too (HM-3 fails); nothing sets API-Version (VH-1
// fails, VH-4 warns). Hono is strict about a trailing slash (NT-2 passes).
// tests/integration/test_fixes.py replaces each line marked "fix:<check>" with
// probes/fixes/hono.yaml's text.
const fs = require('fs');
const path = require('path');
const { Hono } = require('hono');
const { serve } = require('@hono/node-server');

const doc = JSON.parse(fs.readFileSync(path.join(__dirname, 'openapi.json'), 'utf8'));
const app = new Hono().basePath('/v1');

// fix:VH-1 fix:VH-4
app.get('/', (c) => c.json({ items: '/v1/items' }));
app.get('/items', (c) => c.json([{ id: 1 }]));
app.get('/openapi.json', (c) => c.json(doc, 200, { 'Access-Control-Allow-Origin': '*' }));
// fix:HM-3
// fix:EH-2
const port = Number(process.argv[2]);
const host = '127.0.0.1';
serve({ fetch: app.fetch, port, hostname: host }); // fix:TS-1
