#!/usr/bin/python3
"""`-f junit` (CLI.md "Formats"): the real binary against fixture servers; the
XML validated by xmllint against schemas/junit.xsd (the shape GitLab and
Jenkins read) and read by Debian's python3-junitparser the way CI tools do:
suites, cases, results, failure messages."""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import FixtureServer, ProbeCase, run_adrprobe  # noqa: E402
from test_output import HOSTILE, controls  # noqa: E402

XSD = Path(__file__).resolve().parent / "schemas" / "junit.xsd"

try:
    import junitparser
except ImportError:  # python3-junitparser (./dev installs it)
    junitparser = None


# The suite's first properties (CLI.md: every format shows the conclusion first).
CONCLUSION = ["conclusion.conforms", "conclusion.must_failed", "conclusion.should_failed", "conclusion.warned",
              "conclusion.errors", "conclusion.functional_pending", "conclusion.text"]


@harness.needs_module("junitparser", "python3-junitparser")
@harness.needs_tool("xmllint", "libxml2-utils")
class JUnit(ProbeCase):
    def run_junit(self, profile, *args, edition="2.2.0"):
        """(run, xml text, JSON report) of one check with -f junit and -o json=."""
        with tempfile.TemporaryDirectory() as tmp, FixtureServer(profile) as srv:
            report = Path(tmp, "r.json")
            run = run_adrprobe(harness.check_args(srv.base_url, ("-o", "json=%s" % report) + args, edition=edition,
                                                  fmt="junit"))
            self.assertNoCrash(run)
            xml = Path(tmp, "r.xml")
            xml.write_text(run.stdout, encoding="utf-8")
            lint = subprocess.run(["xmllint", "--noout", "--schema", str(XSD), str(xml)], capture_output=True, text=True)
            self.assertEqual(lint.returncode, 0, lint.stderr)
            return run, run.stdout, json.loads(report.read_text())

    def parse(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".xml", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            xml = junitparser.JUnitXml.fromfile(f.name)
        suites = list(xml) if isinstance(xml, junitparser.JUnitXml) else [xml]
        self.assertEqual(len(suites), 1)
        return suites[0]

    def test_cases_results_and_messages_as_a_ci_reads_them(self):
        run, text, report = self.run_junit(HOSTILE)
        suite = self.parse(text)
        technical = [r for r in report["rules"] if r["kind"] == "technical"]
        cases = list(suite)
        names = [c.name for c in cases]
        self.assertEqual(len(names), len(set(names)), "test case names must be unique (GitLab keeps the first)")
        self.assertEqual(len(cases), len(technical))
        self.assertEqual(suite.tests, len(technical))
        by_rule = {c.name.split(" ", 1)[0]: c for c in cases}
        for rule in technical:
            with self.subTest(rule=rule["id"]):
                case = by_rule[rule["id"]]
                kinds = [type(r).__name__ for r in case.result]
                expected = {"fail": ["Failure"], "error": ["Error"], "skip": ["Skipped"], "manual": ["Skipped"],
                            "pass": [], "warn": []}[rule["verdict"]]
                self.assertEqual(kinds, expected)
                if rule["verdict"] == "fail":
                    failing = [c for c in rule["checks"] if c["verdict"] == "fail"]
                    self.assertIn(failing[0]["id"], case.result[0].message)
        self.assertEqual(suite.failures, sum(r["verdict"] == "fail" for r in technical))
        # NT-2's evidence: the request that proves it, with its status.
        nt = by_rule["/core/no-trailing-slash"].result[0]
        self.assertIn("evidence: #", nt.text)
        self.assertRegex(nt.text, r"GET http://127\.0\.0\.1:\d+/v1/gebouwen/ → 301")
        # Server text: visible, never raw control characters; XML escapes the rest.
        self.assertEqual(controls(text.replace("\t", "")), [])
        self.assertIn("\\x1b]0;pwned\\x07", text)
        vh = by_rule["/core/version-header"]
        self.assertIn('"1.0.0\\x1b]0;pwned\\x07"', vh.result[0].message)
        # The conclusion first among the suite's properties, as the JSON report has it.
        properties = [(p.name, p.value) for p in suite.properties()]
        self.assertEqual([n for n, _ in properties[:len(CONCLUSION)]], CONCLUSION)
        conclusion = report["conclusion"]
        expected = {"true": True, "false": False, "null": None}[properties[0][1]]
        self.assertIs(expected, conclusion["conforms"])
        for name, value in properties[1:len(CONCLUSION)]:
            field = name.split(".", 1)[1]
            self.assertEqual(value, conclusion[field] if field == "text" else str(conclusion[field]), name)

    def test_a_module_s_rules_are_cases_of_a_class_of_their_own(self):
        """--modules geo (module-geo.md, CLI.md): one test case per technical
        rule of the module, after the edition's, of class <target>.geo; the
        suite's properties name the module; the file validates (run_junit)."""
        run, text, report = self.run_junit({}, "--modules", "geo")
        [module] = report["modules"]
        geo = [r for r in report["rules"] if r.get("module") == "geo" and r["kind"] == "technical"]
        self.assertTrue(geo)
        cases = list(self.parse(text))
        edition = cases[0].classname
        self.assertEqual([(c.name.split(" ")[0], c.classname) for c in cases[-len(geo):]],
                         [(r["id"], edition + ".geo") for r in geo])
        self.assertEqual({c.classname for c in cases[:-len(geo)]}, {edition})
        self.assertIn('<property name="module.geo" value="%s module %s"' % (module["title"], module["version"]), text)

    def test_warn_is_a_failure_only_under_fail_on_warn(self):
        # HM-0: a documented OPTIONS operation is outside the rule's method table (warn).
        warn_profile = {"doc_patch": {"paths": {"/gebouwen": {"options": {"responses": {"200": {"description": "OK"}}}}}}}
        run, text, report = self.run_junit(warn_profile, edition="2.0.0")
        warned = [r["id"] for r in report["rules"] if r["verdict"] == "warn"]
        self.assertTrue(warned, "the fixture gives no warn")
        by_rule = {c.name.split(" ", 1)[0]: c for c in self.parse(text)}
        for rid in warned:
            self.assertEqual(list(by_rule[rid].result), [])
            self.assertIn("warn:", by_rule[rid].system_out)
        run, text, report = self.run_junit(warn_profile, "--fail-on", "warn", edition="2.0.0")
        by_rule = {c.name.split(" ", 1)[0]: c for c in self.parse(text)}
        for rid in warned:
            self.assertEqual([type(r).__name__ for r in by_rule[rid].result], ["Failure"])

    def test_under_fail_on_regressed_only_a_change_fails(self):
        """CLI.md, "Nightly monitoring": against a baseline, under --fail-on
        regressed a rule failing as before is a skipped case ("known failure
        since DATE", the baseline's time), and only the new failure fails; the
        case carries its change and failing_since as properties. Under fail the
        same cases fail as ever, their messages saying the same."""
        with tempfile.TemporaryDirectory() as tmp:
            self.known_failure_run(Path(tmp))

    def known_failure_run(self, tmp):
        with FixtureServer({}) as srv:
            baseline = Path(tmp, "baseline.json")
            run = run_adrprobe(harness.check_args(srv.base_url, ("-o", "json=%s" % baseline)))
            self.assertNoCrash(run)
            before = json.loads(baseline.read_text())
            old = [r["id"] for r in before["rules"] if r["verdict"] == "fail"]
            self.assertEqual(old, ["/core/transport-security"], "the fixture's one failure on http://")
        # the same API, answering a trailing slash with a redirect now (on another port: the
        # report notes that the baseline is of another URL, and compares as asked)
        with FixtureServer({"trailing_slash": 301}) as srv:
            texts, reports = {}, {}
            for fail_on in ("regressed", "fail"):
                xml = Path(tmp, fail_on + ".xml")
                report = Path(tmp, fail_on + ".json")
                run = run_adrprobe(harness.check_args(srv.base_url, ("--baseline", baseline, "--fail-on", fail_on,
                                                                     "-o", "junit=%s" % xml, "-o", "json=%s" % report)))
                self.assertEqual(run.rc, 1, run.describe())  # a new failure: red under both
                lint = subprocess.run(["xmllint", "--noout", "--schema", str(XSD), str(xml)], capture_output=True, text=True)
                self.assertEqual(lint.returncode, 0, lint.stderr)
                texts[fail_on] = xml.read_text(encoding="utf-8")
                reports[fail_on] = json.loads(report.read_text())
        # each run dates a new failure by its own clock: compare the XML with its own run's report
        now = reports["regressed"]
        failing = {r["id"]: r for r in now["rules"] if r["verdict"] == "fail"}
        self.assertEqual(set(failing), {"/core/transport-security", "/core/no-trailing-slash"})
        self.assertEqual(failing["/core/transport-security"]["failing_since"], before["generated_at"])
        self.assertEqual(failing["/core/no-trailing-slash"]["failing_since"], now["generated_at"])

        suite = self.parse(texts["regressed"])
        self.assertEqual((suite.failures, suite.errors), (1, 0))
        by_rule = {c.name.split(" ", 1)[0]: c for c in suite}
        new = by_rule["/core/no-trailing-slash"].result
        self.assertEqual([type(r).__name__ for r in new], ["Failure"])
        self.assertTrue(new[0].message.startswith("new-fail: NT-2: "), new[0].message)
        known = by_rule["/core/transport-security"].result
        self.assertEqual([type(r).__name__ for r in known], ["Skipped"])
        self.assertTrue(known[0].message.startswith("known failure since %s: TS-1: " % before["generated_at"]),
                        known[0].message)
        self.assertIn("TS-1 fail:", by_rule["/core/transport-security"].system_out)  # the details stay
        # the change and the date as the case's own properties (read as the XML has them)
        import xml.etree.ElementTree as ET
        cases = {c.get("name").split(" ", 1)[0]: c for c in ET.fromstring(texts["regressed"]).iter("testcase")}
        props = lambda rule: {p.get("name"): p.get("value") for p in cases[rule].findall("properties/property")}
        self.assertEqual(props("/core/transport-security"),
                         {"change": "unchanged", "failing_since": before["generated_at"]})
        self.assertEqual(props("/core/no-trailing-slash"), {"change": "new-fail", "failing_since": now["generated_at"]})
        self.assertEqual(props("/core/version-header"), {"change": "unchanged"})

        suite = self.parse(texts["fail"])
        self.assertEqual((suite.failures, suite.errors), (2, 0))
        by_rule = {c.name.split(" ", 1)[0]: c for c in suite}
        message = by_rule["/core/transport-security"].result[0].message
        self.assertTrue(message.startswith("known failure since %s: TS-1: " % before["generated_at"]), message)

    def test_unreachable_target_gives_errors_and_a_valid_file(self):
        with harness.closed_port("https") as url:  # nothing judged without an answer
            run = run_adrprobe(harness.check_args(url, fmt="junit"))
        self.assertNoCrash(run)
        suite = self.parse(run.stdout)
        self.assertGreater(suite.errors, 0)
        self.assertIn("could not", run.stdout)  # the run's note, in the suite's system-out
        # Down: one test case, one error (CLI.md, "Nightly monitoring"), not one per rule.
        self.assertEqual([c.name for c in suite], ["down"])
        self.assertEqual(suite.errors, 1)
        # The conclusion first among the suite's properties: not established.
        properties = [(p.name, p.value) for p in suite.properties()]
        self.assertEqual([n for n, _ in properties[:len(CONCLUSION)]], CONCLUSION)
        self.assertEqual(properties[0], ("conclusion.conforms", "null"))
        self.assertIn("the target is down", dict(properties)["conclusion.text"])

    def test_batch_targets_have_their_own_classname_owner_and_labels(self):
        with tempfile.TemporaryDirectory() as tmp, FixtureServer({}) as srv, harness.closed_port() as down:
            register = Path(tmp, "targets.yaml")
            register.write_text(harness.yaml_text({"defaults": {"edition": "2.2.0"}, "targets": [
                {"name": "bag", "base_url": srv.base_url, "owner": "Team Basis", "labels": {"domain": "adressen"}},
                {"name": "kvk", "base_url": srv.base_url, "owner": "Team KVK"},
                {"name": "weg", "base_url": down, "timeout": 2}]}), encoding="utf-8")
            out = Path(tmp, "out")
            run = run_adrprobe(["batch", register, "--out-dir", out, "--rate", "0", "-q", "-o", "junit"], timeout=60)
            self.assertIn(run.rc, (1, 3), run.describe())
            suites = {}
            for name in ("bag", "kvk", "weg"):
                path = out / (name + ".xml")
                lint = subprocess.run(["xmllint", "--noout", "--schema", str(XSD), str(path)], capture_output=True,
                                      text=True)
                self.assertEqual(lint.returncode, 0, lint.stderr)
                suites[name] = self.parse(path.read_text(encoding="utf-8"))
            for name, suite in suites.items():
                with self.subTest(target=name):
                    self.assertEqual({c.classname for c in suite}, {"adrprobe." + name})
            props = {p.name: p.value for p in suites["bag"].properties()}
            self.assertEqual(props["owner"], "Team Basis")
            self.assertEqual(props["label.domain"], "adressen")
            self.assertEqual(props["state"], "up")
            weg = {p.name: p.value for p in suites["weg"].properties()}
            self.assertEqual(weg["state"], "down")
            self.assertEqual([c.name for c in suites["weg"]], ["down"])


if __name__ == "__main__":
    harness.main()
