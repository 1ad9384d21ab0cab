#!/usr/bin/env node
// The OAuth 2.0 authorisation server of tests/integration/test_oauth2.py:
// oauth2-mock-server (package.json, npm ci) on 127.0.0.1 at a free port. It
// issues client credentials tokens as RS256 JWTs, which the test's API checks
// against the server's /jwks, so a wrong or expired token is a real 401.
//
//   node server.js CLIENT_ID CLIENT_SECRET [TOKEN_LIFETIME_SECONDS]
//
// The mock takes any client; this launcher makes it one authorisation server
// with one client: a token request with other credentials (HTTP Basic or in
// the form body) is refused as RFC 6749 §5.2 says, 401 invalid_client, with
// OAUTH2_ERROR_DESCRIPTION (if set) as its error_description. Tokens live
// TOKEN_LIFETIME_SECONDS (default 3600): the JWT's exp and expires_in.
//
// Prints {"port": N} first, then one JSON line per token request:
// {"token_request": {"client_id", "auth": "basic"|"post", "scope", "status"}}.
'use strict';
const { OAuth2Server } = require('oauth2-mock-server');

const [clientId, clientSecret, lifetimeArg] = process.argv.slice(2);
const lifetime = Number(lifetimeArg || 3600);
if (!clientId || !clientSecret || !(lifetime > 0)) {
  console.error('usage: node server.js CLIENT_ID CLIENT_SECRET [TOKEN_LIFETIME_SECONDS]');
  process.exit(2);
}

// application/x-www-form-urlencoded, as RFC 6749 §2.3.1 encodes the Basic credential's parts.
const formDecode = (s) => decodeURIComponent(s.replace(/\+/g, ' '));

function credentials(req) {
  const header = req.headers.authorization || '';
  if (/^basic /i.test(header)) {
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { auth: 'basic' };
    return { auth: 'basic', id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  }
  return { auth: 'post', id: req.body.client_id, secret: req.body.client_secret };
}

async function main() {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  server.service.on('beforeTokenSigning', (token) => {
    token.payload.exp = Math.floor(Date.now() / 1000) + lifetime;
  });
  server.service.on('beforeResponse', (response, req) => {
    const c = credentials(req);
    if (c.id !== clientId || c.secret !== clientSecret) {
      response.statusCode = 401;
      response.body = { error: 'invalid_client' };
      if (process.env.OAUTH2_ERROR_DESCRIPTION) response.body.error_description = process.env.OAUTH2_ERROR_DESCRIPTION;
    } else {
      response.body.expires_in = lifetime;
    }
    const line = { token_request: { client_id: c.id || null, auth: c.auth, scope: req.body.scope || null, status: response.statusCode } };
    process.stdout.write(JSON.stringify(line) + '\n');
  });
  await server.start(0, '127.0.0.1');
  process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n');
  const stop = () => server.stop().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
