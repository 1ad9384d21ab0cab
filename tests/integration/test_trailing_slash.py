#!/usr/bin/python3
"""/core/no-trailing-slash (1.0: API-48): NT-1 (no documented path ends in /),
NT-2 (GET {base}{path}/ answers 404, no redirect)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import FixtureServer, ProbeCase, probe, rid, run_adrprobe  # noqa: E402

NT = rid("no-trailing-slash")

SLASHED_PATH = {"paths": {"/panden/": {"get": {"responses": {"200": {"description": "OK"}}}}}}


class NT1(ProbeCase):
    def test_no_slashed_paths_passes(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe(edition=edition)
                self.assertCheck(p.report, rid("no-trailing-slash", edition), "NT-1", "pass")

    def test_documented_path_with_slash_fails(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"doc_patch": SLASHED_PATH}, edition=edition)
                self.assertCheck(p.report, rid("no-trailing-slash", edition), "NT-1", "fail", contains="/panden/")
                self.assertRule(p.report, rid("no-trailing-slash", edition), "fail")

    def test_root_path_is_allowed(self):
        # probes.md NT-1: "no key of {oas}.paths other than / ends with /"
        p = probe({"doc_patch": {"paths": {"/": {"get": {"responses": {"200": {"description": "OK"}}}}}}})
        self.assertCheck(p.report, NT, "NT-1", "pass")


class NT2(ProbeCase):
    def test_404_passes_and_every_probed_path_is_tried(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe(edition=edition)
                self.assertCheck(p.report, rid("no-trailing-slash", edition), "NT-2", "pass")
                self.assertRule(p.report, rid("no-trailing-slash", edition), "pass")
                sent = {(r["method"], r["path"]) for r in p.requests}
                for path in ("/v1/", "/v1/gebouwen/", "/v1/gebouwen/1/"):
                    self.assertIn(("GET", path), sent)

    def test_301_redirect_fails(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"trailing_slash": 301}, edition=edition)
                self.assertCheck(p.report, rid("no-trailing-slash", edition), "NT-2", "fail",
                                 contains=("redirects to", "/v1/gebouwen"))
                self.assertRule(p.report, rid("no-trailing-slash", edition), "fail")

    def test_307_redirect_fails(self):
        p = probe({"trailing_slash": 307})
        self.assertCheck(p.report, NT, "NT-2", "fail", contains="redirects to")

    def test_redirect_is_not_followed(self):
        # 308 to the slash-less URL; if the tool followed it, NT-2 would see a 200
        p = probe({"trailing_slash": 308})
        self.assertCheck(p.report, NT, "NT-2", "fail", contains="redirects to")
        nt2 = harness.checks(p.report, NT, "NT-2")
        ids = {i for c in nt2 for i in c.get("exchanges", [])}
        statuses = {e["status"] for e in p.report["exchanges"] if e["id"] in ids}
        self.assertIn(308, statuses, "NT-2 evidence does not show the 308 itself")

    def test_served_with_200_fails(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"trailing_slash": 200}, edition=edition)
                self.assertCheck(p.report, rid("no-trailing-slash", edition), "NT-2", "fail", contains="served")

    def test_behind_authentication_warns(self):
        for status in (401, 403):
            with self.subTest(status=status):
                p = probe({"trailing_slash": status})
                self.assertCheck(p.report, NT, "NT-2", "warn", contains="-H")
                self.assertRule(p.report, NT, "warn")

    def test_server_error_fails(self):
        p = probe({"trailing_slash": 500})
        self.assertCheck(p.report, NT, "NT-2", "fail")


class WrongBaseUrl(ProbeCase):
    """probes.md, "Wrong base URL": every probed documented path answers GET with
    404 (the document is had with --openapi, the base URL is wrong), so the
    404s of NT-2 say nothing about the API."""

    def run_wrong_base(self, fmt="json"):
        with FixtureServer() as srv:
            return run_adrprobe(harness.check_args(srv.origin + "/elders/v1",
                                                   ("--openapi", srv.base_url + "/openapi.json"), fmt=fmt))

    def test_nt2_and_hm1_warn_and_the_report_says_so_first(self):
        run = self.run_wrong_base()
        report = run.json()
        warning = "every documented path answered 404 to GET: is the base URL right?"
        self.assertCheck(report, NT, "NT-2", "warn", contains=warning)
        self.assertCheck(report, rid("http-methods"), "HM-1", "warn", contains=warning)
        self.assertTrue(report["notes"], "no note")
        self.assertIn("answered 404 to GET: is the base URL", report["notes"][0])
        self.assertIn("/elders/v1", report["notes"][0])

    def test_the_text_report_says_so_at_the_top(self):
        text = self.run_wrong_base(fmt="text").stdout
        top = text.find("answered 404 to GET: is the base URL")
        self.assertGreaterEqual(top, 0, text)
        self.assertLess(top, text.find("Technical rules"), text)

    def test_a_fail_stays_a_fail(self):
        # the API refuses HEAD on its base URL; the document (from elsewhere) names
        # paths it does not have
        other = {"doc_patch": {"paths": {"/gebouwen": None, "/gebouwen/{id}": None,
                                         "/nergens": {"get": {"responses": {"200": {"description": "OK"}}}}}}}
        with FixtureServer({"head": "405"}) as api, FixtureServer(other) as docs:
            run = run_adrprobe(harness.check_args(api.base_url, ("--openapi", docs.base_url + "/openapi.json")))
        report = run.json()
        self.assertCheck(report, rid("http-methods"), "HM-1", "fail", contains="HEAD /v1 → 405")
        self.assertCheck(report, NT, "NT-2", "warn", contains="is the base URL right?")

    def test_right_base_url_has_no_such_note(self):
        p = probe()
        self.assertCheck(p.report, NT, "NT-2", "pass")
        self.assertEqual([n for n in p.report["notes"] if "is the base URL" in n], [])


class NT2RootExempt(ProbeCase):
    """2.2.0 exempts the root resource: {base}/ is not probed, the other paths are."""

    def test_root_not_probed_in_2_2_0(self):
        p = probe(edition="2.2.0")
        sent = {(r["method"], r["path"]) for r in p.requests}
        self.assertNotIn(("GET", "/v1/"), sent)
        for path in ("/v1/gebouwen/", "/v1/gebouwen/1/"):
            self.assertIn(("GET", path), sent)
        self.assertCheck(p.report, "/core/no-trailing-slash", "NT-2", "pass", contains="2 URLs")

    def test_other_paths_still_fail_in_2_2_0(self):
        p = probe({"trailing_slash": 301}, edition="2.2.0")
        self.assertCheck(p.report, "/core/no-trailing-slash", "NT-2", "fail", contains=("redirects to", "/v1/gebouwen"))
        self.assertNotIn(("GET", "/v1/"), {(r["method"], r["path"]) for r in p.requests})

    def test_root_still_probed_before_2_2_0(self):
        p = probe(edition="2.1.0")
        self.assertIn(("GET", "/v1/"), {(r["method"], r["path"]) for r in p.requests})


if __name__ == "__main__":
    harness.main()
