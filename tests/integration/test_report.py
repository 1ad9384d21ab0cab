#!/usr/bin/python3
"""The report (CLI.md "JSON report", report.schema.json) and the exit status
table; secrets given with -H never appear in any output."""

import json
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import FixtureServer, ProbeCase, probe, rid, run_adrprobe  # noqa: E402

SECRET = "s3cret-token-value"
ANSI = re.compile(r"\x1b\[")                # any escape sequence
SGR = re.compile(r"\x1b\[[0-9;]*m")          # colour / style sequences
CONFORMANT = {"openapi_yaml": "identical"}
ONLY_WARNINGS = {"version": "1.0.0", "api_version": "1.0.1"}   # VH-3 warn, nothing else


class Schema(ProbeCase):
    def test_reports_validate_against_schema(self):
        validator = harness.schema_validator()
        for profile, edition in ((None, "2.0.0"), (None, "1.0"), ({"trailing_slash": 301, "cors": "none"}, "2.0.0"),
                                 ({"openapi_json": "404"}, "1.0")):
            with self.subTest(profile=profile, edition=edition):
                p = probe(profile, edition=edition)
                errors = sorted(validator.iter_errors(p.report), key=lambda e: list(e.path))
                self.assertEqual([], ["%s: %s" % ("/".join(map(str, e.path)), e.message) for e in errors])
                self.assertRegex(p.report["generated_at"], harness.RFC3339)
                self.assertEqual(p.report["edition"], edition)
                self.assertEqual(p.report["target"]["base_url"], p.base_url)

    def test_unreachable_report_validates(self):
        validator = harness.schema_validator()
        with harness.closed_port() as url:
            run = run_adrprobe(harness.check_args(url, ("--timeout", "2")))
        errors = [e.message for e in validator.iter_errors(run.json())]
        self.assertEqual(errors, [])

    def test_exchanges_are_consistent(self):
        p = probe()
        r = p.report
        ids = [e["id"] for e in r["exchanges"]]
        self.assertEqual(len(ids), len(set(ids)), "duplicate exchange ids")
        for rr, c in harness.all_checks(r):
            for i in c.get("exchanges", []):
                self.assertIn(i, ids, "check %s of %s cites unknown exchange %s" % (c["id"], rr["id"], i))
        for e in r["exchanges"]:
            for name in e.get("response_headers", {}):
                self.assertEqual(name, name.lower(), "response header names must be lower-case")
            self.assertTrue(e["url"].startswith(p.origin), e["url"])
        self.assertEqual(r["target"]["openapi_url"], p.base_url + "/openapi.json")
        base_gets = [e for e in r["exchanges"] if e["method"] == "GET" and e["url"] == p.base_url]
        self.assertTrue(base_gets, "no exchange for GET {base}")
        self.assertEqual(base_gets[0]["status"], 200)
        self.assertEqual(base_gets[0]["response_headers"].get("api-version"), "1.0.0")


class Rules(ProbeCase):
    def test_every_rule_of_the_edition_appears_once(self):
        for edition, count in (("2.0.0", 21), ("1.0", 19)):
            with self.subTest(edition=edition):
                p = probe(edition=edition)
                ids = [r["id"] for r in p.report["rules"]]
                self.assertEqual(len(ids), count, ids)
                self.assertEqual(sorted(ids), sorted(harness.edition_rule_ids(edition)))

    def test_functional_rules_are_manual_and_technical_are_judged(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe(edition=edition)
                functional = {harness.rid(n, edition) for n in harness.FUNCTIONAL} - {None}
                for r in p.report["rules"]:
                    if r["id"] in functional:
                        self.assertEqual(r["kind"], "functional", r["id"])
                        self.assertEqual(r["verdict"], "manual", r["id"])
                    else:
                        self.assertEqual(r["kind"], "technical", r["id"])
                        self.assertNotEqual(r["verdict"], "manual", r["id"])

    def test_aliases_name_the_other_edition(self):
        p20 = probe()
        self.assertIn("API-48", harness.rule(p20.report, "/core/no-trailing-slash")["aliases"])
        p10 = probe(edition="1.0")
        self.assertIn("/core/no-trailing-slash", harness.rule(p10.report, "API-48")["aliases"])

    def test_conformant_api_passes_every_technical_rule_in_1_0(self):
        p = probe(CONFORMANT, edition="1.0")
        verdicts = {i: harness.rule(p.report, i)["verdict"] for i in harness.technical_ids("1.0")}
        self.assertEqual(verdicts, {i: "pass" for i in verdicts})

    def test_conformant_api_passes_every_non_transport_rule_in_2_0_0(self):
        p = probe(CONFORMANT)
        ids = [i for i in harness.technical_ids("2.0.0") if i != "/core/transport-security"]
        verdicts = {i: harness.rule(p.report, i)["verdict"] for i in ids}
        self.assertEqual(verdicts, {i: "pass" for i in ids})


class Hints(ProbeCase):
    """probes.md "Functional rules": hints are evidence, never a verdict."""

    def test_implementation_and_cookie_hints(self):
        p = probe({"extra_headers": {"X-Powered-By": "Express", "Set-Cookie": "sessie=abc; Path=/"}})
        hide = self.assertRule(p.report, rid("hide-implementation"), "manual")
        self.assertTrue(any("x-powered-by" in h.lower() for h in hide.get("hints", [])),
                        "no hint on X-Powered-By\n" + self.context(p.report, rid("hide-implementation")))
        stateless = self.assertRule(p.report, rid("stateless"), "manual")
        self.assertTrue(any("cookie" in h.lower() and "sessie" in h for h in stateless.get("hints", [])),
                        "no hint on Set-Cookie\n" + self.context(p.report, rid("stateless")))

    def test_no_hints_on_a_clean_api(self):
        p = probe()
        hide = self.assertRule(p.report, rid("hide-implementation"), "manual")
        self.assertFalse([h for h in hide.get("hints", []) if "x-powered-by" in h.lower()])


class Score(ProbeCase):
    def assertScore(self, report, edition):
        technical = set(harness.technical_ids(edition))
        counts = {v: 0 for v in ("pass", "warn", "fail", "error")}
        for r in report["rules"]:
            if r["id"] in technical and r["verdict"] in counts:
                counts[r["verdict"]] += 1
        s = report["score"]
        for v, n in counts.items():
            self.assertEqual(s[v], n, "score.%s counts technical rules only" % v)
        applicable = sum(counts.values())
        self.assertEqual(s["applicable"], applicable)
        expected = 100.0 * (counts["pass"] + counts["warn"]) / applicable
        self.assertAlmostEqual(s["percent"], expected, delta=0.05 + 1e-9)
        self.assertAlmostEqual(s["percent"] * 10, round(s["percent"] * 10), delta=1e-6,
                               msg="percent has more than one decimal")
        return s

    def test_score_mixed(self):
        # 1.0: NT fails (301), VH warns (header differs): 5 pass 1 warn 1 fail -> 85.7
        p = probe({"trailing_slash": 301, "api_version": "1.0.1"}, edition="1.0")
        s = self.assertScore(p.report, "1.0")
        self.assertEqual((s["pass"], s["warn"], s["fail"], s["error"]), (5, 1, 1, 0))
        self.assertEqual(s["percent"], 85.7)

    def test_score_all_pass_1_0(self):
        p = probe(edition="1.0")
        s = self.assertScore(p.report, "1.0")
        self.assertEqual(s["percent"], 100.0)

    def test_score_2_0_0(self):
        p = probe({"cors": "none", "head": "405"})
        self.assertScore(p.report, "2.0.0")


class ExitStatus(ProbeCase):
    def test_conformant_is_0(self):
        p = probe(CONFORMANT, edition="1.0")
        self.assertEqual(p.rc, 0, p.describe())

    def test_failing_rule_is_1(self):
        p = probe({"trailing_slash": 301}, edition="1.0")
        self.assertEqual(p.rc, 1, p.describe())

    def test_fail_on_never_is_0(self):
        p = probe({"trailing_slash": 301}, "--fail-on", "never", edition="1.0")
        self.assertEqual(p.rc, 0, p.describe())
        self.assertRule(p.report, "API-48", "fail")

    def test_only_warnings(self):
        p = probe(ONLY_WARNINGS, edition="1.0")
        self.assertRule(p.report, "API-57", "warn")
        self.assertEqual(p.rc, 0, "warnings alone must not fail with --fail-on fail\n" + p.describe())
        p = probe(ONLY_WARNINGS, "--fail-on", "warn", edition="1.0")
        self.assertEqual(p.rc, 1, "--fail-on warn with a warn rule\n" + p.describe())

    def test_fail_on_warn_conformant_is_0(self):
        p = probe(CONFORMANT, "--fail-on", "warn", edition="1.0")
        self.assertEqual(p.rc, 0, p.describe())


class Secrets(ProbeCase):
    """CLI.md -H: "the value is replaced by *** wherever it would appear in any
    report or log, even where the server echoes it back"."""

    PROFILE = {"echo_headers": True, "openapi_json": "auth", "trailing_slash": 401}

    def run_all_outputs(self, header, formats=("json", "text")):
        with tempfile.TemporaryDirectory() as tmp:
            outs = {f: Path(tmp, "report." + f) for f in formats}
            args = ["-H", header, "-v"]
            for f, path in outs.items():
                args += ["-o", "%s=%s" % (f, path)]
            p = probe(self.PROFILE, *args)
            files = {f: path.read_text(encoding="utf-8", errors="replace") if path.exists() else None
                     for f, path in outs.items()}
        return p, files

    def assertNoSecret(self, p, files):
        self.assertNoCrash(p)
        self.assertNotIn(SECRET, p.stdout, "secret in stdout")
        self.assertNotIn(SECRET, p.stderr, "secret in stderr (-v)")
        for f, text in files.items():
            self.assertIsNotNone(text, "-o %s=PATH wrote nothing" % f)
            self.assertNotIn(SECRET, text, "secret in the -o %s file" % f)

    def test_api_key_never_appears(self):
        p, files = self.run_all_outputs("X-Api-Key: " + SECRET)
        self.assertNoSecret(p, files)
        # the header was really sent (so redaction, not omission, is tested) ...
        sent = [r for r in p.requests if r["headers"].get("X-Api-Key") == SECRET]
        self.assertTrue(sent, "the -H header never reached the server")
        # ... and the report shows *** in its place
        shown = [e["request_headers"][k] for e in p.report["exchanges"]
                 for k in e.get("request_headers", {}) if k.lower() == "x-api-key"]
        self.assertTrue(shown, "no exchange shows the x-api-key request header")
        self.assertEqual(set(shown), {"***"})
        echoed = [v for e in p.report["exchanges"] for k, v in e.get("response_headers", {}).items()
                  if k == "x-echo-x-api-key"]
        self.assertTrue(echoed, "echoed response header missing from the report")
        self.assertEqual(set(echoed), {"***"})

    def test_api_key_never_appears_in_text_on_stdout(self):
        p = probe(self.PROFILE, "-H", "X-Api-Key: " + SECRET, "-v", fmt="text")
        self.assertNoCrash(p)
        self.assertIn("/core/no-trailing-slash", p.stdout)
        self.assertNotIn(SECRET, p.stdout + p.stderr)

    def test_api_key_never_appears_in_other_formats(self):
        for fmt in ("markdown", "html", "junit", "sarif", "gitlab"):
            with self.subTest(format=fmt):
                p, files = self.run_all_outputs("X-Api-Key: " + SECRET, (fmt,))
                self.assertNotEqual(p.rc, 2, "-o %s=PATH: every format of CLI.md is built\n%s" % (fmt, p.stderr[-2000:]))
                self.assertNoSecret(p, files)

    def test_authorization_never_appears(self):
        p, files = self.run_all_outputs("Authorization: " + harness.BEARER)
        self.assertNoSecret(p, files)
        self.assertCheck(p.report, rid("publish-openapi"), "PO-1", "fail", contains="requires authentication")


class TextFormat(ProbeCase):
    def test_text_has_no_ansi_when_not_a_tty(self):
        p = probe({"trailing_slash": 301}, fmt="text")
        self.assertNoCrash(p)
        self.assertIn("/core/no-trailing-slash", p.stdout)
        self.assertIsNone(ANSI.search(p.stdout), "ANSI escape codes on a pipe")
        self.assertIsNone(ANSI.search(p.stderr), "ANSI escape codes on a pipe (stderr)")

    def test_no_color_on_a_tty(self):
        with FixtureServer({"trailing_slash": 301}) as srv:
            rc, out = harness.run_in_pty(harness.check_args(srv.base_url, ("--no-color",), fmt="text"))
        self.assertIn(rc, (0, 1, 3), out[-2000:])
        self.assertIn("/core/no-trailing-slash", out)
        # a progress line may still be erased with ESC[K on a terminal; colour may not
        self.assertIsNone(SGR.search(out), "colour escape codes despite --no-color")

    def test_colour_on_a_tty_by_default(self):
        # CLI.md: "--no-color ... colour on a TTY"
        with FixtureServer({"trailing_slash": 301}) as srv:
            rc, out = harness.run_in_pty(harness.check_args(srv.base_url, (), fmt="text"))
        self.assertIn(rc, (0, 1, 3), out[-2000:])
        self.assertIsNotNone(SGR.search(out), "no colour on a terminal")

    def test_json_output_file_matches_stdout(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp, "r.json")
            p = probe(None, "-o", "json=%s" % path, edition="1.0")
            self.assertTrue(path.exists(), "-o json=PATH wrote no file")
            written = json.loads(path.read_text(encoding="utf-8"))
        self.assertEqual([(r["id"], r["verdict"]) for r in written["rules"]],
                         [(r["id"], r["verdict"]) for r in p.report["rules"]])


if __name__ == "__main__":
    harness.main()
