#!/usr/bin/python3
"""`adrprobe batch` and `adrprobe summary` (CLI.md, "Batch file"): a register of
APIs probed concurrently, one report per target named after its name (two APIs
on one host and port get two files), a target that is down gets `error` verdicts
while the others finish, `--shard K/N` (0-based) splits the register so that
every target is probed exactly once, `summary DIR...` merges the shards'
summary.json/.html/.prom, `--baseline-dir` marks each rule against the previous
night's report, the per-host `--rate` holds across targets and `--concurrency`
bounds the requests in flight over the whole batch, usage errors stop before any
request, and header values from the register appear in no output.

Every server listens on 127.0.0.1 (the second "host" of the rate test is the
name `localhost`, the same address under another host name)."""

import json
import os
import re
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import FixtureServer, ProbeCase, run_adrprobe, yaml_text  # noqa: E402

# Edition 1.0 has no transport-security rule, so a conformant API over plain
# HTTP passes every technical rule and a down one has nothing but `error`.
EDITION = "1.0"
FAILING = {"trailing_slash": 301, "api_version": None}  # API-48 and API-57 fail
FAILING_RULES = ["API-48", "API-57"]
DOWN_NOTE = "could not reach"


def write_register(directory, targets, defaults=None, name="targets.yaml"):
    path = Path(directory, name)
    doc = {}
    if defaults:
        doc["defaults"] = defaults
    doc["targets"] = targets
    path.write_text(yaml_text(doc), encoding="utf-8")
    return path


def batch(register, out, *args, env=None, timeout=60):
    return run_adrprobe(["batch", register, "--out-dir", out, "--rate", "0", "--no-color"] + list(args),
                        env=env, timeout=timeout)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def failing_of(report):
    return [r["id"] for r in report["rules"] if r["kind"] == "technical" and r["verdict"] == "fail"]


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.hrefs += [v for k, v in attrs if k == "href" and v]


def links_of(html_text):
    p = Links()
    p.feed(html_text)
    return p.hrefs


class ShardedNightlyRun(ProbeCase):
    """The issue's acceptance test: four targets (two APIs on one host and port,
    one conformant and one failing, another API, one down), two shards, one
    merged summary."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        tmp = Path(cls.tmp.name)
        cls.shared = FixtureServer({"base": "/a/v1"}, mounts=[dict(FAILING, base="/b/v1")], max_seconds=600).start()
        cls.other = FixtureServer({}, max_seconds=600).start()
        cls.closed = harness.closed_port()
        down = cls.closed.__enter__()
        cls.urls = {"alpha": cls.shared.base_url, "beta": cls.shared.mount("/b/v1").base_url,
                    "down": down, "gamma": cls.other.base_url}
        targets = [{"name": "alpha", "base_url": cls.urls["alpha"]},
                   {"name": "beta", "base_url": cls.urls["beta"]},
                   {"name": "down", "base_url": cls.urls["down"], "timeout": 2},
                   {"name": "gamma", "base_url": cls.urls["gamma"]}]
        cls.register = write_register(tmp, targets, defaults={"edition": EDITION})
        cls.dirs = [tmp / "d0", tmp / "d1"]
        cls.runs = [batch(cls.register, d, "--shard", "%d/2" % k, "-o", "junit", "-o", "html")
                    for k, d in enumerate(cls.dirs)]
        cls.merged_dir = tmp / "M"
        cls.merge = run_adrprobe(["summary", "--out-dir", cls.merged_dir, cls.dirs[0], cls.dirs[1]], timeout=30)
        cls.only_d0 = run_adrprobe(["summary", "--out-dir", tmp / "M0", cls.dirs[0]], timeout=30)

    @classmethod
    def tearDownClass(cls):
        cls.shared.stop()
        cls.other.stop()
        cls.closed.__exit__(None, None, None)
        cls.tmp.cleanup()

    def summary(self, directory):
        return load(Path(directory, "summary.json"))

    def rows(self, directory):
        return {t["name"]: t for t in self.summary(directory)["targets"]}

    def report_of(self, name):
        """(path, report) of a target, from the merged summary's link."""
        row = self.rows(self.merged_dir)[name]
        path = (self.merged_dir / row["report"]).resolve()
        self.assertTrue(path.is_file(), "%s: the merged summary's report %s does not resolve" % (name, row["report"]))
        return path, load(path)

    def test_runs_finished(self):
        for run in self.runs + [self.merge, self.only_d0]:
            self.assertNoCrash(run)

    def test_every_target_exactly_once_over_the_shards(self):
        names = [[t["name"] for t in self.summary(d)["targets"]] for d in self.dirs]
        # register order, every second target from K (0-based)
        self.assertEqual(names, [["alpha", "down"], ["beta", "gamma"]])
        self.assertIn("2 of 4 targets (shard 0/2)", self.runs[0].stdout)
        self.assertIn("2 of 4 targets (shard 1/2)", self.runs[1].stdout)
        merged = [t["name"] for t in self.summary(self.merged_dir)["targets"]]
        self.assertEqual(sorted(merged), ["alpha", "beta", "down", "gamma"])
        # and each target's server saw one run only: alpha's and beta's requests under their own base
        alpha = [r for r in self.shared.requests()]
        beta = self.shared.mount("/b/v1").requests()
        self.assertTrue(alpha and beta)
        self.assertTrue(all(r["path"].startswith("/a/v1") for r in alpha), alpha[:3])
        self.assertTrue(all(r["path"].startswith("/b/v1") for r in beta), beta[:3])
        self.assertEqual(sum(1 for r in alpha if r["method"] == "GET" and r["path"] == "/a/v1/openapi.json"),
                         sum(1 for r in beta if r["method"] == "GET" and r["path"] == "/b/v1/openapi.json"))

    def test_one_valid_report_per_target_named_after_it(self):
        validator = harness.schema_validator()
        expected = {"alpha": (0, "alpha"), "beta": (1, "beta"), "down": (0, "down"), "gamma": (1, "gamma")}
        for name, (shard, stem) in expected.items():
            with self.subTest(target=name):
                row = self.rows(self.dirs[shard])[name]
                self.assertEqual(row["report"], stem + ".json")
                report = load(self.dirs[shard] / (stem + ".json"))
                errors = sorted(validator.iter_errors(report), key=lambda e: list(e.absolute_path))
                self.assertEqual([], ["%s: %s" % ("/".join(map(str, e.absolute_path)), e.message) for e in errors[:5]])
                self.assertEqual(report["target"]["name"], name)
                self.assertEqual(report["target"]["base_url"], self.urls[name])
                self.assertEqual(report["edition"], EDITION)
        # two APIs on one host and port: two files, each with its own API's exchanges
        beta = load(self.dirs[1] / (expected["beta"][1] + ".json"))
        alpha = load(self.dirs[0] / (expected["alpha"][1] + ".json"))
        self.assertTrue(all("/b/v1" in u for u in harness.exchange_urls(beta)))
        self.assertTrue(all("/a/v1" in u for u in harness.exchange_urls(alpha)))
        # a shard's directory holds only its own targets' files
        for k, d in enumerate(self.dirs):
            stems = {re.sub(r"\.(json|xml|html)$", "", p.name) for p in d.iterdir() if not p.name.startswith("summary.")}
            self.assertEqual(stems, {s for n, (shard, s) in expected.items() if shard == k})

    def test_other_formats_beside_the_json(self):
        for d in self.dirs:
            for row in self.summary(d)["targets"]:
                stem = row["report"][:-len(".json")]
                with self.subTest(target=row["name"]):
                    xml = (d / (stem + ".xml")).read_text(encoding="utf-8")
                    self.assertIn("<testsuite", xml)
                    page = (d / (stem + ".html")).read_text(encoding="utf-8")
                    self.assertIn(row["name"], page)
                    self.assertNotIn(".part", " ".join(p.name for p in d.iterdir()))

    def test_down_target_errors_and_the_others_have_verdicts(self):
        _, down = self.report_of("down")
        for r in down["rules"]:
            self.assertEqual(r["verdict"], "error" if r["kind"] == "technical" else "manual", r["id"])
        self.assertTrue(any(DOWN_NOTE in n for n in down.get("notes", [])), down.get("notes"))
        row = self.rows(self.merged_dir)["down"]
        self.assertIs(row["reachable"], False)
        self.assertIn(DOWN_NOTE, row["note"])
        self.assertEqual(row["failing"], [])
        # Down: one state (CLI.md, "Nightly monitoring"), no score and no per-rule verdicts.
        self.assertEqual(row["state"], "down")
        self.assertIsNone(row["score"])
        self.assertEqual(row["verdicts"], {})
        self.assertEqual(down["state"], "down")
        self.assertIsNone(down["score"]["percent"])
        self.assertIn(DOWN_NOTE, down["down_cause"])
        for name in ("alpha", "beta", "gamma"):
            _, report = self.report_of(name)
            verdicts = {r["verdict"] for r in report["rules"] if r["kind"] == "technical"}
            self.assertNotIn("error", verdicts, name)
            self.assertIs(self.rows(self.merged_dir)[name]["reachable"], True)
        _, beta = self.report_of("beta")
        self.assertEqual(failing_of(beta), FAILING_RULES)
        for name in ("alpha", "gamma"):
            self.assertEqual(failing_of(self.report_of(name)[1]), [], name)

    def test_exit_status(self):
        # shard 0: alpha passes, down could not be completed -> 3; shard 1: beta fails -> 1
        self.assertEqual(self.runs[0].rc, 3, self.runs[0].describe())
        self.assertEqual(self.runs[1].rc, 1, self.runs[1].describe())
        self.assertEqual(self.merge.rc, 1, self.merge.describe())
        self.assertEqual(self.only_d0.rc, 3, self.only_d0.describe())
        statuses = {t["name"]: t["exit_status"] for t in self.summary(self.merged_dir)["targets"]}
        self.assertEqual(statuses, {"alpha": 0, "beta": 1, "down": 3, "gamma": 0})

    def test_stdout_lines(self):
        lines = self.merge.stdout.splitlines()
        for name in ("alpha", "beta", "down", "gamma"):
            self.assertTrue(any(re.search(r"\b%s\b" % name, l) for l in lines), name)
        down = [l for l in lines if " down " in l and self.urls["down"] in l]
        self.assertTrue(down and DOWN_NOTE in down[0], lines)
        self.assertIn("4 targets", self.merge.stdout)

    def test_target_lines_line_up(self):
        """Each output's target lines: the URL and the counts each start in one
        column (the score between them has a fixed width), whichever name and
        URL is longest (a batch prints a line as its target finishes, so it
        sizes the columns for every target first)."""
        # state, name, URL, score (right-aligned, or n/a), then the counts
        line = re.compile(r"^  (pass |fail |warn |error|down ) (\S+) +(\S+) +(\d+\.\d %|n/a) +(\d+ fail|down)")
        for run in self.runs + [self.merge]:
            matches = [m for m in map(line.match, run.stdout.splitlines()) if m]
            self.assertEqual(len(matches), 4 if run is self.merge else 2, run.stdout)
            for field in (3, 5):
                self.assertEqual(len({m.start(field) for m in matches}), 1, "field %d:\n%s" % (field, run.stdout))

    def test_merged_summary_agrees_with_each_report(self):
        s = self.summary(self.merged_dir)
        self.assertEqual(s["schema"], "adrprobe-summary/1")
        self.assertRegex(s["generated_at"], harness.RFC3339)
        for row in s["targets"]:
            with self.subTest(target=row["name"]):
                path, report = self.report_of(row["name"])
                self.assertEqual(report["target"]["name"], row["name"])
                self.assertEqual(row["base_url"], report["target"]["base_url"])
                self.assertEqual(row["edition"], report["edition"])
                self.assertEqual(row["score"], report["score"] if report["state"] == "up" else None)
                self.assertEqual(row["failing"], failing_of(report))
                self.assertIsNone(row["change"])  # no baseline
                # the shard's own summary says the same, its report link relative to the shard
                shard = [d for d in self.dirs if (d / Path(row["report"]).name).exists()]
                self.assertEqual(len(shard), 1)
                own = self.rows(shard[0])[row["name"]]
                # the merged summary links a copy inside its own directory
                self.assertEqual(path, (self.merged_dir / row["report"]).resolve())
                self.assertEqual(row["report"], own["report"])
                self.assertEqual((shard[0] / own["report"]).read_bytes(), path.read_bytes())
                self.assertEqual({k: v for k, v in own.items() if k not in ("report", "files")},
                                 {k: v for k, v in row.items() if k not in ("report", "files")})
                # every file of the target, from either summary, is the same file
                self.assertEqual(set(row["files"]), {"json", "junit", "html"})
                for fmt, name in own["files"].items():
                    self.assertEqual((shard[0] / name).read_bytes(), (self.merged_dir / row["files"][fmt]).read_bytes())
                    self.assertTrue((shard[0] / name).is_file(), name)

    def test_summary_html_links_every_report(self):
        for d in self.dirs + [self.merged_dir]:
            with self.subTest(directory=d.name):
                page = (d / "summary.html").read_text(encoding="utf-8")
                hrefs = links_of(page)
                self.assertTrue(hrefs)
                for href in hrefs:
                    self.assertNotRegex(href, r"^[a-z]+:", "a link out of the directory: " + href)
                    self.assertTrue((d / unquote(href)).is_file(), "%s: dead link %s" % (d.name, href))
                linked = {(d / unquote(h)).resolve() for h in hrefs}
                for row in self.summary(d)["targets"]:
                    report = (d / row["report"]).resolve()
                    self.assertIn(report, linked, row["name"])
                    self.assertIn(report.with_suffix(".html"), linked, row["name"])
                    self.assertIn(row["name"], page)

    def test_summary_prom_parses(self):
        harness.require_module("prometheus_client", "python3-prometheus-client")
        from prometheus_client.openmetrics.parser import text_string_to_metric_families
        text = (self.merged_dir / "summary.prom").read_text(encoding="utf-8")
        families = {f.name: f for f in text_string_to_metric_families(text)}
        reachable = {s.labels["target"]: s.value for s in families["adrprobe_target_reachable"].samples}
        self.assertEqual(reachable, {"alpha": 1, "beta": 1, "down": 0, "gamma": 1})
        failing = {(s.labels["target"], s.labels["rule"]) for s in families["adrprobe_rule_failing"].samples
                   if s.value == 1}
        self.assertEqual(failing, {("beta", r) for r in FAILING_RULES})


class DownOverHttp(ProbeCase):
    """A target that is down over http:// in an edition with a transport rule: TS-1
    fails by the scheme alone, so its rule fails (probes.md: fail > error) and the
    night is 1 under --fail-on fail (CLI.md's exit table), for the target's row,
    the batch and a merge alike; its row is still one state, down, with no verdicts."""

    def test_down_http_target_fails_the_night(self):
        with tempfile.TemporaryDirectory() as tmp, harness.closed_port() as url:
            register = write_register(tmp, [{"name": "weg", "base_url": url, "timeout": 2}],
                                      defaults={"edition": "2.0.0"})
            out = Path(tmp, "out")
            run = batch(register, out)
            merged = run_adrprobe(["summary", "--out-dir", Path(tmp, "merged"), out], timeout=30)
            never = batch(register, Path(tmp, "never"), "--fail-on", "never")
            report = load(out / "weg.json")
            row = self.rows_of(out)["weg"]
        self.assertNoCrash(run)
        self.assertEqual(report["state"], "down")
        self.assertEqual(harness.rule(report, "/core/transport-security")["verdict"], "fail")
        self.assertEqual((row["state"], row["score"], row["verdicts"]), ("down", None, {}))
        self.assertEqual(row["exit_status"], 1)
        self.assertEqual(run.rc, 1, run.describe())
        self.assertEqual(merged.rc, 1, merged.describe())
        self.assertEqual(never.rc, 3, never.describe())  # not completed, whatever failed

    def rows_of(self, directory):
        return {t["name"]: t for t in load(Path(directory, "summary.json"))["targets"]}


class BaselineDir(ProbeCase):
    """--baseline-dir: each target compared with its report of the previous run."""

    def test_changes_since_the_previous_run(self):
        with tempfile.TemporaryDirectory() as tmp, \
                FixtureServer({"trailing_slash": 301}, max_seconds=120) as changing, \
                FixtureServer({}, max_seconds=120) as steady, \
                FixtureServer({}, max_seconds=120) as newcomer:
            targets = [{"name": "changing", "base_url": changing.base_url},
                       {"name": "steady", "base_url": steady.base_url}]
            night1 = Path(tmp, "night1")
            run1 = batch(write_register(tmp, targets, {"edition": EDITION}), night1)
            self.assertEqual(run1.rc, 1, run1.describe())
            for row in load(night1 / "summary.json")["targets"]:
                self.assertIsNone(row["change"], row["name"])
            # the next night: the trailing slash is fixed, the API-Version header is gone
            changing.fixture.profile.update({"trailing_slash": 404, "api_version": None})
            targets.append({"name": "newcomer", "base_url": newcomer.base_url})
            night2 = Path(tmp, "night2")
            run2 = batch(write_register(tmp, targets, {"edition": EDITION}), night2, "--baseline-dir", night1)
            self.assertEqual(run2.rc, 1, run2.describe())
            rows = {t["name"]: t for t in load(night2 / "summary.json")["targets"]}
            self.assertEqual(rows["changing"]["change"], {"new-fail": ["API-57"], "fixed": ["API-48"], "regressed": [], "down": False, "back_up": False})
            self.assertEqual(rows["steady"]["change"], {"new-fail": [], "fixed": [], "regressed": [], "down": False, "back_up": False})
            # a target new in the register has no earlier report: nothing to compare
            self.assertIsNone(rows["newcomer"]["change"])
            report = load(night2 / rows["changing"]["report"])
            marks = {r["id"]: r.get("change") for r in report["rules"]}
            self.assertEqual(marks["API-57"], "new-fail")
            self.assertEqual(marks["API-48"], "fixed")
            self.assertEqual({marks[i] for i in harness.technical_ids(EDITION) if i not in ("API-48", "API-57")},
                             {"unchanged"})
            self.assertTrue(all(r.get("change") == "unchanged" for r in load(night2 / rows["steady"]["report"])["rules"]))
            self.assertEqual([r["id"] for r in load(night2 / rows["newcomer"]["report"])["rules"] if "change" in r], [])
            # the line on stdout and the page say what changed
            line = [l for l in run2.stdout.splitlines() if "changing" in l][0]
            self.assertIn("new-fail: API-57", line)
            self.assertIn("fixed: API-48", line)
            page = (night2 / "summary.html").read_text(encoding="utf-8")
            self.assertIn("API-57", page)
            self.assertIn("fixed", page)
            # without -o html the page links the JSON reports, and no HTML report that is not there
            hrefs = links_of(page)
            self.assertEqual(sorted(hrefs), sorted(t["report"] for t in rows.values()))


    def test_a_reordered_register_keeps_each_target_its_baseline(self):
        # Two tenants of one API (one base URL), one with a key: their files are
        # named by their names, so reordering the register swaps nothing.
        with tempfile.TemporaryDirectory() as tmp, FixtureServer({"openapi_json": "auth"}, max_seconds=120) as srv:
            good = {"name": "tenant-good", "base_url": srv.base_url,
                    "headers": {"Authorization": harness.BEARER}}
            anon = {"name": "tenant-anon", "base_url": srv.base_url}
            night1, night2 = Path(tmp, "n1"), Path(tmp, "n2")
            batch(write_register(tmp, [good, anon], {"edition": EDITION}), night1)
            run2 = batch(write_register(tmp, [anon, good], {"edition": EDITION}, name="reordered.yaml"), night2,
                         "--baseline-dir", night1)
            rows = {t["name"]: t for t in load(night2 / "summary.json")["targets"]}
            self.assertEqual(set(rows), {"tenant-good", "tenant-anon"}, run2.describe())
            for name, row in rows.items():
                self.assertIn(name, row["report"])
                self.assertEqual(row["change"], {"new-fail": [], "fixed": [], "regressed": [], "down": False, "back_up": False}, name)

    def test_a_baseline_that_cannot_be_used_is_said_so(self):
        with tempfile.TemporaryDirectory() as tmp, FixtureServer({}, max_seconds=120) as srv:
            register = write_register(tmp, [{"name": "api", "base_url": srv.base_url}], {"edition": EDITION})
            night1, night2 = Path(tmp, "n1"), Path(tmp, "n2")
            batch(register, night1)
            report = load(night1 / "summary.json")["targets"][0]["report"]
            (night1 / report).write_text("garbage", encoding="utf-8")
            run = batch(register, night2, "--baseline-dir", night1)
            self.assertEqual(run.rc, 0, run.describe())
            summary = load(night2 / "summary.json")
            row = summary["targets"][0]
            self.assertIsNone(row["change"])
            self.assertIn("no change shown", row["note"])
            self.assertTrue(any("no change shown" in n for n in summary["notes"]), summary["notes"])
            self.assertIn("warning", run.stderr)
            self.assertIn("no change shown", (night2 / "summary.html").read_text(encoding="utf-8"))

    def test_hostile_baselines_are_a_note_and_the_batch_goes_on(self):
        """Hostile input III: one deep file in last night's baseline directory
        (the issue's input, 200,000 deep) killed the whole batch. Now it, and
        /dev/zero or a FIFO planted under a target's name, is a note on that
        target's row and on stderr; every target is probed, and the one with a
        good baseline gets its marks."""
        with tempfile.TemporaryDirectory() as tmp, FixtureServer({}, max_seconds=120) as srv:
            targets = [{"name": n, "base_url": srv.base_url + suffix}
                       for n, suffix in (("deep", ""), ("zero", "/x"), ("fifo", "/y"), ("good", "/z"))]
            register = write_register(tmp, targets, {"edition": EDITION})
            night1, night2 = Path(tmp, "n1"), Path(tmp, "n2")
            run1 = batch(register, night1)
            self.assertNoCrash(run1)
            reports = {t["name"]: night1 / t["report"] for t in load(night1 / "summary.json")["targets"]}
            reports["deep"].write_text('{"schema":"adrprobe-report/1","target":{"x":%s%s},"rules":[]}'
                                       % ("[" * 200000, "]" * 200000), encoding="utf-8")
            reports["zero"].unlink()
            reports["zero"].symlink_to("/dev/zero")
            reports["fifo"].unlink()
            os.mkfifo(reports["fifo"])
            run = batch(register, night2, "--baseline-dir", night1, timeout=90)
            self.assertNoCrash(run)
            rows = {t["name"]: t for t in load(night2 / "summary.json")["targets"]}
            self.assertEqual(set(rows), {"deep", "zero", "fifo", "good"}, run.describe())
            why = {"deep": "nested deeper than 64 levels", "zero": "not a regular file (a character device)",
                   "fifo": "not a regular file (a FIFO)"}
            for name, message in why.items():
                with self.subTest(target=name):
                    self.assertIsNone(rows[name]["change"])
                    self.assertIn(message, rows[name]["note"])
                    self.assertIn("no change shown", rows[name]["note"])
                    self.assertIn(message, run.stderr)
                    # probed all the same: a report with verdicts
                    report = load(night2 / rows[name]["report"])
                    self.assertTrue(any(r["verdict"] in ("pass", "fail") for r in report["rules"]), name)
            self.assertEqual(rows["good"]["change"], {"new-fail": [], "fixed": [], "regressed": [], "down": False, "back_up": False})


class IncompleteMerge(ProbeCase):
    """A merged summary says when a shard is missing, not only on stderr."""

    def test_missing_shard_marks_the_summary_incomplete(self):
        with tempfile.TemporaryDirectory() as tmp, FixtureServer({}, max_seconds=120) as srv:
            targets = [{"name": "a", "base_url": srv.base_url}, {"name": "b", "base_url": srv.base_url + "x"}]
            register = write_register(tmp, targets, {"edition": EDITION})
            shard0 = Path(tmp, "s0")
            batch(register, shard0, "--shard", "0/2")
            shard = load(shard0 / "summary.json")["shard"]
            self.assertEqual(shard, {"k": 0, "n": 2, "register": 2})
            merged = Path(tmp, "m")
            run = run_adrprobe(["summary", "--out-dir", merged, shard0])
            self.assertEqual(run.rc, 3, run.describe())
            summary = load(merged / "summary.json")
            self.assertFalse(summary["complete"])
            self.assertTrue(any("1/2" in n for n in summary["notes"]), summary["notes"])
            self.assertIn("Incomplete", (merged / "summary.html").read_text(encoding="utf-8"))

    def test_hostile_shard_summaries(self):
        """Hostile input III: a 90-byte summary.json whose shard N is 10^12 made
        the merge build a string per missing shard (2.1 GB, then exit 70); a
        summary.json that is /dev/zero was read until memory ran out; a deep one
        was a stack overflow. Each is now a note (exit 3 beside a good shard),
        and the shards a merge lacks are listed ten at most."""
        with tempfile.TemporaryDirectory() as tmp, FixtureServer({}, max_seconds=120) as srv:
            register = write_register(tmp, [{"name": "a", "base_url": srv.base_url}], {"edition": EDITION})
            good = Path(tmp, "good")
            self.assertNoCrash(batch(register, good))
            bad = {"huge-n": '{"schema":"adrprobe-summary/1","shard":{"k":0,"n":1000000000000},"targets":[]}',
                   "deep": '{"schema":"adrprobe-summary/1","x":%s%s,"targets":[]}' % ("[" * 200000, "]" * 200000)}
            why = {"huge-n": "shard 0/1000000000000: N must be at most 999999",
                   "deep": "nested deeper than 64 levels",
                   "zero": "not a regular file (a character device)",
                   "fifo": "not a regular file (a FIFO)"}
            for name, text in bad.items():
                Path(tmp, name).mkdir()
                Path(tmp, name, "summary.json").write_text(text, encoding="utf-8")
            Path(tmp, "zero").mkdir()
            Path(tmp, "zero", "summary.json").symlink_to("/dev/zero")
            Path(tmp, "fifo").mkdir()
            os.mkfifo(Path(tmp, "fifo", "summary.json"))
            for name, message in why.items():
                with self.subTest(shard=name):
                    merged = Path(tmp, "m-" + name)
                    run = run_adrprobe(["summary", "--out-dir", merged, good, Path(tmp, name)], timeout=30)
                    self.assertEqual(run.rc, 3, run.describe())
                    self.assertLess(run.maxrss_kb, harness.memory_limit_kb(256 * 1024), run.describe())
                    summary = load(merged / "summary.json")
                    self.assertFalse(summary["complete"])
                    self.assertTrue(any(message in n for n in summary["notes"]), summary["notes"])
                    self.assertIn(message, run.stderr)
                    self.assertEqual([t["name"] for t in summary["targets"]], ["a"])
                    # alone: no shard could be read, one message, exit 2
                    run = run_adrprobe(["summary", "--out-dir", Path(tmp, "alone-" + name), Path(tmp, name)], timeout=30)
                    self.assertEqual(run.rc, 2, run.describe())
                    self.assertIn(message, run.stderr)
            # a shard of the largest N --shard takes: the missing ones are named ten at most
            big = Path(tmp, "big")
            big.mkdir()
            shard = load(good / "summary.json")
            shard["shard"] = {"k": 0, "n": 999999, "register": 1}
            (big / "summary.json").write_text(json.dumps(shard), encoding="utf-8")
            run = run_adrprobe(["summary", "--out-dir", Path(tmp, "m-big"), big], timeout=30)
            self.assertEqual(run.rc, 3, run.describe())
            notes = [n for n in load(Path(tmp, "m-big", "summary.json"))["notes"] if n.startswith("incomplete")]
            self.assertEqual(notes, ["incomplete: no summary of shard 1/999999, 2/999999, 3/999999, 4/999999, 5/999999, "
                                     "6/999999, 7/999999, 8/999999, 9/999999, 10/999999, … (+999988 more) "
                                     "(of a register of 1 targets)"])


def intervals_overlap(requests):
    """The most requests being answered at one moment: each from its arrival to
    just before its answer was written (inside the client's own in-flight time)."""
    events = []
    for r in requests:
        events.append((r["time"], 1))
        events.append((r.get("responded", r["time"]), -1))
    most = now = 0
    for _, step in sorted(events, key=lambda e: (e[0], e[1])):  # an end before a start at the same instant
        now += step
        most = max(most, now)
    return most


class SharedGate(ProbeCase):
    """One http::Gate for every target of a batch."""

    RATE = 5

    def test_rate_per_host_holds_across_targets(self):
        with tempfile.TemporaryDirectory() as tmp, \
                FixtureServer({"base": "/a/v1"}, mounts=[{"base": "/b/v1"}], max_seconds=120) as one_host, \
                FixtureServer({}, max_seconds=120) as other_host:
            other_url = other_host.base_url.replace("127.0.0.1", "localhost")
            register = write_register(tmp, [{"name": "a", "base_url": one_host.base_url},
                                            {"name": "b", "base_url": one_host.mount("/b/v1").base_url},
                                            {"name": "c", "base_url": other_url}], {"edition": EDITION})
            run = run_adrprobe(["batch", register, "--out-dir", Path(tmp, "out"), "--rate", self.RATE], timeout=60)
            self.assertEqual(run.rc, 0, run.describe())
            host = one_host.all_requests()
            a = [r["time"] for r in one_host.requests()]
            b = [r["time"] for r in one_host.mount("/b/v1").requests()]
            c = [r["time"] for r in other_host.requests()]
            self.assertTrue(len(a) > 5 and len(b) > 5 and len(c) > 5, (len(a), len(b), len(c)))
            # a and b ran at the same time (so the limit below is one limit over both)
            self.assertLess(min(b), max(a))
            self.assertLess(min(a), max(b))
            times = [r["time"] for r in host]
            interval = 1.0 / self.RATE
            gaps = [y - x for x, y in zip(times, times[1:])]
            # The times are arrivals, stamped by the fixture's handler threads: on a
            # loaded machine a request can arrive late and the next ones soon after
            # it, so single gaps say little. Averages over seconds do: a gate per
            # target would let a and b each run at RATE, twice RATE at this host.
            self.assertLessEqual((len(times) - 1) / (times[-1] - times[0]), self.RATE * 1.25, gaps)
            # No burst: no two seconds hold more than 3 * RATE (one gate per target
            # gives about 4 * RATE; a second's stall of the fixture still passes).
            busiest = max(sum(1 for t in times if start <= t < start + 2.0) for start in times)
            self.assertLessEqual(busiest, 3 * self.RATE, gaps)
            # the other host is not held behind the first one's slots: it ran alongside,
            # and while it ran both hosts together got well over RATE (about 2 * RATE;
            # one gate for all hosts would hold them to RATE)
            self.assertLess(min(c), times[-1] - 4 * interval)
            while_c = [t for t in times + c if min(c) <= t <= max(c)]
            self.assertGreater((len(while_c) - 1) / (max(c) - min(c)), self.RATE * 1.3,
                               "both hosts: %d requests in the other one's %.2f s"
                               % (len(while_c), max(c) - min(c)))

    def run_with_concurrency(self, n):
        with tempfile.TemporaryDirectory() as tmp, \
                FixtureServer({"delay": 0.03}, max_seconds=120) as s1, \
                FixtureServer({"delay": 0.03}, max_seconds=120) as s2, \
                FixtureServer({"delay": 0.03}, max_seconds=120) as s3:
            register = write_register(tmp, [{"name": "s%d" % i, "base_url": s.base_url}
                                            for i, s in enumerate((s1, s2, s3))], {"edition": EDITION})
            run = batch(register, Path(tmp, "out"), "--concurrency", n)
            self.assertEqual(run.rc, 0, run.describe())
            requests = s1.requests() + s2.requests() + s3.requests()
            self.assertTrue(all("responded" in r for r in requests))
            return intervals_overlap(requests)

    def test_concurrency_one_over_the_whole_batch(self):
        self.assertEqual(self.run_with_concurrency(1), 1)

    def test_concurrency_bounds_requests_in_flight_across_targets(self):
        # three targets, each client would run 2 at once: together still 2
        self.assertEqual(self.run_with_concurrency(2), 2)


class UsageErrors(ProbeCase):
    """Exit 2 before any request, with a message that names the problem and never a header value."""

    SECRET = "Usage+Secret=Value9q"

    def refused(self, targets, *args, defaults=None, env=None, expect=()):
        with tempfile.TemporaryDirectory() as tmp, FixtureServer({}, max_seconds=60) as srv:
            for t in targets:
                t.setdefault("headers", {"X-Api-Key": self.SECRET})
                if t.get("base_url") == "FIXTURE":
                    t["base_url"] = srv.base_url
            register = write_register(tmp, targets, defaults)
            run = batch(register, Path(tmp, "out"), *args, env=env, timeout=30)
            self.assertEqual(run.rc, 2, run.describe())
            self.assertEqual(srv.requests(), [], "a request was sent before the usage error")
            self.assertNotIn(self.SECRET, run.stdout + run.stderr)
            for text in expect:
                self.assertIn(text, run.stderr)
            self.assertFalse(Path(tmp, "out", "summary.json").exists())
            return run

    def test_unknown_key(self):
        self.refused([{"name": "x", "base_url": "FIXTURE", "rat": 5}], expect=["rat", "unknown key"])

    def test_unknown_key_in_defaults(self):
        self.refused([{"name": "x", "base_url": "FIXTURE"}], defaults={"edtion": "1.0"}, expect=["edtion"])

    def test_missing_base_url(self):
        self.refused([{"name": "x", "base_url": "FIXTURE"}, {"name": "y"}], expect=["base_url", "y"])

    def test_bad_shard(self):
        for shard in ("2/2", "x", "1-2", "0/0", "-1/2", "1/"):
            with self.subTest(shard=shard):
                self.refused([{"name": "x", "base_url": "FIXTURE"}], "--shard", shard, expect=["--shard"])

    def test_unset_variable_in_a_header(self):
        run = self.refused([{"name": "x", "base_url": "FIXTURE", "headers": {"Authorization": "${ADRPROBE_IT_UNSET}"}},
                            {"name": "y", "base_url": "FIXTURE"}],
                           env={"ADRPROBE_IT_UNSET": None}, expect=["ADRPROBE_IT_UNSET", "Authorization"])
        self.assertIn("not set", run.stderr)

    def test_duplicate_name(self):
        self.refused([{"name": "x", "base_url": "FIXTURE"}, {"name": "x", "base_url": "FIXTURE"}],
                     expect=["'x'", "twice"])

    def test_output_with_a_path(self):
        self.refused([{"name": "x", "base_url": "FIXTURE"}], "-o", "junit=report.xml", expect=["-o junit=report.xml"])

    def test_unknown_format(self):
        self.refused([{"name": "x", "base_url": "FIXTURE"}], "-o", "pdf", expect=["pdf"])

    def test_register_not_utf8_names_its_line(self):
        """Hostile input III, item 8: a Latin-1 name was written with U+FFFD and
        never matched its own baseline; now the register is refused at load."""
        with tempfile.TemporaryDirectory() as tmp, FixtureServer({}, max_seconds=60) as srv:
            register = Path(tmp, "targets.yaml")
            register.write_bytes(b"targets:\n  - name: S\xfadwest\n    base_url: %s\n" % srv.base_url.encode())
            run = batch(register, Path(tmp, "out"), timeout=30)
            self.assertEqual(run.rc, 2, run.describe())
            self.assertIn("targets.yaml: line 2, column 12: not UTF-8", run.stderr)
            self.assertEqual(srv.requests(), [])
            self.assertFalse(Path(tmp, "out", "summary.json").exists())

    def test_register_that_is_not_a_regular_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            fifo = Path(tmp, "targets.yaml")
            os.mkfifo(fifo)
            for path, message in ((fifo, "not a regular file (a FIFO)"), ("/dev/zero", "not a regular file"),
                                  (Path(tmp, "none.yaml"), "cannot read the file")):
                with self.subTest(register=str(path)):
                    run = batch(path, Path(tmp, "out"), timeout=30)
                    self.assertEqual(run.rc, 2, run.describe())
                    self.assertIn(message, run.stderr)
            big = Path(tmp, "big.yaml")
            big.write_text("targets:\n" + "#" * (4 << 20), encoding="utf-8")
            run = batch(big, Path(tmp, "out"), timeout=30)
            self.assertEqual(run.rc, 2, run.describe())
            self.assertIn("larger than 4 MiB", run.stderr)

    def test_variable_where_nothing_expands_it(self):
        self.refused([{"name": "x", "base_url": "FIXTURE", "user_agent": "probe ${ADRPROBE_IT_UA}"}],
                     expect=["user_agent", "${VAR} is read from the environment in header values and oauth2's client_secret only"])

    def test_bad_value_of_a_target(self):
        self.refused([{"name": "x", "base_url": "FIXTURE", "timeout": "soon"}], expect=["timeout", "'x'"])
        self.refused([{"name": "x", "base_url": "FIXTURE"}, {"name": "y", "base_url": "ftp://127.0.0.1/v1"}],
                     expect=["'y'"])

    def test_number_of_a_target_is_decimal_and_in_range(self):
        """Hostile input IV: a register's numbers are read as the command line's:
        0x10 was 16, and 1e20 requests a cast out of range."""
        for key, value, message in (("concurrency", "0x10", "concurrency: '0x10' is not a whole number"),
                                    ("max_requests", "99999999999999999999",
                                     "max_requests: '99999999999999999999' is out of range (at most 9223372036854775807)"),
                                    ("max_paths", "1e20", "max_paths: '1e20' is not a whole number"),
                                    ("timeout", "inf", "timeout: 'inf' is not a decimal number"),
                                    ("rate", "0x10", "rate: '0x10' is not a decimal number")):
            with self.subTest(key=key):
                self.refused([{"name": "x", "base_url": "FIXTURE", key: value}], expect=["'x'", message])

    def test_owner_or_label_value_too_long(self):
        """Hostile input IV, item 9: a 100 KB owner was copied onto every series
        of summary.prom (3.1 MB for one target)."""
        self.refused([{"name": "x", "base_url": "FIXTURE", "owner": "o" * 100 * 1024}],
                     expect=["targets[0] (x): owner is 102400 bytes long, more than the 256"])
        self.refused([{"name": "x", "base_url": "FIXTURE"},
                      {"name": "y", "base_url": "FIXTURE", "labels": {"tier": "t" * 257}}],
                     expect=["targets[1] (y): labels: tier is 257 bytes long"])

    def test_label_names_prometheus_sets_are_refused(self):
        """Hostile input IV, item 9: job and instance, which a scrape and the
        Pushgateway set (a pushed one becomes exported_job)."""
        for name in ("job", "instance", "verdict"):
            with self.subTest(label=name):
                self.refused([{"name": "x", "base_url": "FIXTURE", "labels": {name: "nightly"}}],
                             expect=["labels: '%s' is a label summary.prom or Prometheus sets itself" % name])


class InvisibleCharacters(ProbeCase):
    """Hostile input IV, item 9: targets `bag` and `bag` U+200B printed the same
    everywhere. Invisible characters (U+200B, U+2060, U+FEFF, ...) of a name,
    an owner or a label are shown as \\xNN on stdout and in every file, and
    as \\u escapes in JSON, which reads back as written."""

    def test_names_owners_and_labels_show_their_invisible_characters(self):
        with tempfile.TemporaryDirectory() as tmp, FixtureServer({}, max_seconds=60) as srv:
            register = write_register(tmp, [
                {"name": "bag", "base_url": srv.base_url, "owner": "team-a"},
                {"name": "bag\u200b", "base_url": srv.base_url, "owner": "team\u2060a", "labels": {"tier": "gold\ufeff"}}],
                defaults={"edition": EDITION})
            out = Path(tmp, "out")
            run = batch(register, out, "-o", "junit", "-o", "html", "-o", "text", "-o", "markdown")
            self.assertEqual(run.rc, 0, run.describe())
            files = {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()}
        shown = dict(files, stdout=run.stdout, stderr=run.stderr)
        for name, text in shown.items():
            for c in ("\u200b", "\ufeff"):
                self.assertNotIn(c, text, "%s shows U+%04X raw" % (name, ord(c)))
            # Markdown breaks autolinks with a U+2060 of its own, never inside a word
            self.assertNotIn("team\u2060a" if name.endswith(".md") else "\u2060", text, name)
        lines = run.stdout.splitlines()
        self.assertTrue(any(re.search(r"\bbag\\xe2\\x80\\x8b ", l) for l in lines), run.stdout)
        self.assertTrue(any(re.search(r"\bbag ", l) for l in lines), run.stdout)
        prom = files["summary.prom"]
        self.assertIn('target="bag\\\\xe2\\\\x80\\\\x8b",owner="team\\\\xe2\\\\x81\\\\xa0a",tier="gold\\\\xef\\\\xbb\\\\xbf"', prom)
        self.assertIn("bag\\xe2\\x80\\x8b", files["summary.html"])
        self.assertIn("bag\\xe2\\x80\\x8b", files["bag-.xml"])
        # JSON: escaped in the text, the same name when read
        self.assertIn('"bag\\u200b"', files["summary.json"])
        names = {t["name"] for t in json.loads(files["summary.json"])["targets"]}
        self.assertEqual(names, {"bag", "bag\u200b"})


class Secrets(ProbeCase):
    """A register header `X-Api-Key: ${SECRET}` that the server echoes back in
    headers, error bodies and redirects: in no file of the out dir, nor on
    stdout/stderr (-v logs every request)."""

    VALUE = "batch-Planted+Secret/Value=7Kq"

    def test_header_value_in_no_output(self):
        profile = {"echo_headers": True, "echo_everywhere": True, "trailing_slash": 301}
        with tempfile.TemporaryDirectory() as tmp, FixtureServer(profile, max_seconds=60) as srv:
            register = Path(tmp, "targets.yaml")
            # written by hand: the ${VAR} exactly as CLI.md's example, unquoted in a flow mapping
            register.write_text("defaults: {edition: '1.0'}\ntargets:\n  - name: echo\n    base_url: %s\n"
                                "    headers: {X-Api-Key: ${ADRPROBE_IT_SECRET}}\n" % srv.base_url, encoding="utf-8")
            out = Path(tmp, "out")
            run = batch(register, out, "-v", "-o", "json", "-o", "html", "-o", "junit", "-o", "openmetrics",
                        "-o", "text", env={"ADRPROBE_IT_SECRET": self.VALUE})
            self.assertEqual(run.rc, 1, run.describe())
            sent = [r["headers"].get("X-Api-Key") for r in srv.requests()]
            self.assertIn(self.VALUE, sent, "the header was not sent, so nothing was echoed")
            merged = Path(tmp, "M")
            summary = run_adrprobe(["summary", "--out-dir", merged, out], timeout=30)
            self.assertEqual(summary.rc, 1, summary.describe())
            files = list(out.iterdir()) + list(merged.iterdir())
            self.assertGreaterEqual(len(files), 9)
            for path in files:
                text = path.read_text(encoding="utf-8", errors="replace")
                self.assertIn("echo", text, path.name)  # the target is in it, so an empty file cannot pass
                self.assertNotIn(self.VALUE, text, path.name)
            for what, text in (("stdout", run.stdout), ("stderr -v", run.stderr), ("summary", summary.stdout)):
                self.assertNotIn(self.VALUE, text, what)
            self.assertIn("X-Api-Key", run.stderr + "".join(p.read_text(errors="replace") for p in files))


class VariablesInQuotedValues(ProbeCase):
    """Hostile input III, item 9: `X-A: 'list=[${TOK}]'` sent list=["abc123"]
    (the pre-parse quoting of ${VAR} went inside the quoted value), and in a
    double-quoted value it broke the YAML with a misleading message. ${VAR} is
    now expanded on the value YAML gives, quoting untouched."""

    def test_header_arrives_exactly_as_written(self):
        with tempfile.TemporaryDirectory() as tmp, FixtureServer({}, max_seconds=60) as srv:
            register = Path(tmp, "targets.yaml")
            register.write_text("defaults: {edition: '1.0'}\ntargets:\n  - name: q\n    base_url: %s\n"
                                "    headers:\n"
                                "      X-A: 'list=[${TOK}]'\n"
                                "      X-B: \"a,${TOK}\"\n"
                                "      X-C: '{${TOK}}'\n"
                                "      X-D: Bearer ${TOK}\n"
                                "  - {name: flow, base_url: '%s', headers: {X-A: ${TOK}, X-B: x-${TOK}}}\n"
                                % (srv.base_url, srv.base_url + "/flow"), encoding="utf-8")
            run = batch(register, Path(tmp, "out"), env={"TOK": "abc123"})
            self.assertNoCrash(run)
            # (a probe that goes without the user's headers sends none of them)
            sent = {(r["path"].startswith("/v1/flow"),) + tuple(r["headers"].get(h) for h in ("X-A", "X-B", "X-C", "X-D"))
                    for r in srv.requests() if "X-A" in r["headers"]}
            self.assertEqual(sent, {(False, "list=[abc123]", "a,abc123", "{abc123}", "Bearer abc123"),
                                    (True, "abc123", "x-abc123", None, None)}, run.describe())
            # the values are secrets all the same
            for path in Path(tmp, "out").iterdir():
                self.assertNotIn("abc123", path.read_text(encoding="utf-8", errors="replace"), path.name)


if __name__ == "__main__":
    harness.main()
