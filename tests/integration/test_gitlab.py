#!/usr/bin/python3
"""`-f gitlab` (GitLab Code Quality, CLI.md "Formats"): `lint` on the official
linter's test cases, validated against the shape of GitLab's Code Quality
report (a JSON schema written here: the fields GitLab reads) with unique
fingerprints; findings located in the file at the right JSON pointer and line."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ProbeCase, run_adrprobe  # noqa: E402

import jsonschema  # noqa: E402

# What GitLab's Code Quality widget reads of each finding.
CODE_QUALITY_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "array",
    "items": {
        "type": "object",
        "required": ["description", "check_name", "fingerprint", "severity", "location"],
        "properties": {
            "description": {"type": "string", "minLength": 1},
            "check_name": {"type": "string", "minLength": 1},
            "fingerprint": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
            "severity": {"enum": ["info", "minor", "major", "critical", "blocker"]},
            "location": {
                "type": "object",
                "required": ["path", "lines"],
                "properties": {
                    "path": {"type": "string", "minLength": 1},
                    "lines": {
                        "type": "object",
                        "required": ["begin"],
                        "properties": {"begin": {"type": "integer", "minimum": 1}},
                    },
                },
            },
        },
    },
}


def line_of(path, text):
    """The 1-based line of the first line of path holding text."""
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        if text in line:
            return n
    raise AssertionError("%r not in %s" % (text, path))


class GitLab(ProbeCase):
    def lint(self, case, edition="2.2.0"):
        doc = harness.data_path("linter-testcases", case, "openapi.json")
        run = run_adrprobe(["lint", str(doc), "--edition", edition, "-f", "gitlab"])
        self.assertNoCrash(run)
        findings = json.loads(run.stdout)
        jsonschema.validate(findings, CODE_QUALITY_SCHEMA)
        fingerprints = [f["fingerprint"] for f in findings]
        self.assertEqual(len(fingerprints), len(set(fingerprints)), "fingerprints must be unique")
        for f in findings:
            self.assertEqual(f["location"]["path"], str(doc), "the path as given to lint")
        return doc, findings

    def test_kebab_case_finding_at_its_pointer_and_line(self):
        doc, findings = self.lint("paths-kebab-incorrect")
        kc = [f for f in findings if f["check_name"] == "KC-1"]
        self.assertEqual(len(kc), 1)
        self.assertEqual(kc[0]["severity"], "major")
        self.assertIn("/paths/~1camelCasePad", kc[0]["description"])
        self.assertEqual(kc[0]["location"]["lines"]["begin"], line_of(doc, '"/camelCasePad"'))

    def test_contact_semver_and_servers_point_at_their_fields(self):
        doc, findings = self.lint("contact-no-email")
        ct = [f for f in findings if f["check_name"] == "CT-1"]
        self.assertEqual(len(ct), 1)
        self.assertEqual(ct[0]["location"]["lines"]["begin"], line_of(doc, '"contact"'))
        doc, findings = self.lint("semver-incorrect")
        sv = [f for f in findings if f["check_name"] == "SV-1"]
        self.assertEqual(sv[0]["location"]["lines"]["begin"], line_of(doc, '"version"'))

    def test_every_case_gives_valid_findings_and_stable_fingerprints(self):
        cases = sorted(p.name for p in harness.data_path("linter-testcases").iterdir() if (p / "openapi.json").exists())
        self.assertEqual(len(cases), 26, "the official linter's 26 test cases")
        for case in cases:
            with self.subTest(case=case):
                _, first = self.lint(case)
                _, again = self.lint(case)
                self.assertEqual(first, again, "the same document gives the same findings and fingerprints")

    def test_baseline_case_has_no_finding(self):
        # It conforms: no conclusion finding either, so an empty report is nothing to fix.
        _, findings = self.lint("baseline")
        self.assertEqual(findings, [])

    def test_conformance_not_shown_is_the_first_finding(self):
        """The conclusion (CLI.md: every format shows it first) when the document
        does not conform: the first finding, severity info, the conclusion's text,
        a fingerprint that stays while conformance stays lost."""
        doc, findings = self.lint("paths-kebab-incorrect")
        first = findings[0]
        self.assertEqual(first["check_name"], "adrprobe/conclusion")
        self.assertEqual(first["severity"], "info")
        self.assertTrue(first["description"].startswith("Does not conform to 2.2.0: "), first["description"])
        self.assertEqual(first["location"], {"path": str(doc), "lines": {"begin": 1}})
        self.assertEqual([f for f in findings if f["check_name"] == "adrprobe/conclusion"], [first])
        # The JSON report's conclusion says the same.
        run = run_adrprobe(["lint", str(doc), "--edition", "2.2.0", "-f", "json"])
        self.assertNoCrash(run)
        conclusion = run.json()["conclusion"]
        self.assertIs(conclusion["conforms"], False)
        self.assertEqual(first["description"], conclusion["text"])

    def test_down_target_is_one_finding(self):
        """A target that is down (CLI.md, "Nightly monitoring"): one finding, not
        the transport error once per check; the same fingerprint run after run."""
        with harness.closed_port("https") as url:  # nothing judged without an answer: exit 3
            run = run_adrprobe(harness.check_args(url, ("--timeout", "2"), "2.2.0", fmt="gitlab"), timeout=60)
            again = run_adrprobe(harness.check_args(url, ("--timeout", "2"), "2.2.0", fmt="gitlab"), timeout=60)
        self.assertEqual(run.rc, 3, run.describe())
        self.assertEqual(json.loads(again.stdout), json.loads(run.stdout))
        findings = json.loads(run.stdout)
        jsonschema.validate(findings, CODE_QUALITY_SCHEMA)
        [down] = findings
        self.assertEqual(down["check_name"], "adrprobe/down")
        self.assertTrue(down["description"].startswith("target down: could not reach %s: connection refused — " % url),
                        down["description"])
        self.assertIn("could not be established", down["description"])
        self.assertEqual(down["location"]["path"], url + "/openapi.json")


if __name__ == "__main__":
    harness.main()
