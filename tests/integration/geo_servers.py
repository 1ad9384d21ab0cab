"""The real geospatial servers of the integration suites: QGIS Server and
MapServer 8, each over a GeoPackage made with ogr2ogr from tests/data/geo/,
on 127.0.0.1.

Each server is the app of its stack in tests/fixes/<stack>/ (the one
probes/fixes/<stack>.yaml's advice is proven on): its files are copied into a
temporary directory with {{DIR}}, {{PORT}} and {{DATA}} filled in, and its
stack.json says how to start it (`command`), where its OGC API Features is
(`path`), where its OpenAPI document is (`openapi`: not at {base}/openapi.json,
so adrprobe is given `--openapi`), and which URL answers once it is ready
(`ready`). `shared(stack)` starts one server per suite (a process), stopped
when the suite ends; `GeoServer(stack, fix=...)` one of its own.
"""

import atexit
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request

import harness

APPS = harness.REPO / "tests" / "fixes"
STACKS = ("qgis-server", "mapserver")
START_SECONDS = 30


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fill(text, directory, port):
    """An app file with its placeholders filled in."""
    return (text.replace("{{PORT}}", str(port)).replace("{{DIR}}", directory)
            .replace("{{DATA}}", str(harness.TEST_DATA)))


def spec(stack):
    return json.loads((APPS / stack / "stack.json").read_text(encoding="utf-8"))


def require(stack):
    """require_tool for the server and every tool its start needs (a failure, or a
    skip where the package is not packaged here)."""
    s = spec(stack)
    harness.require_tool(s["tool"], s["package"])
    for tool, package in s.get("also_tools", {}).items():
        harness.require_tool(tool, package)


class GeoServer:
    """tests/fixes/<stack>/ started on a free port; `edit(name, text)` changes a file
    first (a fix applied). `url` is the OGC API's base URL, `openapi` its document."""

    def __init__(self, stack, edit=None):
        require(stack)
        self.stack, self.spec = stack, spec(stack)
        self.dir = tempfile.mkdtemp(prefix="adrprobe-geo-%s-" % stack)
        os.chmod(self.dir, 0o755)  # Apache started as root runs the CGI as nobody
        self.proc = None
        self.port = free_port()
        for path in (APPS / stack).iterdir():
            text = path.read_text(encoding="utf-8")
            if edit:
                text = edit(path.name, text)
            with open(os.path.join(self.dir, path.name), "w", encoding="utf-8") as f:
                f.write(fill(text, self.dir, self.port))
        self.origin = "http://127.0.0.1:%d" % self.port
        self.url = self.origin + self.spec["path"]
        self.openapi = self.origin + self.spec["openapi"]

    def args(self):
        """adrprobe check's arguments for this server (base URL and --openapi)."""
        return [self.url, "--openapi", self.openapi]

    def start(self):
        command = [c.replace("{DIR}", self.dir).replace("{PORT}", str(self.port)) for c in self.spec["command"]]
        self.log = open(os.path.join(self.dir, "server.log"), "wb")
        self.proc = subprocess.Popen(command, cwd=self.dir, stdout=self.log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + START_SECONDS
        ready = self.origin + self.spec["ready"]
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError("%s did not start:\n%s" % (self.stack, self.server_log()))
            try:
                with urllib.request.urlopen(ready, timeout=2) as r:
                    if r.status == 200 and json.load(r).get("collections"):
                        return self
            except (OSError, ValueError):
                pass
            time.sleep(0.1)
        self.stop()
        raise AssertionError("%s did not answer %s within %d s:\n%s" % (self.stack, ready, START_SECONDS,
                                                                          self.server_log()))

    def server_log(self):
        try:
            with open(os.path.join(self.dir, "server.log"), encoding="utf-8", errors="replace") as f:
                return f.read()[-3000:]
        except OSError:
            return ""

    def stop(self):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.proc = None
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


_SHARED = {}


def shared(stack):
    """One server of stack for the whole suite, started on first use, stopped at exit."""
    if stack not in _SHARED:
        server = GeoServer(stack)
        atexit.register(server.stop)
        _SHARED[stack] = server.start()
    return _SHARED[stack]
