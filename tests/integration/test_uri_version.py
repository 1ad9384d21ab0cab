#!/usr/bin/python3
"""/core/uri-version (1.0: API-20): UV-1 (v<major> in the base path), UV-2 (every
servers url has it), UV-3 (it equals info.version's major)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ProbeCase, probe, rid  # noqa: E402

UV = rid("uri-version")


class UV1(ProbeCase):
    def test_major_segment_passes(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe(edition=edition)
                self.assertCheck(p.report, rid("uri-version", edition), "UV-1", "pass")
                self.assertRule(p.report, rid("uri-version", edition), "pass")

    def test_deeper_base_path_with_major_passes(self):
        p = probe({"base": "/api/gebouwen-register/v2", "version": "2.3.0"})
        self.assertCheck(p.report, UV, "UV-1", "pass")
        self.assertCheck(p.report, UV, "UV-3", "pass")

    def test_no_version_segment_fails(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"base": "/api"}, edition=edition)
                self.assertCheck(p.report, rid("uri-version", edition), "UV-1", "fail")

    def test_minor_in_uri_fails(self):
        for base in ("/v1.2", "/api/1.0.0", "/v1.0.0"):
            with self.subTest(base=base):
                p = probe({"base": base})
                self.assertCheck(p.report, UV, "UV-1", "fail")

    def test_version_like_but_not_a_segment_fails(self):
        p = probe({"base": "/api-v1"})
        self.assertCheck(p.report, UV, "UV-1", "fail")


class UV2(ProbeCase):
    def test_relative_server_url_passes(self):
        # servers [{url: "/v1"}], resolved against http://127.0.0.1:PORT/v1/openapi.json
        p = probe()
        self.assertCheck(p.report, UV, "UV-2", "pass")

    def test_absolute_server_url_passes(self):
        p = probe({"doc_patch": {"servers": [{"url": "$ORIGIN/v1"}, {"url": "https://api.example.nl/v1"}]}})
        self.assertCheck(p.report, UV, "UV-2", "pass")

    def test_server_with_other_major_fails(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"doc_patch": {"servers": [{"url": "/v1"}, {"url": "https://api.example.nl/v2"}]}},
                          edition=edition)
                self.assertCheck(p.report, rid("uri-version", edition), "UV-2", "fail")
                self.assertRule(p.report, rid("uri-version", edition), "fail")

    def test_server_without_version_fails(self):
        p = probe({"doc_patch": {"servers": [{"url": "https://api.example.nl/gebouwen"}]}})
        self.assertCheck(p.report, UV, "UV-2", "fail")

    def test_no_servers_means_root_and_fails(self):
        # probes.md UV-2: "no servers means /"
        p = probe({"doc_patch": {"servers": None}})
        self.assertCheck(p.report, UV, "UV-2", "fail")


class UV3(ProbeCase):
    def test_major_matches_passes(self):
        p = probe({"version": "1.4.2"})
        self.assertCheck(p.report, UV, "UV-3", "pass")

    def test_other_major_fails(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"version": "2.0.0"}, edition=edition)
                self.assertCheck(p.report, rid("uri-version", edition), "UV-3", "fail")

    def test_leading_digits_are_the_major(self):
        # "1.4" is not SemVer (SV-1 fails) but its major is 1: UV-3 passes
        p = probe({"version": "1.4"})
        self.assertCheck(p.report, UV, "UV-3", "pass")
        self.assertCheck(p.report, rid("semver"), "SV-1", "fail")

    def test_no_leading_digits_fails(self):
        p = probe({"version": "v1.0.0"})
        self.assertCheck(p.report, UV, "UV-3", "fail")

    def test_major_10_is_not_major_1(self):
        p = probe({"version": "10.0.0"})
        self.assertCheck(p.report, UV, "UV-3", "fail")


if __name__ == "__main__":
    harness.main()
