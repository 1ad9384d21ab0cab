#!/usr/bin/python3
"""Command line (CLI.md): usage errors exit 2, unreachable targets, the rule
catalogue, output files, the demo."""

import json
import socket
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import FixtureServer, ProbeCase, probe, rid, run_adrprobe  # noqa: E402


class UsageErrors(ProbeCase):
    def assertUsageError(self, args, mention=None):
        run = run_adrprobe(args, timeout=30)
        self.assertEqual(run.rc, 2, run.describe())
        self.assertTrue(run.stderr.strip(), "no message on stderr\n" + run.describe())
        if mention:
            self.assertIn(mention.lower(), run.stderr.lower(), run.describe())
        return run

    def test_malformed_urls(self):
        for url in ("notaurl", "ftp://x", "http://", "http//127.0.0.1/v1"):
            with self.subTest(url=url):
                self.assertUsageError(["check", url, "-f", "json"], mention=url)

    def test_unknown_option(self):
        with FixtureServer() as srv:
            self.assertUsageError(["check", srv.base_url, "--frobnicate"], mention="--frobnicate")
            self.assertEqual([r for r in srv.requests()], [], "probed despite a usage error")

    def test_missing_base_url(self):
        self.assertUsageError(["check"])

    def test_unknown_command(self):
        self.assertUsageError(["frobnicate"], mention="unknown command 'frobnicate'")

    def test_base_url_without_scheme_suggests_https(self):
        run = self.assertUsageError(["check", "api.example.nl/v1"], mention="did you mean https://api.example.nl/v1?")
        self.assertNotIn("Bad scheme", run.stderr)
        self.assertUsageError(["lint", "api.example.nl/v1/openapi.json"],
                              mention="did you mean https://api.example.nl/v1/openapi.json?")

    def test_wrong_choices_name_the_valid_ones(self):
        for args, names in ((["--edition", "3.0"], ("1.0", "2.0.0", "2.0.1", "2.1.0", "latest")),
                            (["-f", "pdf"], ("text", "json")), (["-o", "pdf=x.pdf"], ("text", "json")),
                            (["--fail-on", "sometimes"], ("fail", "warn", "never"))):
            for cmd in (["check", "http://127.0.0.1:9/v1"], ["lint", "openapi.json"], ["demo"]):
                with self.subTest(cmd=cmd[0], args=args):
                    run = self.assertUsageError(cmd + args, mention=args[1].split("=")[0])
                    for n in names:
                        self.assertIn(n, run.stderr)

    def test_bad_option_values(self):
        with FixtureServer() as srv:
            for args in (["--edition", "3.0"], ["--fail-on", "sometimes"], ["-f", "pdf"],
                         ["-o", "json"], ["-o", "pdf=/tmp/x.pdf"], ["-H", "no colon here"],
                         ["--param", "noequals"], ["--timeout", "soon"], ["--rate", "-1"]):
                with self.subTest(args=args):
                    self.assertUsageError(["check", srv.base_url] + args)
            self.assertEqual(srv.requests(), [], "probed despite usage errors")


    def test_numbers_are_decimal_and_within_range(self):
        """Hostile input IV: --max-requests 99999999999999999999 was taken as the
        largest long long without a word, 0x10 as 16 and 010 as 8."""
        with FixtureServer() as srv:
            for option, value, message in (
                    ("--max-requests", "99999999999999999999",
                     "'99999999999999999999' is out of range (at most 9223372036854775807)"),
                    ("--max-requests", "0x10", "'0x10' is not a whole number"),
                    ("--max-paths", "4294967296", "'4294967296' is out of range (at most 2147483647)"),
                    ("--max-paths", "1e3", "'1e3' is not a whole number"),
                    ("--concurrency", "0x4", "'0x4' is not a whole number"),
                    ("--concurrency", " 4", "' 4' is not a whole number"),
                    ("--rate", "0x10", "'0x10' is not a decimal number"),
                    ("--timeout", "0x10", "'0x10' is not a decimal number"),
                    ("--timeout", "1e400", "'1e400' is out of range"),
                    ("--deadline", "inf", "'inf' is not a decimal number")):
                with self.subTest(option=option, value=value):
                    run = self.assertUsageError(["check", srv.base_url, option, value], mention=option)
                    self.assertIn(message, run.stderr)
            self.assertEqual(srv.requests(), [], "probed despite usage errors")
            for command in (["lint", "openapi.json"], ["batch", "targets.yaml"], ["summary", "out"]):
                with self.subTest(command=command[0]):
                    self.assertUsageError(command + ["--timeout", "0x10"], mention="'0x10' is not a decimal number")

    def test_a_leading_zero_is_still_decimal(self):
        # 010 went through strtoll with base 0: eight, not ten
        run = run_adrprobe(harness.check_args("http://127.0.0.1:9/v1", ("--max-requests", "010", "--timeout", "2"), "1.0"),
                           timeout=60)
        self.assertEqual(run.rc, 3, run.describe())
        self.assertIn("--max-requests 010", run.json()["run"]["command"])
        self.assertEqual(run.json()["run"]["options"]["max_requests"], 10)


class Unreachable(ProbeCase):
    """Nothing listens: every request is a transport error.  probes.md: "error
    means the tool could not complete the check for transport reasons"; PO-1 is
    then error, not fail (the missing document is not the API's behaviour, so
    the prerequisite rule does not turn the readers into fail either), and the
    exit status is 3 ("no rule failed, but at least one could not be
    completed") unless a rule fails on its own, which in 2.0.0 the transport
    rule does for an http:// URL (TS-1 fails by the scheme alone)."""

    def test_1_0_every_technical_rule_errors_and_exit_3(self):
        with harness.closed_port() as url:
            run = run_adrprobe(harness.check_args(url, ("--timeout", "2"), "1.0"), timeout=60)
        report = run.json()
        for i in harness.technical_ids("1.0"):
            self.assertRule(report, i, "error")
        self.assertCheck(report, "API-51", "PO-1", "error")
        self.assertCheck(report, "API-57", "VH-1", "error")
        self.assertEqual(run.rc, 3, run.describe())
        errors = [e for e in report["exchanges"] if e.get("error")]
        self.assertTrue(errors, "no exchange records the transport error")
        self.assertTrue(all(e.get("status") is None for e in errors))

    def test_2_0_0_exit_follows_transport_rule(self):
        # TS-1 fails on the scheme alone; the rule is the worst of its checks (fail > error)
        with harness.closed_port() as url:
            run = run_adrprobe(harness.check_args(url, ("--timeout", "2")), timeout=60)
        report = run.json()
        for i in harness.technical_ids("2.0.0"):
            if i != "/core/transport-security":
                self.assertRule(report, i, "error")
        self.assertCheck(report, "/core/transport-security", "TS-1", "fail")
        self.assertRule(report, "/core/transport-security", "fail")
        self.assertEqual(run.rc, 1, run.describe())

    def test_said_once_at_the_top_of_the_text_report(self):
        # probes.md: "the report says so once, at the top, with the cause";
        # identical transport errors are not repeated per request
        with harness.closed_port() as url:
            run = run_adrprobe(harness.check_args(url, ("--timeout", "2", "--no-color"), "1.0", fmt="text"), timeout=60)
        out = run.stdout
        line = "could not reach %s: connection refused" % url
        self.assertEqual(out.count(line), 1, out)
        # Down: one entry, not a line per rule (CLI.md, "Nightly monitoring").
        self.assertLess(out.find(line), out.find("DOWN"), out)
        self.assertNotIn("Technical rules", out)
        self.assertEqual(out.count("Connection refused"), 0, out)
        self.assertIn("Score  n/a", out)
        self.assertLess(len(out.splitlines()), 45, out)

    def test_json_says_it_first_in_notes_and_percent_is_null(self):
        with harness.closed_port() as url:
            run = run_adrprobe(harness.check_args(url, ("--timeout", "2"), "1.0"), timeout=60)
        report = run.json()
        # The conclusion is the report's first key (CLI.md: every format shows it first): not established.
        self.assertEqual(list(report)[0], "conclusion")
        self.assertIsNone(report["conclusion"]["conforms"])
        self.assertEqual(report["notes"][0], "could not reach %s: connection refused" % url)
        self.assertIsNone(report["score"]["percent"])
        hm1 = harness.checks(report, "API-03", "HM-1")[0]
        self.assertTrue(hm1["message"].startswith("2 requests: "), hm1["message"])

    def test_fail_on_never_is_3_with_errors(self):
        # CLI.md: 3 when a rule could not be completed; under --fail-on never the
        # transport rule's fail (http://) does not hide it
        with harness.closed_port() as url:
            run = run_adrprobe(harness.check_args(url, ("--timeout", "2", "--fail-on", "never")), timeout=60)
        self.assertEqual(run.rc, 3, run.describe())

    def test_report_file_is_still_written(self):
        with tempfile.TemporaryDirectory() as tmp, harness.closed_port() as url:
            path = Path(tmp, "r.json")
            run = run_adrprobe(harness.check_args(url, ("--timeout", "2", "-o", "json=%s" % path), "1.0",
                                                  fmt="text"), timeout=60)
            self.assertEqual(run.rc, 3, run.describe())
            report = json.loads(path.read_text(encoding="utf-8"))
        self.assertRule(report, "API-48", "error")

    def test_the_cause_keeps_a_name_as_written(self):
        """Hostile input IV: the down note lower-cased libcurl's first letter,
        "openSSL SSL_connect: ...". A server that hangs up on the TLS handshake."""
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)

        def hang_up():
            while True:
                try:
                    conn, _ = listener.accept()
                except OSError:
                    return
                with conn:
                    try:
                        conn.recv(4096)
                    except OSError:
                        pass

        threading.Thread(target=hang_up, daemon=True).start()
        try:
            url = "https://127.0.0.1:%d/v1" % listener.getsockname()[1]
            run = run_adrprobe(harness.check_args(url, ("--timeout", "5"), "1.0"), timeout=60)
        finally:
            listener.close()
        self.assertEqual(run.rc, 3, run.describe())
        note = run.json()["notes"][0]
        self.assertTrue(note.startswith("could not reach %s: OpenSSL" % url), note)
        self.assertEqual(note, note.strip())


class BaseUrlForms(ProbeCase):
    def test_trailing_slash_on_given_base_is_dropped(self):
        # probes.md: "{base} is the base URL the user gave, without trailing slash"
        with FixtureServer() as srv:
            run = run_adrprobe(harness.check_args(srv.base_url + "/", (), "1.0"))
            sent = {(r["method"], r["path"]) for r in srv.requests()}
        report = run.json()
        self.assertIn(("GET", "/v1"), sent)
        self.assertIn(("GET", "/v1/openapi.json"), sent)
        self.assertNotIn(("GET", "/v1//openapi.json"), sent)
        self.assertCheck(report, "API-57", "VH-1", "pass")
        self.assertCheck(report, "API-20", "UV-1", "pass")
        self.assertEqual(run.rc, 0, run.describe())


class Catalogue(ProbeCase):
    def test_rules_edition_1_0(self):
        run = run_adrprobe(["rules", "--edition", "1.0"], timeout=30)
        self.assertEqual(run.rc, 0, run.describe())
        for i in harness.edition_rule_ids("1.0"):
            self.assertIn(i, run.stdout)

    def test_rules_default_edition(self):
        run = run_adrprobe(["rules"], timeout=30)
        self.assertEqual(run.rc, 0, run.describe())
        for i in harness.edition_rule_ids("2.0.0"):
            self.assertIn(i, run.stdout)

    def test_rules_bad_edition(self):
        run = run_adrprobe(["rules", "--edition", "0.9"], timeout=30)
        self.assertEqual(run.rc, 2, run.describe())


class Modules(ProbeCase):
    """--modules auto|geo|none (CLI.md, module-geo.md), adrprobe rules --module,
    /geo ids in --rules."""

    GEO_RULES = ("/geo/geojson-request", "/geo/embed-geojson-geometry-request", "/geo/geojson-response",
                 "/geo/embed-geojson-geometry-response", "/geo/bbox-query-parameter", "/geo/geometric-context",
                 "/geo/crs-list", "/geo/storage-crs", "/geo/default-crs", "/geo/preferred-crs",
                 "/geo/ensemble-member-crs", "/geo/crs-query-parameter", "/geo/bbox-crs-query-parameter",
                 "/geo/filter-crs-query-parameter", "/geo/content-crs-request-header",
                 "/geo/content-crs-response-header")

    def test_geo_with_edition_1_0_is_a_usage_error_before_any_request(self):
        with FixtureServer() as srv, tempfile.TemporaryDirectory() as tmp:
            register = Path(tmp, "targets.yaml")
            register.write_text("targets:\n  - {name: kvk, base_url: %s, edition: '1.0', modules: geo}\n" % srv.base_url)
            for args in (["check", srv.base_url, "--edition", "1.0", "--modules", "geo"],
                         ["lint", "openapi.json", "--edition", "1.0", "--modules", "geo"],
                         ["batch", str(register), "--out-dir", str(Path(tmp, "out"))]):
                with self.subTest(cmd=args[0]):
                    run = run_adrprobe(args, timeout=30)
                    self.assertEqual(run.rc, 2, run.describe())
                    self.assertIn("--modules geo with --edition 1.0", run.stderr, run.describe())
            self.assertEqual(srv.requests(), [], "probed despite a usage error")

    def test_a_wrong_value_names_the_choices(self):
        for cmd in (["check", "http://127.0.0.1:9/v1"], ["lint", "openapi.json"]):
            with self.subTest(cmd=cmd[0]):
                run = run_adrprobe(cmd + ["--modules", "geospatial"], timeout=30)
                self.assertEqual(run.rc, 2, run.describe())
                for name in ("auto", "none", "geo"):
                    self.assertIn(name, run.stderr)

    def test_rules_module_geo_lists_the_module(self):
        run = run_adrprobe(["rules", "--module", "geo"], timeout=30)
        self.assertEqual(run.rc, 0, run.describe())
        self.assertIn("Geospatial 1.0.2", run.stdout)
        for i in self.GEO_RULES:
            self.assertIn(i, run.stdout)
        listed = json.loads(run_adrprobe(["rules", "--module", "geo", "-f", "json"], timeout=30).stdout)
        self.assertEqual((listed["module"], listed["version"]), ("geo", "1.0.2"))
        self.assertEqual(tuple(r["id"] for r in listed["rules"]), self.GEO_RULES)
        self.assertEqual(listed["editions"], ["2.0.0 (/core/geospatial)", "2.1.0 (/core/geospatial)",
                                              "2.2.0 (/core/modules/geospatial)"])
        run = run_adrprobe(["rules", "--module", "signing"], timeout=30)
        self.assertEqual(run.rc, 2, run.describe())
        self.assertIn("available: geo", run.stderr)

    def test_rules_accepts_a_geo_id(self):
        p = probe(None, "--rules", "/geo/crs-list,/core/semver", "--modules", "none")
        self.assertNoCrash(p)
        report = p.json()
        harness.schema_validator().validate(report)
        by_id = {r["id"]: r for r in report["rules"]}
        self.assertNotEqual(by_id["/core/semver"]["summary"], "not selected")
        self.assertEqual(by_id["/core/no-trailing-slash"]["summary"], "not selected")

    def test_auto_without_geospatial_content_judges_no_module(self):
        p = probe(None)
        self.assertNoCrash(p)
        report = p.json()
        harness.schema_validator().validate(report)
        self.assertEqual(report["modules"], [])
        self.assertFalse([r["id"] for r in report["rules"] if r["id"].startswith("/geo/") or "module" in r])
        geo = {r["id"]: r for r in report["rules"]}["/core/geospatial"]
        self.assertEqual((geo["kind"], geo["verdict"]), ("functional", "manual"))
        self.assertIn("no geospatial content found", geo["hints"])
        self.assertFalse([r for r in p.requests if r["path"].startswith("/v1/collections")], "sent module requests")


class HelpAndVersion(ProbeCase):
    def test_version_names_libraries_and_editions(self):
        run = run_adrprobe(["--version"], timeout=30)
        self.assertEqual(run.rc, 0, run.describe())
        self.assertRegex(run.stdout, r"^adrprobe \d+\.\d+\.\d+\n")
        self.assertRegex(run.stdout, r"libcurl \d+\.\d+")
        self.assertRegex(run.stdout, r"OpenSSL \d+\.\d+")
        # jemalloc in the normal build (meson.build), the sanitizer's in ./dev test-asan
        self.assertRegex(run.stdout, r"\nmalloc: (jemalloc \d+\.\d+\.\d+|the sanitizer's|the C library's)\n")
        for name in ("1.0", "2.0.0", "2.1.0", "2.0.1", "latest"):
            self.assertIn(name, run.stdout)

    def help(self, *cmd):
        run = run_adrprobe(list(cmd) + ["--help"], timeout=30)
        self.assertEqual(run.rc, 0, run.describe())
        return run.stdout

    def test_every_command_help_lists_editions_and_formats(self):
        for cmd in ("check", "lint", "demo"):
            with self.subTest(cmd=cmd):
                out = self.help(cmd)
                self.assertIn("{1.0,2.0.0,2.0.1,2.0.2,2.1.0,2.2.0,latest}", out)
                self.assertRegex(out, r"-f,--format TEXT:\{text,json(,[a-z]+)*\}")  # and the formats built since
                self.assertIn("Exit status", out)
                self.assertIn("--fail-on", out)
        self.assertIn("{1.0,2.0.0,2.0.1,2.0.2,2.1.0,2.2.0,latest}", self.help("rules"))
        self.assertIn("1.0, 2.0.0, 2.1.0 and 2.2.0", self.help())

    def test_rules_help_has_no_fail_on_footer(self):
        out = self.help("rules")
        self.assertNotIn("--fail-on", out)
        self.assertNotIn("Examples", out)
        for cmd in ("check", "lint", "demo"):
            self.assertNotIn("Examples", self.help(cmd), cmd)  # the top-level footer stays at the top level
        self.assertIn("Examples", self.help())


class Quiet(ProbeCase):
    def test_quiet_keeps_the_target_and_the_score(self):
        for profile in (None, {"trailing_slash": 301}):
            with self.subTest(profile=profile):
                p = probe(profile, "-q", fmt="text")
                self.assertNoCrash(p)
                lines = p.stdout.splitlines()
                # the conclusion first (CLI.md), then the target
                self.assertRegex(lines[0], r"^(Conforms to|Does not conform to|Conformance to) 2\.0\.0")
                self.assertEqual(lines[1].split(), ["Target", p.base_url])
                self.assertTrue(lines[-1].strip().startswith("Score"), p.stdout)
                self.assertNotIn("Functional rules", p.stdout)
                if profile:
                    self.assertIn("/core/no-trailing-slash", p.stdout)
                else:
                    self.assertNotIn("/core/no-trailing-slash", p.stdout)


class OutputFiles(ProbeCase):
    def test_output_json_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp, "report.json")
            p = probe(None, "-o", "json=%s" % path, fmt="text")
            self.assertNoCrash(p)
            self.assertTrue(path.exists(), "-o json=PATH wrote nothing\n" + p.describe())
            report = json.loads(path.read_text(encoding="utf-8"))
        self.assertEqual(report["schema"], "adrprobe-report/1")
        self.assertEqual(report["target"]["base_url"], p.base_url)
        self.assertIn("/core/no-trailing-slash", p.stdout, "text report on stdout")

    def test_repeated_outputs(self):
        with tempfile.TemporaryDirectory() as tmp:
            a, b = Path(tmp, "a.json"), Path(tmp, "b.txt")
            p = probe(None, "-o", "json=%s" % a, "-o", "text=%s" % b, edition="1.0")
            self.assertNoCrash(p)
            self.assertTrue(a.exists() and b.exists(), p.describe())
            self.assertEqual(json.loads(a.read_text())["edition"], "1.0")
            self.assertIn("API-48", b.read_text())

    def test_openapi_option_points_elsewhere(self):
        # the document is not at {base}/openapi.json but --openapi says where
        profile = {"openapi_json": "404", "files": {"/docs/gebouwen.json": harness.default_doc("/v1", "1.0.0")}}
        with FixtureServer(profile) as srv:
            run = run_adrprobe(harness.check_args(srv.base_url, ("--openapi", srv.origin + "/docs/gebouwen.json")))
            sent = {(r["method"], r["path"]) for r in srv.requests()}
        report = run.json()
        self.assertEqual(report["target"]["openapi_url"], srv.origin + "/docs/gebouwen.json")
        self.assertIn(("GET", "/docs/gebouwen.json"), sent)
        self.assertCheck(report, rid("semver"), "SV-1", "pass")
        self.assertIn(("GET", "/v1/gebouwen/1"), sent, "paths of the --openapi document were not probed")


    def test_unwritable_output_is_a_usage_error_before_any_request(self):
        with FixtureServer() as srv, tempfile.TemporaryDirectory() as tmp:
            for target, mention in ((Path(tmp, "no-such-dir", "r.json"), "does not exist"), (Path(tmp), "directory")):
                with self.subTest(target=str(target)):
                    run = run_adrprobe(["check", srv.base_url, "-o", "json=%s" % target], timeout=30)
                    self.assertEqual(run.rc, 2, run.describe())
                    self.assertIn(mention, run.stderr, run.describe())
            self.assertEqual(srv.requests(), [], "probed although the report could not be written")

    def test_output_dash_is_stdout(self):
        with FixtureServer() as srv:
            run = run_adrprobe(["check", srv.base_url, "--rate", "0", "-o", "json=-"], timeout=60)
            self.assertIn(run.rc, (0, 1), run.describe())
            self.assertEqual(json.loads(run.stdout)["schema"], "adrprobe-report/1", "stdout is the JSON report alone")
            run = run_adrprobe(["check", srv.base_url, "-o", "json=-", "-f", "text"], timeout=30)
            self.assertEqual(run.rc, 2, run.describe())
            self.assertIn("both write to stdout", run.stderr)
            self.assertFalse(Path("-").exists(), "a file named '-' was created")

    def test_openapi_yaml_by_url(self):
        # --openapi accepts YAML by content, also from a URL (three of ten real APIs publish YAML only)
        doc = harness.default_doc("/v1", "1.0.0")
        with FixtureServer({"openapi_json": "404"}) as srv, harness.static_server(
                {"/openapi.yaml": harness.yaml_text(doc)}) as docs:
            run = run_adrprobe(harness.check_args(srv.base_url, ("--openapi", docs + "/openapi.yaml")))
            sent = {(r["method"], r["path"]) for r in srv.requests()}
        report = run.json()
        self.assertEqual(report["target"]["openapi_url"], docs + "/openapi.yaml")
        self.assertCheck(report, rid("semver"), "SV-1", "pass")
        self.assertCheck(report, rid("doc-openapi"), "DO-1", "pass")
        self.assertIn(("GET", "/v1/gebouwen/1"), sent, "paths of the YAML document were not probed")


class Demo(ProbeCase):
    def test_demo_conformant(self):
        run = run_adrprobe(["demo", "-f", "json", "--edition", "1.0"], timeout=120)
        report = run.json()
        self.assertEqual(run.rc, 0, run.describe())
        self.assertTrue(report["target"]["base_url"].startswith("https://127.0.0.1:"), report["target"])
        for i in harness.technical_ids("1.0"):
            self.assertRule(report, i, ("pass", "warn", "skip"))
        # Every error it answers is problem details (RFC 9457), as edition 2.2.0 asks.
        errors = [e for e in report["exchanges"] if (e["status"] or 0) >= 400]
        self.assertTrue(errors, "no error response observed (trailing slash, TRACE)")
        for e in errors:
            self.assertEqual(e["response_headers"].get("content-type"), "application/problem+json", e)

    def test_demo_keeps_its_ca_in_tmpdir_and_removes_it(self):
        # In a container the working directory and / are read-only: the CA for
        # --ca-file goes to $TMPDIR (else /tmp) and is gone when the run ends.
        with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cwd:
            Path(cwd).chmod(0o555)
            run = run_adrprobe(["demo", "-q", "--edition", "2.0.0"], timeout=120, env={"TMPDIR": tmp}, cwd=cwd)
            self.assertEqual(run.rc, 0, run.describe())
            self.assertIn("Score", run.stdout)
            self.assertEqual(list(Path(tmp).iterdir()), [], "the CA file was left behind")
            self.assertEqual(list(Path(cwd).iterdir()), [])

    def test_demo_with_an_unwritable_tmpdir_is_a_configuration_error(self):
        run = run_adrprobe(["demo", "-q"], timeout=60, env={"TMPDIR": "/nonexistent-adrprobe-tmp"})
        self.assertEqual(run.rc, 2, run.describe())
        self.assertIn("/nonexistent-adrprobe-tmp", run.stderr)
        self.assertIn("TMPDIR", run.stderr)
        self.assertNotIn("internal error", run.stderr)

    def test_demo_conformant_passes_transport_security(self):
        # The demo serves HTTPS with a CA made for the run and probes with it.
        for edition, rules in (("2.0.0", ["/core/transport-security"]),
                               ("2.1.0", ["/core/transport/tls", "/core/transport/security-headers",
                                          "/core/transport/cors", "/core/doc-openapi-contact"])):
            run = run_adrprobe(["demo", "-f", "json", "--edition", edition], timeout=120)
            report = run.json()
            self.assertEqual(run.rc, 0, run.describe())
            for rule_id in rules:
                self.assertRule(report, rule_id, "pass")
            self.assertEqual(report["tls"]["accepted_protocols"], ["TLSv1.2", "TLSv1.3"])
            self.assertTrue(report["tls"]["trusted"])
            self.assertGreater(report["tls"]["certificate"]["days_left"], 14)

    def test_demo_conformant_passes_every_2_2_0_technical_rule(self):
        run = run_adrprobe(["demo", "-f", "json", "--edition", "2.2.0"], timeout=120)
        report = run.json()
        self.assertEqual(run.rc, 0, run.describe())
        technical = [r for r in report["rules"] if r["kind"] == "technical"]
        self.assertEqual(len(technical), 16)
        for r in technical:
            self.assertRule(report, r["id"], "pass")
        self.assertEqual(report["score"]["percent"], 100.0, report["score"])
        # EH-2 judged the error responses the run received; DT-5 the dates in the bodies.
        self.assertCheck(report, "/core/error-handling/problem-details", "EH-2", "pass")
        self.assertCheck(report, "/core/date-time/format", "DT-5", "pass")
        self.assertRule(report, "/core/http-methods", "manual")

    def test_demo_broken_fails_the_new_2_2_0_rules(self):
        run = run_adrprobe(["demo", "--profile", "broken", "-f", "json", "--edition", "2.2.0"], timeout=120)
        report = run.json()
        self.assertEqual(run.rc, 1, run.describe())
        for rule_id in ("/core/path-segments-kebab-case", "/core/query-keys-camel-case", "/core/date-time/format",
                        "/core/date-time/date-omit-time-portion", "/core/error-handling/problem-details",
                        "/core/error-handling/invalid-input"):
            self.assertRule(report, rule_id, "fail")
        self.assertCheck(report, "/core/error-handling/problem-details", "EH-2", "fail")
        self.assertCheck(report, "/core/date-time/format", "DT-5", "fail")

    def test_demo_broken_is_plain_http(self):
        run = run_adrprobe(["demo", "--profile", "broken", "-f", "json"], timeout=120)
        report = run.json()
        self.assertTrue(report["target"]["base_url"].startswith("http://127.0.0.1:"), report["target"])
        self.assertCheck(report, "/core/transport-security", "TS-1", "fail")

    def test_demo_broken(self):
        run = run_adrprobe(["demo", "--profile", "broken", "-f", "json", "--edition", "1.0"], timeout=120)
        report = run.json()
        self.assertEqual(run.rc, 1, run.describe())
        failing = [r["id"] for r in report["rules"] if r["verdict"] == "fail"]
        self.assertTrue(failing)
        # Its errors are plain JSON, not problem details.
        types = {e["response_headers"].get("content-type") for e in report["exchanges"]
                 if (e["status"] or 0) >= 400 and e["method"] != "HEAD"}
        self.assertEqual(types, {"application/json"}, report["exchanges"])


class ProgressLine(ProbeCase):
    """CLI.md: on a terminal, a live progress line on stderr (requests done and
    planned, the current check); nothing of it in a pipe or with -q."""

    def test_live_line_names_the_check_and_fits_the_terminal(self):
        with FixtureServer({"trailing_slash": 301}) as srv:
            run = harness.run_stderr_on_pty(harness.check_args(srv.base_url), columns=72)
        self.assertNoCrash(run)
        json.loads(run.stdout)  # the report alone on stdout
        lines = [line for line in run.stderr.split("\r\x1b[K") if line.strip()]
        self.assertTrue(lines, "no progress line on a terminal\n" + run.describe())
        self.assertRegex(run.stderr, r"probing: \d+/\d+ requests · [A-Z]{2}-\d")
        self.assertIn("NT-2 GET /v1/", run.stderr)
        for line in lines:
            self.assertLessEqual(len(line), 71, repr(line))
            self.assertTrue(line.startswith("  probing: "), repr(line))
        self.assertTrue(run.stderr.endswith("\r\x1b[K"), "the line is not erased at the end: %r" % run.stderr[-200:])

    def test_batch_line_fits_the_terminal(self):
        with tempfile.TemporaryDirectory() as tmp, FixtureServer() as a, FixtureServer() as b:
            targets = Path(tmp, "targets.yaml")
            targets.write_text(harness.yaml_text({"defaults": {"rate": 0}, "targets": [
                {"name": "a-target-with-a-rather-long-name", "base_url": a.base_url},
                {"name": "another-target-with-a-long-name", "base_url": b.base_url}]}), encoding="utf-8")
            run = harness.run_stderr_on_pty(["batch", targets, "--out-dir", Path(tmp, "out")], columns=50)
        self.assertNoCrash(run)
        lines = [line for line in run.stderr.split("\r\x1b[K") if line.strip()]
        self.assertTrue(lines, "no progress line on a terminal\n" + run.describe())
        for line in lines:
            self.assertTrue(line.startswith("  batch: "), repr(line))
            self.assertLessEqual(len(line.encode()), 49, repr(line))  # one row: \r\x1b[K erases only the last

    def test_nothing_in_a_pipe_or_with_quiet(self):
        with FixtureServer({"trailing_slash": 301}) as srv:
            piped = run_adrprobe(harness.check_args(srv.base_url))
            quiet = harness.run_stderr_on_pty(harness.check_args(srv.base_url, ("-q",)))
            shown = harness.run_stderr_on_pty(harness.check_args(srv.base_url))
        for run in (piped, quiet, shown):
            self.assertNoCrash(run)
            self.assertTrue(run.json()["rules"], run.describe())
        self.assertEqual(piped.stderr, "")
        self.assertNotIn("probing", quiet.stderr)
        self.assertNotIn("\x1b", quiet.stderr)
        self.assertIn("probing", shown.stderr)  # the control: the same run on a terminal shows it


if __name__ == "__main__":
    harness.main()
