#!/usr/bin/python3
"""/core/http-methods (1.0: API-03): HM-0 (only get/post/put/patch/delete in the
document), HM-1 (GET and HEAD never 405), HM-2 (a documented optional method is
not 405), HM-3 (an unsupported method gets 405 + Allow)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ProbeCase, probe, rid  # noqa: E402

HM = rid("http-methods")
OK = {"responses": {"200": {"description": "OK"}}}


def extra_ops(path, **ops):
    return {"paths": {path: ops}}


class HM0(ProbeCase):
    def test_standard_methods_pass(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe(edition=edition)
                self.assertCheck(p.report, rid("http-methods", edition), "HM-0", "pass")

    def test_head_options_trace_operations_warn(self):
        for op in ("head", "options", "trace"):
            for edition in harness.EDITIONS:
                with self.subTest(op=op, edition=edition):
                    p = probe({"doc_patch": extra_ops("/gebouwen", **{op: OK})}, edition=edition)
                    self.assertCheck(p.report, rid("http-methods", edition), "HM-0", "warn", contains=op)


class HM1(ProbeCase):
    def test_get_and_head_answered_passes(self):
        p = probe()
        self.assertCheck(p.report, HM, "HM-1", "pass")
        sent = {(r["method"], r["path"]) for r in p.requests}
        for path in ("/v1", "/v1/gebouwen", "/v1/gebouwen/1"):
            self.assertIn(("GET", path), sent)
            self.assertIn(("HEAD", path), sent)

    def test_head_405_fails_naming_method_and_path(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"head": "405"}, edition=edition)
                self.assertCheck(p.report, rid("http-methods", edition), "HM-1", "fail",
                                 contains=("HEAD", "/v1/gebouwen"))
                self.assertRule(p.report, rid("http-methods", edition), "fail")


    def test_get_405_on_documented_path_fails(self):
        p = probe({"documented_405": ["get"]})
        self.assertCheck(p.report, HM, "HM-1", "fail", contains=("GET", "/v1/gebouwen"))


class HM2(ProbeCase):
    def test_safe_mode_skips_unsafe_documented_methods(self):
        p = probe()
        found = [c for c in harness.checks(p.report, HM, "HM-2")
                 if c["verdict"] == "skip" and "needs --allow-unsafe" in c["message"]]
        self.assertTrue(found, "no HM-2 skip saying 'needs --allow-unsafe'\n" + self.context(p.report, HM))
        self.assertCheck(p.report, HM, "HM-2", "skip")

    def test_documented_options_is_sent_in_safe_mode_and_passes(self):
        p = probe({"doc_patch": extra_ops("/gebouwen/{id}", options=OK)})
        self.assertCheck(p.report, HM, "HM-2", "pass")
        self.assertIn(("OPTIONS", "/v1/gebouwen/1"), {(r["method"], r["path"]) for r in p.requests})

    def test_documented_options_answered_405_fails(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"doc_patch": extra_ops("/gebouwen/{id}", options=OK), "options": "405"},
                          edition=edition)
                self.assertCheck(p.report, rid("http-methods", edition), "HM-2", "fail", contains="OPTIONS")
                self.assertRule(p.report, rid("http-methods", edition), "fail")

    def test_allow_unsafe_sends_documented_methods_and_passes(self):
        p = probe(None, "--allow-unsafe")
        self.assertCheck(p.report, HM, "HM-2", "pass")
        sent = {(r["method"], r["path"]) for r in p.requests}
        for m, path in (("POST", "/v1/gebouwen"), ("PUT", "/v1/gebouwen/1"), ("DELETE", "/v1/gebouwen/1")):
            self.assertIn((m, path), sent)

    def test_allow_unsafe_documented_delete_answered_405_fails(self):
        p = probe({"documented_405": ["delete"]}, "--allow-unsafe")
        self.assertCheck(p.report, HM, "HM-2", "fail", contains="DELETE")


class HM3(ProbeCase):
    def test_trace_gets_405_with_allow(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe(edition=edition)
                self.assertCheck(p.report, rid("http-methods", edition), "HM-3", "pass")
                self.assertRule(p.report, rid("http-methods", edition), "pass")
                sent = {(r["method"], r["path"]) for r in p.requests}
                self.assertIn(("TRACE", "/v1/gebouwen"), sent)
                self.assertIn(("TRACE", "/v1/gebouwen/1"), sent)

    def test_not_applied_to_undocumented_base_url(self):
        # probes.md: "HM-2 and HM-3 apply to the paths the document defines ...
        # not to an undocumented base URL"
        p = probe()
        optional = {(r["method"], r["path"]) for r in p.requests
                    if r["method"] not in ("GET", "HEAD") and r["path"] == "/v1"}
        self.assertEqual(optional, set())

    def test_405_without_allow_fails(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"unsupported": "405_no_allow"}, edition=edition)
                self.assertCheck(p.report, rid("http-methods", edition), "HM-3", "fail", contains="Allow")
                self.assertRule(p.report, rid("http-methods", edition), "fail")

    def test_other_statuses_fail(self):
        for mode, status in (("404", "404"), ("501", "501"), ("200", "200")):
            with self.subTest(answer=mode):
                p = probe({"unsupported": mode})
                self.assertCheck(p.report, HM, "HM-3", "fail", contains=status)

    def test_allow_omitting_documented_method_warns(self):
        p = probe({"unsupported": "405_omits"})
        self.assertCheck(p.report, HM, "HM-3", "warn")
        self.assertRule(p.report, HM, "warn")

    def test_empty_allow_warns(self):
        # Apache's stock TraceEnable Off: 405 with a bare "Allow:" that lists no
        # method, so it omits the documented ones (probes.md HM-3)
        p = probe({"unsupported": "405_empty_allow"})
        self.assertCheck(p.report, HM, "HM-3", "warn", contains="405 with an empty Allow, which omits documented GET")
        traces = [e for e in p.report["exchanges"] if e["method"] == "TRACE"]
        self.assertTrue(traces)
        for e in traces:
            self.assertEqual(e["response_headers"].get("allow"), "", "the empty Allow was not recorded as present")

    def test_post_only_path_is_judged(self):
        # probes.md "Which paths are probed": HM-2 and HM-3 go to every documented
        # path, with or without GET; NT-2 and HM-1 only to paths with a GET
        p = probe({"doc_patch": {"paths": {"/zaken/_zoek": {"post": OK, "options": OK}}}})
        sent = {(r["method"], r["path"]) for r in p.requests}
        self.assertIn(("TRACE", "/v1/zaken/_zoek"), sent)
        self.assertIn(("OPTIONS", "/v1/zaken/_zoek"), sent)
        for m, path in (("GET", "/v1/zaken/_zoek"), ("HEAD", "/v1/zaken/_zoek"), ("GET", "/v1/zaken/_zoek/"),
                        ("POST", "/v1/zaken/_zoek")):
            self.assertNotIn((m, path), sent)
        self.assertCheck(p.report, HM, "HM-3", "pass")
        self.assertCheck(p.report, HM, "HM-2", "pass", contains="POST /zaken/_zoek")
        self.assertCheck(p.report, HM, "HM-1", "pass")

    def test_post_only_path_refusing_trace_without_allow_fails(self):
        p = probe({"doc_patch": {"paths": {"/zaken/_zoek": {"post": OK}}}, "unsupported": "405_no_allow"})
        self.assertCheck(p.report, HM, "HM-3", "fail", contains="TRACE /v1/zaken/_zoek → 405 without an Allow header")

    def test_allow_listing_the_refused_method_warns(self):
        p = probe({"unsupported": "405_lists_probed"})
        self.assertCheck(p.report, HM, "HM-3", "warn", contains="TRACE")

    def test_trace_skipped_where_documented(self):
        p = probe({"doc_patch": extra_ops("/gebouwen", trace=OK)})
        sent = {(r["method"], r["path"]) for r in p.requests}
        self.assertNotIn(("TRACE", "/v1/gebouwen"), sent)
        self.assertIn(("TRACE", "/v1/gebouwen/1"), sent)

    def test_allow_unsafe_also_sends_undocumented_methods(self):
        p = probe(None, "--allow-unsafe")
        sent = {(r["method"], r["path"]) for r in p.requests}
        # undocumented: PUT/PATCH/DELETE on the collection, POST/PATCH on the item
        for m, path in (("PATCH", "/v1/gebouwen"), ("DELETE", "/v1/gebouwen"), ("PUT", "/v1/gebouwen"),
                        ("POST", "/v1/gebouwen/1"), ("PATCH", "/v1/gebouwen/1")):
            self.assertIn((m, path), sent)
        self.assertCheck(p.report, HM, "HM-3", "pass")

    def test_allow_unsafe_undocumented_method_not_405_fails(self):
        # PATCH is undocumented everywhere; the fixture answers it 404 like TRACE
        p = probe({"unsupported": "404"}, "--allow-unsafe")
        self.assertCheck(p.report, HM, "HM-3", "fail", contains="PATCH")


class HttpMethods22(ProbeCase):
    """2.2.0: /core/http-methods is functional. HM-1..HM-3 are still sent; their outcomes
    are hints, never a verdict, and the rule is outside the score."""

    def test_manual_with_hints_and_requests_still_sent(self):
        p = probe({"head": "405"}, edition="2.2.0")
        r = self.assertRule(p.report, "/core/http-methods", "manual")
        self.assertEqual(r.get("kind"), "functional")
        self.assertFalse(r.get("checks"), r)
        hints = r.get("hints", [])
        self.assertTrue(any(h.startswith("HM-1: HEAD /v1/gebouwen → 405") and "RFC 9110" in h for h in hints), hints)
        self.assertTrue(any(h.startswith("HM-3: ") for h in hints), hints)
        sent = {(q["method"], q["path"]) for q in p.requests}
        for req in (("HEAD", "/v1/gebouwen"), ("TRACE", "/v1/gebouwen")):
            self.assertIn(req, sent)
        # the score counts technical rules only: no http-methods there
        self.assertNotIn("/core/http-methods", [x["id"] for x in p.report["rules"] if x.get("kind") == "technical"])

    def test_documented_head_is_information(self):
        p = probe({"doc_patch": extra_ops("/gebouwen", head={"responses": {"200": {"description": "OK"}}})},
                  edition="2.2.0")
        hints = self.assertRule(p.report, "/core/http-methods", "manual").get("hints", [])
        self.assertTrue(any("HM-0: documented operations outside get/put/post/delete/patch: HEAD /gebouwen" in h
                            for h in hints), hints)


if __name__ == "__main__":
    harness.main()
