#!/usr/bin/python3
"""What the report shows (probes.md "What the report shows of server text and
secrets"): server text with control characters made visible in every human
format, and no secret (a URL password, a --header-file value, an expanded
${VAR}) in any output."""

import json
import os
import sys
import tempfile
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import FixtureServer, ProbeCase, run_adrprobe  # noqa: E402

# OSC "set window title", terminated by BEL; a C1 CSI (U+009B) as UTF-8; a byte
# that is not UTF-8 at all.
OSC = "\x1b]0;pwned\x07"
C1 = "\u009b31m"


def header_text(text):
    """A header value that goes over the wire as the UTF-8 bytes of text
    (http.server writes header values as Latin-1)."""
    return text.encode("utf-8").decode("latin-1")


HOSTILE = {
    "api_version": "1.0.0" + OSC,
    "trailing_slash": 301,
    "extra_headers": {
        "Server": "nginx/1.25" + OSC,
        "Location": header_text("/v1/gebouwen" + OSC + C1) + "\xff",
    },
    "openapi_yaml": "text",
    "openapi_yaml_text": "openapi: [" + OSC + "\n",
    "doc_patch": {
        "info": {"title": "Gebouwen" + OSC, "contact": {"name": "Team" + OSC + C1}},
        "paths": {"/getGebouw" + OSC: {"get": {"responses": {"200": {"description": "OK"}}}}},
    },
}


def controls(text):
    """The control characters in text (C0 but newline, DEL, C1), with where."""
    out = []
    for i, ch in enumerate(text):
        if ch == "\n":
            continue
        if unicodedata.category(ch) == "Cc":
            out.append((i, hex(ord(ch)), text[max(0, i - 40):i + 10]))
    return out


class ServerText(ProbeCase):
    """No byte a server sends reaches the terminal raw (stdout, -o text=, -v on
    stderr); the JSON report stays valid UTF-8 and carries the value escaped."""

    def run_hostile(self, edition):
        with tempfile.TemporaryDirectory() as tmp, FixtureServer(HOSTILE) as srv:
            text_file, json_file = Path(tmp, "r.txt"), Path(tmp, "r.json")
            run = run_adrprobe(harness.check_args(srv.base_url, ("-v", "-o", "text=%s" % text_file,
                                                                 "-o", "json=%s" % json_file),
                                                  edition=edition, fmt="text"))
            return run, text_file.read_bytes(), json_file.read_bytes()

    def assertVisibleOnly(self, text, where):
        """text (bytes: decoded strictly; str: decoded with U+FFFD for invalid
        UTF-8, which must not occur) holds no raw control character."""
        text = text.decode("utf-8") if isinstance(text, bytes) else text
        self.assertNotIn("\ufffd", text, "invalid UTF-8 in %s" % where)
        self.assertEqual(controls(text), [], "raw control characters in %s" % where)
        self.assertIn("\\x1b]0;pwned\\x07", text, "the escape sequence is not shown visibly in %s" % where)

    def test_text_outputs_show_control_characters_escaped(self):
        for edition in ("2.0.0", "2.1.0"):
            with self.subTest(edition=edition):
                run, text_file, json_file = self.run_hostile(edition)
                self.assertNoCrash(run)
                self.assertVisibleOnly(run.stdout, "stdout")
                self.assertVisibleOnly(text_file, "the -o text file")
                self.assertVisibleOnly(run.stderr, "stderr (-v)")
                out = text_file.decode("utf-8")
                # the VH-2 line, the Location of NT-2 with the C1 and the invalid byte, the Server hint
                self.assertIn('API-Version "1.0.0\\x1b]0;pwned\\x07"', out)
                self.assertIn("/v1/gebouwen\\x1b]0;pwned\\x07\\xc2\\x9b31m\\xff", out)
                self.assertIn("nginx/1.25\\x1b]0;pwned\\x07 discloses a product version", out)  # the Server hint
                self.assertIn("/getGebouw\\x1b]0;pwned\\x07", out)  # a path key of the document
                if edition == "2.1.0":
                    self.assertIn("Team\\x1b]0;pwned\\x07\\xc2\\x9b31m", out)  # a document string (CT-1)
                # JSON: valid UTF-8, control characters as \u escapes, the value intact
                json_text = json_file.decode("utf-8")
                self.assertNotIn("\x1b", json_text)
                self.assertNotIn("\x07", json_text)
                self.assertIn("\\u001b]0;pwned\\u0007", json_text)
                self.assertNotIn("\u009b", json_text)  # C1 too: some terminals obey it
                self.assertIn("\\u009b31m", json_text)
                report = json.loads(json_text)
                base = [e for e in report["exchanges"] if e["url"].endswith("/v1") and e["method"] == "GET"]
                self.assertEqual(base[0]["response_headers"]["api-version"], "1.0.0" + OSC)


# The bidi controls: Arabic letter mark, LRM, RLM, embeddings and overrides, isolates.
BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


class BidiControls(ProbeCase):
    """U+202E (right-to-left override) and the other bidi controls in server
    text reorder how a line is shown: the text report, -v and `diff` show
    them as \\xNN like other control characters, JSON as \\u escapes."""

    def test_text_report_and_diff_show_them_visibly(self):
        # info.version fails SV-1, whose message quotes it; the title carries one too.
        planted = {"api_version": "1.0.0", "version": "1.0.0\u202etxt.exe",
                   "doc_patch": {"info": {"title": "Gebouwen\u202e" + BIDI}}}
        with tempfile.TemporaryDirectory() as tmp, FixtureServer({"api_version": "1.0.0"}) as srv:
            old, new = Path(tmp, "old.json"), Path(tmp, "new.json")
            self.assertNoCrash(run_adrprobe(harness.check_args(srv.base_url, ("-o", "json=%s" % old))))
            srv.fixture.profile.update(planted)
            run = run_adrprobe(harness.check_args(srv.base_url, ("-v", "-o", "json=%s" % new), fmt="text"))
            self.assertNoCrash(run)
            diff = run_adrprobe(["diff", str(old), str(new)], timeout=30)
            json_text = new.read_text(encoding="utf-8")
        self.assertEqual(diff.rc, 1, diff.describe())  # semver: new-fail
        for where, text in (("stdout", run.stdout), ("stderr -v", run.stderr), ("diff", diff.stdout),
                            ("the JSON report", json_text)):
            self.assertEqual([c for c in text if c in BIDI], [], "raw bidi controls in %s" % where)
        self.assertIn("1.0.0\\xe2\\x80\\xaetxt.exe", run.stdout)
        self.assertIn("1.0.0\\xe2\\x80\\xaetxt.exe", diff.stdout)
        self.assertIn("1.0.0\\u202etxt.exe", json_text)
        # ... the same string once parsed: the escape only makes it visible
        messages = [c["message"] for r in json.loads(json_text)["rules"] for c in r["checks"]]
        self.assertTrue(any("1.0.0\u202etxt.exe" in m for m in messages), messages)


PASSWORD = "pl41n-url-passw0rd"


class UrlPassword(ProbeCase):
    """probes.md: the password of a URL (https://user:***@host) never appears
    in any output, log or progress line, even where the server echoes it."""

    def test_password_masked_everywhere(self):
        with tempfile.TemporaryDirectory() as tmp, \
                FixtureServer({"echo_headers": True, "trailing_slash": 301}) as srv:
            url = srv.base_url.replace("http://", "http://auditor:%s@" % PASSWORD)
            outputs = {}
            for fmt in ("text", "json"):
                files = {f: Path(tmp, "%s.%s" % (fmt, f)) for f in ("text", "json")}
                run = run_adrprobe(harness.check_args(url, ("-v", "-o", "text=%s" % files["text"],
                                                            "-o", "json=%s" % files["json"]), fmt=fmt))
                self.assertNoCrash(run)
                outputs["stdout -f " + fmt] = run.stdout
                outputs["stderr -v -f " + fmt] = run.stderr
                for f, path in files.items():
                    outputs["-o %s (-f %s)" % (f, fmt)] = path.read_text(encoding="utf-8")
                if fmt == "json":
                    report = run.json()
            requests = srv.requests()
        for where, text in outputs.items():
            self.assertNotIn(PASSWORD, text, "the URL password in " + where)
        # the credentials were really used (Basic), and echoed back masked
        self.assertTrue(any(r["headers"].get("Authorization", "").startswith("Basic ") for r in requests))
        self.assertEqual(report["target"]["base_url"], url.replace(PASSWORD, "***"))
        self.assertIn("auditor:***@", outputs["stdout -f text"])
        self.assertIn("auditor:***@", outputs["stderr -v -f text"])
        echoed = {v for e in report["exchanges"] for k, v in e["response_headers"].items()
                  if k == "x-echo-authorization"}
        self.assertEqual(echoed, {"***"})
        discouraged = [n for n in report["notes"] if "credentials in URLs are discouraged" in n]
        self.assertEqual(len(discouraged), 1, report["notes"])
        self.assertIn("credentials in URLs are discouraged", outputs["stdout -f text"])

    def test_usage_errors_mask_the_password(self):
        for url in ("http://auditor:%s@127.0.0.1:9/v1?x=1" % PASSWORD,
                    "ftp://auditor:%s@127.0.0.1/v1" % PASSWORD):
            with self.subTest(url=url):
                run = run_adrprobe(["check", url])
                self.assertEqual(run.rc, 2, run.describe())
                self.assertIn("auditor:***@", run.stderr)
                self.assertNotIn(PASSWORD, run.stderr + run.stdout)
        run = run_adrprobe(["check", "http://127.0.0.1:9/v1", "--openapi", "http://auditor:%s@[::1/x" % PASSWORD])
        self.assertEqual(run.rc, 2, run.describe())
        self.assertNotIn(PASSWORD, run.stderr + run.stdout)


class RunRecord(ProbeCase):
    """For auditors: the JSON report records how the run was made (`run`),
    each rule its level and a link to its text; --user-agent is what the
    server sees."""

    def test_run_options_libraries_and_rule_links(self):
        validator = harness.schema_validator()
        p = harness.probe(None, "-H", "X-Api-Key: k3y-value-never-shown", "--timeout", "7", "--max-paths", "9",
                          "--user-agent", "audit-bot/1.0 (+https://example.nl/audit)", "--ref-hosts", "any")
        self.assertNoCrash(p)
        self.assertEqual([e.message for e in validator.iter_errors(p.report)], [])
        run = p.report["run"]
        self.assertEqual(run["subcommand"], "check")
        # The command line as given, the -H value masked.
        self.assertRegex(run["command"], r"^\S+ check http://127\.0\.0\.1:\d+/v1 ")
        self.assertIn("-H 'X-Api-Key: ***'", run["command"])
        self.assertIn("--user-agent 'audit-bot/1.0 (+https://example.nl/audit)'", run["command"])
        o = run["options"]
        self.assertEqual((o["edition"], o["edition_asked"]), ("2.0.0", "2.0.0"))
        self.assertEqual((o["timeout"], o["max_paths"], o["rate"], o["concurrency"], o["deadline"]), (7, 9, 0, 4, 600))
        self.assertEqual((o["insecure"], o["allow_unsafe"], o["ca_file"], o["client_cert"]), (False, False, False, False))
        self.assertEqual(o["user_agent"], "audit-bot/1.0 (+https://example.nl/audit)")
        self.assertEqual(o["ref_hosts"], "any")
        self.assertEqual(o["header_names"], ["X-Api-Key"])
        self.assertNotIn("k3y-value-never-shown", json.dumps(p.report))
        self.assertRegex(run["libraries"]["libcurl"], r"^\d+\.\d+")
        self.assertRegex(run["libraries"]["openssl"], r"^\d+\.\d+")
        for r in p.report["rules"]:
            self.assertIn(r["level"], ("MUST", "SHOULD"), r["id"])
            self.assertEqual(r["url"], "https://gitdocumentatie.logius.nl/publicatie/api/adr/2.0.0/#" + r["id"])
        agents = {r["headers"].get("User-Agent") for r in p.requests}
        self.assertEqual(agents, {"audit-bot/1.0 (+https://example.nl/audit)"})

    def test_default_user_agent_and_edition_1_0_links(self):
        p = harness.probe(None, edition="1.0")
        self.assertNoCrash(p)
        agents = {r["headers"].get("User-Agent") for r in p.requests}
        self.assertEqual(len(agents), 1)
        self.assertRegex(agents.pop(), r"^adrprobe/\d+\.\d+\.\d+$")
        self.assertEqual(harness.rule(p.report, "API-48")["url"],
                         "https://gitdocumentatie.logius.nl/publicatie/api/adr/1.0/#API-48")

    def test_text_verbose_shows_level_and_link(self):
        p = harness.probe(None, "-v", fmt="text")
        self.assertNoCrash(p)
        self.assertIn("MUST · https://gitdocumentatie.logius.nl/publicatie/api/adr/2.0.0/#/core/no-trailing-slash",
                      p.stdout)

    def test_lint_records_its_command_and_user_agent(self):
        with FixtureServer() as srv:
            run = run_adrprobe(["lint", srv.base_url + "/openapi.json", "-f", "json", "--user-agent", "lint-bot/2"])
            agents = {r["headers"].get("User-Agent") for r in srv.requests()}
        self.assertNoCrash(run)
        self.assertEqual(agents, {"lint-bot/2"})
        report = run.json()
        self.assertEqual(report["run"]["subcommand"], "lint")
        self.assertIn(" lint " + srv.base_url + "/openapi.json -f json --user-agent lint-bot/2", report["run"]["command"])
        self.assertEqual(report["run"]["options"]["user_agent"], "lint-bot/2")

    def test_demo_records_its_command(self):
        run = run_adrprobe(["demo", "-f", "json"], timeout=120)
        self.assertNoCrash(run)
        self.assertEqual(run.json()["run"]["subcommand"], "demo")
        self.assertEqual(run.json()["run"]["command"], "adrprobe demo -f json")
        self.assertTrue(run.json()["run"]["options"]["ca_file"])


class Editions(ProbeCase):
    """--edition 2.0.1 and 2.0.2 are judged by the 2.0.0 catalogue (editorial
    changes only); --edition latest is the newest edition."""

    def test_patch_editions_are_judged_by_2_0_0(self):
        validator = harness.schema_validator()
        base = harness.probe(None)
        for asked in ("2.0.1", "2.0.2"):
            with self.subTest(edition=asked):
                p = harness.probe(None, edition=asked)
                self.assertNoCrash(p)
                self.assertEqual([e.message for e in validator.iter_errors(p.report)], [])
                self.assertEqual(p.report["edition"], "2.0.0")
                self.assertEqual(p.report["run"]["options"]["edition_asked"], asked)
                self.assertEqual(p.report["run"]["options"]["edition_note"], "editorial changes only")
                self.assertEqual([(r["id"], r["verdict"]) for r in p.report["rules"]],
                                 [(r["id"], r["verdict"]) for r in base.report["rules"]])
                t = harness.probe(None, edition=asked, fmt="text")
                self.assertIn("edition %s (judged by the 2.0.0 catalogue: editorial changes only)" % asked,
                              t.stdout.splitlines()[1])  # after the conclusion

    def test_latest_is_the_newest_edition(self):
        rules = run_adrprobe(["rules", "--edition", "latest", "-f", "json"], timeout=30)
        self.assertEqual(rules.rc, 0, rules.describe())
        newest = json.loads(rules.stdout)["edition"]
        editions = [json.loads(run_adrprobe(["rules", "--edition", e, "-f", "json"], timeout=30).stdout)["edition"]
                    for e in ("1.0", "2.0.0", newest)]
        key = lambda v: [int(x) for x in v.split(".")]  # noqa: E731
        self.assertEqual(max(editions, key=key), newest)
        p = harness.probe(None, edition="latest")
        self.assertNoCrash(p)
        self.assertEqual(p.report["edition"], newest)
        self.assertEqual(p.report["run"]["options"]["edition_asked"], "latest")

    def test_unknown_edition_lists_the_names(self):
        run = run_adrprobe(["check", "http://127.0.0.1:9/v1", "--edition", "2.0.3"], timeout=30)
        self.assertEqual(run.rc, 2, run.describe())
        for name in ("2.0.0", "2.0.1", "2.0.2", "latest"):
            self.assertIn(name, run.stderr)


class HeadersOutsideArgv(ProbeCase):
    """--header-file and ${VAR} keep secrets out of argv; the server receives
    the real values, no output shows them (they are masked like -H)."""

    FROM_ENV = "env-secret-7f3a9c21"
    FROM_FILE = "file-secret-4b8d2e90"

    def test_expanded_and_file_values_reach_the_server_and_no_output(self):
        with tempfile.TemporaryDirectory() as tmp, FixtureServer({"echo_headers": True, "trailing_slash": 401}) as srv:
            headers = Path(tmp, "headers.txt")
            headers.write_text("# nightly run\n\nX-File-Key: %s\nX-Both: ${ADRPROBE_IT_KEY}\n" % self.FROM_FILE,
                               encoding="utf-8")
            env = {"ADRPROBE_IT_KEY": self.FROM_ENV}
            outputs = {}
            for fmt in ("json", "text"):
                text_file, json_file = Path(tmp, fmt + ".txt"), Path(tmp, fmt + ".json")
                run = run_adrprobe(harness.check_args(
                    srv.base_url, ("-v", "-H", "Authorization: Bearer ${ADRPROBE_IT_KEY}", "--header-file", str(headers),
                                   "-o", "text=%s" % text_file, "-o", "json=%s" % json_file), fmt=fmt), env=env)
                self.assertNoCrash(run)
                outputs.update({"stdout -f " + fmt: run.stdout, "stderr -f " + fmt: run.stderr,
                                "-o text (-f %s)" % fmt: text_file.read_text(encoding="utf-8"),
                                "-o json (-f %s)" % fmt: json_file.read_text(encoding="utf-8")})
                if fmt == "json":
                    report = run.json()
            requests = srv.requests()
        sent = [r["headers"] for r in requests if "Authorization" in r["headers"]]
        self.assertTrue(sent, "the -H header never reached the server")
        self.assertEqual({h["Authorization"] for h in sent}, {"Bearer " + self.FROM_ENV})
        self.assertEqual({h.get("X-File-Key") for h in sent}, {self.FROM_FILE})
        self.assertEqual({h.get("X-Both") for h in sent}, {self.FROM_ENV})
        for where, text in outputs.items():
            for secret in (self.FROM_ENV, self.FROM_FILE):
                self.assertNotIn(secret, text, "%s shows a secret" % where)
        self.assertEqual(report["run"]["options"]["header_names"], ["Authorization", "X-File-Key", "X-Both"])
        echoed = {v for e in report["exchanges"] for k, v in e["response_headers"].items()
                  if k in ("x-echo-authorization", "x-echo-x-file-key", "x-echo-x-both")}
        self.assertEqual(echoed, {"***"})

    def test_unset_variable_and_bad_lines_are_usage_errors(self):
        with tempfile.TemporaryDirectory() as tmp, FixtureServer() as srv:
            os.environ.pop("ADRPROBE_IT_UNSET", None)
            run = run_adrprobe(["check", srv.base_url, "-H", "X-Key: ${ADRPROBE_IT_UNSET}"])
            self.assertEqual(run.rc, 2, run.describe())
            self.assertIn("ADRPROBE_IT_UNSET is not set", run.stderr)
            bad = Path(tmp, "headers.txt")
            bad.write_text("X-Ok: 1\n# comment\nno colon but %s\n" % self.FROM_FILE, encoding="utf-8")
            run = run_adrprobe(["check", srv.base_url, "--header-file", str(bad)])
            self.assertEqual(run.rc, 2, run.describe())
            self.assertIn("line 3", run.stderr)
            self.assertNotIn(self.FROM_FILE, run.stderr + run.stdout)
            self.assertEqual(srv.requests(), [], "probed despite a usage error")


if __name__ == "__main__":
    harness.main()
