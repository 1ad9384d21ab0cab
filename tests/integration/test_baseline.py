#!/usr/bin/python3
"""--baseline OLD.json and `adrprobe diff OLD NEW` (CLI.md; the marks of
probes/baseline.yaml): every rule of a report marked new-fail, fixed, regressed
or unchanged against an earlier report, in every format; rules matched by id or
alias across editions; diff's text and JSON, exit 1 when anything got worse;
a baseline that is missing or is not a report is a usage error (exit 2) before
any request.

The reports come from `adrprobe demo` (the built-in reference API, conformant
or --profile broken), so no fixture is needed but for the "before any request"
cases."""

import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import FixtureServer, ProbeCase, run_adrprobe  # noqa: E402

TECHNICAL_2 = harness.technical_ids("2.0.0")
FORMATS = {"json": "json", "text": "txt", "html": "html", "markdown": "md", "junit": "xml", "openmetrics": "prom",
           "sarif": "sarif", "gitlab": "gitlab.json"}


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


class Baseline(ProbeCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.dir = Path(cls.tmp.name)
        cls.old_run = run_adrprobe(["demo", "--profile", "broken", "-q", "-o", "json=%s" % (d / "old.json")])
        cls.old1_run = run_adrprobe(["demo", "--profile", "broken", "--edition", "1.0", "-q",
                                     "-o", "json=%s" % (d / "old-1.0.json")])
        outputs = []
        for fmt, ext in FORMATS.items():
            outputs += ["-o", "%s=%s" % (fmt, d / ("new." + ext))]
        cls.new_run = run_adrprobe(["demo", "--baseline", d / "old.json", "--no-color"] + outputs)
        # and the other way round: the broken API against the conformant report
        cls.worse_run = run_adrprobe(["demo", "--profile", "broken", "--baseline", d / "new.json", "-q", "--no-color",
                                      "-o", "json=%s" % (d / "worse.json"), "-o", "sarif=%s" % (d / "worse.sarif"),
                                      "-o", "gitlab=%s" % (d / "worse.gitlab.json")])

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_runs(self):
        self.assertEqual(self.old_run.rc, 1, self.old_run.describe())
        self.assertEqual(self.old1_run.rc, 1, self.old1_run.describe())
        self.assertEqual(self.new_run.rc, 0, self.new_run.describe())
        self.assertEqual(self.worse_run.rc, 1, self.worse_run.describe())

    def test_json_marks_every_rule(self):
        report = load(self.dir / "new.json")
        validator = harness.schema_validator()
        self.assertEqual([e.message for e in validator.iter_errors(report)][:3], [])
        old = {r["id"]: r["verdict"] for r in load(self.dir / "old.json")["rules"]}
        for r in report["rules"]:
            with self.subTest(rule=r["id"]):
                self.assertIn("change", r)
                if r["kind"] == "technical" and old[r["id"]] == "fail" and r["verdict"] in ("pass", "warn"):
                    self.assertEqual(r["change"], "fixed")
                if r["kind"] == "functional":
                    self.assertEqual(r["change"], "unchanged")
        self.assertTrue(any(r["change"] == "fixed" for r in report["rules"]))
        worse = load(self.dir / "worse.json")
        marks = {r["id"]: r["change"] for r in worse["rules"]}
        new = {r["id"]: r["verdict"] for r in report["rules"]}
        for r in worse["rules"]:
            if r["verdict"] == "fail" and new[r["id"]] != "fail":
                self.assertEqual(marks[r["id"]], "new-fail", r["id"])
        # without --baseline: no marks
        self.assertFalse(any("change" in r for r in load(self.dir / "old.json")["rules"]))

    def test_text_shows_the_marks(self):
        for text in (self.new_run.stdout, (self.dir / "new.txt").read_text(encoding="utf-8")):
            self.assertIn("[fixed]", text)
            self.assertIn("Since baseline", text)
        self.assertIn("[new-fail]", self.worse_run.stdout)

    def test_every_format_shows_the_marks(self):
        fixed = [r["id"] for r in load(self.dir / "new.json")["rules"] if r.get("change") == "fixed"]
        self.assertTrue(fixed)
        for fmt in ("html", "markdown", "junit", "openmetrics"):
            with self.subTest(format=fmt):
                text = (self.dir / ("new." + FORMATS[fmt])).read_text(encoding="utf-8")
                self.assertIn("fixed", text)
        prom = (self.dir / "new.prom").read_text(encoding="utf-8")
        for rule_id in fixed:
            self.assertIn('rule="%s",change="fixed"} 1' % rule_id, prom)
        # SARIF and GitLab hold findings only: the new failures are marked there
        sarif = load(self.dir / "worse.sarif")
        states = {res.get("baselineState") for run in sarif["runs"] for res in run["results"]}
        self.assertIn("new", states)
        gitlab = load(self.dir / "worse.gitlab.json")
        self.assertTrue(gitlab)
        self.assertTrue(any(f["description"].startswith("[new-fail]") for f in gitlab))

    def diff(self, *args):
        return run_adrprobe(["diff", "--no-color"] + [str(a) for a in args], timeout=30)

    def test_diff_better(self):
        run = self.diff(self.dir / "old.json", self.dir / "new.json")
        self.assertEqual(run.rc, 0, run.describe())
        lines = [l for l in run.stdout.splitlines() if l.strip().startswith("fixed")]
        self.assertEqual(sorted(l.split()[1] for l in lines),
                         sorted(r["id"] for r in load(self.dir / "new.json")["rules"] if r.get("change") == "fixed"))
        self.assertIn("0 new-fail · 0 regressed", run.stdout)

    def test_diff_worse_exits_1(self):
        run = self.diff(self.dir / "new.json", self.dir / "old.json")
        self.assertEqual(run.rc, 1, run.describe())
        self.assertIn("new-fail", run.stdout)
        self.assertIn("/core/no-trailing-slash", run.stdout)
        self.assertIn("pass → fail", run.stdout)

    def test_diff_json(self):
        run = self.diff("-f", "json", self.dir / "new.json", self.dir / "old.json")
        self.assertEqual(run.rc, 1, run.describe())
        d = run.json()
        self.assertEqual(d["schema"], "adrprobe-diff/1")
        old = {r["id"]: r for r in load(self.dir / "old.json")["rules"]}
        new = {r["id"]: r for r in load(self.dir / "new.json")["rules"]}
        self.assertEqual(d["change"]["new-fail"], [i for i in TECHNICAL_2 if old[i]["verdict"] == "fail"
                                                   and new[i]["verdict"] != "fail"])
        self.assertEqual(d["change"]["fixed"], [])
        for r in d["rules"]:
            self.assertEqual(r["before"], new[r["id"]]["verdict"])
            self.assertEqual(r["now"], old[r["id"]]["verdict"])
        self.assertEqual(d["before"]["percent"], 100.0)
        # nothing changed: 0
        same = self.diff("-f", "json", self.dir / "new.json", self.dir / "new.json")
        self.assertEqual(same.rc, 0, same.describe())
        self.assertEqual(same.json()["change"], {"new-fail": [], "fixed": [], "regressed": []})

    def test_diff_across_editions_matches_by_alias(self):
        old1 = load(self.dir / "old-1.0.json")
        self.assertEqual(harness.rule(old1, "API-48")["verdict"], "fail")
        run = self.diff("-f", "json", self.dir / "old-1.0.json", self.dir / "new.json")
        self.assertEqual(run.rc, 0, run.describe())
        rules = {r["id"]: r for r in run.json()["rules"]}
        # API-48 (1.0) is /core/no-trailing-slash (2.0.0)
        self.assertEqual(rules["/core/no-trailing-slash"]["before"], "fail")
        self.assertEqual(rules["/core/no-trailing-slash"]["change"], "fixed")
        self.assertIn("/core/no-trailing-slash", run.json()["change"]["fixed"])
        # a rule 1.0 does not have was "absent"
        self.assertEqual(rules["/core/transport-security"]["before"], "absent")
        # and --baseline does the same
        marked = run_adrprobe(["demo", "--baseline", self.dir / "old-1.0.json", "-f", "json", "-q"])
        self.assertEqual(marked.rc, 0, marked.describe())
        self.assertEqual(harness.rule(marked.json(), "/core/no-trailing-slash")["change"], "fixed")

    def test_not_a_report_or_missing(self):
        summary = self.dir / "summary.json"
        summary.write_text(json.dumps({"schema": "adrprobe-summary/1", "targets": []}), encoding="utf-8")
        text = self.dir / "text.json"
        text.write_text("no JSON at all\n", encoding="utf-8")
        # diff takes two reports or two summaries: a summary beside a report is said so.
        cases = [(summary, "not an adrprobe report", "a summary and"), (text, "not", "not"),
                 (self.dir / "missing.json", "cannot read", "cannot read")]
        for path, message, diff_message in cases:
            with self.subTest(baseline=path.name):
                for args in (["diff", path, self.dir / "new.json"], ["diff", self.dir / "new.json", path]):
                    run = run_adrprobe(args, timeout=30)
                    self.assertEqual(run.rc, 2, run.describe())
                    self.assertIn(diff_message, run.stderr)
                    self.assertIn(path.name, run.stderr)
                    self.assertEqual(run.stdout, "")
                # check stops before any request
                with FixtureServer({}, max_seconds=60) as srv:
                    run = run_adrprobe(["check", srv.base_url, "--baseline", path, "--rate", "0"], timeout=30)
                    self.assertEqual(run.rc, 2, run.describe())
                    self.assertIn("--baseline", run.stderr)
                    self.assertIn(message, run.stderr)
                    self.assertEqual(srv.requests(), [])


    def test_hostile_files_are_one_message_and_exit_2(self):
        """Hostile input III: an earlier report is someone else's file. Deep
        nesting (the issue's input, 200,000 deep, was a SIGSEGV), /dev/zero
        behind a report's name, a FIFO nobody writes to: each one message,
        exit 2, at once, and `check --baseline` sends no request."""
        deep = self.dir / "deep.json"
        deep.write_text('{"schema":"adrprobe-report/1","target":{"x":%s%s},"rules":[]}' % ("[" * 200000, "]" * 200000),
                        encoding="utf-8")
        zero = self.dir / "zero.json"
        zero.symlink_to("/dev/zero")
        fifo = self.dir / "fifo.json"
        os.mkfifo(fifo)
        big = self.dir / "numbers.json"
        big.write_text('{"schema":"adrprobe-report/1","rules":[],"score":{"pass":1e300}}', encoding="utf-8")
        cases = [(deep, "JSON nested deeper than 64 levels: not an adrprobe report"),
                 (zero, "not a regular file (a character device)"),
                 (fifo, "not a regular file (a FIFO)"),
                 (big, "score.pass is not a whole number in range")]
        for path, message in cases:
            with self.subTest(baseline=path.name):
                for args in (["diff", path, self.dir / "new.json"], ["diff", self.dir / "new.json", path]):
                    run = run_adrprobe(args, timeout=30)
                    self.assertEqual(run.rc, 2, run.describe())
                    self.assertEqual(run.stderr.count("adrprobe: error:"), 1, run.stderr)
                    self.assertIn(message, run.stderr)
                    self.assertIn(path.name, run.stderr)
                    self.assertEqual(run.stdout, "")
                with FixtureServer({}, max_seconds=60) as srv:
                    run = run_adrprobe(["check", srv.base_url, "--baseline", path, "--rate", "0"], timeout=30)
                    self.assertEqual(run.rc, 2, run.describe())
                    self.assertIn(message, run.stderr)
                    self.assertEqual(srv.requests(), [])


class NightlyStates(ProbeCase):
    """CLI.md, "Nightly monitoring": --fail-on regressed is red only on what got
    worse, a down target is one entry in every format, and `diff` compares two
    nights of a register per target."""

    def test_fail_on_regressed_needs_something_worse(self):
        with tempfile.TemporaryDirectory() as tmp:
            broken = Path(tmp, "broken.json")
            good = Path(tmp, "good.json")
            self.assertEqual(run_adrprobe(["demo", "--profile", "broken", "-q", "-o", "json=%s" % broken]).rc, 1)
            self.assertEqual(run_adrprobe(["demo", "-q", "-o", "json=%s" % good]).rc, 0)
            # Failing as before: green under --fail-on regressed, red under the default.
            same = run_adrprobe(["demo", "--profile", "broken", "-q", "--baseline", broken, "--fail-on", "regressed"])
            self.assertEqual(same.rc, 0, same.describe())
            self.assertEqual(run_adrprobe(["demo", "--profile", "broken", "-q", "--baseline", broken]).rc, 1)
            # Worse than the conformant night: red.
            worse = run_adrprobe(["demo", "--profile", "broken", "-q", "--baseline", good, "--fail-on", "regressed"])
            self.assertEqual(worse.rc, 1, worse.describe())
            # No baseline: nothing compared, 0.
            self.assertEqual(run_adrprobe(["demo", "--profile", "broken", "-q", "--fail-on", "regressed"]).rc, 0)

    def test_down_is_one_entry_in_every_format(self):
        # https: nothing judged without an answer, every technical rule error
        with tempfile.TemporaryDirectory() as tmp, harness.closed_port("https") as url:
            d = Path(tmp)
            up = d / "up.json"
            self.assertEqual(run_adrprobe(["demo", "-q", "-o", "json=%s" % up]).rc, 0)
            args = ["check", url, "--timeout", "2", "--baseline", up, "--fail-on", "regressed"]
            for fmt, ext in FORMATS.items():
                args += ["-o", "%s=%s" % (fmt, d / ("down." + ext))]
            run = run_adrprobe(args, timeout=60)
            self.assertEqual(run.rc, 1, run.describe())  # newly down: worse
            report = load(d / "down.json")
            self.assertEqual(report["state"], "down")
            self.assertIn("connection refused", report["down_cause"])
            self.assertEqual(report["state_change"], {"down": True, "back_up": False})
            self.assertIsNone(report["score"]["percent"])
            self.assertTrue(all("change" not in r for r in report["rules"]))  # no per-rule marks
            self.assertEqual({r["verdict"] for r in report["rules"] if r["kind"] == "technical"}, {"error"})
            self.assertEqual(report["last_up"]["generated_at"], load(up)["generated_at"])
            errors = [e.message for e in harness.schema_validator().iter_errors(report)]
            self.assertEqual(errors, [])
            junit = (d / "down.xml").read_text(encoding="utf-8")
            self.assertEqual(junit.count("<testcase "), 1)
            self.assertIn('name="down"', junit)
            self.assertIn("went down", (d / "down.txt").read_text(encoding="utf-8"))
            self.assertEqual((d / "down.txt").read_text(encoding="utf-8").count(" ERROR "), 0)
            md = (d / "down.md").read_text(encoding="utf-8")
            self.assertIn("**down: could not reach", md)
            self.assertNotIn("| Rule |", md)
            page = (d / "down.html").read_text(encoding="utf-8")
            self.assertIn("down: could not reach", page)
            self.assertNotIn('id="technical"', page)
            # The night it answers again is compared with its last night up.
            back = run_adrprobe(["demo", "-q", "--baseline", d / "down.json", "-f", "json"])
            self.assertEqual(back.rc, 0, back.describe())
            self.assertEqual(back.json()["state_change"], {"down": False, "back_up": True})
            self.assertTrue(all(r.get("change") == "unchanged" for r in back.json()["rules"]))

    def test_diff_of_two_register_nights(self):
        with tempfile.TemporaryDirectory() as tmp, FixtureServer({}, max_seconds=600) as srv, \
                harness.closed_port() as down:
            d = Path(tmp)

            def night(name, targets, baseline=None):
                reg = d / (name + ".yaml")
                reg.write_text(harness.yaml_text({"defaults": {"edition": "1.0"}, "targets": targets}),
                               encoding="utf-8")
                args = ["batch", reg, "--out-dir", d / name, "--rate", "0", "-q"]
                if baseline:
                    args += ["--baseline-dir", d / baseline]
                run = run_adrprobe(args, timeout=60)
                self.assertIn(run.rc, (0, 1, 3), run.describe())

            night("n1", [{"name": "stays", "base_url": srv.base_url}, {"name": "goes", "base_url": srv.base_url},
                         {"name": "removed", "base_url": srv.base_url}])
            night("n2", [{"name": "stays", "base_url": srv.base_url}, {"name": "goes", "base_url": down, "timeout": 2},
                         {"name": "added", "base_url": srv.base_url}], baseline="n1")
            run = run_adrprobe(["diff", d / "n1", d / "n2", "-f", "json"])
            self.assertEqual(run.rc, 1, run.describe())  # a target went down
            j = run.json()
            self.assertEqual(j["schema"], "adrprobe-summary-diff/1")
            rows = {t["name"]: t for t in j["targets"]}
            self.assertEqual(rows["goes"]["change"]["down"], True)
            self.assertEqual(rows["goes"]["state_now"], "down")
            self.assertEqual(rows["goes"]["moved_from"], srv.base_url)
            self.assertEqual(rows["added"]["what"], "added")
            self.assertEqual(rows["removed"]["what"], "removed")
            self.assertEqual(rows["stays"]["change"], {"new-fail": [], "fixed": [], "regressed": [], "down": False,
                                                       "back_up": False})
            # summary.json files work as well as their directories; the other way round, back up.
            text = run_adrprobe(["diff", d / "n2" / "summary.json", d / "n1" / "summary.json", "--no-color"])
            self.assertEqual(text.rc, 0, text.describe())
            self.assertIn("back up", text.stdout)


if __name__ == "__main__":
    harness.main()
