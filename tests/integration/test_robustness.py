#!/usr/bin/python3
"""Robustness: slow servers, --deadline, non-HTTP answers, hostile documents.
Every run must end in bounded time with a report and without a crash."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ProbeCase, probe, rid  # noqa: E402

GIB = 1024 * 1024  # ru_maxrss is in KiB


class Slow(ProbeCase):
    def test_timeout_gives_error_verdicts(self):
        p = probe({"delay": 3}, "--timeout", "1", edition="1.0", timeout=90)
        self.assertNoCrash(p)
        self.assertLess(p.duration, 60, "a 1 s timeout run took %.1f s" % p.duration)
        self.assertCheck(p.report, "API-51", "PO-1", "error")
        self.assertCheck(p.report, "API-57", "VH-1", "error")
        for i in harness.technical_ids("1.0"):
            self.assertRule(p.report, i, "error")
        self.assertEqual(p.rc, 3, p.describe())
        timed_out = [e for e in p.report["exchanges"] if e.get("error")]
        self.assertTrue(timed_out, "no exchange records the timeout")

    def test_one_slow_path_errors_only_there(self):
        # only GET {base}/gebouwen/1 is slow; everything else answers at once
        p = probe({"delay": 3, "delay_paths": ["/v1/gebouwen/1"]}, "--timeout", "1", timeout=90)
        self.assertNoCrash(p)
        self.assertCheck(p.report, rid("publish-openapi"), "PO-1", "pass")
        self.assertCheck(p.report, rid("version-header"), "VH-1", "pass")
        self.assertCheck(p.report, rid("http-methods"), "HM-1", "error")

    def test_deadline_ends_run_and_writes_report(self):
        p = probe({"delay": 1.5}, "--deadline", "2", edition="1.0", timeout=60)
        self.assertNoCrash(p, rcs=(1, 3))
        self.assertLess(p.duration, 12, "--deadline 2 run took %.1f s" % p.duration)
        self.assertAnyCheckMessage(
            p.report, lambda r, c: c["verdict"] == "error" and "deadline reached" in c["message"].lower(),
            "is error with 'deadline reached'")
        self.assertEqual(len(p.report["rules"]), 19)

    def test_deadline_not_reached_on_fast_server(self):
        p = probe(None, "--deadline", "30", edition="1.0")
        self.assertEqual(p.rc, 0, p.describe())
        hits = [c for r, c in harness.all_checks(p.report) if "deadline" in c["message"].lower()]
        self.assertEqual(hits, [])


class BrokenFraming(ProbeCase):
    """probes.md: a request that fails on a reused connection because the server
    broke HTTP framing (a body after a HEAD response, as Django's development
    server sends) is retried once on a fresh connection before it counts."""

    def test_body_after_head_is_no_error(self):
        p = probe({"head_body": True}, "--concurrency", "1")
        self.assertNoCrash(p)
        errors = [(e["method"], e["url"], e["error"]) for e in p.report["exchanges"] if e.get("error")]
        self.assertEqual(errors, [])
        self.assertCheck(p.report, rid("no-trailing-slash"), "NT-2", "pass")
        self.assertCheck(p.report, rid("http-methods"), "HM-1", "pass")
        # one exchange per request: the retry keeps the id of the first attempt
        ids = [e["id"] for e in p.report["exchanges"]]
        self.assertEqual(ids, list(range(1, len(ids) + 1)))
        sent = [(r["method"], r["path"]) for r in p.requests]
        self.assertGreater(len(sent), len(ids), "nothing was sent again")


class NotHTTP(ProbeCase):
    def test_garbage_bytes_are_transport_errors(self):
        p = probe({"garbage": True}, "--timeout", "2", edition="1.0", timeout=60)
        self.assertNoCrash(p)
        self.assertLess(p.duration, 45)
        self.assertCheck(p.report, "API-51", "PO-1", "error")
        self.assertCheck(p.report, "API-57", "VH-1", "error")
        self.assertEqual(p.rc, 3, p.describe())


class HostileDocuments(ProbeCase):
    def test_deeply_nested_document(self):
        p = probe({"openapi_json": "deep", "deep_depth": 100000}, timeout=60)
        self.assertNoCrash(p)
        self.assertLess(p.duration, 30)
        verdicts = (harness.rule(p.report, rid("publish-openapi"))["verdict"],
                    harness.rule(p.report, rid("doc-openapi"))["verdict"])
        self.assertIn("fail", verdicts, "a 100000-deep document without info or paths neither fails "
                                        "publish-openapi nor doc-openapi")
        self.assertEqual(p.rc, 1, p.describe())

    def test_huge_document(self):
        p = probe({"openapi_json": "huge", "huge_bytes": 100 * 1024 * 1024}, "--timeout", "30", timeout=120)
        self.assertNoCrash(p)
        self.assertLess(p.duration, 90)
        self.assertLess(p.maxrss_kb, 2 * GIB, "peak memory %.0f MiB for a 100 MiB document"
                        % (p.maxrss_kb / 1024))
        v, msg = self.assertCheck(p.report, rid("publish-openapi"), "PO-1", ("pass", "fail"))
        if v == "fail":
            self.assertTrue(msg.strip(), "PO-1 fails without saying why")

    def test_yaml_billion_laughs(self):
        p = probe({"openapi_yaml": "bomb"}, timeout=60)
        self.assertNoCrash(p)
        self.assertLess(p.duration, 30, "alias bomb took %.1f s" % p.duration)
        self.assertLess(p.maxrss_kb, GIB, "peak memory %.0f MiB on an alias bomb" % (p.maxrss_kb / 1024))
        self.assertCheck(p.report, rid("publish-openapi"), "PO-3", "fail")
        self.assertCheck(p.report, rid("publish-openapi"), "PO-1", "pass")

    def test_local_ref_cycle(self):
        patch = {"components": {"schemas": {
            "A": {"type": "object", "properties": {"b": {"$ref": "#/components/schemas/B"}}},
            "B": {"type": "object", "properties": {"a": {"$ref": "#/components/schemas/A"}}},
            "Gebouw": {"properties": {"a": {"$ref": "#/components/schemas/A"}}}}}}
        p = probe({"doc_patch": patch}, timeout=60)
        self.assertNoCrash(p)
        self.assertLess(p.duration, 30)
        # every ref points at a schema that exists: a recursive schema is not a dangling ref
        self.assertCheck(p.report, rid("doc-openapi"), "DO-2", "pass")

    def test_ref_to_ref_loop(self):
        # Self -> Self2 -> Self never reaches a value: unresolvable, but no hang
        patch = {"components": {"schemas": {
            "Self": {"$ref": "#/components/schemas/Self2"},
            "Self2": {"$ref": "#/components/schemas/Self"},
            "Gebouw": {"properties": {"s": {"$ref": "#/components/schemas/Self"}}}}}}
        p = probe({"doc_patch": patch}, timeout=60)
        self.assertNoCrash(p)
        self.assertLess(p.duration, 30)
        self.assertCheck(p.report, rid("doc-openapi"), "DO-2", "fail", contains="/components/schemas/Self")

    def test_external_ref_cycle(self):
        profile = {
            "doc_patch": {"components": {"schemas": {"Gebouw": {"properties": {
                "a": {"$ref": "schemas/a.json#/A"}}}}}},
            "files": {
                "/v1/schemas/a.json": {"A": {"properties": {"b": {"$ref": "b.json#/B"}}}},
                "/v1/schemas/b.json": {"B": {"properties": {
                    "a": {"$ref": "a.json#/A"},
                    "doc": {"$ref": "../openapi.json#/components/schemas/Gebouw"}}}},
            },
        }
        p = probe(profile, timeout=60)
        self.assertNoCrash(p)
        self.assertLess(p.duration, 30)
        self.assertCheck(p.report, rid("doc-openapi"), "DO-2", "pass")
        fetches = [r for r in p.requests if r["path"] in ("/v1/schemas/a.json", "/v1/schemas/b.json")]
        self.assertLessEqual(len(fetches), 6, "external documents fetched over and over: %d" % len(fetches))


if __name__ == "__main__":
    harness.main()
