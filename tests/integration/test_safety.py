#!/usr/bin/python3
"""Safety (probes.md "the tool is read-only by default"): only GET, HEAD, OPTIONS
and TRACE, and no request bodies, unless --allow-unsafe."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ProbeCase, probe, rid  # noqa: E402

SAFE = {"GET", "HEAD", "OPTIONS", "TRACE"}
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
OK = {"responses": {"200": {"description": "OK"}}}


class DefaultRunIsReadOnly(ProbeCase):
    def assertReadOnly(self, p):
        methods = p.methods()
        self.assertTrue(methods, "the server received nothing")
        self.assertLessEqual(methods, SAFE, "unsafe methods sent without --allow-unsafe: %s"
                             % sorted(methods - SAFE))
        self.assertEqual(methods & UNSAFE, set())
        bodies = [(r["method"], r["path"], r["body_length"]) for r in p.requests if r["body_length"]]
        self.assertEqual(bodies, [], "request bodies sent in safe mode")

    def test_default_run_sends_only_safe_methods(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe(edition=edition)
                self.assertReadOnly(p)
                self.assertIn("GET", p.methods())
                self.assertIn("HEAD", p.methods())

    def test_safe_even_when_every_method_is_documented(self):
        ops = {m: OK for m in ("get", "post", "put", "patch", "delete", "options", "head", "trace")}
        p = probe({"doc_patch": {"paths": {"/gebouwen/{id}": dict(ops, parameters=[
            {"name": "id", "in": "path", "required": True, "example": "1", "schema": {"type": "string"}}])}}})
        self.assertReadOnly(p)

    def test_safe_when_the_api_misbehaves(self):
        p = probe({"unsupported": "200", "trailing_slash": 307, "head": "405", "options": "405"})
        self.assertReadOnly(p)

    def test_unsafe_checks_are_skipped_with_reason(self):
        p = probe()
        hm2 = harness.checks(p.report, rid("http-methods"), "HM-2")
        reasons = [c for c in hm2 if c["verdict"] == "skip" and "needs --allow-unsafe" in c["message"]]
        self.assertTrue(reasons, "HM-2 for documented POST/PUT/DELETE is not skip "
                                 "'needs --allow-unsafe'\n" + self.context(p.report, rid("http-methods")))
        text = "\n".join(c["message"] for c in reasons)
        for m in ("POST", "PUT", "DELETE"):
            self.assertIn(m, text.upper(), "the skipped HM-2 checks do not name %s" % m)


class AllowUnsafe(ProbeCase):
    def test_unsafe_methods_arrive(self):
        p = probe(None, "--allow-unsafe")
        self.assertLessEqual(UNSAFE, p.methods(), "with --allow-unsafe, missing: %s" % sorted(UNSAFE - p.methods()))
        no_skip = [c for c in harness.checks(p.report, rid("http-methods"), "HM-2")
                   if "needs --allow-unsafe" in c["message"]]
        self.assertEqual(no_skip, [], "HM-2 still says 'needs --allow-unsafe' with --allow-unsafe")

    def test_unsafe_methods_only_hit_documented_paths(self):
        p = probe(None, "--allow-unsafe")
        paths = {r["path"] for r in p.requests if r["method"] in UNSAFE}
        self.assertLessEqual(paths, {"/v1/gebouwen", "/v1/gebouwen/1"})


class Politeness(ProbeCase):
    """CLI.md: --rate N "at most N requests per second to one host";
    --concurrency N "requests in flight at once"."""

    def test_rate_limit(self):
        rate = 10
        p = probe(None, rate=rate, timeout=60)
        self.assertNoCrash(p)
        times = sorted(r["time"] for r in p.requests)
        self.assertGreater(len(times), rate, "too few requests to judge the rate")
        worst = max(sum(1 for t in times if t0 <= t < t0 + 1.0) for t0 in times)
        self.assertLessEqual(worst, rate + 2, "%d requests within one second at --rate %d" % (worst, rate))
        span = times[-1] - times[0]
        self.assertGreaterEqual(span, (len(times) - 1 - rate) / rate,
                                "%d requests in %.2f s at --rate %d" % (len(times), span, rate))

    def test_default_rate_is_20(self):
        p = probe(None, rate=None, timeout=60)
        self.assertNoCrash(p)
        times = sorted(r["time"] for r in p.requests)
        worst = max(sum(1 for t in times if t0 <= t < t0 + 1.0) for t0 in times)
        self.assertLessEqual(worst, 21, "%d requests within one second at the default rate" % worst)

    def test_concurrency_bound(self):
        for n in (1, 2):
            with self.subTest(concurrency=n):
                p = probe({"delay": 0.2}, "--concurrency", str(n), timeout=60)
                self.assertNoCrash(p)
                self.assertLessEqual(p.max_active, n, "more requests in flight than --concurrency %d" % n)


if __name__ == "__main__":
    harness.main()
