#!/usr/bin/python3
"""A configurable HTTP/1.1 server that imitates a small ADR-style REST API.

One server, many behaviours: a *profile* (a dict, or a JSON file when run
standalone) says how it deviates from a fully conformant API.  Every key is
optional; the defaults (``DEFAULT_PROFILE``) give an API that follows every
technical rule that can be checked over plain HTTP.

Run standalone:  fixture_server.py [profile.json] [--max-seconds N]
The first line on stdout is the port number; the server stops on SIGINT/SIGTERM
or after --max-seconds (default 300).

In-process (what the tests do):

    with FixtureServer({"trailing_slash": 301}) as srv:
        srv.base_url      # http://127.0.0.1:PORT/v1
        srv.requests()    # [{"method", "path", "headers", "body_length", "time", "responded"}, ...]

Two APIs on one server (one host and port, two base paths): each mount is a
profile of its own with its own "base", request log and counters:

    with FixtureServer({"base": "/a/v1"}, mounts=[{"base": "/b/v1", "trailing_slash": 301}]) as srv:
        srv.base_url, srv.mount("/b/v1").base_url, srv.all_requests()

Traffic is only ever served on 127.0.0.1; the port is chosen by the OS.
"""

import base64
import copy
import http.server
import json
import re
import socketserver
import sys
import threading
import time
import urllib.parse

import yaml

BEARER = "Bearer s3cret-token-value"

DEFAULT_PROFILE = {
    # Where the API lives; "{base}" in the documentation below means this.
    "base": "/v1",
    # info.version of the built-in document.
    "version": "1.0.0",
    # A complete replacement document (JSON-able).  The string "$ORIGIN" anywhere
    # in it is replaced by "http://127.0.0.1:PORT" when served.
    "doc": None,
    # Deep-merged into the document; None deletes that key, {} empties it.
    "doc_patch": {},
    # GET {base}/openapi.json: ok | 404 | auth (needs Authorization: Bearer
    # s3cret-token-value, else 401) | redirect (302 to {base}/docs/openapi.json)
    # | redirect_loop (302 to {base}/loop/1 -> /loop/2 -> ... up to 50) | non_json
    # | array | deep (nesting of depth deep_depth) | huge (huge_bytes)
    "openapi_json": "ok",
    "deep_depth": 100000,
    "huge_bytes": 100 * 1024 * 1024,
    # Access-Control-Allow-Origin on the description documents: * | echo | none
    # | fixed (always https://portaal.example.nl)
    "cors": "*",
    # GET {base}/openapi.yaml: absent (404) | 410 | identical | differing | unparsable
    # | 500 | bomb (the document plus a billion-laughs alias bomb) | text
    # (serve "openapi_yaml_text" verbatim)
    "openapi_yaml": "absent",
    "openapi_yaml_text": None,
    # Extra JSON documents: absolute path -> JSON value ("$ORIGIN" substituted).
    "files": {},
    # Any request whose path ends in "/" (and is not a documented path):
    # 404 | 301 | 307 | 308 | 200 | 401 | 403 | 500
    "trailing_slash": 404,
    # HEAD: ok | 405
    "head": "ok",
    # OPTIONS: ok (204 + Allow) | 405
    "options": "ok",
    # A method the resource does not support:
    # 405 (with a correct Allow) | 405_no_allow | 404 | 501 | 200
    # | 405_omits (Allow lacks a documented method) | 405_lists_probed (Allow
    # also names the method just refused) | 405_empty_allow ("Allow:" with no
    # value, as Apache's TraceEnable Off answers TRACE)
    "unsupported": "405",
    # Documented methods (lower case) that are nevertheless answered with 405.
    "documented_405": [],
    # API-Version header value: "same" = the served document's info.version,
    # None = never sent, any other string = sent as is.
    "api_version": "same",
    "api_version_header_name": "API-Version",
    # Which responses carry it: all | base (only GET/HEAD {base})
    "api_version_scope": "all",
    # ... except responses with these status codes (e.g. [401] as a gateway would)
    "api_version_omit_statuses": [],
    # GET {base}: 200 | 404 | 301 (to {base}/)
    "base_get": 200,
    # Extra headers on every response (e.g. {"X-Powered-By": "Express"}).
    "extra_headers": {},
    # Header lines sent after those, each a line of its own even when a name
    # repeats (e.g. [["Set-Cookie", "a=1"], ["Set-Cookie", "b=2"]]).
    "extra_header_lines": [],
    # Echo every request header back in response headers X-Echo-<Name>.
    "echo_headers": False,
    # With echo_headers, the request's header values also come back base64
    # encoded (X-Echo-B64-<Name>), in the body of every JSON error answer
    # ("detail"), and percent-encoded in the query of every Location (?echo=).
    "echo_everywhere": False,
    # Echo what the user sent where a report keeps it apart from header
    # values. Each reads the values of the request's Authorization and X-*
    # headers (not X-Echo-*):
    # echo_names: each value (and each space-separated part of one, its base64
    # padding stripped) that can be a header name comes back as a header
    # "X-<value>: 1".
    "echo_names": False,
    # echo_paths: the served document gets a path "/k/<value>/Upper" per value
    # (KC-1 fails on "Upper", so the path becomes a location's pointer).
    "echo_paths": False,
    # echo_b64_json: base64 of '{"key": "<value>"}', '{"k": "<value>"}' and
    # '{"ky": "<value>"}' (the value after 9, 7 and 8 bytes: at each alignment
    # to base64's 3-byte groups) comes back in headers X-Echo-B64-Json-<n>, in
    # every JSON error body ("echo_b64"), and as document paths "/b/<base64>".
    "echo_b64_json": False,
    # echo_escaped: each value, and the parts a server's code takes apart (a
    # cookie's values, a Basic credential decoded to user:password), comes
    # back as a server's JSON, URL and HTML libraries write it: in every JSON
    # error body ("escaped": PHP's json_encode "\\/", .NET's "\\u002B",
    # urllib.parse.quote, quote_plus, HTML character references) and in
    # headers X-Echo-Quoted-<n> (quote) and X-Echo-Html-<n>.
    "echo_escaped": False,
    # GET {base}/openapi.json without this request header is 401 (the run
    # then fetches it again with -H); None: no such condition.
    "doc_needs_header": None,
    # Seconds to wait before answering; delay_paths limits it to those paths.
    "delay": 0,
    "delay_paths": None,
    # Not HTTP at all: answer every connection with these bytes, then close.
    "garbage": False,
    # Broken framing, as Django's development server: a HEAD answer carries its
    # body too and the connection stays open, so the next request on it reads
    # that body first (sent only once that request has arrived, so it is never
    # in the same read as the head).
    "head_body": False,
    # Requests whose path matches no route get this status.
    "not_found_status": 404,
    # The URL of an OAuth 2.0 authorisation server's JWKS: every request but
    # the description documents needs "Authorization: Bearer <JWT>" signed by
    # one of its keys and not expired (python3-jwt verifies it), else 401 with
    # WWW-Authenticate: Bearer, as a resource server answers (RFC 6750 §3).
    # "bearer_seen" in the request log then says whether the token was valid.
    "bearer_jwks": None,
}

DOC_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

# Every Fixture being served right now (by a FixtureServer, standalone or behind
# nginx).  The report comparison hook in harness.py runs a second binary against
# them and then rewinds their request logs (Fixture.mark / Fixture.rewind), so a
# test sees only the requests of the binary under test.
_LIVE = set()
_LIVE_LOCK = threading.Lock()


def live_fixtures():
    with _LIVE_LOCK:
        return list(_LIVE)


def default_doc(base, version):
    """The conformant OpenAPI 3.0.3 document of the fixture API."""

    def param(name, example="1"):
        p = {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
        if example is not None:
            p["example"] = example
        return p

    ok_json = lambda ref, desc="OK": {  # noqa: E731
        "description": desc,
        "headers": {"API-Version": {"$ref": "#/components/headers/API-Version"}},
        "content": {"application/json": {"schema": {"$ref": ref}}},
    }
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "Gebouwen API",
            "description": "Fixture API voor de integratietests van adrprobe.",
            "version": version,
            "contact": {"name": "Team Gebouwen", "url": "https://example.org/gebouwen",
                        "email": "gebouwen@example.org"},
        },
        "servers": [{"url": base}],
        "paths": {
            "/gebouwen": {
                "get": {"operationId": "listGebouwen", "summary": "Alle gebouwen",
                        "responses": {"200": ok_json("#/components/schemas/Gebouwen")}},
                "post": {"operationId": "createGebouw", "summary": "Nieuw gebouw",
                         "requestBody": {"content": {"application/json": {
                             "schema": {"$ref": "#/components/schemas/Gebouw"}}}},
                         "responses": {"201": ok_json("#/components/schemas/Gebouw", "Created")}},
            },
            "/gebouwen/{id}": {
                "get": {"operationId": "getGebouw", "summary": "Eén gebouw", "parameters": [param("id")],
                        "responses": {"200": ok_json("#/components/schemas/Gebouw")}},
                "put": {"operationId": "replaceGebouw", "summary": "Vervang gebouw", "parameters": [param("id")],
                        "requestBody": {"content": {"application/json": {
                            "schema": {"$ref": "#/components/schemas/Gebouw"}}}},
                        "responses": {"200": ok_json("#/components/schemas/Gebouw")}},
                "delete": {"operationId": "deleteGebouw", "summary": "Verwijder gebouw",
                           "parameters": [param("id")],
                           "responses": {"204": {"description": "Verwijderd"}}},
            },
        },
        "components": {
            "headers": {"API-Version": {"description": "Volledig versienummer",
                                        "schema": {"type": "string", "example": version}}},
            "schemas": {
                "Gebouw": {"type": "object", "properties": {
                    "id": {"type": "string"}, "naam": {"type": "string"},
                    "bouwjaar": {"type": "integer", "minimum": 1000}}},
                "Gebouwen": {"type": "object", "properties": {
                    "gebouwen": {"type": "array", "items": {"$ref": "#/components/schemas/Gebouw"}}}},
            },
        },
    }


def bearer_valid(jwks_client, authorization):
    """Whether an Authorization value is Bearer and a JWT one of the keys of
    jwks_client (a jwt.PyJWKClient) signed, unexpired: a missing, malformed,
    foreign or expired token is the 401 a real API gives."""
    import jwt  # python3-jwt, python3-cryptography: only the suites that verify tokens need them
    token = authorization[7:].strip() if authorization[:7].lower() == "bearer " else ""
    try:
        key = jwks_client.get_signing_key_from_jwt(token).key
        jwt.decode(token, key, algorithms=["RS256"], options={"verify_aud": False})
        return True
    except Exception:
        return False


def deep_merge(target, patch):
    """Merge patch into target in place: non-empty dicts recursively, None
    deletes, anything else (an empty dict too) replaces."""
    for key, value in patch.items():
        if value is None:
            target.pop(key, None)
        elif isinstance(value, dict) and value and isinstance(target.get(key), dict):
            deep_merge(target[key], value)
        else:
            target[key] = copy.deepcopy(value)
    return target


def substitute(value, origin):
    if isinstance(value, str):
        return value.replace("$ORIGIN", origin)
    if isinstance(value, list):
        return [substitute(v, origin) for v in value]
    if isinstance(value, dict):
        return {substitute(k, origin): substitute(v, origin) for k, v in value.items()}
    return value


def template_regex(template):
    parts = re.split(r"(\{[^}/]*\})", template)
    return re.compile("^" + "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts) + "$")


def billion_laughs():
    lines = ['x-lol-a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    prev = "a"
    for name in "bcdefghi":
        lines.append("x-lol-%s: &%s [%s]" % (name, name, ",".join(["*" + prev] * 9)))
        prev = name
    return "\n".join(lines) + "\n"


class Fixture:
    """The state behind one server: profile, document, request log."""

    def __init__(self, profile=None):
        unknown = set(profile or {}) - set(DEFAULT_PROFILE)
        if unknown:
            raise ValueError("unknown fixture profile keys: %s" % sorted(unknown))
        self.profile = dict(copy.deepcopy(DEFAULT_PROFILE), **copy.deepcopy(profile or {}))
        self.base = self.profile["base"].rstrip("/")
        self.port = None
        self.lock = threading.Lock()
        self.log = []
        self.active = 0          # requests being answered right now
        self.max_active = 0      # the most ever answered at once
        self.stopping = threading.Event()
        self._jwks = None  # the PyJWKClient of bearer_jwks, made on first use

    # -- documents ---------------------------------------------------------
    def origin(self):
        return "http://127.0.0.1:%d" % self.port

    def doc(self):
        p = self.profile
        d = copy.deepcopy(p["doc"]) if p["doc"] is not None else default_doc(self.base, p["version"])
        if isinstance(d, dict):
            deep_merge(d, p["doc_patch"])
        return substitute(d, self.origin())

    def doc_version(self, doc):
        info = doc.get("info") if isinstance(doc, dict) else None
        return info.get("version") if isinstance(info, dict) else None

    def routes(self, doc):
        """[(regex, template, documented-methods)] from the served document."""
        out = []
        paths = doc.get("paths") if isinstance(doc, dict) else None
        if isinstance(paths, dict):
            for template, item in paths.items():
                if isinstance(item, dict):
                    methods = [m.upper() for m in DOC_METHODS if m in item]
                    out.append((template_regex(self.base + template), template, methods))
        return out

    # -- request log -------------------------------------------------------
    def record(self, method, path, headers, body_length):
        """Logs a request as it arrives ("time"); the handler adds "responded"
        (just before the status line is written) to the entry returned."""
        entry = {"method": method, "path": path.split("?")[0], "target": path,
                 "headers": dict(headers.items()), "body_length": body_length, "time": time.monotonic()}
        with self.lock:
            self.log.append(entry)
        return entry

    def requests(self):
        with self.lock:
            return list(self.log)

    def mark(self):
        """A point in the request log to rewind() to."""
        with self.lock:
            return len(self.log), self.max_active

    def rewind(self, mark, settle=5.0):
        """Forget the requests recorded since mark, as if they had never come:
        first wait (up to settle seconds) until no request is being answered,
        so that none of them still counts towards max_active afterwards."""
        deadline = time.monotonic() + settle
        while time.monotonic() < deadline:
            with self.lock:
                if self.active == 0:
                    break
            time.sleep(0.01)
        with self.lock:
            del self.log[mark[0]:]
            self.max_active = mark[1]

    def enter(self):
        with self.lock:
            self.active += 1
            self.max_active = max(self.max_active, self.active)

    def leave(self):
        with self.lock:
            self.active -= 1


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body are separate writes: no 40 ms delayed-ACK stalls
    server_version = "fixture"
    sys_version = ""

    def log_message(self, fmt, *args):  # keep test output clean
        pass

    def flush_headers(self):
        # The body of a HEAD answer held back (head_body) goes out in front of
        # the next answer on the connection: the client reads it first.
        stray, self._stray = getattr(self, "_stray", b""), b""
        if stray:
            self.wfile.write(stray)
        super().flush_headers()

    def version_string(self):
        return "fixture"

    def __getattr__(self, name):
        # Any method at all (TRACE, PROPFIND, ...) goes through one dispatcher.
        if name.startswith("do_"):
            return self.dispatch
        raise AttributeError(name)

    # -- plumbing ----------------------------------------------------------
    @property
    def fx(self):
        # The mount whose base the path is under (the longest), else the server's own.
        path = getattr(self, "path", "").split("?")[0]
        under = [fx for fx in getattr(self.server, "mounts", ()) if path == fx.base or path.startswith(fx.base + "/")]
        return max(under, key=lambda fx: len(fx.base)) if under else self.server.fixture

    def read_body(self):
        length = self.headers.get("Content-Length")
        if length is not None:
            try:
                n = int(length)
            except ValueError:
                n = 0
            return self.rfile.read(n) if n > 0 else b""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            data = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        return b""

    def send(self, status, body=b"", headers=None, content_type="application/json", version=True):
        """One complete response; body may be bytes or an iterable of chunks
        with a known total length passed as headers['Content-Length']."""
        fx = self.fx
        p = fx.profile
        headers = dict(headers or {})
        path = self.path.split("?")[0]
        value = p["api_version"]
        if value == "same":
            value = fx.doc_version(fx.doc())
            value = value if isinstance(value, str) else None
        scope = p["api_version_scope"]
        on_base = path in (fx.base, fx.base + "/") and self.command in ("GET", "HEAD")
        if (value is not None and version and (scope == "all" or (scope == "base" and on_base))
                and status not in p["api_version_omit_statuses"]):
            headers[p["api_version_header_name"]] = value
        headers.update(p["extra_headers"])
        entry = getattr(self, "_entry", None)
        if entry is not None and "responded" not in entry:
            entry["responded"] = time.monotonic()
        if isinstance(body, str):
            body = body.encode()
        if p["echo_headers"]:
            for name, val in self.headers.items():
                headers["X-Echo-" + name] = val
                if p["echo_everywhere"]:
                    headers["X-Echo-B64-" + name] = base64.b64encode(val.encode("latin-1")).decode()
            if p["echo_everywhere"]:
                echoed = "; ".join(self.headers.values())
                if headers.get("Location"):
                    loc = headers["Location"]
                    headers["Location"] = loc + ("&" if "?" in loc else "?") + "echo=" + urllib.parse.quote(echoed, safe="")
                if (status >= 400 and isinstance(body, bytes) and body.startswith(b"{")
                        and "Content-Length" not in headers):
                    try:
                        doc = json.loads(body)
                        doc["detail"] = "you sent: " + echoed
                        body = json.dumps(doc).encode()
                    except ValueError:
                        pass
        if p["echo_names"]:
            for value in self.user_values():
                for part in [value] + value.split():
                    part = part.rstrip("=")
                    if len(part) >= 8 and re.fullmatch(r"[A-Za-z0-9!#$%&'*+.^_`|~-]+", part):
                        headers["X-" + part] = "1"
        if p["echo_b64_json"]:
            for n, encoded in enumerate(self.b64_json()):
                headers["X-Echo-B64-Json-%d" % n] = encoded
            if (status >= 400 and isinstance(body, bytes) and body.startswith(b"{")
                    and "Content-Length" not in headers):
                try:
                    doc = json.loads(body)
                    doc["echo_b64"] = self.b64_json()
                    body = json.dumps(doc).encode()
                except ValueError:
                    pass
        if p["echo_escaped"]:
            forms = self.escaped_forms()
            for n, (quoted, entities) in enumerate((f["quote"], f["html"]) for f in forms):
                headers["X-Echo-Quoted-%d" % n] = quoted
                headers["X-Echo-Html-%d" % n] = entities
            if (status >= 400 and isinstance(body, bytes) and body.startswith(b"{") and body.endswith(b"}")
                    and "Content-Length" not in headers):
                # Written by hand: json.dumps writes neither "\/" nor "\u002B".
                fields = ", ".join('"%s_%d": %s' % (name, n, '"%s"' % text if name in ("php", "dotnet") else json.dumps(text))
                                   for n, f in enumerate(forms) for name, text in sorted(f.items()))
                body = body[:-1] + (b", " if body.strip() != b"{}" else b"") + fields.encode() + b"}"
        self.send_response(status)
        if body and content_type and "Content-Type" not in headers:
            headers["Content-Type"] = content_type
        if status not in (204, 304) and "Content-Length" not in headers:
            headers["Content-Length"] = str(len(body))
        for name, val in headers.items():
            if val is None:  # a field without a value: "Name:" and nothing after the colon
                self._headers_buffer.append(("%s:\r\n" % name).encode("latin-1"))
            else:
                self.send_header(name, val)
        for name, val in p["extra_header_lines"]:
            self.send_header(name, val)
        self.end_headers()
        if self.command == "HEAD" and p["head_body"] and isinstance(body, (bytes, bytearray)):
            # Held back until the next request on this connection (flush_headers):
            # sent at once, it could reach the client in the same read as the
            # head, and curl then drops the connection instead of reusing it.
            self._stray = bytes(body)
            return
        if self.command == "HEAD" or status in (204, 304):
            return
        if isinstance(body, (bytes, bytearray)):
            self.wfile.write(body)
        else:
            for chunk in body:
                self.wfile.write(chunk)

    def user_values(self):
        """The values of the request's Authorization and X-* headers (what -H
        sends, and the Basic credentials of a URL's password)."""
        return [v for k, v in self.headers.items()
                if k.lower() == "authorization" or (k.lower().startswith("x-") and not k.lower().startswith("x-echo"))]

    def escaped_forms(self):
        """echo_escaped: for each user value and its parts (the values of a
        Cookie, a Basic credential decoded), the escaped forms of it."""
        values = list(self.user_values())
        for k, v in self.headers.items():
            if k.lower() == "cookie":
                values += [pair.partition("=")[2].strip() for pair in v.split(";") if "=" in pair]
            if k.lower() in ("authorization", "proxy-authorization") and v.lower().startswith("basic "):
                try:
                    values.append(base64.b64decode(v[6:].strip()).decode("utf-8"))
                except (ValueError, UnicodeDecodeError):
                    pass
            if k.lower() == "proxy-authorization":
                values.append(v)

        def json_php(text):  # PHP's json_encode: '/' as "\/"
            return text.replace("\\", "\\\\").replace('"', '\\"').replace("/", "\\/")

        def json_dotnet(text):  # .NET's JavaScriptEncoder: '+', '<', '>', '&', "'" and non-ASCII as \uXXXX
            return "".join("\\u%04X" % ord(c) if c in "+<>&'\"\\" or ord(c) > 126 else c for c in text)

        def html_refs(text):  # a template engine's escaping, hex and decimal
            return "".join("&#x2F;" if c == "/" else "&#43;" if c == "+" else "&#61;" if c == "=" else
                           "&amp;" if c == "&" else "&quot;" if c == '"' else c for c in text)
        return [{"php": json_php(v), "dotnet": json_dotnet(v),  # already JSON string contents
                 "quote": urllib.parse.quote(v), "quote_plus": urllib.parse.quote_plus(v),
                 "html": html_refs(v)} for v in values if len(v) >= 8]

    def b64_json(self):
        """echo_b64_json: each user value in JSON, base64-encoded at each alignment."""
        return [base64.b64encode(('%s"%s"}' % (prefix, value)).encode()).decode()
                for value in self.user_values() for prefix in ('{"key": ', '{"k": ', '{"ky": ')]

    # -- the API -----------------------------------------------------------
    def dispatch(self):
        self._entry = None  # this request's log entry (a connection carries several)
        self.fx.enter()
        try:
            self.answer()
        finally:
            self.fx.leave()

    def answer(self):
        fx = self.fx
        p = fx.profile
        body = self.read_body()
        path = self.path.split("?")[0]
        self._entry = fx.record(self.command, self.path, self.headers, len(body))
        if p["delay"] and (p["delay_paths"] is None or path in p["delay_paths"]):
            if fx.stopping.wait(p["delay"]):
                self.close_connection = True
                return
        doc = fx.doc()
        if p["echo_paths"] and isinstance(doc, dict) and isinstance(doc.get("paths"), dict):
            for value in self.user_values():
                doc["paths"]["/k/%s/Upper" % value] = {"get": {"responses": {"200": {"description": "OK"}}}}
        if p["echo_b64_json"] and isinstance(doc, dict) and isinstance(doc.get("paths"), dict):
            for encoded in self.b64_json():
                doc["paths"]["/b/" + encoded] = {"get": {"responses": {"200": {"description": "OK"}}}}
        method = self.command
        base = fx.base

        if method == "TRACE" and p["unsupported"] == "200":
            raw = ("%s %s %s\r\n" % (method, self.path, self.request_version)).encode() + bytes(self.headers)
            return self.send(200, raw, content_type="message/http")

        # description documents
        if path == base + "/openapi.json":
            return self.openapi_json(doc, method)
        if path == base + "/docs/openapi.json" and p["openapi_json"] == "redirect":
            return self.serve_doc_json(doc, method)
        if p["openapi_json"] == "redirect_loop" and path.startswith(base + "/loop/"):
            n = int(path.rsplit("/", 1)[1]) + 1 if path.rsplit("/", 1)[1].isdigit() else 1
            if n > 50:  # never endless, even for a client that follows forever
                return self.send(404, json.dumps({"status": 404, "title": "Not Found"}))
            return self.send(302, b"", headers={"Location": "%s/loop/%d" % (base, n)})
        if path == base + "/openapi.yaml":
            return self.openapi_yaml(doc, method)
        if path in p["files"]:
            if method not in ("GET", "HEAD"):
                return self.unsupported(["GET"], method)
            return self.send(200, json.dumps(substitute(p["files"][path], fx.origin())),
                             headers=self.cors_headers())

        if p["bearer_jwks"] and not self.valid_bearer():
            return self.send(401, json.dumps({"status": 401, "title": "Unauthorized"}),
                             headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
                             content_type="application/problem+json")

        # documented paths come before the trailing-slash behaviour, so a
        # document that declares "/gebouwen/" gets it served
        for regex, template, methods in fx.routes(doc):
            if regex.match(path):
                return self.resource(methods, method, {"path": path, "template": template})

        if path == base:
            return self.base_url(method)

        if path.endswith("/") and path.startswith(base + "/") or path == base + "/":
            return self.trailing_slash(path, method)

        status = p["not_found_status"]
        return self.send(status, json.dumps({"status": status, "title": "Not Found"}))

    def valid_bearer(self):
        """Whether the request carries a JWT the bearer_jwks server signed, unexpired."""
        import jwt  # python3-jwt, python3-cryptography: only the suites that verify tokens need them
        fx = self.fx
        with fx.lock:
            if fx._jwks is None:
                fx._jwks = jwt.PyJWKClient(fx.profile["bearer_jwks"])
        return bearer_valid(fx._jwks, self.headers.get("Authorization", ""))

    def cors_headers(self):
        cors = self.fx.profile["cors"]
        if cors == "*":
            return {"Access-Control-Allow-Origin": "*"}
        if cors == "echo" and self.headers.get("Origin"):
            return {"Access-Control-Allow-Origin": self.headers["Origin"], "Vary": "Origin"}
        if cors == "fixed":
            return {"Access-Control-Allow-Origin": "https://portaal.example.nl"}
        return {}

    def serve_doc_json(self, doc, method):
        if method == "OPTIONS":
            return self.options(["GET"])
        if method not in ("GET", "HEAD"):
            return self.unsupported(["GET"], method)
        return self.send(200, json.dumps(doc), headers=self.cors_headers())

    def openapi_json(self, doc, method):
        p = self.fx.profile
        mode = p["openapi_json"]
        if mode == "404":
            return self.send(404, json.dumps({"status": 404, "title": "Not Found"}))
        if method == "OPTIONS":
            return self.options(["GET"])
        if method not in ("GET", "HEAD"):
            return self.unsupported(["GET"], method)
        if p["doc_needs_header"] and self.headers.get(p["doc_needs_header"]) is None:
            return self.send(401, json.dumps({"status": 401, "title": "Unauthorized"}),
                             headers={"WWW-Authenticate": 'Bearer realm="api"'})
        if mode == "auth" and self.headers.get("Authorization") != BEARER:
            return self.send(401, json.dumps({"status": 401, "title": "Unauthorized"}),
                             headers={"WWW-Authenticate": 'Bearer realm="api"'})
        if mode == "redirect":
            return self.send(302, b"", headers={"Location": self.fx.base + "/docs/openapi.json"})
        if mode == "redirect_loop":
            return self.send(302, b"", headers={"Location": self.fx.base + "/loop/1"})
        if mode == "non_json":
            return self.send(200, "<html><body>Swagger UI</body></html>", headers=self.cors_headers(),
                             content_type="text/html")
        if mode == "array":
            return self.send(200, json.dumps([doc]), headers=self.cors_headers())
        if mode == "deep":
            n = p["deep_depth"]
            return self.send(200, '{"openapi":"3.0.3","x-deep":' + "[" * n + "]" * n + "}",
                             headers=self.cors_headers())
        if mode == "huge":
            head = json.dumps(doc)[:-1].encode() + b', "x-padding": "'
            tail = b'"}'
            pad = p["huge_bytes"]
            chunk = b"A" * (1 << 20)

            def chunks():
                yield head
                left = pad
                while left > 0:
                    yield chunk[:min(left, len(chunk))]
                    left -= len(chunk)
                yield tail

            hdrs = self.cors_headers()
            hdrs["Content-Length"] = str(len(head) + pad + len(tail))
            return self.send(200, chunks(), headers=hdrs)
        return self.serve_doc_json(doc, method)

    def openapi_yaml(self, doc, method):
        mode = self.fx.profile["openapi_yaml"]
        if mode == "absent":
            return self.send(404, json.dumps({"status": 404, "title": "Not Found"}))
        if mode == "410":
            return self.send(410, json.dumps({"status": 410, "title": "Gone"}))
        if mode == "500":
            return self.send(500, json.dumps({"status": 500, "title": "Internal Server Error"}))
        if method not in ("GET", "HEAD"):
            return self.unsupported(["GET"], method)
        if mode == "identical":
            text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
        elif mode == "differing":
            other = copy.deepcopy(doc)
            other["info"]["title"] = "Een andere titel"
            text = yaml.safe_dump(other, sort_keys=False, allow_unicode=True)
        elif mode == "unparsable":
            text = "openapi: 3.0.3\ninfo: {title: [unclosed\n  version: : :\n\t- bad\n"
        elif mode == "bomb":
            text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True) + billion_laughs()
        elif mode == "text":
            text = self.fx.profile["openapi_yaml_text"]
        else:
            raise ValueError("openapi_yaml mode %r" % mode)
        return self.send(200, text, headers=self.cors_headers(), content_type="application/yaml")

    def allow_for(self, methods, refused=None):
        p = self.fx.profile
        allow = [m for m in methods]
        if "GET" in allow and "HEAD" not in allow:
            allow.append("HEAD")
        if p["options"] == "ok" and "OPTIONS" not in allow:
            allow.append("OPTIONS")
        if p["unsupported"] == "405_omits":
            allow = [m for m in allow if m in ("GET", "HEAD")]
        if p["unsupported"] == "405_lists_probed" and refused and refused not in allow:
            allow.append(refused)
        return ", ".join(allow)

    def options(self, methods):
        if self.fx.profile["options"] == "405":
            return self.send(405, json.dumps({"status": 405, "title": "Method Not Allowed"}),
                             headers={"Allow": self.allow_for(methods)})
        return self.send(204, b"", headers={"Allow": self.allow_for(methods)})

    def unsupported(self, methods, method):
        mode = self.fx.profile["unsupported"]
        problem = lambda s, t: json.dumps({"status": s, "title": t})  # noqa: E731
        if mode in ("405", "405_omits", "405_lists_probed"):
            return self.send(405, problem(405, "Method Not Allowed"),
                             headers={"Allow": self.allow_for(methods, refused=method)})
        if mode == "405_no_allow":
            return self.send(405, problem(405, "Method Not Allowed"))
        if mode == "405_empty_allow":
            # the bare field "Allow:" (no space, no value), written as is
            return self.send(405, problem(405, "Method Not Allowed"), headers={"Allow": None})
        if mode == "404":
            return self.send(404, problem(404, "Not Found"))
        if mode == "501":
            return self.send(501, problem(501, "Not Implemented"))
        if mode == "200":
            return self.send(200, json.dumps({"ok": True}))
        raise ValueError("unsupported mode %r" % mode)

    def resource(self, methods, method, info):
        p = self.fx.profile
        if method == "HEAD" and p["head"] == "405":
            return self.send(405, b"", headers={"Allow": self.allow_for([m for m in methods if m != "HEAD"])})
        if method.lower() in p["documented_405"]:
            return self.send(405, json.dumps({"status": 405, "title": "Method Not Allowed"}),
                             headers={"Allow": self.allow_for([m for m in methods if m != method])})
        if method == "OPTIONS":
            return self.options(methods)
        if method == "HEAD" and "GET" in methods:
            method = "GET"
        if method not in methods:
            return self.unsupported(methods, self.command)
        if method == "GET":
            return self.send(200, json.dumps({"path": info["path"], "naam": "Het Gebouw"}))
        if method == "POST":
            return self.send(201, json.dumps({"id": "2", "naam": "Nieuw"}),
                             headers={"Location": info["path"] + "/2"})
        if method == "DELETE":
            return self.send(204, b"")
        return self.send(200, json.dumps({"path": info["path"], "method": method}))

    def base_url(self, method):
        p = self.fx.profile
        methods = ["GET"]
        if method == "HEAD" and p["head"] == "405":
            return self.send(405, b"", headers={"Allow": "GET"})
        if method == "OPTIONS":
            return self.options(methods)
        if method not in ("GET", "HEAD"):
            return self.unsupported(methods, method)
        if p["base_get"] == 301:
            return self.send(301, b"", headers={"Location": self.fx.base + "/"})
        if p["base_get"] == 404:
            return self.send(404, json.dumps({"status": 404, "title": "Not Found"}))
        return self.send(200, json.dumps({"naam": "Gebouwen API", "_links": {
            "openapi": {"href": self.fx.base + "/openapi.json"}}}))

    def trailing_slash(self, path, method):
        mode = self.fx.profile["trailing_slash"]
        stripped = path.rstrip("/") or "/"
        if mode in (301, 302, 307, 308):
            return self.send(mode, b"", headers={"Location": stripped})
        if mode == 200:
            if path == self.fx.base + "/":
                return self.base_url(method)
            return self.send(200, json.dumps({"path": path}))
        titles = {401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 500: "Internal Server Error"}
        return self.send(mode, json.dumps({"status": mode, "title": titles.get(mode, "Error")}))


def _quiet_handle_error(self, request, client_address):
    """A client that hangs up (timeouts, size limits) is expected; other
    exceptions are fixture bugs and are printed."""
    if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
        socketserver.BaseServer.handle_error(self, request, client_address)


class _HTTPServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64
    handle_error = _quiet_handle_error


class _GarbageHandler(socketserver.BaseRequestHandler):
    def handle(self):
        fx = self.server.fixture
        self.request.settimeout(2)
        try:
            data = self.request.recv(65536)
        except OSError:
            data = b""
        line = data.split(b"\r\n", 1)[0].decode("latin-1", "replace").split(" ")
        if len(line) >= 2:
            fx.record(line[0], line[1].split("?")[0], {}, 0)
        try:
            self.request.sendall(b"\x00\xff\xfeSSH-2.0-OpenSSH_9.6\r\n\x16\x03\x01garbage\x00\x00\r\n\r\n")
        except OSError:
            pass


class _GarbageServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    handle_error = _quiet_handle_error


class FixtureServer:
    """Runs a Fixture on 127.0.0.1:<free port> in a background thread.

    max_seconds bounds its life: after that it shuts itself down."""

    def __init__(self, profile=None, max_seconds=300, mounts=()):
        self.fixture = Fixture(profile)
        # More APIs on the same port, each a profile with a "base" of its own.
        self.mounts = [Fixture(m) for m in mounts]
        bases = [self.fixture.base] + [m.base for m in self.mounts]
        if len(set(bases)) != len(bases):
            raise ValueError("two mounts with one base: %s" % bases)
        self.max_seconds = max_seconds
        self.httpd = None
        self.thread = None
        self.timer = None

    def start(self):
        cls, handler = (_GarbageServer, _GarbageHandler) if self.fixture.profile["garbage"] else (_HTTPServer, Handler)
        self.httpd = cls(("127.0.0.1", 0), handler)
        self.httpd.fixture = self.fixture
        self.httpd.mounts = self.mounts
        for fx in [self.fixture] + self.mounts:
            fx.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                       name="fixture-%d" % self.port, daemon=True)
        self.thread.start()
        self.timer = threading.Timer(self.max_seconds, self.stop)
        self.timer.daemon = True
        self.timer.start()
        with _LIVE_LOCK:
            _LIVE.update([self.fixture] + self.mounts)
        return self

    def stop(self):
        if self.timer is not None:
            self.timer.cancel()
        with _LIVE_LOCK:
            for fx in [self.fixture] + self.mounts:
                _LIVE.discard(fx)
                fx.stopping.set()
        if self.httpd is not None:
            httpd, self.httpd = self.httpd, None
            httpd.shutdown()
            httpd.server_close()
        if self.thread is not None and self.thread is not threading.current_thread():
            self.thread.join(timeout=5)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False

    @property
    def port(self):
        return self.fixture.port

    @property
    def origin(self):
        return self.fixture.origin()

    @property
    def base_url(self):
        return self.origin + self.fixture.base

    def requests(self):
        return self.fixture.requests()

    def all_requests(self):
        """Every request to this port, of every mount, in the order they came."""
        out = [r for fx in [self.fixture] + self.mounts for r in fx.requests()]
        return sorted(out, key=lambda r: r["time"])

    def mount(self, base):
        """A view of the mount at `base`: base_url, requests(), the fixture's profile."""
        for fx in self.mounts:
            if fx.base == base.rstrip("/"):
                return _Mount(fx)
        raise KeyError(base)

    def max_active(self):
        return self.fixture.max_active

    def doc(self):
        return self.fixture.doc()


class _Mount:
    def __init__(self, fixture):
        self.fixture = fixture

    @property
    def base_url(self):
        return self.fixture.origin() + self.fixture.base

    @property
    def profile(self):
        return self.fixture.profile

    def requests(self):
        return self.fixture.requests()


def main(argv):
    import argparse
    import signal

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("profile", nargs="?", help="JSON file with profile keys")
    ap.add_argument("--max-seconds", type=float, default=300)
    args = ap.parse_args(argv)
    profile = {}
    if args.profile:
        with open(args.profile, encoding="utf-8") as f:
            profile = json.load(f)
    done = threading.Event()
    srv = FixtureServer(profile, max_seconds=args.max_seconds)
    srv.start()
    print(srv.port, flush=True)
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: done.set())
    done.wait(args.max_seconds)
    srv.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
