#!/usr/bin/python3
"""Which paths are probed (probes.md): every documented path with a GET; path
parameters from --param, example, examples, schema.example/default/enum; paths
still missing a value are listed as skip naming the parameter."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ProbeCase, probe  # noqa: E402

OK = {"responses": {"200": {"description": "OK"}}}


def item_with_param(param):
    """/gebouwen/{id} with only a GET whose parameter is param (plus name/in)."""
    p = dict({"name": "id", "in": "path", "required": True}, **param)
    return {"paths": {"/gebouwen/{id}": {"get": dict(OK, parameters=[p]), "put": None, "delete": None}}}


NESTED = {"paths": {"/gebouwen/{id}/verblijfsobjecten/{vid}": {"get": dict(OK, parameters=[
    {"name": "id", "in": "path", "required": True, "example": "1", "schema": {"type": "string"}},
    {"name": "vid", "in": "path", "required": True, "schema": {"type": "string"}}])}}}


class Enumeration(ProbeCase):
    def sent(self, p):
        return {(r["method"], r["path"]) for r in p.requests}

    def test_templated_path_is_probed_with_example(self):
        p = probe()
        self.assertIn("/v1/gebouwen/1", harness.exchange_paths(p.report))
        self.assertIn(("GET", "/v1/gebouwen/1"), self.sent(p))
        self.assertIn(("GET", "/v1/gebouwen"), self.sent(p))

    def test_param_option_wins_over_example(self):
        p = probe(None, "--param", "id=7")
        self.assertIn("/v1/gebouwen/7", harness.exchange_paths(p.report))
        self.assertIn(("GET", "/v1/gebouwen/7"), self.sent(p))
        self.assertNotIn(("GET", "/v1/gebouwen/1"), self.sent(p))

    def test_parameter_without_value_is_skipped_by_name(self):
        p = probe({"doc_patch": NESTED})
        hits = self.assertAnyCheckMessage(
            p.report, lambda r, c: c["verdict"] == "skip" and "vid" in c["message"],
            "is skip naming the parameter 'vid'")
        self.assertTrue(hits)
        nested = [r for r in p.requests if "verblijfsobjecten" in r["path"]]
        self.assertEqual(nested, [], "a path without a parameter value was requested")

    def test_param_option_fills_the_missing_value(self):
        p = probe({"doc_patch": NESTED}, "--param", "vid=3")
        self.assertIn(("GET", "/v1/gebouwen/1/verblijfsobjecten/3"), self.sent(p))
        skipped = [c for r, c in harness.all_checks(p.report) if c["verdict"] == "skip" and "vid" in c["message"]]
        self.assertEqual(skipped, [])

    def test_path_item_level_parameter(self):
        patch = {"paths": {"/panden/{pid}": {
            "parameters": [{"name": "pid", "in": "path", "required": True, "example": "3",
                            "schema": {"type": "string"}}],
            "get": OK}}}
        p = probe({"doc_patch": patch})
        self.assertIn(("GET", "/v1/panden/3"), self.sent(p))

    def test_value_sources(self):
        cases = (
            ({"examples": {"eerste": {"value": "5"}}, "schema": {"type": "string"}}, "5"),
            ({"schema": {"type": "string", "example": "6"}}, "6"),
            ({"schema": {"type": "string", "default": "8"}}, "8"),
            ({"schema": {"type": "string", "enum": ["9", "10"]}}, "9"),
            ({"schema": {"type": "integer", "example": 11}}, "11"),
        )
        for param, value in cases:
            with self.subTest(param=param):
                p = probe({"doc_patch": item_with_param(param)})
                self.assertIn(("GET", "/v1/gebouwen/" + value), self.sent(p))

    def test_paths_without_get_get_only_hm2_and_hm3(self):
        # no GET, HEAD or trailing slash, but TRACE (HM-3) is sent
        p = probe({"doc_patch": {"paths": {"/acties": {"post": OK}}}})
        self.assertNotIn(("GET", "/v1/acties"), self.sent(p))
        self.assertNotIn(("HEAD", "/v1/acties"), self.sent(p))
        self.assertNotIn(("GET", "/v1/acties/"), self.sent(p))
        self.assertIn(("TRACE", "/v1/acties"), self.sent(p))

    def test_parameter_value_from_a_post_operation(self):
        patch = {"paths": {"/zaken/{zid}/_zoek": {"post": dict(OK, parameters=[
            {"name": "zid", "in": "path", "required": True, "example": "5", "schema": {"type": "string"}}])}}}
        p = probe({"doc_patch": patch})
        self.assertIn(("TRACE", "/v1/zaken/5/_zoek"), self.sent(p))

    def test_path_without_get_and_without_value_is_listed_under_hm2_and_hm3_only(self):
        patch = {"paths": {"/zaken/{zid}/_zoek": {"post": OK}}}
        p = probe({"doc_patch": patch})
        listed = sorted(c["id"] for r, c in harness.all_checks(p.report)
                        if c["verdict"] == "skip" and c["message"].startswith("not probed: /zaken/{zid}/_zoek"))
        self.assertEqual(listed, ["HM-2", "HM-3"])

    def test_query_parameters_are_not_sent(self):
        patch = {"paths": {"/gebouwen": {"get": dict(OK, parameters=[
            {"name": "naam", "in": "query", "required": True, "example": "x", "schema": {"type": "string"}}])}}}
        p = probe({"doc_patch": patch})
        with_query = [r["target"] for r in p.requests if "?" in r["target"]]
        self.assertEqual(with_query, [])

    def test_max_paths_bounds_the_probed_paths(self):
        p = probe(None, "--max-paths", "1")
        self.assertIn(("GET", "/v1/gebouwen"), self.sent(p))
        self.assertNotIn(("GET", "/v1/gebouwen/1"), self.sent(p))
        self.assertNotIn(("GET", "/v1/gebouwen/1/"), self.sent(p))

    def test_documented_paths_are_all_probed_by_default(self):
        many = {"paths": {"/p%03d" % i: {"get": OK} for i in range(30)}}
        p = probe({"doc_patch": many})
        for i in range(30):
            self.assertIn(("GET", "/v1/p%03d" % i), self.sent(p))


if __name__ == "__main__":
    harness.main()
