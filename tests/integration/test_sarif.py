#!/usr/bin/python3
"""`-f sarif` (SARIF 2.1.0, CLI.md "Formats"): `lint` on the official linter's
test cases, validated by Microsoft's SARIF validator (npm
@microsoft/sarif-multitool, installed by `./dev test` with `npm ci --prefix
tests/sarif`) and against the SARIF 2.1.0 JSON schema the validator ships,
with python3-jsonschema; results point at the file and the line."""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ProbeCase, run_adrprobe  # noqa: E402
from test_gitlab import line_of  # noqa: E402

import jsonschema  # noqa: E402

CASES_DIR = harness.LINTER_CASES
TOOLS = harness.REPO / "tests" / "sarif" / "node_modules"
MULTITOOL = TOOLS / ".bin" / "sarif-multitool"
SCHEMA_TITLE = b'"title": "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"'


def official_schema():
    """The SARIF 2.1.0 schema (OASIS) as the validator's package embeds it, or None."""
    for exe in TOOLS.glob("@microsoft/sarif-multitool-*/Sarif.Multitool"):
        data = exe.read_bytes()
        at = data.find(SCHEMA_TITLE)
        if at < 0:
            continue
        start = data.rfind(b"{", 0, at)
        schema, _ = json.JSONDecoder().raw_decode(data[start:start + 1_000_000].decode("utf-8", "replace"))
        return schema
    return None


def require_validator():
    """Microsoft's validator, installed by `npm ci --prefix tests/sarif` (./dev test
    runs it, and installs Debian's npm first when it is missing)."""
    if MULTITOOL.exists():
        return
    harness.require_tool("npm", "npm")  # a failure when npm is installable here, a skip when it is not packaged
    raise AssertionError("the SARIF validator is not installed at %s: run npm ci --prefix tests/sarif "
                         "(./dev test runs it)" % MULTITOOL)


class Sarif(ProbeCase):
    @classmethod
    def setUpClass(cls):
        require_validator()
        schema = official_schema()
        assert schema is not None, "no SARIF 2.1.0 schema in the validator's package under %s" % TOOLS
        cls.validator = jsonschema.Draft202012Validator(schema)

    def validate(self, text):
        """Microsoft's validator: exit 0 and no error; and the JSON schema."""
        log = json.loads(text)
        errors = sorted(self.validator.iter_errors(log), key=lambda e: list(e.path))
        self.assertEqual([e.message for e in errors], [])
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp, "report.sarif")
            path.write_text(text, encoding="utf-8")
            out = subprocess.run([str(MULTITOOL), "validate", str(path)], capture_output=True, text=True, timeout=120,
                                 env={"DOTNET_CLI_TELEMETRY_OPTOUT": "1", "HOME": tmp, "PATH": "/usr/bin:/bin"})
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertNotRegex(out.stdout, r": error ", out.stdout)
        return log

    def lint(self, case, edition="2.2.0"):
        doc = harness.data_path("linter-testcases", case, "openapi.json")
        # The document as a repository names it: a path relative to the working directory.
        run = run_adrprobe(["lint", "%s/openapi.json" % case, "--edition", edition, "-f", "sarif"], cwd=str(CASES_DIR))
        self.assertNoCrash(run)
        return doc, self.validate(run.stdout)

    def test_results_point_at_the_file_and_line(self):
        doc, log = self.lint("paths-kebab-incorrect")
        run = log["runs"][0]
        self.assertEqual(run["tool"]["driver"]["name"], "adrprobe")
        results = [r for r in run["results"] if r["ruleId"] == "KC-1"]
        self.assertEqual(len(results), 1)
        kc = results[0]
        self.assertEqual(kc["level"], "error")
        where = kc["locations"][0]
        self.assertEqual(where["physicalLocation"]["artifactLocation"]["uri"], "paths-kebab-incorrect/openapi.json")
        self.assertEqual(where["physicalLocation"]["region"]["startLine"], line_of(doc, '"/camelCasePad"'))
        self.assertEqual(where["logicalLocations"][0]["fullyQualifiedName"], "/paths/~1camelCasePad")
        rule = run["tool"]["driver"]["rules"][kc["ruleIndex"]]
        self.assertEqual(rule["id"], "KC-1")
        self.assertTrue(rule["helpUri"].startswith("https://"))

    def test_several_cases_validate(self):
        for case in ("baseline", "contact-missing", "semver-incorrect", "servers-missing", "query-keys-camel-case",
                     "date-time", "error-type", "openapi-versie-missing"):
            with self.subTest(case=case):
                doc, log = self.lint(case)
                for r in log["runs"][0]["results"]:
                    for loc in r["locations"]:
                        self.assertEqual(loc["physicalLocation"]["artifactLocation"]["uri"], case + "/openapi.json")
                if case != "baseline":
                    self.assertTrue(log["runs"][0]["results"], "no result for " + case)

    def test_check_of_a_live_api_validates(self):
        p = harness.probe({}, edition="2.2.0", fmt="sarif")
        self.assertNoCrash(p)
        log = self.validate(p.stdout)
        # The conclusion where a reader of the log meets it first: the run's
        # property bag, right after the tool, before the artifacts and results.
        run = log["runs"][0]
        self.assertEqual(list(run)[:2], ["tool", "properties"])
        self.assertEqual(list(run["properties"])[0], "conclusion")
        conclusion = run["properties"]["conclusion"]
        self.assertEqual(set(conclusion), {"conforms", "must_failed", "should_failed", "warned", "errors",
                                           "functional_pending", "text"})
        self.assertIn(conclusion["conforms"], (True, False, None))
        self.assertTrue(conclusion["text"])

    def test_a_module_s_results_validate(self):
        """--modules geo: the run names the module judged; each result of a
        module rule carries properties.module; the log validates."""
        p = harness.probe({}, "--modules", "geo", edition="2.2.0", fmt="sarif")
        self.assertNoCrash(p)
        log = self.validate(p.stdout)
        run = log["runs"][0]
        [module] = run["properties"]["modules"]
        self.assertEqual((module["id"], module["title"]), ("geo", "Geospatial"))
        for result in run["results"]:
            self.assertEqual(result["properties"].get("module") == "geo", result["properties"]["rule"].startswith("/geo/"))

    def test_down_target_is_one_result(self):
        """A target that is down (CLI.md, "Nightly monitoring"): one result, level
        error, "target down: <cause>", not the transport error once per check."""
        with harness.closed_port("https") as url:  # nothing judged without an answer: exit 3
            run = run_adrprobe(harness.check_args(url, ("--timeout", "2"), "2.2.0", fmt="sarif"), timeout=60)
        self.assertEqual(run.rc, 3, run.describe())
        log = self.validate(run.stdout)
        sarif_run = log["runs"][0]
        [result] = sarif_run["results"]
        self.assertEqual(result["level"], "error")
        self.assertEqual(result["ruleId"], "adrprobe/down")
        self.assertEqual(result["message"]["text"], "target down: could not reach %s: connection refused" % url)
        self.assertEqual(sarif_run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"], "adrprobe/down")
        self.assertIsNone(sarif_run["properties"]["conclusion"]["conforms"])
        self.assertEqual(sarif_run["properties"]["state"], "down")


if __name__ == "__main__":
    harness.main()
