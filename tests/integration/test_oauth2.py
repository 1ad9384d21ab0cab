#!/usr/bin/python3
"""OAuth 2.0 client credentials (CLI.md, "Authorisation for APIs that need it").

The authorisation server is a real one: oauth2-mock-server (tests/oauth2,
installed by `./dev test` with `npm ci --prefix tests/oauth2`), started by
tests/oauth2/server.js with one client. The API (fixture_server.py's
bearer_jwks) verifies each bearer JWT with the server's JWKS (python3-jwt), so
a missing, wrong or expired token is a real 401. The bad answers a token
endpoint can give (not JSON, a huge body, a huge token, expires_in -1) come
from a small stub: no real server gives them.
"""

import http.server
import json
import os
import socketserver
import subprocess
import tempfile
import threading
from pathlib import Path

import harness
from fixture_server import FixtureServer
from harness import ProbeCase, run_adrprobe
from test_register import Register, api, load_yaml, targets_by_id
from test_secrets import available_formats, base64_holds, forms

OAUTH2_DIR = harness.REPO / "tests" / "oauth2"
CLIENT_ID = "adrprobe-nightly"
SECRET = "cl1ent+Sec/ret=Hq4Zr8Wd"  # read from the environment: ${ADRPROBE_IT_OAUTH2}
ENV = {"ADRPROBE_IT_OAUTH2": SECRET}
BEHIND = "behind authentication"


def require_server():
    harness.require_module("jwt", "python3-jwt")
    harness.require_module("cryptography", "python3-cryptography")
    harness.require_tool("node", "nodejs")
    if not (OAUTH2_DIR / "node_modules" / "oauth2-mock-server").is_dir():
        harness.require_tool("npm", "npm")
        raise AssertionError("oauth2-mock-server is not installed: run npm ci --prefix tests/oauth2 (./dev test runs it)")


class AuthServer:
    """tests/oauth2/server.js on 127.0.0.1: .token_url, .jwks, .requests (the token requests it answered)."""

    def __init__(self, lifetime=3600, description=None):
        self.args = ["node", str(OAUTH2_DIR / "server.js"), CLIENT_ID, SECRET, str(lifetime)]
        self.env = dict(os.environ)
        if description is not None:
            self.env["OAUTH2_ERROR_DESCRIPTION"] = description
        self.requests = []

    def __enter__(self):
        self.proc = subprocess.Popen(self.args, stdout=subprocess.PIPE, env=self.env, text=True)
        first = self.proc.stdout.readline()
        port = json.loads(first)["port"]
        self.token_url = "http://127.0.0.1:%d/token" % port
        self.jwks = "http://127.0.0.1:%d/jwks" % port
        threading.Thread(target=self._read, daemon=True).start()
        return self

    def _read(self):
        for line in self.proc.stdout:
            self.requests.append(json.loads(line)["token_request"])

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait(timeout=10)


def oauth2_args(auth, secret="${ADRPROBE_IT_OAUTH2}", *more):
    return ["--oauth2-token-url", auth.token_url, "--oauth2-client-id", CLIENT_ID,
            "--oauth2-client-secret", secret] + list(more)


def api_exchanges(report, base):
    return [e for e in report["exchanges"] if e["url"].startswith(base)]


class StubHandler(http.server.BaseHTTPRequestHandler):
    """A token endpoint that answers 200 with what the test chose (server.answer)."""

    def log_message(self, *args):
        pass

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        kind = self.server.answer
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if kind == "huge":  # 1 GB, chunk after chunk, until the client hangs up
            self.send_header("Content-Length", str(1 << 30))
            self.end_headers()
            chunk = b" " * 65536
            try:
                for _ in range((1 << 30) // len(chunk)):
                    self.wfile.write(chunk)
            except OSError:
                pass
            return
        body = {
            "non_json": b"<html>token service</html>",
            "long_token": json.dumps({"access_token": "a" * (1 << 20), "token_type": "Bearer"}).encode(),
            "negative_expiry": json.dumps({"access_token": "tok", "token_type": "Bearer", "expires_in": -1}).encode(),
        }[kind]
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class OAuth2(ProbeCase):
    @classmethod
    def setUpClass(cls):
        require_server()

    def check(self, srv, *args, timeout=120):
        return run_adrprobe(["check", srv.base_url, "-f", "json", "--rate", "0"] + list(args), timeout=timeout, env=ENV)

    def test_check_judges_every_rule_with_the_token(self):
        with AuthServer() as auth:
            with FixtureServer({"bearer_jwks": auth.jwks}) as srv:
                without = self.check(srv)
                self.assertNoCrash(without)
                # The comparison that makes the next run's assertions mean something.
                self.assertIn(BEHIND, without.stdout)
                with_token = self.check(srv, *oauth2_args(auth))
                self.assertNoCrash(with_token, rcs=(0, 1))
                report = with_token.json()
                self.assertNotIn(BEHIND, with_token.stdout)
                statuses = [e.get("status") for e in api_exchanges(report, srv.base_url)]
                self.assertTrue(statuses)
                self.assertNotIn(401, statuses, with_token.stdout[:3000])
                self.assertEqual(report["run"]["oauth2"], {"token_url": auth.token_url, "status": 200})
                self.assertIn("Authorization", report["run"]["options"]["header_names"])
                # the API saw a verified token on every request but the public document's
                authorised = [r for r in srv.requests() if "Authorization" in r["headers"]]
                self.assertTrue(authorised)
            self.assertEqual([(r["auth"], r["status"]) for r in auth.requests], [("basic", 200)])

    def test_client_secret_in_the_form_body(self):
        with AuthServer() as auth, FixtureServer({"bearer_jwks": auth.jwks}) as srv:
            run = self.check(srv, *oauth2_args(auth, "${ADRPROBE_IT_OAUTH2}", "--oauth2-auth", "post",
                                               "--oauth2-scope", "read write"))
            self.assertNoCrash(run, rcs=(0, 1))
            self.assertNotIn(BEHIND, run.stdout)
            self.assertEqual(auth.requests, [{"client_id": CLIENT_ID, "auth": "post", "scope": "read write", "status": 200}])

    def test_a_refusing_token_endpoint_stops_the_run(self):
        with AuthServer(description="unknown client or \x1b[31mwrong secret") as auth, \
                FixtureServer({"bearer_jwks": auth.jwks}) as srv:
            run = self.check(srv, *oauth2_args(auth, "not-the-secret"))
            self.assertEqual(run.rc, 2, run.describe())
            err = run.stderr
            for part in (auth.token_url, "HTTP 401", "invalid_client", "unknown client or"):
                self.assertIn(part, err)
            self.assertNotIn("\x1b", err)  # the server's text is escaped
            self.assertEqual(err.count("\n"), 1, err)  # one message
            self.assertNotIn("not-the-secret", err)
            self.assertEqual(srv.requests(), [], "the API was probed without a token")

    def test_an_unreachable_token_endpoint_stops_the_run(self):
        with FixtureServer() as srv:
            run = self.check(srv, "--oauth2-token-url", "http://127.0.0.1:9/token", "--oauth2-client-id", CLIENT_ID,
                             "--oauth2-client-secret", SECRET)
            self.assertEqual(run.rc, 2, run.describe())
            self.assertIn("http://127.0.0.1:9/token", run.stderr)
            self.assertIn("could not be reached", run.stderr)
            self.assertEqual(srv.requests(), [])

    def test_a_secret_given_to_a_command_that_does_not_take_it_is_not_echoed(self):
        # CLI11's parse error quotes every argument it did not expect
        for args in (["lint", "doc.yaml", "--oauth2-client-secret", SECRET],
                     ["summary", "out", "--oauth2-client-secret=" + SECRET],
                     ["diff", "a.json", "b.json", "-H", "X-Api-Key: " + SECRET, "-HX-Other:" + SECRET]):
            with self.subTest(args[0]):
                run = run_adrprobe(args, timeout=30)
                self.assertEqual(run.rc, 2, run.describe())
                self.assertIn("not expected", run.stderr)
                self.assertIn("***", run.stderr)
                self.assertNotIn(SECRET, run.stdout + run.stderr)

    def test_token_endpoint_must_be_https_off_loopback(self):
        run = run_adrprobe(["check", "http://127.0.0.1:9/v1", "--oauth2-token-url", "http://auth.example.nl/token",
                            "--oauth2-client-id", "c", "--oauth2-client-secret", "s"], timeout=30)
        self.assertEqual(run.rc, 2, run.describe())
        self.assertIn("must be https", run.stderr)

    def test_renewed_once_when_it_expires_during_the_run(self):
        # Tokens live 5 s (renewed 1.25 s before); at 2 requests a second the run takes longer than that.
        with AuthServer(lifetime=5) as auth, FixtureServer({"bearer_jwks": auth.jwks}) as srv:
            run = run_adrprobe(["check", srv.base_url, "-f", "json", "--rate", "2"] + oauth2_args(auth),
                               timeout=180, env=ENV)
            self.assertNoCrash(run, rcs=(0, 1))
            requests = srv.requests()
            span = requests[-1]["time"] - requests[0]["time"]
            self.assertGreater(span, 5, "the run was too short to need a second token")
            self.assertEqual([r["status"] for r in auth.requests], [200, 200])
            self.assertNotIn(401, [e.get("status") for e in api_exchanges(run.json(), srv.base_url)])
            tokens = {r["headers"]["Authorization"] for r in requests if "Authorization" in r["headers"]}
            self.assertEqual(len(tokens), 2)

    def test_batch_shares_a_token_and_marks_a_refused_target_down(self):
        with AuthServer() as auth, FixtureServer({"bearer_jwks": auth.jwks, "base": "/a/v1"},
                                                 mounts=[{"bearer_jwks": auth.jwks, "base": "/b/v1"},
                                                         {"bearer_jwks": auth.jwks, "base": "/c/v1"},
                                                         {"bearer_jwks": auth.jwks, "base": "/d/v1"}]) as srv, \
                tempfile.TemporaryDirectory() as tmp:
            register = Path(tmp, "targets.yaml")
            register.write_text(
                "defaults:\n"
                "  oauth2: {token_url: '%s', client_id: %s, client_secret: '${ADRPROBE_IT_OAUTH2}'}\n"
                "targets:\n"
                "  - {name: a, base_url: '%s'}\n"
                "  - {name: b, base_url: '%s'}\n"
                "  - name: c\n"
                "    base_url: '%s'\n"
                "    oauth2: {client_id: unknown-client}\n"
                "  - name: d\n"
                "    base_url: '%s'\n"
                "    oauth2: {scope: other}\n"
                % (auth.token_url, CLIENT_ID, srv.base_url, srv.mount("/b/v1").base_url, srv.mount("/c/v1").base_url,
                   srv.mount("/d/v1").base_url),
                encoding="utf-8")
            out = Path(tmp, "out")
            run = run_adrprobe(["batch", str(register), "--out-dir", str(out), "--rate", "0"], timeout=180, env=ENV)
            self.assertIn(run.rc, (1, 3), run.describe())
            rows = {t["name"]: t for t in json.loads(Path(out, "summary.json").read_text())["targets"]}
            self.assertEqual(rows["a"]["state"], "up")
            self.assertEqual(rows["b"]["state"], "up")
            self.assertEqual(rows["c"]["state"], "down")
            self.assertEqual(rows["d"]["state"], "up")
            c = json.loads(Path(out, "c.json").read_text())
            self.assertTrue(any("invalid_client" in n and auth.token_url in n for n in c["notes"]), c["notes"])
            self.assertEqual(srv.mount("/c/v1").requests(), [])
            for name in ("a", "b", "d"):
                text = Path(out, name + ".json").read_text()
                self.assertNotIn(BEHIND, text)
                self.assertEqual(json.loads(text)["run"]["oauth2"]["status"], 200)
            # a and b share one token; c's client is refused; d asks for another scope: a token of its own
            self.assertEqual(sorted((r["client_id"], r["scope"] or "", r["status"]) for r in auth.requests),
                             [(CLIENT_ID, "", 200), (CLIENT_ID, "other", 200), ("unknown-client", "", 401)])

    def test_bad_token_answers_are_clear_errors(self):
        """Each bad answer stops check and register with one message (exit 2)
        and makes batch's target down with it, before the API is asked."""
        expect = {
            "non_json": "not a JSON object",
            "huge": "larger than 64 KiB",
            "long_token": "larger than 64 KiB",
            "negative_expiry": "expires_in -1 is not a positive number of seconds",
        }
        with socketserver.ThreadingTCPServer(("127.0.0.1", 0), StubHandler) as stub, FixtureServer() as srv, \
                tempfile.TemporaryDirectory() as tmp:
            stub.daemon_threads = True
            threading.Thread(target=stub.serve_forever, daemon=True).start()
            self.addCleanup(stub.shutdown)
            token_url = "http://127.0.0.1:%d/token" % stub.server_address[1]
            options = ["--oauth2-token-url", token_url, "--oauth2-client-id", CLIENT_ID, "--oauth2-client-secret", SECRET]
            don = Register([api(1)])
            self.addCleanup(don.close)
            targets = Path(tmp, "targets.yaml")
            targets.write_text("targets:\n  - name: api\n    base_url: '%s'\n    oauth2: {token_url: '%s', client_id: %s, "
                               "client_secret: '${ADRPROBE_IT_OAUTH2}'}\n" % (srv.base_url, token_url, CLIENT_ID),
                               encoding="utf-8")
            for kind, message in expect.items():
                stub.answer = kind
                for command, run in (
                        ("check", lambda: self.check(srv, *options, timeout=60)),
                        ("register", lambda: run_adrprobe(["register", "--from", don.url] + options, timeout=60))):
                    with self.subTest(kind=kind, command=command):
                        done = run()
                        self.assertEqual(done.rc, 2, done.describe())
                        self.assertIn(message, done.stderr)
                        self.assertLess(len(done.stderr), 1000, done.stderr[:1000])
                        self.assertEqual(done.stdout, "")
                with self.subTest(kind=kind, command="batch"):
                    out = Path(tmp, "out-" + kind)
                    batch = run_adrprobe(["batch", str(targets), "--out-dir", str(out), "--rate", "0"], timeout=120,
                                         env=ENV)
                    self.assertIn(batch.rc, (1, 3), batch.describe())
                    row = json.loads(Path(out, "summary.json").read_text())["targets"][0]
                    self.assertEqual(row["state"], "down")
                    notes = json.loads(Path(out, "api.json").read_text())["notes"]
                    self.assertTrue(any(message in n and token_url in n for n in notes), notes)
            self.assertEqual(srv.requests(), [])
            self.assertEqual(don.requests, [])

    def test_secret_and_token_never_shown(self):
        """The client secret and the token (the one the API received) in no
        output of any format, the -v log, stdout or stderr, of check and batch,
        with an API that echoes every header it gets everywhere it can."""
        formats = available_formats()
        # The secret planted too: an API that names it in a header of every answer.
        echo = {"echo_headers": True, "echo_everywhere": True, "echo_escaped": True, "trailing_slash": 301,
                "extra_headers": {"X-Leak": "client secret %s" % SECRET}}
        with AuthServer() as auth, FixtureServer(dict(echo, bearer_jwks=auth.jwks)) as srv, \
                tempfile.TemporaryDirectory() as tmp:
            outputs = {}
            files = ["-o", "json=%s" % Path(tmp, "r.json")]
            for f in formats:
                if f not in ("text", "json"):
                    files += ["-o", "%s=%s" % (f, Path(tmp, "r." + f))]
            run = run_adrprobe(["check", srv.base_url, "-v", "--rate", "0"] + files + oauth2_args(auth, SECRET),
                               timeout=180, env=ENV)
            self.assertNoCrash(run, rcs=(0, 1))
            outputs["check stdout"], outputs["check stderr (-v)"] = run.stdout, run.stderr
            register = Path(tmp, "targets.yaml")
            register.write_text("targets:\n  - name: api\n    base_url: '%s'\n    oauth2: {token_url: '%s', client_id: %s, "
                                "client_secret: '${ADRPROBE_IT_OAUTH2}'}\n" % (srv.base_url, auth.token_url, CLIENT_ID),
                                encoding="utf-8")
            batch = run_adrprobe(["batch", str(register), "--out-dir", str(Path(tmp, "out")), "-v", "--rate", "0"]
                                 + sum((["-o", f] for f in formats if f not in ("text", "json")), []),
                                 timeout=180, env=ENV)
            self.assertIn(batch.rc, (0, 1, 3), batch.describe())
            outputs["batch stdout"], outputs["batch stderr (-v)"] = batch.stdout, batch.stderr
            for path in list(Path(tmp).glob("r.*")) + list(Path(tmp, "out").iterdir()):
                outputs[path.name if path.parent.name != "out" else "batch " + path.name] = path.read_text(errors="replace")
            tokens = {r["headers"]["Authorization"][7:] for r in srv.requests() if "Authorization" in r["headers"]}
            self.assertTrue(tokens, "the API received no token")  # check's and batch's are one JWT within a second
            self.assertGreaterEqual(len(outputs), len(formats) + 4)
            # the API echoed the token (else finding nothing proves nothing): the JSON report shows it masked
            report = json.loads(outputs["r.json"])
            self.assertTrue(any(k.startswith("x-echo-authorization") and v == "***"
                                for e in report["exchanges"] for k, v in e["response_headers"].items()))
            self.assertTrue(any(k == "x-leak" and "***" in v
                                for e in report["exchanges"] for k, v in e["response_headers"].items()))
            secrets = forms(SECRET, "%s:%s" % (CLIENT_ID, SECRET))
            for where, text in outputs.items():
                for value in secrets:
                    self.assertNotIn(value, text, "%s shows the client secret as %r" % (where, value))
                for token in tokens:
                    for value in forms(token):
                        self.assertNotIn(value, text, "%s shows the token as %r" % (where, value[:40]))
                    self.assertFalse(base64_holds(text, token), "%s holds the token base64-encoded" % where)
                self.assertFalse(base64_holds(text, SECRET), "%s holds the secret base64-encoded" % where)
            self.assertIn("--oauth2-client-secret '***'", report["run"]["command"])


class RegisterBehindOAuth2(ProbeCase):
    """adrprobe register against a register API behind the authorisation
    server: test_register's register fixture verifies each bearer JWT with the
    server's JWKS, so a request without a valid token is a real 401."""

    @classmethod
    def setUpClass(cls):
        require_server()

    def register(self, don, *args, timeout=120):
        return run_adrprobe(["register", "--from", don.url, "--rate", "0"] + list(args), timeout=timeout, env=ENV)

    def serve(self, apis, **options):
        don = Register(apis, **options)
        self.addCleanup(don.close)
        return don

    def test_every_page_and_api_with_one_token(self):
        with AuthServer() as auth:
            don = self.serve([api(i) for i in range(1, 6)], per_page=2, jwks=auth.jwks)
            without = self.register(don)
            self.assertEqual(without.rc, 2, without.describe())
            self.assertIn("HTTP 401", without.stderr)  # the comparison: the register does refuse
            before = len(don.requests)
            run = self.register(don, *oauth2_args(auth))
            self.assertEqual(run.rc, 0, run.describe())
            self.assertEqual(sorted(targets_by_id(load_yaml(run.stdout))), ["id%d" % i for i in range(1, 6)])
            asked = don.requests[before:]
            self.assertEqual(len(asked), 3 + 5)  # three pages, five APIs
            self.assertEqual(len({h.get("Authorization") for _, _, h in asked}), 1)
            self.assertTrue(asked[0][2]["Authorization"].startswith("Bearer "))
        self.assertEqual([(r["auth"], r["status"]) for r in auth.requests], [("basic", 200)])

    def test_renewed_once_during_a_long_run(self):
        # Tokens live 5 s (renewed 1.25 s before); 3 pages and 12 APIs at 2 requests a second take longer.
        with AuthServer(lifetime=5) as auth:
            don = self.serve([api(i) for i in range(1, 13)], per_page=5, jwks=auth.jwks)
            run = run_adrprobe(["register", "--from", don.url, "--rate", "2"] + oauth2_args(auth), timeout=180, env=ENV)
            self.assertEqual(run.rc, 0, run.describe())  # a 401 on a page is exit 2, on an API exit 3
            self.assertEqual(len(targets_by_id(load_yaml(run.stdout))), 12)
            self.assertEqual([r["status"] for r in auth.requests], [200, 200])
            self.assertEqual(len({h.get("Authorization") for _, _, h in don.requests}), 2)

    def test_a_refusing_or_unreachable_token_endpoint_asks_the_register_nothing(self):
        with AuthServer() as auth:
            don = self.serve([api(1)], jwks=auth.jwks)
            run = self.register(don, *oauth2_args(auth, "not-the-secret"))
            self.assertEqual(run.rc, 2, run.describe())
            for part in (auth.token_url, "HTTP 401", "invalid_client"):
                self.assertIn(part, run.stderr)
            self.assertNotIn("not-the-secret", run.stderr)
            self.assertEqual(run.stdout, "")
            unreachable = self.register(don, "--oauth2-token-url", "http://127.0.0.1:9/token", "--oauth2-client-id",
                                        CLIENT_ID, "--oauth2-client-secret", SECRET)
            self.assertEqual(unreachable.rc, 2, unreachable.describe())
            self.assertIn("http://127.0.0.1:9/token", unreachable.stderr)
            self.assertIn("could not be reached", unreachable.stderr)
            self.assertEqual(don.requests, [])

    def test_secret_and_token_never_shown(self):
        """A register that echoes the Authorization header it gets into
        titles, owners and URLs, and names the client secret (leaked
        elsewhere) in a title: the file, stdout and stderr show neither."""
        with AuthServer() as auth, tempfile.TemporaryDirectory() as tmp:
            apis = [api(1, title="ECHO", org="ECHO"), api(2, title="leaked %s here" % SECRET),
                    api(3, title="no server ECHO", servers=[]), api(4, servers=["https://echo.example.nl/v1/ECHO"]),
                    api(5, title="Plain")]
            don = self.serve(apis, per_page=100, jwks=auth.jwks, echo=True)
            out = Path(tmp, "apis.yaml")
            run = self.register(don, *oauth2_args(auth), "-o", str(out))
            self.assertEqual(run.rc, 0, run.describe())
            text = out.read_text()
            tokens = {h["Authorization"][7:] for _, _, h in don.requests}
            self.assertEqual(len(tokens), 1)
            by_id = targets_by_id(load_yaml(text))  # the masks parse back
            self.assertEqual(by_id["id1"]["owner"], "***")  # the echo happened, else finding nothing proves nothing
            self.assertEqual(by_id["id2"]["name"], "leaked-here")  # a slug of "leaked *** here"
            self.assertEqual(by_id["id4"]["base_url"], "https://echo.example.nl/v1/***")
            self.assertIn("(id3): no server URL", text)
            for where, shown in {"the file": text, "stdout": run.stdout, "stderr": run.stderr}.items():
                for value in forms(SECRET, "%s:%s" % (CLIENT_ID, SECRET)):
                    self.assertNotIn(value, shown, "%s shows the client secret as %r" % (where, value))
                for token in tokens:
                    for value in forms(token):
                        self.assertNotIn(value, shown, "%s shows the token as %r" % (where, value[:40]))


if __name__ == "__main__":
    harness.main()
