#!/usr/bin/python3
"""A small scriptable HTTP server for the hostile-input tests.

    with SideServer({"/v1/openapi.json": doc}, host="127.0.0.2") as srv:
        srv.origin        # http://127.0.0.2:PORT
        srv.requests()    # [(method, path), ...]

A route maps a path to a JSON-able value (served as application/json), to a
Response, or to a callable(handler) that writes the whole answer itself (for
slow, compressed or malformed answers). Unknown paths get 404, or the answer
of `fallback`, a callable(handler) like a route's (an API of many paths). The server
binds to a loopback address only and stops after max_seconds.
"""

import http.server
import json
import socketserver
import threading


class Response:
    def __init__(self, status=200, body=b"", headers=None, content_type="application/json"):
        self.status = status
        self.body = body.encode() if isinstance(body, str) else body
        self.headers = dict(headers or {})
        if content_type and "Content-Type" not in self.headers:
            self.headers["Content-Type"] = content_type


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, fmt, *args):
        pass

    def __getattr__(self, name):
        if name.startswith("do_"):
            return self.dispatch
        raise AttributeError(name)

    def dispatch(self):
        srv = self.server.side
        path = self.path.split("?")[0]
        with srv.lock:
            srv.log.append((self.command, path))
        route = srv.routes.get(path)
        if route is None:
            route = srv.fallback
        if callable(route):
            return route(self)
        if route is None:
            route = Response(404, json.dumps({"status": 404, "title": "Not Found"}))
        elif not isinstance(route, Response):
            route = Response(200, json.dumps(route))
        headers = dict(srv.headers, **route.headers)
        self.send_response(route.status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(route.body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(route.body)


class _Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        pass  # clients that hang up early are expected here


class SideServer:
    def __init__(self, routes=None, host="127.0.0.1", headers=None, max_seconds=120, fallback=None):
        if not (host.startswith("127.") or host == "::1"):
            raise ValueError("tests only listen on loopback")
        self.routes = dict(routes or {})
        self.fallback = fallback  # a callable(handler) for every path no route names, else 404
        self.host = host
        self.headers = dict(headers or {})  # on every response
        self.max_seconds = max_seconds
        self.lock = threading.Lock()
        self.log = []
        self.stopping = threading.Event()

    @property
    def origin(self):
        return "http://%s:%d" % (self.host, self.port)

    def requests(self):
        with self.lock:
            return list(self.log)

    def start(self):
        self.httpd = _Server((self.host, 0), _Handler)
        self.httpd.side = self
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()
        self.timer = threading.Timer(self.max_seconds, self.stop)
        self.timer.daemon = True
        self.timer.start()
        return self

    def stop(self):
        self.timer.cancel()
        self.stopping.set()
        if self.httpd is not None:
            httpd, self.httpd = self.httpd, None
            httpd.shutdown()
            httpd.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False
