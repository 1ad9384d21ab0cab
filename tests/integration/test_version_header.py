#!/usr/bin/python3
"""/core/version-header (1.0: API-57): VH-1 (GET {base} succeeds with API-Version),
VH-2 (its value is unprefixed SemVer), VH-3 (equals info.version, else warn),
VH-4 (every other response carries it, else warn)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ProbeCase, probe, rid  # noqa: E402

VH = rid("version-header")


class VH1(ProbeCase):
    def test_header_on_base_url_passes(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe(edition=edition)
                self.assertCheck(p.report, rid("version-header", edition), "VH-1", "pass")
                self.assertRule(p.report, rid("version-header", edition), "pass")

    def test_header_name_is_case_insensitive(self):
        p = probe({"api_version_header_name": "api-version"})
        self.assertCheck(p.report, VH, "VH-1", "pass")
        self.assertCheck(p.report, VH, "VH-2", "pass")

    def test_missing_header_fails(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"api_version": None}, edition=edition)
                self.assertCheck(p.report, rid("version-header", edition), "VH-1", "fail")
                self.assertRule(p.report, rid("version-header", edition), "fail")

    def test_base_url_not_found_fails(self):
        p = probe({"base_get": 404})
        self.assertCheck(p.report, VH, "VH-1", "fail", contains="404")

    def test_base_url_redirect_fails_and_is_not_followed(self):
        p = probe({"base_get": 301})
        self.assertCheck(p.report, VH, "VH-1", "fail", contains="redirects to")
        self.assertCheck(p.report, VH, "VH-1", "fail", contains="/v1/")


class VH2(ProbeCase):
    def test_plain_semver_passes(self):
        p = probe({"api_version": "1.0.0"})
        self.assertCheck(p.report, VH, "VH-2", "pass")

    def test_prerelease_depends_on_edition(self):
        # doc and header both 1.0.0-rc.1, so VH-3 agrees; only the grammar differs
        for edition, verdict in (("2.0.0", "pass"), ("1.0", "fail")):
            with self.subTest(edition=edition):
                p = probe({"version": "1.0.0-rc.1"}, edition=edition)
                self.assertCheck(p.report, rid("version-header", edition), "VH-2", verdict)

    def test_prefixed_value_fails(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"api_version": "v1.0.0"}, edition=edition)
                self.assertCheck(p.report, rid("version-header", edition), "VH-2", "fail")
                self.assertRule(p.report, rid("version-header", edition), "fail")

    def test_major_minor_only_fails(self):
        p = probe({"api_version": "1.0"})
        self.assertCheck(p.report, VH, "VH-2", "fail")


class VH3(ProbeCase):
    def test_equal_to_info_version_passes(self):
        p = probe({"version": "1.3.0"})
        self.assertCheck(p.report, VH, "VH-3", "pass")

    def test_different_from_info_version_warns(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"version": "1.0.0", "api_version": "1.0.1"}, edition=edition)
                self.assertCheck(p.report, rid("version-header", edition), "VH-2", "pass")
                self.assertCheck(p.report, rid("version-header", edition), "VH-3", "warn")
                self.assertRule(p.report, rid("version-header", edition), "warn")

    def test_skipped_without_document(self):
        # probes.md: with PO-1 failing, version-header "is judged on VH-1/2/4 alone (VH-3 skip)"
        p = probe({"openapi_json": "404", "api_version": "1.0.1"})
        self.assertCheck(p.report, VH, "VH-3", "skip")
        self.assertRule(p.report, VH, "pass")


class VH4(ProbeCase):
    def test_header_everywhere_passes(self):
        p = probe({"api_version_scope": "all"})
        self.assertCheck(p.report, VH, "VH-4", "pass")

    def test_header_only_on_base_url_warns(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"api_version_scope": "base"}, edition=edition)
                self.assertCheck(p.report, rid("version-header", edition), "VH-1", "pass")
                v, msg = self.assertCheck(p.report, rid("version-header", edition), "VH-4", "warn")
                self.assertRule(p.report, rid("version-header", edition), "warn")
                self.assertIn("/v1/gebouwen", msg, "VH-4 does not list the responses that lacked the header")

    def test_documents_outside_base_are_not_counted(self):
        # probes.md VH-4: a $ref document on the API's host but outside {base}
        # (/schemas/...) is not a response from the API; openapi.json under {base} is
        profile = {"api_version_scope": "base",
                   "doc_patch": {"components": {"schemas": {"Gebouw": {"properties": {
                       "adres": {"$ref": "$ORIGIN/schemas/common.json#/Adres"}}}}}},
                   "files": {"/schemas/common.json": {"Adres": {"type": "object"}}}}
        p = probe(profile)
        self.assertCheck(p.report, rid("doc-openapi"), "DO-2", "pass")
        fetched = [e for e in p.report["exchanges"] if e["url"].endswith("/schemas/common.json")]
        self.assertTrue(fetched, "the $ref document was not fetched")
        _, msg = self.assertCheck(p.report, VH, "VH-4", "warn", contains="GET /v1/openapi.json")
        self.assertNotIn("common.json", msg)
        cited = harness.checks(p.report, VH, "VH-4")[0]["exchanges"]
        self.assertNotIn(fetched[0]["id"], cited)

    def test_intermediary_statuses_do_not_warn(self):
        # 401 on every trailing-slash URL, without API-Version, as a gateway would
        # answer: "counted apart ... do not warn"
        for status in (401, 403):
            with self.subTest(status=status):
                p = probe({"api_version_omit_statuses": [status], "trailing_slash": status})
                self.assertCheck(p.report, VH, "VH-4", "pass")
                self.assertCheck(p.report, rid("no-trailing-slash"), "NT-2", "warn")

    def test_api_errors_without_header_warn(self):
        # a 404 or 500 is the API's own answer: lacking the header is a warn
        for status in (404, 500):
            with self.subTest(status=status):
                p = probe({"api_version_omit_statuses": [status], "trailing_slash": status})
                self.assertCheck(p.report, VH, "VH-4", "warn")
                self.assertCheck(p.report, VH, "VH-1", "pass")


if __name__ == "__main__":
    harness.main()
