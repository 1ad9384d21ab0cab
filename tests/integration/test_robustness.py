#!/usr/bin/python3
"""Robustness: slow servers, --deadline, non-HTTP answers, hostile documents.
Every run must end in bounded time with a report and without a crash."""

import json
import sys
import tempfile
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ProbeCase, probe, rid  # noqa: E402
from side_server import SideServer  # noqa: E402

GIB = 1024 * 1024  # ru_maxrss is in KiB


class Slow(ProbeCase):
    def test_timeout_gives_error_verdicts(self):
        p = probe({"delay": 3}, "--timeout", "1", edition="1.0", timeout=90)
        self.assertNoCrash(p)
        self.assertLess(p.duration, 60, "a 1 s timeout run took %.1f s" % p.duration)
        self.assertCheck(p.report, "API-51", "PO-1", "error")
        self.assertCheck(p.report, "API-57", "VH-1", "error")
        for i in harness.technical_ids("1.0"):
            self.assertRule(p.report, i, "error")
        self.assertEqual(p.rc, 3, p.describe())
        timed_out = [e for e in p.report["exchanges"] if e.get("error")]
        self.assertTrue(timed_out, "no exchange records the timeout")

    def test_one_slow_path_errors_only_there(self):
        # only GET {base}/gebouwen/1 is slow; everything else answers at once.
        # The timeout is well above a normal answer under load, the delay far above it.
        p = probe({"delay": 20, "delay_paths": ["/v1/gebouwen/1"]}, "--timeout", "5", timeout=90)
        self.assertNoCrash(p)
        self.assertCheck(p.report, rid("publish-openapi"), "PO-1", "pass")
        self.assertCheck(p.report, rid("version-header"), "VH-1", "pass")
        self.assertCheck(p.report, rid("http-methods"), "HM-1", "error")

    def test_deadline_ends_run_and_writes_report(self):
        p = probe({"delay": 1.5}, "--deadline", "2", edition="1.0", timeout=60)
        self.assertNoCrash(p, rcs=(1, 3))
        self.assertLess(p.duration, 12, "--deadline 2 run took %.1f s" % p.duration)
        self.assertAnyCheckMessage(
            p.report, lambda r, c: c["verdict"] == "error" and "deadline reached" in c["message"].lower(),
            "is error with 'deadline reached'")
        self.assertEqual(len(p.report["rules"]), 19)

    def test_deadline_not_reached_on_fast_server(self):
        p = probe(None, "--deadline", "30", edition="1.0")
        self.assertEqual(p.rc, 0, p.describe())
        hits = [c for r, c in harness.all_checks(p.report) if "deadline" in c["message"].lower()]
        self.assertEqual(hits, [])


class BrokenFraming(ProbeCase):
    """probes.md: a request that fails on a reused connection because the server
    broke HTTP framing (a body after a HEAD response, as Django's development
    server sends) is retried once on a fresh connection before it counts."""

    def test_body_after_head_is_no_error(self):
        p = probe({"head_body": True}, "--concurrency", "1")
        self.assertNoCrash(p)
        errors = [(e["method"], e["url"], e["error"]) for e in p.report["exchanges"] if e.get("error")]
        self.assertEqual(errors, [])
        self.assertCheck(p.report, rid("no-trailing-slash"), "NT-2", "pass")
        self.assertCheck(p.report, rid("http-methods"), "HM-1", "pass")
        # one exchange per request: the retry keeps the id of the first attempt
        ids = [e["id"] for e in p.report["exchanges"]]
        self.assertEqual(ids, list(range(1, len(ids) + 1)))
        sent = [(r["method"], r["path"]) for r in p.requests]
        self.assertGreater(len(sent), len(ids), "nothing was sent again")


class NotHTTP(ProbeCase):
    def test_garbage_bytes_are_transport_errors(self):
        p = probe({"garbage": True}, "--timeout", "2", edition="1.0", timeout=60)
        self.assertNoCrash(p)
        self.assertLess(p.duration, 45)
        self.assertCheck(p.report, "API-51", "PO-1", "error")
        self.assertCheck(p.report, "API-57", "VH-1", "error")
        self.assertEqual(p.rc, 3, p.describe())


class HostileDocuments(ProbeCase):
    def test_deeply_nested_document(self):
        p = probe({"openapi_json": "deep", "deep_depth": 100000}, timeout=60)
        self.assertNoCrash(p)
        self.assertLess(p.duration, 30)
        verdicts = (harness.rule(p.report, rid("publish-openapi"))["verdict"],
                    harness.rule(p.report, rid("doc-openapi"))["verdict"])
        self.assertIn("fail", verdicts, "a 100000-deep document without info or paths neither fails "
                                        "publish-openapi nor doc-openapi")
        self.assertEqual(p.rc, 1, p.describe())

    def test_huge_document(self):
        p = probe({"openapi_json": "huge", "huge_bytes": 100 * 1024 * 1024}, "--timeout", "30", timeout=120)
        self.assertNoCrash(p)
        self.assertLess(p.duration, 90)
        self.assertLess(p.maxrss_kb, harness.memory_limit_kb(2 * GIB), "peak memory %.0f MiB for a 100 MiB document"
                        % (p.maxrss_kb / 1024))
        v, msg = self.assertCheck(p.report, rid("publish-openapi"), "PO-1", ("pass", "fail"))
        if v == "fail":
            self.assertTrue(msg.strip(), "PO-1 fails without saying why")

    def test_yaml_billion_laughs(self):
        p = probe({"openapi_yaml": "bomb"}, timeout=60)
        self.assertNoCrash(p)
        self.assertLess(p.duration, 30, "alias bomb took %.1f s" % p.duration)
        self.assertLess(p.maxrss_kb, harness.memory_limit_kb(GIB), "peak memory %.0f MiB on an alias bomb" % (p.maxrss_kb / 1024))
        self.assertCheck(p.report, rid("publish-openapi"), "PO-3", "fail")
        self.assertCheck(p.report, rid("publish-openapi"), "PO-1", "pass")

    def test_local_ref_cycle(self):
        patch = {"components": {"schemas": {
            "A": {"type": "object", "properties": {"b": {"$ref": "#/components/schemas/B"}}},
            "B": {"type": "object", "properties": {"a": {"$ref": "#/components/schemas/A"}}},
            "Gebouw": {"properties": {"a": {"$ref": "#/components/schemas/A"}}}}}}
        p = probe({"doc_patch": patch}, timeout=60)
        self.assertNoCrash(p)
        self.assertLess(p.duration, 30)
        # every ref points at a schema that exists: a recursive schema is not a dangling ref
        self.assertCheck(p.report, rid("doc-openapi"), "DO-2", "pass")

    def test_ref_to_ref_loop(self):
        # Self -> Self2 -> Self never reaches a value: unresolvable, but no hang
        patch = {"components": {"schemas": {
            "Self": {"$ref": "#/components/schemas/Self2"},
            "Self2": {"$ref": "#/components/schemas/Self"},
            "Gebouw": {"properties": {"s": {"$ref": "#/components/schemas/Self"}}}}}}
        p = probe({"doc_patch": patch}, timeout=60)
        self.assertNoCrash(p)
        self.assertLess(p.duration, 30)
        self.assertCheck(p.report, rid("doc-openapi"), "DO-2", "fail", contains="/components/schemas/Self")

    def test_external_ref_cycle(self):
        profile = {
            "doc_patch": {"components": {"schemas": {"Gebouw": {"properties": {
                "a": {"$ref": "schemas/a.json#/A"}}}}}},
            "files": {
                "/v1/schemas/a.json": {"A": {"properties": {"b": {"$ref": "b.json#/B"}}}},
                "/v1/schemas/b.json": {"B": {"properties": {
                    "a": {"$ref": "a.json#/A"},
                    "doc": {"$ref": "../openapi.json#/components/schemas/Gebouw"}}}},
            },
        }
        p = probe(profile, timeout=60)
        self.assertNoCrash(p)
        self.assertLess(p.duration, 30)
        self.assertCheck(p.report, rid("doc-openapi"), "DO-2", "pass")
        fetches = [r for r in p.requests if r["path"] in ("/v1/schemas/a.json", "/v1/schemas/b.json")]
        self.assertLessEqual(len(fetches), 6, "external documents fetched over and over: %d" % len(fetches))


class InvalidUtf8(ProbeCase):
    """YAML loaders pass bytes through unchecked: invalid UTF-8 must become U+FFFD
    at load, never an internal error (exit 70) without a report."""

    YAML = (b'openapi: ["\xff"]\n'
            b'info: {title: Gebouwen, version: ["\xfe"]}\n'
            b'paths:\n  /gebouwen:\n    get:\n      summary: "a\xed\xa0\x80z"\n'
            b'      responses: {"200": {description: OK}}\n')

    def test_openapi_file_with_invalid_utf8(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "openapi.yaml"
            path.write_bytes(self.YAML)
            p = probe(None, "--openapi", str(path), timeout=60)
        self.assertNoCrash(p)
        report = p.report  # stdout is a JSON report
        self.assertIn("rules", report)
        self.assertCheck(report, rid("doc-openapi"), "DO-1", "fail")  # openapi is not a version string

    def test_served_yaml_with_invalid_utf8(self):
        p = probe({"openapi_yaml": "text", "openapi_yaml_text": self.YAML}, timeout=60)
        self.assertNoCrash(p)
        self.assertCheck(p.report, rid("publish-openapi"), "PO-3", "fail")


# --------------------------------------------------------------------------
# Limits on what a server may send (each reported when hit)
# --------------------------------------------------------------------------

def small_doc():
    return {"openapi": "3.0.3", "info": {"title": "Grenzen API", "version": "1.0.0"},
            "servers": [{"url": "/v1"}],
            "paths": {"/bom": {"get": {"responses": {"200": {"description": "OK"}}}}}}


def gzip_bomb(mib):
    """mib MiB of zeros, gzip-compressed (about 1/1000 of that on the wire)."""
    z = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: gzip container
    chunk = bytes(1 << 20)
    return b"".join([z.compress(chunk) for _ in range(mib)] + [z.flush()])


def raw(status=200, headers=(), body=b"", drip=None, delay=0):
    """A route that writes its answer itself: headers as given, then the body at
    once or one byte every `drip` seconds."""

    def route(h):
        srv = h.server.side
        if delay and srv.stopping.wait(delay):
            return
        h.send_response(status)
        for k, v in headers:
            h.send_header(k, v)
        h.end_headers()
        if h.command == "HEAD":
            return
        try:
            if drip is None:
                h.wfile.write(body)
                return
            for i in range(len(body)):
                h.wfile.write(body[i:i + 1])
                h.wfile.flush()
                if srv.stopping.wait(drip):
                    return
        except OSError:  # the client gave up: expected
            h.close_connection = True

    return route


def api(openapi_route, extra=None):
    """A SideServer API under /v1 whose openapi.json is served by openapi_route."""
    routes = {"/v1/openapi.json": openapi_route, "/v1": {"naam": "Grenzen API"}, "/v1/bom": {"ok": True}}
    routes.update(extra or {})
    return SideServer(routes, headers={"API-Version": "1.0.0", "Access-Control-Allow-Origin": "*"})


def run_on(server, *args, timeout=60):
    return harness.run_adrprobe(harness.check_args(server.origin + "/v1", args), timeout=timeout)


def exchange_errors(report, path):
    return [e.get("error") for e in report["exchanges"] if e["url"].split("?")[0].endswith(path)]


class Limits(ProbeCase):
    def test_gzip_bomb_document_is_cut_at_the_document_limit(self):
        bomb = gzip_bomb(100)  # 100 MiB once decoded, the document limit is 32 MiB
        headers = [("Content-Type", "application/json"), ("Content-Encoding", "gzip"),
                   ("Content-Length", str(len(bomb)))]
        with api(raw(200, headers, bomb)) as srv:
            r = run_on(srv)
        self.assertNoCrash(r)
        self.assertLess(r.duration, 30, r.describe())
        self.assertLess(r.maxrss_kb, harness.memory_limit_kb(512 * 1024), "peak memory %.0f MiB on a gzip bomb" % (r.maxrss_kb / 1024))
        report = r.json()
        self.assertCheck(report, rid("publish-openapi"), "PO-1", "fail", contains="larger than 33554432 bytes")

    def test_gzip_bomb_probe_is_cut_at_the_body_limit(self):
        bomb = gzip_bomb(100)
        headers = [("Content-Type", "application/json"), ("Content-Encoding", "gzip"),
                   ("Content-Length", str(len(bomb))), ("API-Version", "1.0.0")]
        with api(small_doc(), {"/v1/bom": raw(200, headers, bomb)}) as srv:
            r = run_on(srv)
            seen = srv.requests()
        self.assertNoCrash(r)
        self.assertLess(r.duration, 30, r.describe())
        self.assertLess(r.maxrss_kb, harness.memory_limit_kb(256 * 1024), "peak memory %.0f MiB on gzip bombs" % (r.maxrss_kb / 1024))
        self.assertIn(("GET", "/v1/bom"), seen)
        report = r.json()
        self.assertCheck(report, rid("http-methods"), "HM-1", "pass")
        self.assertEqual([e for e in exchange_errors(report, "/v1/bom") if e], [])  # answered, body kept in part

    def test_drip_feeding_server_is_cut(self):
        body = json.dumps(small_doc()).encode()
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
        with api(raw(200, headers, body, drip=1.0)) as srv:
            r = run_on(srv, "--timeout", "60")
        self.assertNoCrash(r)
        self.assertLess(r.duration, 25, "a drip-feed at 1 byte/s was not cut\n" + r.describe())
        report = r.json()
        self.assertCheck(report, rid("publish-openapi"), "PO-1", "error",
                         contains="server too slow: fewer than 10 bytes/s for 5 s")

    def test_slow_first_byte_is_not_cut(self):
        # a server that thinks for 6 s and then answers at once is slow, not drip-feeding
        body = json.dumps(small_doc()).encode()
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
        with api(raw(200, headers, body, delay=6)) as srv:
            r = run_on(srv, "--timeout", "20")
        self.assertNoCrash(r)
        self.assertCheck(r.json(), rid("publish-openapi"), "PO-1", "pass")

    def test_too_many_response_headers(self):
        body = json.dumps(small_doc()).encode()
        many = [("X-Header-%d" % i, "v") for i in range(300)]
        few = [("X-Header-%d" % i, "v") for i in range(150)]
        common = [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
        with api(raw(200, common + many, body), {"/v1/bom": raw(200, common + few, b"{}")}) as srv:
            r = run_on(srv)
        self.assertNoCrash(r)
        report = r.json()
        self.assertCheck(report, rid("publish-openapi"), "PO-1", "error", contains="more than 200 response headers")
        self.assertIn("more than 200 response headers", exchange_errors(report, "/v1/openapi.json"))


MIB = 1024 * 1024
# Hostile input IV, finding 6: a summary.json within the 64 MiB cap whose
# history holds millions of entries took 1.13 GB and 60-85 s to read whole
# (`summary --previous`, `diff`); a CI pod with a memory limit lost the night.
SUMMARY_RSS_KB = 128 * 1024


def summary_row(name, at):
    return {"name": name, "base_url": "http://127.0.0.1:9/%s/v1" % name, "edition": "2.0.0",
            "report": name + ".json", "state": "up",
            "score": {"pass": 3, "warn": 0, "fail": 1, "error": 0, "applicable": 4, "percent": 75.0},
            "failing": ["/core/x"], "change": None, "generated_at": at}


def history_point(night):
    """The point of night 1..40 (January and February 2025), as summary.json writes it."""
    day = "2025-01-%02d" % night if night <= 31 else "2025-02-%02d" % (night - 31)
    return {"generated_at": day + "T02:00:00Z", "state": "down" if night % 7 == 0 else "up",
            "percent": None if night % 7 == 0 else float(night), "pass": night, "warn": 1, "fail": 2, "error": 0}


def write_hostile_summary(path, targets, filler_mib):
    """summary.json of `targets` whose history gives each of them `filler_mib`
    MiB of points without a time, empty ones and numbers (five bytes each:
    millions), then its 40 real nights; 200,000 more names of one point, and
    a 3 MiB string. Written piece by piece, never held whole."""
    head = {"schema": "adrprobe-summary/1", "tool": {"name": "adrprobe", "version": "0.5.0"},
            "generated_at": "2025-02-09T02:10:00Z", "shard": {"k": 0, "n": 1, "register": len(targets)},
            "complete": True, "notes": [], "targets": [summary_row(t, "2025-02-09T02:00:00Z") for t in targets]}
    chunk = '{"pass":1},{},0,' * (MIB // 16)
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(head)[:-1] + ', "history": {')
        for name in targets:
            f.write(json.dumps(name) + ": [")
            for _ in range(filler_mib):
                f.write(chunk)
            f.write(", ".join(json.dumps(history_point(n)) for n in range(1, 41)) + "], ")
        for i in range(200000):
            f.write('"gone-%06d": [{}], ' % i)
        f.write('"huge": [{"note": "%s"}]}}' % ("x" * (3 * MIB)))


class HugeSummaryHistory(ProbeCase):
    """summary --previous and diff read a 64 MiB summary.json's history point
    by point: peak memory far below the file's tree, the newest 30 carried."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="adrprobe-history-")
        root = Path(cls.tmp.name)
        cls.previous, cls.shard = root / "previous", root / "shard"
        cls.previous.mkdir()
        cls.shard.mkdir()
        write_hostile_summary(cls.previous / "summary.json", ["bag", "kvk"], 27)
        tonight = {"schema": "adrprobe-summary/1", "generated_at": "2025-02-10T02:10:00Z",
                   "targets": [summary_row(t, "2025-02-10T02:00:00Z") for t in ("bag", "kvk")]}
        (cls.shard / "summary.json").write_text(json.dumps(tonight), encoding="utf-8")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def assertBounded(self, run, what, previous=None):
        self.assertFalse(run.timed_out, "%s did not finish in time\n%s" % (what, run.describe()))
        size = ((previous or self.previous) / "summary.json").stat().st_size
        self.assertLess(run.maxrss_kb, harness.memory_limit_kb(SUMMARY_RSS_KB),
                        "%s: peak memory %.0f MiB for a %.0f MiB summary.json" % (what, run.maxrss_kb / 1024, size / MIB))

    def test_file_is_within_the_cap(self):
        size = (self.previous / "summary.json").stat().st_size
        self.assertGreater(size, 60 * MIB)
        self.assertLessEqual(size, 64 * MIB)

    def test_summary_previous_keeps_the_newest_30(self):
        out = Path(self.tmp.name) / "merged"
        run = harness.run_measured(["summary", "--out-dir", out, "--previous", self.previous, self.shard], timeout=180)
        self.assertBounded(run, "summary --previous")
        self.assertIn(run.rc, (0, 1), run.describe())
        self.assertNotIn("history starts again", run.stderr)
        summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
        self.assertEqual(summary["previous_generated_at"], "2025-02-09T02:10:00Z")
        self.assertEqual(sorted(summary["history"]), ["bag", "kvk"])  # only tonight's targets
        tonight = {"generated_at": "2025-02-10T02:00:00Z", "state": "up", "percent": 75.0,
                   "pass": 3, "warn": 0, "fail": 1, "error": 0}
        for name in ("bag", "kvk"):
            # nights 12..40 of the file as they were, then tonight: 30
            self.assertEqual(summary["history"][name], [history_point(n) for n in range(12, 41)] + [tonight], name)

    def test_a_huge_stretch_is_refused_unparsed(self):
        # A 48 MiB string, or 48 MiB of points without a string or number in them:
        # the parser would hold either whole, twice, beside the text.
        head = json.dumps({"schema": "adrprobe-summary/1", "targets": [summary_row("bag", "2025-02-09T02:00:00Z")]})
        for what, start, piece, end in (("string", '{"bag": [{"generated_at": "', "9" * MIB, '"}]}'),
                                        ("brackets", '{"bag": [', "{}," * (MIB // 3), "{}]}")):
            previous = Path(self.tmp.name) / ("huge-" + what)
            previous.mkdir()
            with open(previous / "summary.json", "w", encoding="utf-8") as f:
                f.write(head[:-1] + ', "history": ' + start)
                for _ in range(48):
                    f.write(piece)
                f.write(end + "}")
            out = Path(self.tmp.name) / ("merged-huge-" + what)
            run = harness.run_measured(["summary", "--out-dir", out, "--previous", previous, self.shard], timeout=180)
            self.assertBounded(run, "summary --previous of 48 MiB of " + what, previous)
            self.assertIn(run.rc, (0, 1), run.describe())
            self.assertIn("summary.json: JSON has more than 4194304 bytes from one string, number or literal to the "
                          "next: not an adrprobe summary (history starts again)", run.stderr)
            summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
            self.assertEqual([len(summary["history"][t]) for t in ("bag", "kvk")], [1, 1], what)

    def test_diff_of_two_nights(self):
        run = harness.run_measured(["diff", "-f", "json", self.previous, self.shard], timeout=180)
        self.assertBounded(run, "diff")
        self.assertEqual(run.rc, 0, run.describe())
        diff = json.loads(run.stdout)
        self.assertEqual(diff["before"], {"generated_at": "2025-02-09T02:10:00Z", "targets": 2})
        self.assertEqual([t["name"] for t in diff["targets"]], ["bag", "kvk"])
        # and the file on both sides: read one after the other
        run = harness.run_measured(["diff", self.previous / "summary.json", self.previous], timeout=180)
        self.assertBounded(run, "diff of the file with itself")
        self.assertEqual(run.rc, 0, run.describe())
        self.assertIn("0 of 2 targets changed", run.stdout)


if __name__ == "__main__":
    harness.main()
