#!/usr/bin/python3
"""/core/doc-openapi (1.0: API-16): DO-1 (OpenAPI v3+), DO-2 ($refs resolve),
DO-3 (paths defined)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ProbeCase, default_doc, probe, rid  # noqa: E402

DO = rid("doc-openapi")

def swagger2():
    return {
        "swagger": "2.0",
        "info": {"title": "Gebouwen API", "version": "1.0.0"},
        "basePath": "/v1",
        "paths": {"/gebouwen": {"get": {"responses": {"200": {"description": "OK"}}}}},
    }


def with_adres(schema):
    """doc_patch that gives Gebouw a property 'adres' with this schema."""
    return {"components": {"schemas": {"Gebouw": {"properties": {"adres": schema}}}}}


class DO1(ProbeCase):
    def test_openapi_3_0_and_3_1_pass(self):
        for version in ("3.0.3", "3.1.0"):
            for edition in harness.EDITIONS:
                with self.subTest(openapi=version, edition=edition):
                    p = probe({"doc_patch": {"openapi": version}}, edition=edition)
                    self.assertCheck(p.report, rid("doc-openapi", edition), "DO-1", "pass")

    def test_swagger_2_fails_in_both_editions(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"doc": swagger2()}, edition=edition)
                self.assertCheck(p.report, rid("doc-openapi", edition), "DO-1", "fail")
                self.assertRule(p.report, rid("doc-openapi", edition), "fail")

    def test_swagger_2_document_is_still_used_by_other_checks(self):
        # probes.md: "A document that fails only DO-1 (e.g. Swagger 2.0) ... is
        # still used by the other checks."
        p = probe({"doc": swagger2()})
        self.assertCheck(p.report, rid("semver"), "SV-1", "pass")
        self.assertCheck(p.report, rid("no-trailing-slash"), "NT-1", "pass")
        self.assertNotIn("prerequisite not met", harness.rule(p.report, rid("semver"))["summary"].lower())
        self.assertIn("/v1/gebouwen/", [r["path"] for r in p.requests], "the Swagger 2.0 paths were not probed")

    def test_missing_openapi_field_fails(self):
        p = probe({"doc_patch": {"openapi": None}})
        self.assertCheck(p.report, DO, "DO-1", "fail")

    def test_malformed_openapi_versions_fail(self):
        for bad in ("3.0", "2.0.0", 3.0, "v3.0.3"):
            with self.subTest(openapi=bad):
                p = probe({"doc_patch": {"openapi": bad}})
                self.assertCheck(p.report, DO, "DO-1", "fail")


class DO2(ProbeCase):
    def test_default_document_refs_resolve(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe(edition=edition)
                self.assertCheck(p.report, rid("doc-openapi", edition), "DO-2", "pass")

    def test_broken_local_ref_fails_with_its_pointer(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"doc_patch": with_adres({"$ref": "#/components/schemas/Bestaatniet"})}, edition=edition)
                self.assertCheck(p.report, rid("doc-openapi", edition), "DO-2", "fail",
                                 contains=("/components/schemas/Gebouw/properties/adres", "Bestaatniet"))

    def test_escaped_local_pointers_resolve(self):
        # ~1 is "/", ~0 is "~", %20 is a space (probes.md DO-2)
        patch = {"components": {"schemas": {
            "a/b": {"type": "string"}, "t~x": {"type": "string"}, "c d": {"type": "string"},
            "Gebouw": {"properties": {
                "p1": {"$ref": "#/components/schemas/a~1b"},
                "p2": {"$ref": "#/components/schemas/t~0x"},
                "p3": {"$ref": "#/components/schemas/c%20d"}}}}}}
        p = probe({"doc_patch": patch})
        self.assertCheck(p.report, DO, "DO-2", "pass")

    def test_external_ref_is_fetched_without_user_headers(self):
        profile = {"doc_patch": with_adres({"$ref": "schemas/common.json#/Adres"}),
                   "files": {"/v1/schemas/common.json": {"Adres": {"type": "object", "properties": {
                       "postcode": {"$ref": "#/Postcode"}}}, "Postcode": {"type": "string"}}}}
        p = probe(profile, "-H", "X-Api-Key: s3cret-token-value")
        self.assertCheck(p.report, DO, "DO-2", "pass")
        fetched = [r for r in p.requests if r["path"] == "/v1/schemas/common.json"]
        self.assertTrue(fetched, "the external $ref was never fetched")
        for r in fetched:
            self.assertNotIn("X-Api-Key", r["headers"], "user header sent with an external $ref fetch")

    def test_absolute_external_ref_resolves(self):
        profile = {"doc_patch": with_adres({"$ref": "$ORIGIN/v1/schemas/common.json#/Adres"}),
                   "files": {"/v1/schemas/common.json": {"Adres": {"type": "object"}}}}
        p = probe(profile)
        self.assertCheck(p.report, DO, "DO-2", "pass")

    def test_missing_external_file_fails(self):
        p = probe({"doc_patch": with_adres({"$ref": "schemas/nergens.json#/Adres"})})
        self.assertCheck(p.report, DO, "DO-2", "fail", contains="/components/schemas/Gebouw/properties/adres")

    def test_missing_pointer_in_external_file_fails(self):
        profile = {"doc_patch": with_adres({"$ref": "schemas/common.json#/Bestaatniet"}),
                   "files": {"/v1/schemas/common.json": {"Adres": {"type": "object"}}}}
        p = probe(profile)
        self.assertCheck(p.report, DO, "DO-2", "fail")

    def test_broken_ref_inside_external_file_fails(self):
        # recursively: a ref inside the fetched file that does not resolve
        profile = {"doc_patch": with_adres({"$ref": "schemas/common.json#/Adres"}),
                   "files": {"/v1/schemas/common.json": {"Adres": {"properties": {
                       "x": {"$ref": "#/Bestaatniet"}}}}}}
        p = probe(profile)
        self.assertCheck(p.report, DO, "DO-2", "fail")

    def test_unresolved_refs_are_grouped_by_document_and_cause(self):
        # 40 refs into two missing documents and one into a document that exists:
        # one entry per document, the whole list in the JSON report's details, and
        # the evidence is the failing fetches only
        props = {"g%d" % i: {"$ref": "schemas/weg.json#/S%d" % i} for i in range(25)}
        props.update({"o%d" % i: {"$ref": "schemas/ook-weg.json#/O"} for i in range(15)})
        props["adres"] = {"$ref": "schemas/common.json#/Adres"}
        profile = {"doc_patch": {"components": {"schemas": {"Gebouw": {"properties": props}}}},
                   "files": {"/v1/schemas/common.json": {"Adres": {"type": "object"}}}}
        p = probe(profile)
        c = harness.checks(p.report, DO, "DO-2")[0]
        self.assertEqual(c["verdict"], "fail")
        self.assertTrue(c["message"].startswith("40 $refs not resolved (2 causes): "), c["message"])
        self.assertIn("weg.json → 404 (25 $refs, the first at #/components/schemas/Gebouw/properties/g0/$ref)",
                      c["message"])
        self.assertIn("ook-weg.json → 404 (15 $refs", c["message"])
        self.assertLess(len(c["message"]), 400)
        self.assertEqual(len(c["details"]), 40)
        by_id = {e["id"]: e for e in p.report["exchanges"]}
        self.assertEqual(sorted(by_id[i]["url"].rsplit("/", 1)[1] for i in c["exchanges"]),
                         ["ook-weg.json", "weg.json"])
        self.assertLess(len(harness.rule(p.report, DO)["summary"]), 400)

    def test_grouped_report_validates(self):
        props = {"g%d" % i: {"$ref": "schemas/weg.json#/S%d" % i} for i in range(5)}
        p = probe({"doc_patch": {"components": {"schemas": {"Gebouw": {"properties": props}}}}})
        self.assertEqual(harness.checks(p.report, DO, "DO-2")[0]["details"][0][:10], "#/componen")
        errors = [e.message for e in harness.schema_validator().iter_errors(p.report)]
        self.assertEqual(errors, [])

    def test_broken_ref_does_not_stop_other_checks(self):
        # probes.md: a document failing only DO-2 is still used by the other checks
        p = probe({"doc_patch": with_adres({"$ref": "#/components/schemas/Bestaatniet"})})
        self.assertCheck(p.report, rid("semver"), "SV-1", "pass")
        self.assertCheck(p.report, rid("no-trailing-slash"), "NT-2", "pass")


class DO3(ProbeCase):
    def test_paths_present_passes(self):
        p = probe()
        self.assertCheck(p.report, DO, "DO-3", "pass")
        self.assertRule(p.report, DO, "pass")

    def test_missing_paths_fails_in_both_editions(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"doc_patch": {"paths": None}}, edition=edition)
                self.assertCheck(p.report, rid("doc-openapi", edition), "DO-3", "fail")

    def test_empty_paths_warns(self):
        for edition in harness.EDITIONS:
            with self.subTest(edition=edition):
                p = probe({"doc_patch": {"paths": {}, "components": None}}, edition=edition)
                self.assertCheck(p.report, rid("doc-openapi", edition), "DO-3", "warn")
                self.assertRule(p.report, rid("doc-openapi", edition), "warn")

    def test_paths_not_an_object_fails(self):
        doc = default_doc("/v1", "1.0.0")
        doc["paths"] = ["/gebouwen"]
        p = probe({"doc": doc})
        self.assertCheck(p.report, DO, "DO-3", "fail")


if __name__ == "__main__":
    harness.main()
