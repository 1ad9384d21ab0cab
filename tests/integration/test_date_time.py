#!/usr/bin/python3
"""/core/date-time/format (2.2.0): DT-5, the date and time values in the JSON 2xx
responses to the GETs of documented paths, against a live fixture API; the
/core/date-time/timezone hints (DT-1's date-time-local and time formats, DT-5's
non-UTC values); and `lint` on the official linter's date-time case.

The fixture is a SideServer on 127.0.0.1 serving /v1/openapi.json and the
answer to GET /v1/organisaties a test chooses; everything else is 404."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ProbeCase, run_adrprobe  # noqa: E402
from side_server import Response, SideServer  # noqa: E402

FORMAT = "/core/date-time/format"
TIMEZONE = "/core/date-time/timezone"
OMIT = "/core/date-time/date-omit-time-portion"


def document():
    """OpenAPI 3.0.3: GET /organisaties answers {organisaties: [Organisatie]}."""
    ok_schema = {"type": "object", "properties": {
        "organisaties": {"type": "array", "items": {"$ref": "#/components/schemas/Organisatie"}}}}
    return {
        "openapi": "3.0.3",
        "info": {"title": "Organisaties", "version": "1.0.0",
                 "contact": {"name": "Team", "url": "https://example.org", "email": "team@example.org"}},
        "servers": [{"url": "/v1"}],
        "paths": {"/organisaties": {"get": {"responses": {"200": {
            "description": "OK", "content": {"application/json": {"schema": ok_schema}}}}}}},
        "components": {"schemas": {
            "Organisatie": {"type": "object", "properties": {
                "naam": {"type": "string"},
                "afgifteDatum": {"type": "string", "format": "date"},
                "laatstGewijzigd": {"$ref": "#/components/schemas/Moment"},
                "openingstijd": {"type": "string", "format": "time-local"}}},
            "Moment": {"type": "string", "format": "date-time"},
        }},
    }


def organisatie(**values):
    o = {"naam": "Logius", "afgifteDatum": "2022-03-10", "laatstGewijzigd": "2022-03-10T12:15:50Z",
         "openingstijd": "08:30:00"}
    o.update(values)
    return o


def body(*organisaties):
    return json.dumps({"organisaties": list(organisaties)})


def check(answer, doc=None):
    """Serve doc and answer (a Response for GET /v1/organisaties), run
    `adrprobe check --edition 2.2.0 -f json` on it; returns (report, request log)."""
    routes = {"/v1/openapi.json": doc or document(), "/v1/organisaties": answer}
    with SideServer(routes) as srv:
        run = run_adrprobe(harness.check_args(srv.origin + "/v1", (), "2.2.0"), timeout=90)
        report = run.json()
        return report, srv.requests()


def ok(text, content_type="application/json", status=200):
    return Response(status, text, content_type=content_type)


class DT5(ProbeCase):
    def test_values_that_match_their_grammar_pass(self):
        report, requests = check(ok(body(organisatie(), organisatie(afgifteDatum="2024-02-29",
                                                                    laatstGewijzigd="2022-03-10T12:15:50.5+00:00"))))
        self.assertCheck(report, FORMAT, "DT-5", "pass", contains="6 date/time values in 1 response, each matching its format")
        for c in ("DT-1", "DT-2", "DT-3"):
            self.assertCheck(report, FORMAT, c, "pass")
        self.assertRule(report, FORMAT, "pass")
        # DT-5 sends nothing of its own: its evidence is HM-1's GET of the documented path
        exchanges = {e["id"]: e for e in report["exchanges"]}
        hm1 = [e for e in report["exchanges"] if e["method"] == "GET" and e["url"].endswith("/v1/organisaties")
               and not any(k.lower() == "origin" for k in e.get("request_headers", {}))]
        dt5 = harness.checks(report, FORMAT, "DT-5")[0]
        self.assertEqual([exchanges[i]["url"] for i in dt5["exchanges"]], [e["url"] for e in hm1[:1]])
        self.assertIn(("GET", "/v1/organisaties"), requests)

    def test_no_offset_fails_naming_request_pointer_and_value(self):
        report, _ = check(ok(body(organisatie(laatstGewijzigd="2022-03-10T12:15:50"))))
        self.assertCheck(report, FORMAT, "DT-5", "fail",
                         contains='GET /v1/organisaties 200: /organisaties/0/laatstGewijzigd = '
                                  '"2022-03-10T12:15:50" (no offset)')
        self.assertRule(report, FORMAT, "fail")

    def test_lowercase_t_minus_zero_offset_and_invalid_dates_fail(self):
        report, _ = check(ok(body(organisatie(laatstGewijzigd="2022-03-10t12:15:50Z"),
                                  organisatie(laatstGewijzigd="2022-03-10T12:15:50-00:00"),
                                  organisatie(afgifteDatum="2023-02-29"),
                                  organisatie(laatstGewijzigd="2022-04-31T08:00:00Z"))))
        self.assertCheck(report, FORMAT, "DT-5", "fail", contains=(
            '/organisaties/0/laatstGewijzigd = "2022-03-10t12:15:50Z" (lowercase t)',
            '/organisaties/1/laatstGewijzigd = "2022-03-10T12:15:50-00:00" (offset -00:00)',
            '/organisaties/2/afgifteDatum = "2023-02-29" (not a calendar date)'))
        dt5 = harness.checks(report, FORMAT, "DT-5")[0]
        self.assertEqual(len(dt5.get("details", [])), 4)
        self.assertIn('fail: GET /v1/organisaties 200: /organisaties/3/laatstGewijzigd = "2022-04-31T08:00:00Z" '
                      '(not a calendar date)', dt5["details"])
        self.assertTrue(dt5["exchanges"], "the failing response is evidence")

    def test_rfc9557_zone_suffix_warns(self):
        report, _ = check(ok(body(organisatie(laatstGewijzigd="2022-03-10T13:15:50+01:00[Europe/Amsterdam]"))))
        self.assertCheck(report, FORMAT, "DT-5", "warn",
                         contains="(RFC 9557 suffix [Europe/Amsterdam]: ISO 8601-1 has none)")
        self.assertRule(report, FORMAT, "warn")

    def test_not_json_is_skip(self):
        report, _ = check(ok("<html>2022-03-10T12:15:50</html>", content_type="text/html"))
        self.assertCheck(report, FORMAT, "DT-5", "skip", contains="1 2xx response not JSON")
        self.assertRule(report, FORMAT, "pass")  # the static checks alone

    def test_body_over_the_probe_limit_is_skip(self):
        big = [organisatie(naam="x" * 200, laatstGewijzigd="2022-03-10T12:15:50") for _ in range(60)]
        report, _ = check(ok(body(*big)))
        self.assertCheck(report, FORMAT, "DT-5", "skip", contains="over the probe limit (8 KiB)")

    def test_no_date_fields_and_error_status_are_skip(self):
        report, _ = check(ok(json.dumps({"organisaties": [{"naam": "Logius"}]})))
        self.assertCheck(report, FORMAT, "DT-5", "skip",
                         contains="no date, date-time or time-local value in the JSON 2xx responses")
        report, _ = check(ok(json.dumps({"status": 503, "title": "weg"}), status=503))
        self.assertCheck(report, FORMAT, "DT-5", "skip", contains="no 2xx response")

    def test_timezone_rule_shows_the_hints(self):
        doc = document()
        doc["components"]["schemas"]["Lokaal"] = {"type": "string", "format": "date-time-local"}
        doc["components"]["schemas"]["Organisatie"]["properties"]["lokaal"] = {"$ref": "#/components/schemas/Lokaal"}
        report, _ = check(ok(body(organisatie(laatstGewijzigd="2022-03-10T13:15:50+01:00"),
                                  organisatie(laatstGewijzigd="2022-03-10T14:15:50+01:00"))), doc)
        self.assertCheck(report, FORMAT, "DT-5", "pass")
        # reached through Organisatie: the first $ref on the way is named
        self.assertCheck(report, FORMAT, "DT-1", "fail",
                         contains="'date-time-local' (no offset) at /paths/~1organisaties/get/responses/200/content/"
                                  "application~1json/schema/properties/organisaties/items → #/components/schemas/"
                                  "Lokaal/format")
        rule = self.assertRule(report, TIMEZONE, "manual")
        hints = rule.get("hints", [])
        self.assertEqual(len(hints), 2, hints)
        self.assertIn("DT-1: format 'date-time-local' at /paths/~1organisaties/", hints[0])
        self.assertIn("→ #/components/schemas/Lokaal/format", hints[0])
        self.assertIn('DT-5: GET /v1/organisaties 200: 2 values, e.g. /organisaties/0/laatstGewijzigd = '
                      '"2022-03-10T13:15:50+01:00" has offset +01:00, not UTC', hints[1])


class Lint(ProbeCase):
    def test_linter_case_date_time(self):
        case = harness.data_path("linter-testcases", "date-time", "openapi.json")
        run = run_adrprobe(["lint", "--edition", "2.2.0", str(case), "-f", "json"])
        report = run.json()
        self.assertCheck(report, FORMAT, "DT-1", "fail", contains=("'date-time-local'", "'time'"))
        self.assertCheck(report, FORMAT, "DT-2", "pass")
        self.assertCheck(report, FORMAT, "DT-3", "fail", contains="missingFormatDate: no format")
        self.assertCheck(report, FORMAT, "DT-5", "skip", contains="needs a live API")
        self.assertCheck(report, OMIT, "DT-4", "fail", contains=(
            "date, datum, geboorteDatum, birthDate, expiration_date, expiration_Date: date-time",
            "meerdereDatum → #/components/schemas/LocalDateTimeIncorrect: date-time"))
        rule = self.assertRule(report, TIMEZONE, "manual")
        self.assertEqual(len(rule.get("hints", [])), 2, rule)


if __name__ == "__main__":
    harness.main()
