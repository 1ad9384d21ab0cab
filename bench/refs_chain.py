#!/usr/bin/python3
"""Wall time of `adrprobe check` on documents with a long $ref chain.

usage: /usr/bin/python3 bench/refs_chain.py [build-dir] [N ...]
For each N (default 1000 2000 4000 16000) a server on 127.0.0.1 serves
{base}/openapi.json whose components.schemas s0 -> s1 -> ... -> sN each $ref the
next; `adrprobe check http://127.0.0.1:PORT/v1 --rate 0 -f json` runs on it.
Prints N, the wall time and DO-2's verdict beside the figures of adrprobe 0.1.0,
where every ref re-walked the whole chain (O(N^3)).
"""
import json
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
args = sys.argv[1:]
build = REPO / "build"
if args and not args[0].isdigit():
    build = Path(args.pop(0))
SIZES = [int(a) for a in args] or [1000, 2000, 4000, 16000]
BIN = build / "adrprobe"
V010 = {1000: "2.9", 2000: "10.9", 4000: "101"}  # seconds, adrprobe 0.1.0 on the same document


def chain_document(n):
    schemas = {f"s{i}": {"$ref": f"#/components/schemas/s{i + 1}"} for i in range(n)}
    schemas[f"s{n}"] = {"type": "object"}
    ok = {"description": "OK", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/s0"}}}}
    return {
        "openapi": "3.0.3",
        "info": {"title": "Keten API", "version": "1.0.0"},
        "servers": [{"url": "/v1"}],
        "paths": {"/keten": {"get": {"responses": {"200": ok}}}},
        "components": {"schemas": schemas},
    }


def serve(body):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def do_GET(self):
            path = self.path.split("?")[0]
            status, data = (200, body) if path == "/v1/openapi.json" else (200, b"{}") if path in ("/v1", "/v1/keten") else (404, b"{}")
            self.send_response(status)
            self.send_header("API-Version", "1.0.0")
            self.send_header("Content-Type", "application/json")
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

        do_HEAD = do_GET
        do_OPTIONS = do_GET
        do_TRACE = do_GET

        def log_message(self, *a):
            pass

    class Server(ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request, client_address):
            pass  # a client that closes a kept-alive connection is not news

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main():
    if not BIN.exists():
        sys.exit(f"bench: build first ({BIN} is missing)")
    version = subprocess.run([str(BIN), "--version"], capture_output=True, text=True).stdout.strip()
    print(f"adrprobe {version}: check on a $ref chain s0 -> ... -> sN, loopback")
    print(f"{'N':>6}  {'this build':>11}  {'0.1.0':>7}  DO-2")
    for n in SIZES:
        server = serve(json.dumps(chain_document(n)).encode())
        url = f"http://127.0.0.1:{server.server_address[1]}/v1"
        start = time.monotonic()
        run = subprocess.run([str(BIN), "check", url, "--rate", "0", "-f", "json"], capture_output=True, text=True)
        wall = time.monotonic() - start
        server.shutdown()
        try:
            report = json.loads(run.stdout)
            do2 = next(c["verdict"] for r in report["rules"] for c in r.get("checks", []) if c["id"] == "DO-2")
        except (ValueError, StopIteration, KeyError):
            do2 = f"no report (exit {run.returncode})"
        old = V010[n] + " s" if n in V010 else "-"
        print(f"{n:>6}  {wall:>9.2f} s  {old:>7}  {do2}")


if __name__ == "__main__":
    main()
