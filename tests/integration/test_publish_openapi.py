#!/usr/bin/python3
"""/core/publish-openapi (1.0: API-51): PO-1, PO-2, PO-3, and what follows when
no description document can be had (probes.md: "prerequisite not met")."""

import copy
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import BEARER, ProbeCase, checks, default_doc, probe, rid  # noqa: E402

PO = rid("publish-openapi")
PO10 = rid("publish-openapi", "1.0")


class PO1(ProbeCase):
    def test_public_json_document_passes_in_both_editions(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe(edition=edition)
                self.assertCheck(p.report, rid("publish-openapi", edition), "PO-1", "pass")

    def test_document_is_fetched_without_user_headers(self):
        # probes.md PO-1: "no user-supplied headers ... -H authorization is deliberately left off"
        p = probe(None, "-H", "X-Api-Key: s3cret-token-value")
        docs = [r for r in p.requests if r["method"] == "GET" and r["path"] == "/v1/openapi.json"]
        self.assertTrue(docs, "openapi.json was never fetched")
        self.assertNotIn("X-Api-Key", docs[0]["headers"], "the first GET of openapi.json carried the -H header")
        self.assertCheck(p.report, PO, "PO-1", "pass")

    def test_missing_document_fails_and_names_status(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"openapi_json": "404"}, edition=edition)
                self.assertCheck(p.report, rid("publish-openapi", edition), "PO-1", "fail", contains="404")
                self.assertRule(p.report, rid("publish-openapi", edition), "fail")

    def test_document_behind_authentication_fails(self):
        p = probe({"openapi_json": "auth"})
        self.assertCheck(p.report, PO, "PO-1", "fail", contains="401")

    def test_document_that_only_works_with_user_headers_says_requires_authentication(self):
        p = probe({"openapi_json": "auth"}, "-H", "Authorization: " + BEARER)
        self.assertCheck(p.report, PO, "PO-1", "fail", contains="requires authentication")
        self.assertNotIn("s3cret-token-value", p.stdout + p.stderr)

    def test_redirect_is_followed_and_warns(self):
        p = probe({"openapi_json": "redirect"})
        self.assertCheck(p.report, rid("publish-openapi"), "PO-1", "warn", contains="redirect (302) to ")
        self.assertCheck(p.report, PO, "PO-1", "warn")
        self.assertIn("/v1/docs/openapi.json", [r["path"] for r in p.requests], "the redirect was not followed")
        # the document behind the redirect is used: its checks pass
        self.assertCheck(p.report, rid("doc-openapi"), "DO-1", "pass")

    def test_redirect_loop_fails_without_hanging(self):
        # probes.md PO-1: "A redirect is followed (max 5)"; an endless chain is the
        # API's own behaviour, so fail, not error.
        loop = probe({"openapi_json": "redirect_loop"}, timeout=60)
        self.assertNoCrash(loop)
        self.assertCheck(loop.report, PO, "PO-1", "fail")
        hops = [r for r in loop.requests if r["path"].startswith("/v1/loop")]
        self.assertLessEqual(len(hops), 12, "more redirects followed than 'max 5' allows")

    def test_html_instead_of_json_fails(self):
        p = probe({"openapi_json": "non_json"})
        self.assertCheck(p.report, PO, "PO-1", "fail")

    def test_json_array_is_not_a_document(self):
        # probes.md PO-1: "the body parses as a JSON object"
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"openapi_json": "array"}, edition=edition)
                self.assertCheck(p.report, rid("publish-openapi", edition), "PO-1", "fail")


class PrerequisiteNotMet(ProbeCase):
    """probes.md: when PO-1 fails, every rule that reads the document fails with
    "prerequisite not met: <why PO-1 failed>"; NT-2 and HM-1 on the base URL and
    VH-1/2/4 still run; /core/version-header is judged on VH-1/2/4 (VH-3 skip)."""

    READERS = ("doc-openapi", "semver", "uri-version", "no-trailing-slash", "http-methods")

    def run_missing(self, edition):
        return probe({"openapi_json": "404"}, edition=edition)

    def test_document_readers_fail_with_prerequisite_not_met(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = self.run_missing(edition)
                self.assertRule(p.report, rid("publish-openapi", edition), "fail")
                for name in self.READERS:
                    self.assertRule(p.report, rid(name, edition), "fail")
                    self.assertRuleMentions(p.report, rid(name, edition), "prerequisite not met")
                self.assertEqual(p.rc, 1, p.describe())

    def test_live_checks_on_base_url_still_show_evidence(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = self.run_missing(edition)
                nt = rid("no-trailing-slash", edition)
                hm = rid("http-methods", edition)
                vh = rid("version-header", edition)
                passing_nt2 = [c for c in checks(p.report, nt, "NT-2") if c["verdict"] == "pass"]
                self.assertTrue(passing_nt2, "no passing NT-2 on the base URL\n" + self.context(p.report, nt))
                passing_hm1 = [c for c in checks(p.report, hm, "HM-1") if c["verdict"] == "pass"]
                self.assertTrue(passing_hm1, "no passing HM-1 on the base URL\n" + self.context(p.report, hm))
                sent = {(r["method"], r["path"]) for r in p.requests}
                self.assertIn(("GET", "/v1/"), sent, "NT-2 did not probe {base}/")
                self.assertIn(("HEAD", "/v1"), sent, "HM-1 did not send HEAD {base}")
                self.assertCheck(p.report, vh, "VH-1", "pass")
                self.assertCheck(p.report, vh, "VH-2", "pass")
                self.assertCheck(p.report, vh, "VH-3", "skip")
                self.assertRule(p.report, vh, "pass")

    def test_prerequisite_message_says_why(self):
        p = self.run_missing("2.0.0")
        r = harness.rule(p.report, rid("semver"))
        texts = [r["summary"]] + [c["message"] for c in r["checks"]]
        self.assertTrue(any("prerequisite not met" in t.lower() and "404" in t for t in texts),
                        "semver does not say why the prerequisite is missing (404)\n%s"
                        % self.context(p.report, rid("semver")))

    def test_live_base_url_failures_are_still_reported(self):
        # no document, and the base URL itself redirects on a trailing slash:
        # NT-2 on the base URL must show that evidence (fail, redirects to).
        p = probe({"openapi_json": "404", "trailing_slash": 301})
        self.assertCheck(p.report, rid("no-trailing-slash"), "NT-2", "fail", contains="redirects to")


class PO2(ProbeCase):
    def test_wildcard_passes(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"cors": "*"}, edition=edition)
                self.assertCheck(p.report, rid("publish-openapi", edition), "PO-2", "pass")

    def test_echoed_origin_passes_and_origin_is_random_example(self):
        p = probe({"cors": "echo"})
        self.assertCheck(p.report, PO, "PO-2", "pass")
        origins = [r["headers"].get("Origin") for r in p.requests
                   if r["path"] == "/v1/openapi.json" and r["headers"].get("Origin")]
        self.assertTrue(origins, "no request for openapi.json carried an Origin header")
        for o in origins:
            self.assertRegex(o, r"^https://[A-Za-z0-9-]+\.example$")

    def test_other_fixed_origin_fails(self):
        # "*" or the request's own origin; a fixed portal origin does not allow all
        p = probe({"cors": "fixed"})
        self.assertCheck(p.report, PO, "PO-2", "fail")

    def test_no_cors_header_fails(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"cors": "none"}, edition=edition)
                self.assertCheck(p.report, rid("publish-openapi", edition), "PO-2", "fail")
                self.assertRule(p.report, rid("publish-openapi", edition), "fail")


def yaml_of(doc, **kw):
    return yaml.safe_dump(doc, allow_unicode=True, **kw)


class PO3(ProbeCase):
    def test_absent_yaml_is_skipped(self):
        p = probe({"openapi_yaml": "absent"})
        self.assertCheck(p.report, PO, "PO-3", "skip")
        self.assertRule(p.report, PO, "pass")

    def test_gone_yaml_is_skipped(self):
        p = probe({"openapi_yaml": "410"})
        self.assertCheck(p.report, PO, "PO-3", "skip")

    def test_identical_yaml_passes(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"openapi_yaml": "identical"}, edition=edition)
                self.assertCheck(p.report, rid("publish-openapi", edition), "PO-3", "pass")

    def test_key_order_and_int_vs_float_do_not_matter(self):
        doc = default_doc("/v1", "1.0.0")
        other = copy.deepcopy(doc)
        other["components"]["schemas"]["Gebouw"]["properties"]["bouwjaar"]["minimum"] = 1000.0
        p = probe({"openapi_yaml": "text", "openapi_yaml_text": yaml_of(other, sort_keys=True)})
        self.assertCheck(p.report, PO, "PO-3", "pass")

    def test_string_vs_number_differs_and_names_pointer(self):
        doc = default_doc("/v1", "1.0.0")
        other = copy.deepcopy(doc)
        other["components"]["schemas"]["Gebouw"]["properties"]["bouwjaar"]["minimum"] = "1000"
        p = probe({"openapi_yaml": "text", "openapi_yaml_text": yaml_of(other, sort_keys=False)})
        self.assertCheck(p.report, PO, "PO-3", "fail",
                         contains="/components/schemas/Gebouw/properties/bouwjaar/minimum")

    def test_differing_yaml_fails_naming_first_pointer(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"openapi_yaml": "differing"}, edition=edition)
                self.assertCheck(p.report, rid("publish-openapi", edition), "PO-3", "fail", contains="/info/title")

    def test_unparsable_yaml_fails(self):
        p = probe({"openapi_yaml": "unparsable"})
        self.assertCheck(p.report, PO, "PO-3", "fail")

    def test_server_error_on_yaml_warns(self):
        p = probe({"openapi_yaml": "500"})
        self.assertCheck(p.report, PO, "PO-3", "warn")
        self.assertRule(p.report, PO, "warn")


if __name__ == "__main__":
    harness.main()
