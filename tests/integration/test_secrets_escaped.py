#!/usr/bin/python3
"""Secrets, hostile input IV (probes.md, "What the report shows of server
text and secrets"): every credential the run is given by any route never
appears in any output, however the server hands it back.

- A proxy's credentials (`http_proxy=http://user:pw@proxy:3128`): libcurl sends
  `Proxy-Authorization: Basic base64(user:pw)` on every request through it;
  the report's request headers show the header masked, and neither the user's
  password, user:password, nor the Basic value shows anywhere, also when a
  careless proxy passes the header on and the server echoes it.
- A `-H` value echoed in the escaped forms a server's JSON, URL and HTML
  libraries write: PHP's `\\/`, .NET's `\\u002B`, `urllib.parse.quote` (`%2B`,
  `/` kept), `quote_plus` (`+` for a space), HTML character references.
- The parts a header's syntax separates: a cookie's value, a Basic
  credential decoded (user:password, the password), and a segment of a value
  between '/' (KC-1 quotes the segment of a document path that holds it).
- `run.command` masks a `-H` value by the parsed option, not by its spelling:
  grouped short flags (`-qH`), a value holding a single quote.

Every format the binary lists is written and searched, each must also show
the target (an empty output proves nothing), and the test checks that the
server really echoed each form (else passing proves nothing)."""

import base64
import json
import sys
import tempfile
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from connect_proxy import ConnectProxy  # noqa: E402
from harness import FixtureServer, ProbeCase, run_adrprobe  # noqa: E402
import test_secrets  # noqa: E402
from test_secrets import available_formats, base64_holds, forms  # noqa: E402

PROXY_USER = "proxyuser"
PROXY_PASSWORD = "Pr0xy/Pa55+wd9"
H_VALUE = "hdr+Sec/ret=Q7x9Kp2m"
COOKIE_SID = "SIDabcdef123456"
BASIC_USER, BASIC_PASSWORD = "alice", "Pa55w0rdSecret"
SEGMENTED = "Abcdefghij/Klmnopqrstu"  # KC-1 would quote 'Abcdefghij' and 'Klmnopqrstu'

# Proxy settings of the test's own environment never count.
NO_PROXY_ENV = {name: None for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy",
                                        "ALL_PROXY", "no_proxy", "NO_PROXY")}


def b64(text):
    return base64.b64encode(text.encode()).decode()


class HostileSecrets(ProbeCase):
    @classmethod
    def setUpClass(cls):
        cls.formats = available_formats()

    def run_every_format(self, tmp, url, extra, env):
        """`check` with every format on stdout once and every format as a file,
        -v on stderr: {where: text}, and the JSON report."""
        outputs = {}
        files = {f: Path(tmp, "out.%s" % f) for f in self.formats}
        args = ["check", url, "-f", "json", "-v", "--rate", "0", "--edition", "2.2.0"] + extra
        for f, path in files.items():
            args += ["-o", "%s=%s" % (f, path)]
        run = run_adrprobe(args, env=env, timeout=120)
        self.assertNoCrash(run)
        outputs["stdout -f json"] = run.stdout
        outputs["stderr -v"] = run.stderr
        for f, path in files.items():
            outputs["-o " + f] = path.read_text(encoding="utf-8", errors="replace")
        return outputs, json.loads(run.stdout)

    def assertNothingShows(self, outputs, secrets, port, values):
        """test_secrets' check: no output holds any of the forms, nor base64 of a
        value, and each shows the target (Markdown escapes its colon)."""
        test_secrets.Secrets.assertNoSecret(self, outputs, secrets, ("127.0.0.1:%d" % port, "127.0.0.1\\:%d" % port), values)

    def test_proxy_credentials_from_the_environment(self):
        with tempfile.TemporaryDirectory() as tmp, \
                FixtureServer({"echo_headers": True, "echo_everywhere": True, "echo_escaped": True}) as srv, \
                ConnectProxy(credentials=(PROXY_USER, PROXY_PASSWORD), forward=True, pass_credentials=True) as proxy:
            proxy_url = "http://%s:%s@127.0.0.1:%d" % (PROXY_USER, urllib.parse.quote(PROXY_PASSWORD, safe=""),
                                                        proxy.port)
            env = dict(NO_PROXY_ENV, http_proxy=proxy_url)
            outputs, report = self.run_every_format(tmp, srv.base_url, [], env)
            log = proxy.log()
        basic = "Basic " + b64("%s:%s" % (PROXY_USER, PROXY_PASSWORD))
        # The run went through the proxy with its credentials, and the server saw them.
        forwarded = [e for e in log if e["method"] != "CONNECT"]
        self.assertTrue(forwarded, log[:3])
        self.assertTrue(all(e["status"] == 200 for e in forwarded), [e["status"] for e in forwarded][:10])
        self.assertTrue(all(e["headers"].get("Proxy-Authorization") == basic for e in forwarded))
        echoed = [v for e in report["exchanges"] for k, v in e["response_headers"].items()
                  if k == "x-echo-proxy-authorization"]
        self.assertTrue(echoed, "the server did not echo the proxy's header: the test proves nothing")
        # The header libcurl sent is in the report, its value masked.
        sent = [e["request_headers"] for e in report["exchanges"] if e.get("request_headers")]
        self.assertTrue(sent)
        self.assertTrue(all(h.get("Proxy-Authorization") == "***" for h in sent), sent[:2])
        secrets = {"proxy password": forms(PROXY_PASSWORD),
                   "proxy user:password": forms("%s:%s" % (PROXY_USER, PROXY_PASSWORD), basic)}
        self.assertNothingShows(outputs, secrets, srv.port,
                                [PROXY_PASSWORD, "%s:%s" % (PROXY_USER, PROXY_PASSWORD)])

    echo_run = None

    def escaped_run(self):
        """One run against a server that echoes every value in escaped forms,
        a cookie's values and a Basic credential decoded, and serves a path
        holding a value with '/': (outputs, report), made once for the tests below."""
        if HostileSecrets.echo_run is None:
            cookie = "theme=dark; sid=" + COOKIE_SID
            basic = "Basic " + b64("%s:%s" % (BASIC_USER, BASIC_PASSWORD))
            with tempfile.TemporaryDirectory() as tmp, \
                    FixtureServer({"echo_headers": True, "echo_everywhere": True, "echo_escaped": True,
                                   "echo_paths": True, "not_found_status": 404, "doc_needs_header": "X-Api-Key"}) as srv:
                extra = ["-H", "X-Api-Key: " + H_VALUE, "-H", "Cookie: " + cookie, "-H", "Authorization: " + basic,
                         "-H", "X-Path-Key: " + SEGMENTED]
                outputs, report = self.run_every_format(tmp, srv.base_url, extra, dict(NO_PROXY_ENV))
                HostileSecrets.echo_run = (outputs, report, srv.port)
        return HostileSecrets.echo_run

    def test_escaped_forms_of_a_value(self):
        outputs, report, port = self.escaped_run()
        bodies = [e.get("response_body", "") for e in report["exchanges"]]
        # The server really sent each escaped form, masked in the report.
        for field in ("php_0", "dotnet_0", "quote_0", "quote_plus_0", "html_0"):
            self.assertTrue(any('"%s": "' % field in b for b in bodies), "no %s in any body" % field)
        self.assertTrue(any("x-echo-quoted-0" in e["response_headers"] for e in report["exchanges"]))
        self.assertTrue(any("x-echo-html-0" in e["response_headers"] for e in report["exchanges"]))
        escaped = {H_VALUE, H_VALUE.replace("/", "\\/"), "hdr\\u002BSec", urllib.parse.quote(H_VALUE),
                   urllib.parse.quote_plus(H_VALUE), "hdr&#43;Sec&#x2F;ret&#61;", "Q7x9Kp2m"}
        self.assertNothingShows(outputs, {"-H value": escaped}, port, [H_VALUE])

    def test_a_cookie_value(self):
        outputs, report, port = self.escaped_run()
        self.assertNothingShows(outputs, {"cookie value": {COOKIE_SID}}, port, [COOKIE_SID])

    def test_a_basic_credential_decoded(self):
        outputs, report, port = self.escaped_run()
        self.assertNothingShows(outputs, {"Basic credential decoded": {"%s:%s" % (BASIC_USER, BASIC_PASSWORD),
                                                                     BASIC_PASSWORD}}, port, [BASIC_PASSWORD])

    def test_a_segment_of_a_value_quoted_by_kc1(self):
        outputs, report, port = self.escaped_run()
        # KC-1 judged the echoed path ('/k/Abcdefghij/Klmnopqrstu/Upper') and quotes its segments.
        kc1 = [c for r in report["rules"] for c in r["checks"] if c["id"] == "KC-1"]
        self.assertTrue(kc1 and kc1[0]["verdict"] == "fail", kc1)
        self.assertIn("uppercase letters in '***'", kc1[0]["message"] + " ".join(kc1[0].get("details", [])))
        self.assertNothingShows(outputs, {"segment of a value": {"Abcdefghij", "Klmnopqrstu"}}, port,
                                ["Abcdefghij", "Klmnopqrstu"])

    def test_run_command_masks_by_the_parsed_option(self):
        with FixtureServer({}) as srv:
            run = run_adrprobe(["check", srv.base_url, "-f", "json", "--rate", "0", "-qH", "X-Key: v",
                                "-H", "X-Quote: it's-Secret-9", "--header=X-Eq: w9"], env=dict(NO_PROXY_ENV))
        self.assertNoCrash(run)
        command = json.loads(run.stdout)["run"]["command"]
        self.assertIn("check http://127.0.0.1:%d/v1" % srv.port, command)
        self.assertIn("-qH 'X-Key: ***'", command)
        self.assertIn("-H 'X-Quote: ***'", command)
        self.assertIn("'--header=X-Eq: ***'", command)
        for value in ("X-Key: v'", "it's", "it'\\''s", "Secret-9", "w9"):
            self.assertNotIn(value, command)

    def test_batch_pushgateway_header_in_no_report(self):
        token = "PushTok3nValue99"
        with tempfile.TemporaryDirectory() as tmp, FixtureServer({}) as srv:
            targets = Path(tmp, "apis.yaml")
            targets.write_text(harness.yaml_text({"targets": [{"name": "one", "base_url": srv.base_url}]}),
                               encoding="utf-8")
            out = Path(tmp, "out")
            run = run_adrprobe(["batch", str(targets), "--out-dir", str(out), "--rate", "0", "-o", "html",
                                "--pushgateway", "http://127.0.0.1:9", "--pushgateway-header",
                                "Authorization: Bearer " + token], env=dict(NO_PROXY_ENV), timeout=120)
            self.assertNoCrash(run)
            self.assertIn("push to http://127.0.0.1:9", run.stderr)  # the push was tried, and failed
            texts = {"stdout": run.stdout, "stderr": run.stderr}
            for path in out.iterdir():
                texts[path.name] = path.read_text(encoding="utf-8", errors="replace")
        report = json.loads(texts["one.json"])
        self.assertIn("--pushgateway-header 'Authorization: ***'", report["run"]["command"])
        for where, text in texts.items():
            self.assertNotIn(token, text, where)
            self.assertFalse(base64_holds(text, token), where)


if __name__ == "__main__":
    harness.main()
