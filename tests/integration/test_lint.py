#!/usr/bin/python3
"""`adrprobe lint` on the official ADR linter's 26 test cases
(tests/data/linter-testcases/<case>/openapi.json; probes.md "`adrprobe
lint`" and "The official linter's test cases").

lint runs the static checks only: DO-1..3, SV-1, NT-1, HM-0, UV-2 (servers
missing or [] means "/", which has no v<major>: fail), UV-3 (the servers' major
against info.version's), and in 2.1.0 CT-1. publish-openapi, version-header and
the transport rules have no static check: `skip`, "needs a live API".
Functional rules are `manual`.

Each case asserts exactly which technical rules do not pass, with their verdict,
and the verdict of every static check that decides them, in every edition. The
new rules of 2.2.0 (kebab-case paths, query keys, date-time, problem details,
invalid input) do not exist before it, so their cases give no finding in 1.0,
2.0.0 and 2.1.0; for 2.2.0 the expectations are probes.md's table ("The official
linter's test cases"): 25 of 26 agree with the linter by design.
docs/linter-agreement.md sets the linter's findings beside the results, case by
case.
"""

import sys
import unittest
from pathlib import Path

import json
import tempfile

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ProbeCase  # noqa: E402

CASES_DIR = harness.LINTER_CASES
LIVE_API = "needs a live API"

# the static checks lint runs, by rule (2.0.0 / 2.1.0 ids; edition 1.0 maps them to API-xx)
STATIC = {
    "/core/doc-openapi": ("DO-1", "DO-2", "DO-3"),
    "/core/semver": ("SV-1",),
    "/core/uri-version": ("UV-2", "UV-3"),
    "/core/no-trailing-slash": ("NT-1",),
    "/core/http-methods": ("HM-0",),
    "/core/doc-openapi-contact": ("CT-1",),  # 2.1.0 on
    # 2.2.0 (DT-5 and EH-2 are live: skip in lint)
    "/core/path-segments-kebab-case": ("KC-1", "KC-2"),
    "/core/query-keys-camel-case": ("QK-1",),
    "/core/date-time/format": ("DT-1", "DT-2", "DT-3"),
    "/core/date-time/date-omit-time-portion": ("DT-4",),
    "/core/error-handling/problem-details": ("EH-1",),
    "/core/error-handling/invalid-input": ("EI-1",),
}
# rules with no static check: skip, "needs a live API"
LIVE_ONLY = ("/core/publish-openapi", "/core/version-header", "/core/transport-security",
             "/core/transport/tls", "/core/transport/security-headers", "/core/transport/cors")

DOC, SEMVER, URI, NT, CONTACT = ("/core/doc-openapi", "/core/semver", "/core/uri-version",
                                 "/core/no-trailing-slash", "/core/doc-openapi-contact")
ANY = None  # a check verdict the contract leaves open

# Per case, the static rules that do not pass in edition 2.1.0: rule -> (rule verdict,
# {check id: verdict}). Every other static rule passes with all its static checks `pass`.
# Read from each case's openapi.json (every static check thought through), not from the
# linter's output.
EXPECTED_2_1_0 = {
    # the minimal conformant document: servers https://example.com/api/v1, info.version 1.0.0,
    # contact complete, one path /openapi.json with a GET, no $ref
    "baseline": {},
    # the four contact cases differ from baseline only in info.contact
    "contact-missing": {CONTACT: ("fail", {"CT-1": "fail"})},
    "contact-no-email": {CONTACT: ("fail", {"CT-1": "fail"})},
    "contact-no-name": {CONTACT: ("fail", {"CT-1": "fail"})},
    "contact-no-url": {CONTACT: ("fail", {"CT-1": "fail"})},
    # info.version 1.2.9-SNAPSHOT is SemVer 2.0.0 with a pre-release (SV-1 pass from 2.0.0 on);
    # servers https://oinregister.logius.nl/api/v1 and major 1 (UV-2, UV-3 pass); its 51 $refs are
    # all local and resolve (DO-2); six paths, none ending in "/" (/openapi, /openapi.json,
    # /laatsteWijziging, ...), path items with description/summary and GET only (HM-0 pass);
    # complete contact. Its linter findings (problem media types, /laatsteWijziging not
    # kebab-case, a date-time format on a date) are 2.2.0 rules.
    "cor-api": {},
    # date/time formats are 2.2.0 rules; two local $refs that resolve; three GET-only paths
    "date-time": {},
    # problem details (error-type*) and invalid input are 2.2.0 rules; error-type-invalid-input
    # has GET, PUT and POST, all within the method table (HM-0 pass)
    "error-type": {},
    "error-type-extra-field": {},
    "error-type-invalid-input": {},
    "error-type-missing-required": {},
    # the names are swapped upstream: -3-0-1 has openapi 3.1.0, -3-1-0 has 3.0.1; both pass DO-1
    "openapi-versie-3-0-1": {},
    "openapi-versie-3-1-0": {},
    # no openapi key: DO-1 fails; the document is still judged by the other checks, which pass
    "openapi-versie-missing": {DOC: ("fail", {"DO-1": "fail", "DO-2": "pass", "DO-3": "pass"})},
    # /camelCasePad breaks only the 2.2.0 kebab-case rule
    "paths-kebab-incorrect": {},
    # /suffix-slash/ and /nested-slash/met-suffix/ end in "/" (NT-1); /v1/met-versie-nummer is a
    # path key, not a server url, so UV-2/UV-3 (servers .../api/v1, version 1.0.0) still pass
    "paths-kebab-slashes": {NT: ("fail", {"NT-1": "fail"})},
    # {id} and {organisationId} segments: nothing for a 2.1.0 static check
    "paths-kebab-variables": {},
    # /_zoek/ ends in "/" (NT-1); /_zoek, /organisaties/_zoek and .../nested/_zoek do not
    "paths-kebab-zoek-uitzondering": {NT: ("fail", {"NT-1": "fail"})},
    # query key casing is a 2.2.0 rule
    "query-keys-camel-case": {},
    # info.version 1.2 is not SemVer (SV-1 fail); its leading digits give major 1, equal to the
    # servers' v1, so UV-3 passes
    "semver-incorrect": {SEMVER: ("fail", {"SV-1": "fail"})},
    # 1.0.1-correct.1: a SemVer pre-release, allowed from 2.0.0 on
    "semver-patch": {},
    # 1.0.1_incorrect is not SemVer; leading digits "1" = v1, so UV-3 passes
    "semver-patch-incorrect": {SEMVER: ("fail", {"SV-1": "fail"})},
    # servers [] and no servers both mean "/": no v<major> segment, UV-2 fails. UV-3 then has no
    # URI major to compare; the contract leaves its verdict open (the rule fails on UV-2 anyway).
    # The linter files oas3-api-servers under publish-openapi, which lint does not judge.
    "servers-empty": {URI: ("fail", {"UV-2": "fail", "UV-3": ANY})},
    "servers-missing": {URI: ("fail", {"UV-2": "fail", "UV-3": ANY})},
    # the version header is judged live (VH-1..4), never from the document: version-header is
    # skip in lint whether the document spells it API-version or leaves it out. This is the one
    # deliberate difference from the linter (nlgov:missing-version-header on -missing).
    "version-header-casing": {},
    "version-header-missing": {},
}

# Edition 2.0.0: no doc-openapi-contact rule; transport is one rule. Otherwise as 2.1.0.
EXPECTED_2_0_0 = {case: {r: v for r, v in exp.items() if r != CONTACT} for case, exp in EXPECTED_2_1_0.items()}

# Edition 1.0: SV-1 allows exactly MAJOR.MINOR.PATCH, so a pre-release fails too.
EXPECTED_1_0 = dict(EXPECTED_2_0_0)
EXPECTED_1_0.update({
    "cor-api": {SEMVER: ("fail", {"SV-1": "fail"})},        # 1.2.9-SNAPSHOT has a pre-release
    "semver-patch": {SEMVER: ("fail", {"SV-1": "fail"})},   # 1.0.1-correct.1 likewise
})

# Edition 2.2.0: probes.md's table. http-methods is functional (manual, HM-0 a hint).
KEBAB, QUERY, DT_FORMAT, DT_DATE, PROBLEM, INVALID = (
    "/core/path-segments-kebab-case", "/core/query-keys-camel-case", "/core/date-time/format",
    "/core/date-time/date-omit-time-portion", "/core/error-handling/problem-details",
    "/core/error-handling/invalid-input")
EXPECTED_2_2_0 = dict(EXPECTED_2_1_0)
EXPECTED_2_2_0.update({
    # 23 error responses as application/json or hal+json (EH-1); /laatsteWijziging (KC-1);
    # afgifteDatum, laatstAangepastDatum, intrekDatum -> LocalDateTime, a date-time (DT-4)
    "cor-api": {PROBLEM: ("fail", {"EH-1": "fail"}), KEBAB: ("fail", {"KC-1": "fail"}),
                DT_DATE: ("fail", {"DT-4": "fail"})},
    # date-time-local and time (DT-1), missingFormatDate (DT-3); seven date names as date-time (DT-4)
    "date-time": {DT_FORMAT: ("fail", {"DT-1": "fail", "DT-3": "fail"}), DT_DATE: ("fail", {"DT-4": "fail"})},
    "error-type": {PROBLEM: ("fail", {"EH-1": "fail"})},
    "error-type-invalid-input": {INVALID: ("fail", {"EI-1": "fail"})},
    "error-type-missing-required": {PROBLEM: ("fail", {"EH-1": "fail"})},
    "paths-kebab-incorrect": {KEBAB: ("fail", {"KC-1": "fail"})},
    "query-keys-camel-case": {QUERY: ("fail", {"QK-1": "fail"})},
})

EXPECTED = {"1.0": EXPECTED_1_0, "2.0.0": EXPECTED_2_0_0, "2.1.0": EXPECTED_2_1_0, "2.2.0": EXPECTED_2_2_0}


def catalogue(edition):
    """[(rule id, 2.0.0-style id, kind)] of an edition, as the tool resolves it (`rules -f json`:
    an edition file may extend another and list only what differs)."""
    run = harness.run_adrprobe(["rules", "--edition", edition, "-f", "json"], timeout=30)
    assert run.rc == 0, run.stderr
    rules = json.loads(run.stdout)["rules"]
    out = []
    for r in rules:
        canonical = r["id"]
        if edition == "1.0":  # map API-xx to the /core/... id via the aliases
            canonical = next((a for a in r.get("aliases", []) if a.startswith("/core/")), r["id"])
        out.append((r["id"], canonical, r["kind"]))
    return out


def lint(case, edition):
    doc = harness.data_path("linter-testcases", case, "openapi.json")
    run = harness.run_adrprobe(["lint", "--edition", edition, doc, "-f", "json"], timeout=60)
    return run


_VALIDATOR = []


def schema_errors(report):
    """Where report breaks docs/report.schema.json (one validator for the module)."""
    if not _VALIDATOR:
        _VALIDATOR.append(harness.schema_validator())
    return ["%s: %s" % ("/".join(map(str, e.path)), e.message) for e in _VALIDATOR[0].iter_errors(report)]


class LintCase(ProbeCase):
    edition = None

    def check_case(self, case):
        edition = self.edition
        expected = EXPECTED[edition][case]
        run = lint(case, edition)
        self.assertFalse(run.timed_out, run.describe())
        report = run.json()
        self.assertEqual(schema_errors(report), [], "the report validates against docs/report.schema.json")
        self.assertEqual(report.get("edition"), edition)
        rules = catalogue(edition)
        by_id = {r.get("id"): r for r in report.get("rules", [])}
        self.assertEqual(sorted(by_id), sorted(i for i, _, _ in rules), "every rule of the edition, once")

        want = {}
        for rule_id, canonical, kind in rules:
            r = by_id[rule_id]
            if kind == "functional":
                self.assertEqual(r["verdict"], "manual", "%s is functional\n%s" % (rule_id, self.context(report, rule_id)))
            elif canonical in LIVE_ONLY:
                want[rule_id] = "skip"
                self.assertRuleMentions(report, rule_id, LIVE_API)
            else:
                self.assertIn(canonical, STATIC, "technical rule %s has no static check known to this test" % canonical)
                if canonical in expected:
                    want[rule_id] = expected[canonical][0]
        got = {r["id"]: r["verdict"] for r in report["rules"]
               if r.get("kind") == "technical" and r.get("verdict") != "pass"}
        self.assertEqual(want, got, "technical rules that do not pass (%s, edition %s)" % (case, edition))

        # every static check ran, with its expected verdict (pass unless the case says otherwise),
        # and lint judged no live check (UV-1, NT-2, HM-1..3 are absent or skip)
        for rule_id, canonical, kind in rules:
            if kind != "technical" or canonical not in STATIC:
                continue
            verdicts = expected[canonical][1] if canonical in expected else {}
            for cid in STATIC[canonical]:
                verdict = verdicts.get(cid, "pass")
                if verdict is not ANY:
                    self.assertCheck(report, rule_id, cid, verdict)
            for c in by_id[rule_id].get("checks", []):
                if c.get("id") not in STATIC[canonical]:
                    self.assertEqual(c.get("verdict"), "skip", "lint judged the live check %s of %s\n%s" % (
                        c.get("id"), rule_id, self.context(report, rule_id)))

        # CLI.md exit status: 1 when a rule fails (skip and manual do not count), else 0
        self.assertEqual(run.rc, 1 if "fail" in got.values() else 0, "exit status\n" + run.describe())


def _add_tests(cls, edition):
    for case in sorted(EXPECTED[edition]):
        def test(self, case=case):
            self.check_case(case)
        test.__name__ = "test_" + case.replace("-", "_")
        test.__doc__ = "lint --edition %s %s" % (edition, case)
        setattr(cls, test.__name__, test)
    return cls


class Lint_2_2_0(LintCase):
    edition = "2.2.0"


class Lint_2_1_0(LintCase):
    edition = "2.1.0"


class Lint_2_0_0(LintCase):
    edition = "2.0.0"


class Lint_1_0(LintCase):
    edition = "1.0"


for _cls in (Lint_2_2_0, Lint_2_1_0, Lint_2_0_0, Lint_1_0):
    _add_tests(_cls, _cls.edition)


class Cases(unittest.TestCase):
    def test_every_case_has_an_expectation(self):
        harness.data_path("linter-testcases")
        on_disk = sorted(p.name for p in CASES_DIR.iterdir() if (p / "openapi.json").is_file())
        self.assertEqual(len(on_disk), 26)
        for edition, table in EXPECTED.items():
            self.assertEqual(sorted(table), on_disk, "edition %s" % edition)


REAL_OAS = harness.REAL_OAS


class LintSources(unittest.TestCase):
    """lint reads a document from a file or a URL, JSON or YAML, with relative $refs
    across files (probes.md, "`adrprobe lint`")."""

    BRP = "brp-personen/specificatie/openapi.yaml"  # YAML, 15 external files reached by relative $refs

    def setUp(self):
        harness.data_path("real-oas", self.BRP)

    def verdicts(self, run):
        self.assertIn(run.rc, (0, 1), run.describe())
        report = json.loads(run.stdout)
        return report, {r["id"]: r for r in report["rules"]}

    def test_multi_file_yaml_from_a_file(self):
        report, rules = self.verdicts(harness.run_adrprobe(["lint", REAL_OAS / self.BRP, "-f", "json"], timeout=60))
        do2 = [c for c in rules["/core/doc-openapi"]["checks"] if c["id"] == "DO-2"][0]
        self.assertEqual(do2["verdict"], "pass", do2)
        self.assertIn("15 documents", do2["message"])
        self.assertTrue(report["target"]["openapi_url"].startswith("file:///"), report["target"])
        self.assertEqual(report["exchanges"], [], "a local document with local refs sends nothing")

    def test_multi_file_yaml_from_a_url(self):
        with harness.static_server(root=REAL_OAS) as origin:
            url = origin + "/" + self.BRP
            report, rules = self.verdicts(harness.run_adrprobe(["lint", url, "-f", "json"], timeout=60))
        do2 = [c for c in rules["/core/doc-openapi"]["checks"] if c["id"] == "DO-2"][0]
        self.assertEqual(do2["verdict"], "pass", do2)
        self.assertIn("15 documents", do2["message"])
        self.assertEqual(report["target"]["openapi_url"], url)
        self.assertEqual(len(report["exchanges"]), 16, "the document and its 15 files, each fetched once")
        _, from_file = self.verdicts(harness.run_adrprobe(["lint", REAL_OAS / self.BRP, "-f", "json"], timeout=60))
        self.assertEqual({i: r["verdict"] for i, r in rules.items()}, {i: r["verdict"] for i, r in from_file.items()},
                         "the same document gives the same verdicts from a file and from a URL")

    def test_unresolvable_relative_ref_fails_do2(self):
        with tempfile.TemporaryDirectory() as tmp:
            doc = Path(tmp, "openapi.yaml")
            doc.write_text("openapi: 3.0.3\ninfo: {title: t, version: 1.0.0}\nservers: [{url: /v1}]\n"
                           "paths:\n  /a:\n    get:\n      responses:\n        '200': {$ref: 'missing.yaml#/R'}\n")
            report, rules = self.verdicts(harness.run_adrprobe(["lint", doc, "-f", "json"], timeout=60))
        do2 = [c for c in rules["/core/doc-openapi"]["checks"] if c["id"] == "DO-2"][0]
        self.assertEqual(do2["verdict"], "fail", do2)
        self.assertIn("missing.yaml", do2["message"])

    def test_missing_document_is_a_usage_error(self):
        run = harness.run_adrprobe(["lint", "/nonexistent/openapi.json"], timeout=30)
        self.assertEqual(run.rc, 2, run.describe())
        self.assertIn("cannot read", run.stderr)

    def test_version_header_missing_is_the_one_difference(self):
        """probes.md: 25 of 26 cases agree with the linter; version-header-missing does not,
        because the version header is judged live."""
        run = lint("version-header-missing", "2.2.0")
        report = json.loads(run.stdout)
        rule = [r for r in report["rules"] if r["id"] == "/core/version-header"][0]
        self.assertEqual(rule["verdict"], "skip")
        self.assertIn(LIVE_API, rule["summary"])

    def test_http_methods_is_manual_with_hm0_hint_in_2_2_0(self):
        with tempfile.TemporaryDirectory() as tmp:
            doc = Path(tmp, "openapi.json")
            doc.write_text(json.dumps({
                "openapi": "3.0.3", "info": {"title": "t", "version": "1.0.0"}, "servers": [{"url": "/v1"}],
                "paths": {"/a": {"get": {"responses": {"200": {"description": "ok"}}},
                                 "head": {"responses": {"200": {"description": "ok"}}}}}}))
            report, rules = self.verdicts(harness.run_adrprobe(["lint", "--edition", "2.2.0", doc, "-f", "json"],
                                                               timeout=60))
        hm = rules["/core/http-methods"]
        self.assertEqual(hm["verdict"], "manual")
        self.assertEqual(hm["kind"], "functional")
        self.assertTrue(any("HM-0" in h and "HEAD /a" in h for h in hm.get("hints", [])), hm)

    def test_rules_marks_static_checks(self):
        run = harness.run_adrprobe(["rules", "--edition", "2.1.0", "-f", "json"], timeout=30)
        rules = {r["id"]: r for r in json.loads(run.stdout)["rules"]}
        self.assertEqual(rules["/core/uri-version"]["static_checks"], ["UV-2", "UV-3"])
        self.assertEqual(rules["/core/version-header"]["static_checks"], [])
        text = harness.run_adrprobe(["rules", "--edition", "2.1.0"], timeout=30).stdout
        self.assertIn("NT-1 (static)", text)
        self.assertIn("NT-2 (live)", text)


if __name__ == "__main__":
    harness.main()
