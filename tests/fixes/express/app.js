// An Express API under /v1 on a Router. Express ignores a trailing slash by
// default, so GET /v1/items/ is served (NT-2 fails); a method no route answers
// gets 404 "Cannot TRACE" (HM-3 fails); nothing sets API-Version (VH-1 fails,
// VH-4 warns). tests/integration/test_fixes.py replaces each line marked
// "fix:<check>" with probes/fixes/express.yaml's text.
const fs = require('fs');
const path = require('path');
const express = require('express');

const doc = JSON.parse(fs.readFileSync(path.join(__dirname, 'openapi.json'), 'utf8'));
const app = express();
const router = express.Router(); // fix:NT-2

router.get('/', (req, res) => res.json({ items: '/v1/items' }));
router.get('/items', (req, res) => res.json([{ id: 1 }]));
router.get('/openapi.json', (req, res) => res.set('Access-Control-Allow-Origin', '*').json(doc));

// fix:VH-1 fix:VH-4
app.use('/v1', router);
// fix:HM-3
// fix:EH-2
const port = Number(process.argv[2]);
const host = '127.0.0.1';
app.listen(port, host); // fix:TS-1
