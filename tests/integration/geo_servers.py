"""The real geospatial servers of the integration suites: QGIS Server and
MapServer 8, each over a GeoPackage made with ogr2ogr from tests/data/geo/,
on 127.0.0.1.

Each server is the app of its stack in tests/fixes/<stack>/, the one
probes/fixes/<stack>.yaml's advice is proven on, started as test_fixes.py
starts it (its files copied with {{DIR}}, {{PORT}} and {{DATA}} filled in).
Its stack.json says how to start it (`command`), where its OGC API Features is
(`path`), where its OpenAPI document is (`openapi`: not at
{base}/openapi.json, so adrprobe is given `--openapi`), and which URL answers
once it is ready (`ready`). `shared(stack)` starts one server per suite (a
process), stopped when the suite ends.
"""

import atexit
import time

from test_fixes import START_SECONDS, Server

STACKS = ("qgis-server", "mapserver")


class GeoServer(Server):
    """tests/fixes/<stack>/ started on a free port, optionally with the fix of a check applied."""

    def __init__(self, stack, check=None, text=None):
        super().__init__(stack, check, text)
        self.requirement()  # a failure, or a skip where the package is not packaged here
        self.origin = "http://127.0.0.1:%d" % self.port
        self.openapi = self.origin + self.spec["openapi"]

    def start(self):
        super().start()
        if not self.wait(time.monotonic() + START_SECONDS):
            log = self.server_log()
            self.stop()
            raise AssertionError("%s did not start within %d s:\n%s" % (self.stack, START_SECONDS, log))
        self.origin = "http://127.0.0.1:%d" % self.port  # wait() may have moved it to another port
        self.openapi = self.origin + self.spec["openapi"]
        return self

    def args(self):
        """adrprobe check's base URL and --openapi for this server."""
        return [self.url()] + super().args()

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
