#!/usr/bin/python3
"""/core/no-trailing-slash (1.0: API-48): NT-1 (no documented path ends in /),
NT-2 (GET {base}{path}/ answers 404, no redirect)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ProbeCase, probe, rid  # noqa: E402

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


if __name__ == "__main__":
    harness.main()
