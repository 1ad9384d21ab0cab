#!/usr/bin/env python3
"""A conformant ADR API with many documented paths, for benchmarks.

usage: wide_api.py N_PATHS [DELAY_MS]
Prints the port on the first line of stdout, then serves on 127.0.0.1 until killed.
"""
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

N = int(sys.argv[1]) if len(sys.argv) > 1 else 200
DELAY = (float(sys.argv[2]) if len(sys.argv) > 2 else 0.0) / 1000.0

DOC = {
    "openapi": "3.0.3",
    "info": {"title": "Brede API", "version": "1.0.0"},
    "servers": [{"url": "/v1"}],
    "paths": {f"/collectie{i}": {"get": {"responses": {"200": {"description": "OK"}}}} for i in range(N)},
}
DOC_BYTES = json.dumps(DOC).encode()
KNOWN = {f"/v1/collectie{i}" for i in range(N)} | {"/v1"}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body are separate writes

    def _send(self, status, body=b"{}", extra=()):
        if DELAY:
            time.sleep(DELAY)
        self.send_response(status)
        self.send_header("API-Version", "1.0.0")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_GET(self):
        if self.path in ("/v1/openapi.json",):
            return self._send(200, DOC_BYTES, [("Access-Control-Allow-Origin", "*")])
        if self.path in KNOWN:
            return self._send(200)
        return self._send(404)

    do_HEAD = do_GET

    def do_TRACE(self):
        if self.path in KNOWN:
            return self._send(405, extra=[("Allow", "GET, HEAD")])
        return self._send(404)

    def log_message(self, *args):
        pass


class Server(ThreadingHTTPServer):
    request_queue_size = 128  # the default backlog of 5 drops simultaneous connects
    daemon_threads = True


if __name__ == "__main__":
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
