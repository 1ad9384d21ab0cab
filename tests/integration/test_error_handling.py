#!/usr/bin/python3
"""/core/error-handling/problem-details and /core/error-handling/invalid-input (2.2.0):
EH-2 (the 4xx/5xx responses a `check` run received anyway are problem details) against
small stdlib servers that answer every error one way; EH-1 and EI-1 (static) through
`lint --edition 2.2.0` on documents."""

import http.server
import json
import socketserver
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ProbeCase  # noqa: E402

EDITION = "2.2.0"
PD = "/core/error-handling/problem-details"
II = "/core/error-handling/invalid-input"
BASE = "/v1"


def document(paths=None):
    """A small 2.2.0 document: GET /gebouwen (and whatever paths are given)."""
    problem = {"type": "object", "properties": {"status": {"type": "integer"}, "title": {"type": "string"},
                                                "detail": {"type": "string"}}}
    return {
        "openapi": "3.0.3",
        "info": {"title": "Gebouwen", "version": "1.0.0",
                 "contact": {"name": "Team", "url": "https://example.org", "email": "team@example.org"}},
        "servers": [{"url": BASE}],
        "paths": paths if paths is not None else {
            "/gebouwen": {"get": {"responses": {
                "200": {"description": "OK"},
                "404": {"description": "Niet gevonden",
                        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}}}},
        },
        "components": {"schemas": {"Problem": problem}},
    }


def problem_json(status, **changes):
    body = {"type": "about:blank", "status": status, "title": "Fout", "detail": "Het ging mis"}
    for k, v in changes.items():
        if v is None:
            body.pop(k, None)
        else:
            body[k] = v
    return "application/problem+json", json.dumps(body).encode()


def problem_xml(status):
    return "application/problem+xml", (
        '<?xml version="1.0" encoding="UTF-8"?>\n<problem xmlns="urn:ietf:rfc:7807">'
        "<type>about:blank</type><status>%d</status><title>Fout</title><detail>Het ging mis</detail></problem>"
        % status).encode()


# How an API answers its errors: status -> (Content-Type or None, body bytes).
ERRORS = {
    "json": lambda s: problem_json(s),
    "xml": problem_xml,
    "html": lambda s: ("text/html; charset=utf-8", b"<html><body><h1>Not Found</h1></body></html>"),
    "string_status": lambda s: problem_json(str(s)),
    "wrong_status": lambda s: problem_json(400 if s != 400 else 404),
    "no_detail": lambda s: problem_json(s, detail=None),
    "empty": lambda s: ("application/problem+json", b""),
    "big": lambda s: problem_json(s, detail="x" * 20000),
}


class ErrorApi:
    """GET/HEAD {base}, {base}/openapi.json (unless publish is False) and the
    documented paths answer 200 (OPTIONS 204); every other request is an error
    answered as `errors` says: 404 for unknown paths, 405 for other methods, or
    always `gateway` (e.g. 502)."""

    def __init__(self, errors="json", doc=None, gateway=None, publish=True):
        self.errors = ERRORS[errors]
        self.doc = doc if doc is not None else document()
        self.gateway = gateway
        self.publish = publish
        self.lock = threading.Lock()
        self.log = []

    def start(self):
        api = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def log_message(self, *args):
                pass

            def __getattr__(self, name):
                if name.startswith("do_"):
                    return self.answer
                raise AttributeError(name)

            def send(self, status, content_type, body, extra=None):
                self.send_response(status)
                self.send_header("API-Version", "1.0.0")
                if content_type:
                    self.send_header("Content-Type", content_type)
                for k, v in (extra or {}).items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            def answer(self):
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                path = self.path.split("?")[0]
                with api.lock:
                    api.log.append((self.command, path))
                known = {BASE} | {BASE + p for p in api.doc.get("paths", {})}
                if api.publish:
                    known.add(BASE + "/openapi.json")
                if path in known and self.command in ("GET", "HEAD"):
                    if path == BASE + "/openapi.json":
                        return self.send(200, "application/json", json.dumps(api.doc).encode(),
                                         {"Access-Control-Allow-Origin": "*"})
                    return self.send(200, "application/json", b'{"naam": "Het Gebouw"}')
                if path in known and self.command == "OPTIONS":
                    return self.send(204, None, b"", {"Allow": "GET, HEAD, OPTIONS"})
                status = api.gateway or (404 if path not in known else 405)
                content_type, body = api.errors(status)
                extra = {"Allow": "GET, HEAD, OPTIONS"} if status == 405 else {}
                return self.send(status, content_type, body, extra)

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
            allow_reuse_address = True

            def handle_error(self, request, client_address):
                pass

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.base_url = "http://127.0.0.1:%d%s" % (self.port, BASE)
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()
        return self

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False


def check(errors="json", doc=None, gateway=None, publish=True):
    """`adrprobe check BASE --edition 2.2.0 -f json` against an ErrorApi; (run, report, request log)."""
    with ErrorApi(errors, doc, gateway, publish) as api:
        run = harness.run_adrprobe(harness.check_args(api.base_url, edition=EDITION), timeout=60)
        log = list(api.log)
    return run, run.json(), log


def eh2(report):
    return harness.checks(report, PD, "EH-2")[0]


class EH2(ProbeCase):
    def cited(self, report):
        """(method, path) of the exchanges EH-2 cites; each an error response, none to HEAD."""
        exchanges = {e["id"]: e for e in report["exchanges"]}
        out = set()
        for i in eh2(report)["exchanges"]:
            e = exchanges[i]
            self.assertGreaterEqual(e["status"], 400, e)
            self.assertNotEqual(e["method"], "HEAD", e)
            out.add((e["method"], urlsplit(e["url"]).path))
        return out

    def assertSentNothing(self, report, log):
        """EH-2 sends nothing of its own: the server saw only the report's requests."""
        self.assertEqual(len(log), len(report["exchanges"]), (log, harness.exchange_urls(report)))

    def test_problem_json_passes(self):
        run, report, log = check("json")
        self.assertNoCrash(run)
        self.assertCheck(report, PD, "EH-2", "pass", contains=("judged, 0 failing", "all problem details"))
        # the 404s of NT-2 and PO-3 and the 405 of TRACE are among them
        cited = self.cited(report)
        self.assertIn(("TRACE", "/v1/gebouwen"), cited)
        self.assertIn(("GET", "/v1/openapi.yaml"), cited)
        self.assertIn(("GET", "/v1/gebouwen/"), cited)
        self.assertSentNothing(report, log)
        self.assertCheck(report, PD, "EH-1", "pass")
        self.assertRule(report, PD, "pass")

    def test_problem_xml_passes(self):
        run, report, log = check("xml")
        self.assertCheck(report, PD, "EH-2", "pass", contains="all problem details")

    def test_text_html_404_fails(self):
        run, report, log = check("html")
        self.assertNoCrash(run)
        _, msg = self.assertCheck(report, PD, "EH-2", "fail", contains=(
            "GET /v1/openapi.yaml → 404, Content-Type text/html",
            "TRACE /v1/gebouwen → 405, Content-Type text/html"))
        judged = int(msg.split(" error response")[0])
        failing = int(msg.split(" judged, ")[1].split(" failing")[0])
        self.assertEqual(judged, failing, msg)
        self.assertGreaterEqual(judged, 3, msg)
        self.assertEqual(len(self.cited(report)), failing, "exchanges list every failing response")
        self.assertRule(report, PD, "fail")

    def test_status_as_a_string_fails(self):
        _, report, _ = check("string_status")
        self.assertCheck(report, PD, "EH-2", "fail", contains='GET /v1/openapi.yaml → 404, status "404" is a string')

    def test_wrong_status_fails(self):
        _, report, _ = check("wrong_status")
        self.assertCheck(report, PD, "EH-2", "fail", contains="TRACE /v1/gebouwen → 405, status 400, not 405")

    def test_missing_detail_fails(self):
        _, report, _ = check("no_detail")
        self.assertCheck(report, PD, "EH-2", "fail", contains="GET /v1/openapi.yaml → 404, no detail")

    def test_empty_body_fails(self):
        _, report, _ = check("empty")
        self.assertCheck(report, PD, "EH-2", "fail", contains="GET /v1/openapi.yaml → 404, empty body")

    def test_body_over_8_kib_warns(self):
        _, report, _ = check("big")
        _, msg = self.assertCheck(report, PD, "EH-2", "warn", contains=(
            "0 failing", "not judged (body over 8 KiB)", "GET /v1/gebouwen/ → 404, body over 8 KiB, not judged"))
        self.assertRule(report, PD, "warn")

    def test_only_gateway_statuses_skip(self):
        _, report, _ = check("html", gateway=502)
        self.assertCheck(report, PD, "EH-2", "skip", contains=(
            "only 502/503/504 observed, counted apart", "GET /v1/openapi.yaml → 502"))

    def test_no_document_still_judged(self):
        # openapi.json itself answers 404 (text/html): EH-1 fails on the prerequisite, EH-2 judges
        _, report, _ = check("html", publish=False)
        self.assertCheck(report, PD, "EH-1", "fail", contains="prerequisite not met")
        self.assertCheck(report, PD, "EH-2", "fail", contains="GET /v1/openapi.json → 404, Content-Type text/html")
        self.assertCheck(report, II, "EI-1", "fail", contains="prerequisite not met")


# --------------------------------------------------------------------------
# EH-1 and EI-1 through lint


def lint(doc):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "openapi.json"
        path.write_text(json.dumps(doc))
        run = harness.run_adrprobe(["lint", "--edition", EDITION, path, "-f", "json"], timeout=60)
    return run, run.json()


class Lint(ProbeCase):
    def test_conformant_document_passes(self):
        run, report = lint(document())
        self.assertNoCrash(run)
        self.assertCheck(report, PD, "EH-1", "pass", contains="1 error response of 1 operation")
        self.assertCheck(report, PD, "EH-2", "skip", contains="needs a live API")
        self.assertRule(report, PD, "pass")
        self.assertCheck(report, II, "EI-1", "pass", contains="no operation takes query parameters or a request body")

    def test_hal_json_error_and_query_without_400_fail(self):
        paths = {"/laatsteWijziging": {"get": {
            "parameters": [{"name": "sinds", "in": "query", "schema": {"type": "string"}}],
            "responses": {"200": {"description": "OK"},
                          "404": {"description": "Niet gevonden",
                                  "content": {"application/hal+json": {"schema": {"type": "object"}}}}}}}}
        run, report = lint(document(paths))
        self.assertNoCrash(run)
        self.assertCheck(report, PD, "EH-1", "fail", contains=(
            "GET /laatsteWijziging 404: application/hal+json, no problem media type "
            "(/paths/~1laatsteWijziging/get/responses/404/content)"))
        self.assertRule(report, PD, "fail")
        self.assertCheck(report, II, "EI-1", "fail", contains=(
            "GET /laatsteWijziging (/paths/~1laatsteWijziging/get/responses)"))
        self.assertRule(report, II, "fail")

    def test_default_and_missing_members(self):
        paths = {"/zaken": {"post": {
            "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
            "responses": {"201": {"description": "OK"},
                          "4XX": {"$ref": "#/components/responses/Fout"},
                          "default": {"description": "Fout"}}}}}
        doc = document(paths)
        doc["components"]["responses"] = {"Fout": {"description": "Fout", "content": {"application/problem+json": {
            "schema": {"allOf": [{"properties": {"status": {}, "title": {}}}]}}}}}
        run, report = lint(doc)
        self.assertCheck(report, PD, "EH-1", "fail", contains=(
            "POST /zaken 4XX: application/problem+json schema lacks detail",
            "→ #/components/responses/Fout/content/application~1problem+json/schema",
            "POST /zaken default: no error body documented"))
        self.assertCheck(report, II, "EI-1", "pass", contains="documents 400")

    def test_linter_cases(self):
        cases = harness.data_path("linter-testcases")
        expected = {"error-type": ("fail", "pass"), "error-type-extra-field": ("pass", "pass"),
                    "error-type-missing-required": ("fail", "pass"), "error-type-invalid-input": ("pass", "fail"),
                    "cor-api": ("fail", "pass"), "baseline": ("pass", "pass")}
        for case, (eh1, ei1) in expected.items():
            with self.subTest(case=case):
                run = harness.run_adrprobe(["lint", "--edition", EDITION, cases / case / "openapi.json", "-f", "json"],
                                           timeout=60)
                report = run.json()
                self.assertCheck(report, PD, "EH-1", eh1)
                self.assertCheck(report, II, "EI-1", ei1)
        run = harness.run_adrprobe(["lint", "--edition", EDITION, cases / "cor-api" / "openapi.json", "-f", "json"],
                                   timeout=60)
        c = harness.checks(run.json(), PD, "EH-1")[0]
        self.assertEqual(len(c["details"]), 23, c)
        self.assertIn("; and 13 more", c["message"])


if __name__ == "__main__":
    harness.main()
