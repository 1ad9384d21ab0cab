// An Express API under /v1 with its routes on the app itself, as Express's
// "Hello world" and routing guide write one. Express ignores a trailing slash
// by default, so GET /v1/items/ is served (NT-2 fails); a method no route
// answers gets 404 "Cannot TRACE" (HM-3 fails); nothing sets API-Version
// (VH-1 fails, VH-4 warns); an unknown path gets Express's HTML page (EH-2
// fails). tests/integration/test_fixes.py replaces each line marked
// "fix:<check>" with probes/fixes/express.yaml's text, the second change it
// offers for NT-2 (stack.json).
const fs = require('fs');
const path = require('path');
const express = require('express');

const doc = JSON.parse(fs.readFileSync(path.join(__dirname, 'openapi.json'), 'utf8'));
const app = express();
// fix:NT-2
// fix:VH-1 fix:VH-4

app.get('/v1', (req, res) => res.json({ items: '/v1/items' }));
app.get('/v1/items', (req, res) => res.json([{ id: 1 }]));
app.get('/v1/openapi.json', (req, res) => res.set('Access-Control-Allow-Origin', '*').json(doc));
// fix:HM-3
// fix:EH-2

const port = Number(process.argv[2]);
const host = '127.0.0.1';
app.listen(port, host); // fix:TS-1
