#!/usr/bin/python3
"""The openmetrics format (-o openmetrics=FILE) and a batch's summary.prom, read
by both parsers of python3-prometheus-client: strict OpenMetrics
(prometheus_client.openmetrics.parser) and the Prometheus text format (what
node_exporter's textfile collector reads). The gauges a dashboard alerts on:
adrprobe_conforms (first; no sample when conformance was not established) and
adrprobe_conclusion_rules, adrprobe_score_percent, adrprobe_rules{verdict}, adrprobe_rule_verdict and
adrprobe_rule_failing per rule, adrprobe_certificate_days_left of an https
target, adrprobe_target_reachable (0 for a target that is down); label values
with quotes, backslashes and a newline still parse."""

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import FixtureServer, ProbeCase, run_adrprobe, yaml_text  # noqa: E402

try:
    from prometheus_client.openmetrics.parser import text_string_to_metric_families as openmetrics_families
    from prometheus_client.parser import text_string_to_metric_families as prometheus_families
except ImportError:  # pragma: no cover
    openmetrics_families = prometheus_families = None

VERDICTS = ("pass", "warn", "fail", "error", "skip")
OUTCOMES = ("must_failed", "should_failed", "warned", "errors", "functional_pending")


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


@harness.needs_module("prometheus_client", "python3-prometheus-client")
class OpenMetrics(ProbeCase):
    def parse(self, text):
        """{family name: [(labels, value)]} from the strict parser; the Prometheus
        text parser must read the same samples."""
        self.assertTrue(text.endswith("# EOF\n"), text[-200:])
        strict = {f.name: sorted((tuple(sorted(s.labels.items())), s.value) for s in f.samples)
                  for f in openmetrics_families(text)}
        # The conclusion first (CLI.md: every format shows it first): the first two families.
        self.assertEqual([f.name for f in openmetrics_families(text)][:2], ["adrprobe_conforms", "adrprobe_conclusion_rules"])
        for f in openmetrics_families(text):
            self.assertEqual(f.type, "gauge", f.name)
        loose = {f.name: sorted((tuple(sorted(s.labels.items())), s.value) for s in f.samples)
                 for f in prometheus_families(text)}
        self.assertEqual(strict, loose)
        return {name: [(dict(labels), value) for labels, value in samples] for name, samples in strict.items()}

    def of(self, families, name, **labels):
        return [(l, v) for l, v in families[name] if all(l.get(k) == v2 for k, v2 in labels.items())]

    def assert_matches_report(self, families, report, target):
        """The gauges of one target say what its JSON report says."""
        technical = [r for r in report["rules"] if r["kind"] == "technical"]
        score = report["score"]
        [(info, one)] = self.of(families, "adrprobe_target_info", target=target)
        self.assertEqual(one, 1)
        self.assertEqual(info["base_url"], report["target"]["base_url"])
        self.assertEqual(info["edition"], report["edition"])
        self.assertEqual(info["state"], report["state"])
        # The conclusion: conforms 1 or 0, no sample when not established (never NaN).
        conclusion = report["conclusion"]
        conforms = [v for _, v in self.of(families, "adrprobe_conforms", target=target)]
        self.assertEqual(conforms, [] if conclusion["conforms"] is None else [1 if conclusion["conforms"] else 0])
        counts = {l["outcome"]: v for l, v in self.of(families, "adrprobe_conclusion_rules", target=target)}
        if report["state"] == "down":
            # One state, not per-rule noise: no score, no verdict gauges, no counts.
            for name in ("adrprobe_score_percent", "adrprobe_rules", "adrprobe_rule_verdict", "adrprobe_rule_failing",
                         "adrprobe_conclusion_rules"):
                self.assertEqual(self.of(families, name, target=target), [], name)
            self.assertIsNone(score["percent"])
            self.assertIsNone(conclusion["conforms"])
            return
        self.assertEqual(counts, {k: conclusion[k] for k in OUTCOMES})
        percent = [v for _, v in self.of(families, "adrprobe_score_percent", target=target)]
        if score["percent"] is None:  # only errors: no score (probes.md), so no sample
            self.assertEqual(percent, [])
        else:
            self.assertEqual(len(percent), 1)
            self.assertAlmostEqual(percent[0], score["percent"], places=1)
        # The edition's rules have no module label; a module's rules (rules[].module) carry theirs.
        edition = [r for r in technical if not r.get("module")]
        counts = {l["verdict"]: v for l, v in self.of(families, "adrprobe_rules", target=target) if "module" not in l}
        self.assertEqual(set(counts), set(VERDICTS))
        for verdict in ("pass", "warn", "fail", "error"):
            self.assertEqual(counts[verdict], score[verdict], verdict)
        self.assertEqual(sum(counts.values()), len(edition))
        for module in {r["module"] for r in technical if r.get("module")}:
            counts = {l["verdict"]: v for l, v in self.of(families, "adrprobe_rules", target=target, module=module)}
            self.assertEqual(sum(counts.values()), len([r for r in technical if r.get("module") == module]), module)
        verdicts = {(l.get("module", ""), l["rule"]): l["verdict"]
                    for l, v in self.of(families, "adrprobe_rule_verdict", target=target)}
        self.assertEqual(verdicts, {(r.get("module") or "", r["id"]): r["verdict"] for r in technical})
        self.assertTrue(all(v == 1 for _, v in self.of(families, "adrprobe_rule_verdict", target=target)))
        failing = {l["rule"]: v for l, v in self.of(families, "adrprobe_rule_failing", target=target)}
        self.assertEqual(failing, {r["id"]: 1 if r["verdict"] == "fail" else 0 for r in technical})

    def test_check_of_the_https_demo(self):
        with tempfile.TemporaryDirectory() as tmp:
            prom, js = Path(tmp, "demo.prom"), Path(tmp, "demo.json")
            run = run_adrprobe(["demo", "-q", "-o", "openmetrics=%s" % prom, "-o", "json=%s" % js])
            self.assertEqual(run.rc, 0, run.describe())
            families = self.parse(prom.read_text(encoding="utf-8"))
            report = load(js)
            target = report["target"]["base_url"]
            self.assertTrue(target.startswith("https://"))
            self.assert_matches_report(families, report, target)
            [(labels, days)] = families["adrprobe_certificate_days_left"]
            self.assertEqual(days, report["tls"]["certificate"]["days_left"])
            self.assertGreater(days, 0)
            # Series are keyed by the target (its name, else its URL); URL and edition are on the info gauge.
            self.assertEqual(labels, {"target": target})
            self.assertEqual(families["adrprobe_target_reachable"], [(labels, 1)])
            [(_, when)] = families["adrprobe_last_run_timestamp_seconds"]
            self.assertGreater(when, 1.7e9)
            # no baseline: the change families are declared but empty
            self.assertEqual(families["adrprobe_changes"], [])
            # the same to stdout with -f
            out = run_adrprobe(["demo", "-q", "-f", "openmetrics"])
            self.assertEqual(out.rc, 0, out.describe())
            self.assertIn("adrprobe_certificate_days_left", self.parse(out.stdout))

    def test_down_target_is_one_state(self):
        """-f openmetrics of a target that is down: reachable 0 and the info gauge,
        no adrprobe_conforms sample (not established), no per-rule series."""
        # https: nothing judged without an answer, conformance not established
        with tempfile.TemporaryDirectory() as tmp, harness.closed_port("https") as url:
            js = Path(tmp, "down.json")
            run = run_adrprobe(["check", url, "--timeout", "2", "--edition", "2.2.0", "-f", "openmetrics",
                                "-o", "json=%s" % js], timeout=60)
            self.assertEqual(run.rc, 3, run.describe())
            families = self.parse(run.stdout)
            report = load(js)
        self.assertEqual(report["state"], "down")
        self.assert_matches_report(families, report, url)
        self.assertEqual(families["adrprobe_target_reachable"], [({"target": url}, 0)])
        self.assertEqual(families["adrprobe_conforms"], [])
        # Everything of the target is one state: info, reachable, when it ran.
        series = {name for name, samples in families.items() if samples}
        self.assertEqual(series, {"adrprobe_target_info", "adrprobe_target_reachable", "adrprobe_last_run_timestamp_seconds"})

    def test_batch_summary_prom(self):
        """summary.prom of a batch: every target's gauges, a down target's
        reachable 0, names with quotes, backslashes and a newline."""
        names = {"plain": "plain", "quoted": 'a"b\\c', "newline": "line1\nline2 \u00e9"}
        with tempfile.TemporaryDirectory() as tmp, \
                FixtureServer({"trailing_slash": 301}, max_seconds=60) as srv, harness.closed_port() as down:
            targets = [{"name": names["plain"], "base_url": srv.base_url, "owner": "Team \"Basis\"",
                        "labels": {"domain": "adressen"}},
                       {"name": names["quoted"], "base_url": srv.base_url + "/"},
                       {"name": names["newline"], "base_url": down, "timeout": 2}]
            register = Path(tmp, "targets.yaml")
            register.write_text(yaml_text({"defaults": {"edition": "1.0"}, "targets": targets}), encoding="utf-8")
            out = Path(tmp, "out")
            run = run_adrprobe(["batch", register, "--out-dir", out, "--rate", "0", "-o", "openmetrics"])
            self.assertEqual(run.rc, 1, run.describe())
            summary = load(out / "summary.json")
            self.assertEqual([t["name"] for t in summary["targets"]], list(names.values()))
            families = self.parse((out / "summary.prom").read_text(encoding="utf-8"))
            shown = {}
            for row in summary["targets"]:
                # a name with a control character is shown escaped, as everywhere
                label = row["name"].replace("\n", "\\x0a")
                shown[row["name"]] = label
                with self.subTest(target=label):
                    self.assert_matches_report(families, load(out / row["report"]), label)
                    per_target = load(out / row["report"])
                    # the target's own -o openmetrics file says the same
                    own = self.parse((out / (row["report"][:-5] + ".prom")).read_text(encoding="utf-8"))
                    self.assert_matches_report(own, per_target, label)
            # Each row's conclusion: the plain target fails a MUST rule (API-48), so conforms 0.
            conforms = {l["target"]: v for l, v in families["adrprobe_conforms"]}
            self.assertEqual(conforms.get("plain"), 0)
            self.assertNotIn(shown[names["newline"]], conforms)  # down: not established
            # A merge (adrprobe summary) reads the rows' conclusions back from summary.json: the same gauges.
            merged = Path(tmp, "merged")
            again = run_adrprobe(["summary", "--out-dir", merged, out])
            self.assertNoCrash(again)
            merged_families = self.parse((merged / "summary.prom").read_text(encoding="utf-8"))
            for name in ("adrprobe_conforms", "adrprobe_conclusion_rules"):
                self.assertEqual(merged_families[name], families[name], name)
            reachable = {l["target"]: v for l, v in families["adrprobe_target_reachable"]}
            self.assertEqual(reachable, {shown[names["plain"]]: 1, shown[names["quoted"]]: 1,
                                         shown[names["newline"]]: 0})
            self.assertIn('a"b\\c', reachable)
            self.assertEqual(families["adrprobe_certificate_days_left"], [])  # no https target
            failing = {(l["target"], l["rule"]) for l, v in families["adrprobe_rule_failing"] if v == 1}
            self.assertIn(("plain", "API-48"), failing)
            # The register's owner and labels on every series of the target, read back by both parsers.
            for name, samples in families.items():
                for labels, _ in samples:
                    if labels.get("target") == "plain":
                        self.assertEqual((labels.get("owner"), labels.get("domain")), ('Team "Basis"', "adressen"), name)

    def test_summary_of_a_target_with_a_module(self):
        """A row with the Geospatial module (summary.json `modules`): its rules'
        series carry module="geo" and are counted apart; the edition's series
        are those of a row without it. Both parsers read the merged summary.prom."""
        row = {"name": "kaart", "base_url": "https://kaart.example.nl/v1", "edition": "2.2.0", "report": "kaart.json",
               "state": "up", "score": {"pass": 1, "warn": 0, "fail": 1, "error": 0, "applicable": 2, "percent": 50.0},
               "failing": ["/core/geospatial"], "generated_at": "2026-11-23T02:00:00Z",
               "verdicts": {"/core/no-trailing-slash": "pass", "/core/geospatial": "fail", "/geo/crs-list": "fail",
                            "/geo/storage-crs": "pass", "/geo/filter-crs-query-parameter": "skip"},
               "modules": [{"id": "geo", "heading": "Geospatial module 1.0.2",
                            "rules": ["/geo/crs-list", "/geo/storage-crs", "/geo/filter-crs-query-parameter"]}]}
        with tempfile.TemporaryDirectory() as tmp:
            shard = Path(tmp, "shard")
            shard.mkdir()
            (shard / "summary.json").write_text(json.dumps({"schema": "adrprobe-summary/1", "tool": {"version": "0.5.0"},
                                                            "generated_at": "2026-11-23T02:00:00Z", "targets": [row]}),
                                                encoding="utf-8")
            out = Path(tmp, "out")
            run = run_adrprobe(["summary", "--out-dir", out, shard])
            self.assertNoCrash(run)
            families = self.parse((out / "summary.prom").read_text(encoding="utf-8"))
            verdicts = {(l.get("module"), l["rule"]): l["verdict"] for l, v in families["adrprobe_rule_verdict"]}
            self.assertEqual(verdicts, {(None, "/core/no-trailing-slash"): "pass", (None, "/core/geospatial"): "fail",
                                        ("geo", "/geo/crs-list"): "fail", ("geo", "/geo/storage-crs"): "pass",
                                        ("geo", "/geo/filter-crs-query-parameter"): "skip"})
            edition = {l["verdict"]: v for l, v in families["adrprobe_rules"] if "module" not in l}
            self.assertEqual(edition, {"pass": 1, "warn": 0, "fail": 1, "error": 0, "skip": 0})
            geo = {l["verdict"]: v for l, v in families["adrprobe_rules"] if l.get("module") == "geo"}
            self.assertEqual(geo, {"pass": 1, "warn": 0, "fail": 1, "error": 0, "skip": 1})
            # The merged summary.json keeps which rules are the module's.
            merged = load(out / "summary.json")
            self.assertEqual(merged["targets"][0]["modules"], row["modules"])
            self.assertEqual(merged["targets"][0]["verdicts"], row["verdicts"])


if __name__ == "__main__":
    harness.main()
