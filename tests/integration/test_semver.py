#!/usr/bin/python3
"""/core/semver (1.0: API-56): SV-1, info.version is Semantic Versioning.
Edition 1.0: exactly MAJOR.MINOR.PATCH; 2.0.0: the full SemVer 2.0.0 grammar."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ProbeCase, probe, rid  # noqa: E402

# info.version -> (verdict in 2.0.0, verdict in 1.0)
CASES = {
    "1.0.0": ("pass", "pass"),
    "1.12.3": ("pass", "pass"),
    "1.0.0-rc.1": ("pass", "fail"),        # pre-release: allowed from 2.0.0 on
    "1.0.0-alpha.beta.2": ("pass", "fail"),
    "1.0.0+build.5": ("pass", "fail"),     # build metadata is SemVer 2.0.0 grammar
    "v1.0.0": ("fail", "fail"),            # "v1.2.3, 1.2, 01.2.3 fail in every edition"
    "1.2": ("fail", "fail"),
    "01.2.3": ("fail", "fail"),
    "1.0.0-01": ("fail", "fail"),          # numeric pre-release id with a leading zero
    "1.0.0-rc..1": ("fail", "fail"),       # empty pre-release identifier
    "1.0.0 ": ("fail", "fail"),
}


class SV1(ProbeCase):
    def run_version(self, version, edition):
        # the API-Version header follows info.version ("same"), so only SV-1 is at stake
        return probe({"version": version}, edition=edition)

    def test_version_grid(self):
        for version, expected in CASES.items():
            for edition, verdict in zip(harness.EDITIONS, expected):
                with self.subTest(version=version, edition=edition):
                    p = self.run_version(version, edition)
                    self.assertCheck(p.report, rid("semver", edition), "SV-1", verdict)
                    self.assertRule(p.report, rid("semver", edition), verdict)

    def test_missing_version_fails(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"doc_patch": {"info": {"version": None}}}, edition=edition)
                self.assertCheck(p.report, rid("semver", edition), "SV-1", "fail")

    def test_numeric_version_fails(self):
        # a JSON number is not a SemVer string
        p = probe({"doc_patch": {"info": {"version": 1.0}}, "api_version": "1.0.0"})
        self.assertCheck(p.report, rid("semver"), "SV-1", "fail")

    def test_missing_info_fails(self):
        p = probe({"doc_patch": {"info": None}, "api_version": "1.0.0"})
        self.assertCheck(p.report, rid("semver"), "SV-1", "fail")


if __name__ == "__main__":
    harness.main()
