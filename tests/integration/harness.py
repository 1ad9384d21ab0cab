"""Shared plumbing for the adrprobe integration tests (stdlib + jsonschema).

- ``binary()``: the adrprobe under test: $ADRPROBE, else <repo>/build/adrprobe.
- ``run_adrprobe(args)``: run it bounded in time; returns a ``Run`` with exit
  status, stdout, stderr, wall time and the child's peak memory.
- ``probe(profile, *args)``: start a fixture server, run ``adrprobe check`` on it
  with ``-f json --rate 0``, stop the server; returns a ``Probe`` (a Run plus
  the parsed report and the server's request log).
- ``rule`` / ``checks`` / ``check``: look things up in a report.
- ``ProbeCase``: a unittest.TestCase with assertion helpers that print the
  relevant part of the report when they fail.
- Report comparison (opt-in, for ``tests/compare/compare_reports.py``): with
  ``ADRPROBE_COMPARE_WITH=/path/to/old/adrprobe`` every ``check``/``lint`` run also
  runs that binary with the same arguments against the same live servers, and
  records whether the two JSON reports agree (see "report comparison" below).
"""

import copy
import fcntl
import inspect
import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import shutil
import threading
import time
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fixture_server import BEARER, FixtureServer, default_doc, live_fixtures  # noqa: E402,F401

REPO = HERE.parent.parent
# The report schema the project publishes (docs/report.schema.json): every JSON
# report adrprobe writes validates against it.
SCHEMA_PATH = REPO / "docs" / "report.schema.json"
# Third-party documents the tests read, in the repository (tests/data/README.md
# names their sources and licences).
TEST_DATA = REPO / "tests" / "data"
LINTER_CASES = TEST_DATA / "linter-testcases"  # the official linter's 26 test cases
REAL_OAS = TEST_DATA / "real-oas"  # real OpenAPI documents (EUPL-1.2)

# rule name -> (edition 2.0.0 id, edition 1.0 id)
TECHNICAL = {
    "no-trailing-slash": ("/core/no-trailing-slash", "API-48"),
    "http-methods": ("/core/http-methods", "API-03"),
    "doc-openapi": ("/core/doc-openapi", "API-16"),
    "publish-openapi": ("/core/publish-openapi", "API-51"),
    "uri-version": ("/core/uri-version", "API-20"),
    "semver": ("/core/semver", "API-56"),
    "version-header": ("/core/version-header", "API-57"),
    "transport-security": ("/core/transport-security", None),
}
FUNCTIONAL = {
    "naming-resources": ("/core/naming-resources", "API-05"),
    "naming-collections": ("/core/naming-collections", "API-54"),
    "interface-language": ("/core/interface-language", "API-04"),
    "hide-implementation": ("/core/hide-implementation", "API-53"),
    "http-safety": ("/core/http-safety", "API-01"),
    "stateless": ("/core/stateless", "API-02"),
    "nested-child": ("/core/nested-child", "API-06"),
    "resource-operations": ("/core/resource-operations", "API-10"),
    "doc-language": ("/core/doc-language", "API-17"),
    "deprecation-schedule": ("/core/deprecation-schedule", "API-18"),
    "transition-period": ("/core/transition-period", "API-19"),
    "changelog": ("/core/changelog", "API-55"),
    "geospatial": ("/core/geospatial", None),
}
EDITIONS = ("2.0.0", "1.0")

# worst first, as probes.md aggregates
VERDICT_RANK = {"fail": 5, "error": 4, "warn": 3, "pass": 2, "skip": 1, "manual": 0}


def rid(name, edition="2.0.0"):
    """Rule id of a rule name ("semver") in an edition."""
    table = TECHNICAL if name in TECHNICAL else FUNCTIONAL
    new, old = table[name]
    return old if edition == "1.0" else new


def edition_rule_ids(edition):
    out = []
    for table in (TECHNICAL, FUNCTIONAL):
        for new, old in table.values():
            i = old if edition == "1.0" else new
            if i is not None:
                out.append(i)
    return out


def technical_ids(edition):
    return [rid(n, edition) for n in TECHNICAL if rid(n, edition) is not None]


# --------------------------------------------------------------------------
# running the binary
# --------------------------------------------------------------------------

def binary():
    return os.environ.get("ADRPROBE") or str(REPO / "build" / "adrprobe")



def memory_limit_kb(kb):
    """A peak-memory bound for the binary under test. Under AddressSanitizer
    (./dev test-asan sets ASAN_OPTIONS) its shadow memory and redzones and its
    quarantine of freed blocks (256 MiB by default, whatever the run's size)
    say nothing about adrprobe's own use: the bound there is four times as
    high plus the quarantine (a 61 MiB summary.json read in 86 MB peaks at
    570 MiB under ASan); the normal build is held to `kb`."""
    return kb * 4 + 256 * 1024 if os.environ.get("ASAN_OPTIONS") else kb

class Run:
    def __init__(self, cmd, rc, stdout, stderr, duration, maxrss_kb, timed_out):
        self.cmd = cmd
        self.rc = rc
        self.stdout = stdout
        self.stderr = stderr
        self.duration = duration
        self.maxrss_kb = maxrss_kb
        self.timed_out = timed_out

    def describe(self):
        return "command: %s\nexit: %s (%.1fs%s)\nstderr:\n%s\nstdout (first 3000 chars):\n%s" % (
            " ".join(self.cmd), self.rc, self.duration, ", TIMED OUT" if self.timed_out else "",
            self.stderr[-3000:], self.stdout[:3000])

    def json(self):
        try:
            return json.loads(self.stdout)
        except ValueError as e:
            raise AssertionError("stdout is not a JSON report (%s)\n%s" % (e, self.describe()))


def _reader(stream, sink):
    for chunk in iter(lambda: stream.read(65536), b""):
        sink.append(chunk)
    stream.close()


def run_adrprobe(args, timeout=60, env=None, cwd=None):
    """Run adrprobe with args; kill its whole process group after timeout s.
    env: variables over the test's own environment; a value None unsets one.
    With ADRPROBE_COMPARE_WITH set, a `check` or `lint` run is compared with
    the same run of that binary (see "report comparison" below); the Run
    returned is always the binary under test's."""
    args = [str(a) for a in args]
    if COMPARE_WITH and args[:1] in (["check"], ["lint"]):
        return _compared_run(args, timeout, env, cwd)
    if COMPARE_WITH and args[:1] == ["demo"]:
        _skipped(args, "demo (it serves its own API on a new port and with a new CA each run)")
    return _execute(binary(), args, timeout, env, cwd)


def run_measured(args, timeout=60, env=None, cwd=None):
    """run_adrprobe under /usr/bin/time (package time), so that Run.maxrss_kb
    is the binary's own peak memory. A child started straight from this
    process (subprocess uses vfork) reports at least this process's peak,
    which a suite that built large test data has raised: 220 MiB after a
    48 MiB file was written from one string."""
    time_bin = require_tool("/usr/bin/time", "time")
    with tempfile.TemporaryDirectory(prefix="adrprobe-time-") as tmp:
        peak = os.path.join(tmp, "peak")
        run = _execute(time_bin, ["--quiet", "--format", "%M", "--output", peak, binary()] + [str(a) for a in args],
                       timeout, env, cwd)
        try:
            with open(peak, encoding="ascii") as f:
                run.maxrss_kb = int(f.read().split()[-1])
        except (OSError, ValueError, IndexError):
            pass  # time was killed with the binary (a timeout): the Run says so, maxrss_kb stays an upper bound
    return run


def _execute(exe, args, timeout=60, env=None, cwd=None):
    if not os.access(exe, os.X_OK):
        raise AssertionError("adrprobe binary not found at %s: build it (ninja -C build) or set ADRPROBE" % exe)
    cmd = [exe] + [str(a) for a in args]
    full_env = dict(os.environ)
    full_env.pop("NO_COLOR", None)
    for name, value in (env or {}).items():  # None unsets a variable
        if value is None:
            full_env.pop(name, None)
        else:
            full_env[name] = value
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=full_env, cwd=cwd, start_new_session=True)
    out, err = [], []
    readers = [threading.Thread(target=_reader, args=(proc.stdout, out), daemon=True),
               threading.Thread(target=_reader, args=(proc.stderr, err), daemon=True)]
    for t in readers:
        t.start()
    timed_out = False
    while True:
        pid, status, rusage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() - start > timeout:
            timed_out = True
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            pid, status, rusage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.01)
    proc.returncode = os.waitstatus_to_exitcode(status)
    try:  # anything the binary left behind in its group
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for t in readers:
        t.join(timeout=5)
    return Run(cmd, proc.returncode, b"".join(out).decode("utf-8", "replace"),
               b"".join(err).decode("utf-8", "replace"), time.monotonic() - start,
               rusage.ru_maxrss, timed_out)


def run_in_pty(args, timeout=120, env=None):
    """Run adrprobe with stdout and stderr on a pseudo-terminal; returns (rc, output).
    The timeout is a whole check's under a sanitized build on a loaded machine."""
    exe = binary()
    if not os.access(exe, os.X_OK):
        raise AssertionError("adrprobe binary not found at %s" % exe)
    if COMPARE_WITH:
        _skipped([str(a) for a in args], "text on a terminal (no JSON report)")
    master, slave = os.openpty()
    full_env = dict(os.environ, TERM="xterm-256color")
    full_env.pop("NO_COLOR", None)
    full_env.update(env or {})
    proc = subprocess.Popen([exe] + [str(a) for a in args], stdin=slave, stdout=slave, stderr=slave,
                            env=full_env, start_new_session=True)
    os.close(slave)
    output = _read_pty(master, proc, timeout)
    return proc.returncode, output


def _read_pty(master, proc, timeout):
    """What the terminal got until the child ends (or timeout s, then it is killed)."""
    chunks = []
    start = time.monotonic()
    try:
        while time.monotonic() - start < timeout:
            r, _, _ = select.select([master], [], [], 0.1)
            if r:
                try:
                    data = os.read(master, 65536)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not data:
                    break
                chunks.append(data)
            elif proc.poll() is not None:
                break
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        os.close(master)
    return b"".join(chunks).decode("utf-8", "replace")


def run_stderr_on_pty(args, timeout=60, env=None, columns=120):
    """Run adrprobe with stderr on a pseudo-terminal of `columns` columns (so the
    live progress line is drawn) and stdout on a pipe; returns a Run whose
    stderr is everything the terminal got."""
    exe = binary()
    if not os.access(exe, os.X_OK):
        raise AssertionError("adrprobe binary not found at %s" % exe)
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    full_env = dict(os.environ, TERM="xterm-256color")
    full_env.pop("NO_COLOR", None)
    for name, value in (env or {}).items():
        if value is None:
            full_env.pop(name, None)
        else:
            full_env[name] = value
    cmd = [exe] + [str(a) for a in args]
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave,
                            env=full_env, start_new_session=True)
    os.close(slave)
    out = []
    reader = threading.Thread(target=_reader, args=(proc.stdout, out), daemon=True)
    reader.start()
    terminal = _read_pty(master, proc, timeout)
    reader.join(timeout=5)
    return Run(cmd, proc.returncode, b"".join(out).decode("utf-8", "replace"), terminal,
               time.monotonic() - start, 0, time.monotonic() - start >= timeout)


class Probe(Run):
    """A Run of `adrprobe check` against a fixture, with its request log."""

    def __init__(self, run, server, requests):
        self.__dict__.update(run.__dict__)
        self.base_url = server.base_url
        self.origin = server.origin
        self.port = server.port
        self.requests = requests
        self.max_active = server.max_active()
        self._report = None

    @property
    def report(self):
        if self._report is None:
            self._report = self.json()
        return self._report

    def methods(self):
        return {r["method"] for r in self.requests}


def check_args(url, args=(), edition=None, fmt="json", rate=0):
    a = ["check", url, "-f", fmt]
    if rate is not None:
        a += ["--rate", str(rate)]
    if edition and edition != "2.0.0":
        a += ["--edition", edition]
    return a + list(args)


def probe(profile=None, *args, edition=None, timeout=60, fmt="json", rate=0, env=None):
    """Serve profile, run `adrprobe check BASE -f json --rate 0 [--edition E] args`
    (rate=None leaves --rate to the binary's default or to args)."""
    with FixtureServer(profile, max_seconds=(timeout + 30) * runs_per_check()) as srv:
        run = run_adrprobe(check_args(srv.base_url, args, edition, fmt, rate), timeout=timeout, env=env)
        requests = srv.requests()
        return Probe(run, srv, requests)


# --------------------------------------------------------------------------
# report comparison (opt-in; driven by tests/compare/compare_reports.py)
# --------------------------------------------------------------------------
#
# ADRPROBE_COMPARE_WITH=/path/to/old/adrprobe: every `adrprobe check` (and
# `lint`) run of the suites first runs that old binary with the same arguments
# against the same running servers (same ports), then rewinds the fixtures'
# request logs (the test sees only the requests of the binary under test), then
# runs the binary under test, and compares the two JSON reports after
# normalise_report() (and, only if they still differ, canonical_exchange_order()).
# A run whose JSON report goes to neither stdout (-f json) nor a file
# (-o json=PATH) is not compared, and is recorded as skipped.
# ADRPROBE_COMPARE_EDITIONS=1.0,2.0.0,2.1.0: each such run is also compared
# (old against new) under each of these editions, with --edition replaced.
# ADRPROBE_COMPARE_LOG=FILE: one JSON line per comparison is appended there
# (test id, arguments, "identical" / "different" / "skipped", and for a
# difference the first differing JSON pointer with both values); without it,
# differences are printed on stderr.

COMPARE_WITH = os.environ.get("ADRPROBE_COMPARE_WITH") or None
COMPARE_LOG = os.environ.get("ADRPROBE_COMPARE_LOG") or None
COMPARE_EDITIONS = [e.strip() for e in os.environ.get("ADRPROBE_COMPARE_EDITIONS", "").split(",") if e.strip()]
# ADRPROBE_COMPARE_DROP=exchanges.request_headers,...: members left out of both
# reports before they are compared (a deliberate change between the binaries).
COMPARE_DROP = [p.strip().split(".") for p in os.environ.get("ADRPROBE_COMPARE_DROP", "").split(",") if p.strip()]


def _drop_member(value, path):
    if isinstance(value, list):
        for v in value:
            _drop_member(v, path)
    elif isinstance(value, dict) and path:
        if len(path) == 1:
            value.pop(path[0], None)
        elif path[0] in value:
            _drop_member(value[path[0]], path[1:])

# the random CORS origin label adrprobe sends (Origin: https://adrprobe-<12 hex>.example)
ORIGIN_LABEL = re.compile(r"adrprobe-[0-9a-f]{12}")
AFTER_MS = re.compile(r"after \d+ ms")
NORMALISED = "<normalised>"


def runs_per_check():
    """How many adrprobe runs one `check` makes (servers must live that long)."""
    if not COMPARE_WITH:
        return 1
    return 2 + 2 * len(COMPARE_EDITIONS)


def normalise_report(report):
    """A copy of a JSON report without what differs between two runs of the
    same binary against the same server: the run's own timing and clock
    (duration_ms at the top, per exchange and of the TLS handshakes,
    generated_at, and the dates taken from it: a failing rule's failing_since,
    a down report's down_since), the tool version, the random CORS origin
    label, and the servers' Date response header (it ticks every second)."""
    r = copy.deepcopy(report)
    if not isinstance(r, dict):
        return r
    for key in ("duration_ms", "generated_at", "down_since"):
        if key in r:
            r[key] = NORMALISED
    for rule in r.get("rules") or []:
        if isinstance(rule, dict) and rule.get("failing_since") is not None:
            rule["failing_since"] = NORMALISED
    if isinstance(r.get("tool"), dict) and "version" in r["tool"]:
        r["tool"]["version"] = NORMALISED
    for e in r.get("exchanges") or []:
        if isinstance(e, dict):
            if "duration_ms" in e:
                e["duration_ms"] = NORMALISED
            headers = e.get("response_headers")
            if isinstance(headers, dict) and "date" in headers:
                headers["date"] = NORMALISED
    if isinstance(r.get("tls"), dict) and "duration_ms" in r["tls"]:
        r["tls"]["duration_ms"] = NORMALISED
    for path in COMPARE_DROP:
        _drop_member(r, path)
    return _replace_labels(r)


def canonical_exchange_order(report):
    """A copy of a normalised report with its exchanges in a canonical order:
    sorted by content (everything but the id), renumbered 1..n, and every
    checks[].exchanges list mapped to the new ids and sorted.  Ids are handed
    out as requests start, so where several requests are in flight (redirect
    chains, concurrency) two runs of the same binary may number the same
    exchanges differently; the set of exchanges and which of them each check
    cites must still be the same."""
    r = copy.deepcopy(report)
    exchanges = r.get("exchanges")
    if not isinstance(exchanges, list) or not all(isinstance(e, dict) for e in exchanges):
        return r

    def content(e):
        return json.dumps({k: v for k, v in e.items() if k != "id"}, sort_keys=True, ensure_ascii=False)

    ordered = sorted(exchanges, key=lambda e: (content(e), str(e.get("id"))))
    new_id = {}
    for i, e in enumerate(ordered, 1):
        new_id.setdefault(e.get("id"), i)
        e["id"] = i
    r["exchanges"] = ordered
    for rule_ in r.get("rules") or []:
        for c in rule_.get("checks") or []:
            if isinstance(c.get("exchanges"), list):
                c["exchanges"] = sorted(new_id.get(i, -1) for i in c["exchanges"])
    return r


def _replace_labels(value):
    if isinstance(value, str):
        # the run's own timing also shows in libcurl's messages ("... after 1002 ms")
        return AFTER_MS.sub("after <n> ms", ORIGIN_LABEL.sub("adrprobe-<origin>", value))
    if isinstance(value, list):
        return [_replace_labels(v) for v in value]
    if isinstance(value, dict):
        return {_replace_labels(k): _replace_labels(v) for k, v in value.items()}
    return value


def _pointer_token(key):
    return str(key).replace("~", "~0").replace("/", "~1")


def first_difference(old, new, path=""):
    """None when equal, else (JSON pointer, old value, new value) of the first
    difference in document order (the new report's key order)."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in list(new) + [k for k in old if k not in new]:
            here = path + "/" + _pointer_token(key)
            if key not in old:
                return here, "<absent>", new[key]
            if key not in new:
                return here, old[key], "<absent>"
            d = first_difference(old[key], new[key], here)
            if d:
                return d
        return None
    if isinstance(old, list) and isinstance(new, list):
        for i in range(max(len(old), len(new))):
            here = "%s/%d" % (path, i)
            if i >= len(old):
                return here, "<absent>", new[i]
            if i >= len(new):
                return here, old[i], "<absent>"
            d = first_difference(old[i], new[i], here)
            if d:
                return d
        return None
    if type(old) is not type(new) or old != new:
        return path or "/", old, new
    return None


def _option_values(args, short, long):
    """Values of an option given as `-x V`, `--xx V` or `--xx=V`."""
    out = []
    for i, a in enumerate(args):
        if a in (short, long) and i + 1 < len(args):
            out.append(args[i + 1])
        elif a.startswith(long + "="):
            out.append(a[len(long) + 1:])
    return out


def _report_source(args):
    """Where a check run puts its JSON report: "stdout", a file path, or None."""
    if "json" in _option_values(args, "-f", "--format"):
        return "stdout"
    for value in _option_values(args, "-o", "--output"):
        fmt, _, path = value.partition("=")
        if fmt == "json" and path:
            return "stdout" if path == "-" else path
    return None


def _output_files(args):
    return [v.partition("=")[2] for v in _option_values(args, "-o", "--output") if v.partition("=")[2] not in ("", "-")]


def _with_edition(args, edition):
    out, skip = [], False
    for i, a in enumerate(args):
        if skip:
            skip = False
            continue
        if a == "--edition":
            skip = True
            continue
        if a.startswith("--edition="):
            continue
        out.append(a)
    return out + ["--edition", edition]


def _edition_of(args):
    values = _option_values(args, "--edition", "--edition")
    return values[-1] if values else "2.0.0"


def _report_text(run, source):
    """The JSON report text of a run that just ended (read at once: the next
    run writes the same -o file), or None with the reason."""
    if source == "stdout":
        return run.stdout, ""
    try:
        with open(source, encoding="utf-8") as f:
            return f.read(), ""
    except OSError as e:
        return None, "no report file (%s)" % e.strerror


def _parse_report(text, why):
    if text is None:
        return None, why
    try:
        return json.loads(text), ""
    except ValueError:
        return None, "no JSON report"


def _current_test_id():
    """unittest id of the test (or setUpClass) this run belongs to."""
    main = sys.modules.get("__main__")
    suite = Path(getattr(main, "__file__", "") or "suite").stem
    frame = inspect.currentframe()
    while frame is not None:
        loc = frame.f_locals
        obj = loc.get("self")
        if isinstance(obj, unittest.TestCase):
            sub = getattr(obj, "_subtest", None)
            return (sub or obj).id().replace("__main__.", suite + ".", 1)
        cls = loc.get("cls")
        if isinstance(cls, type) and issubclass(cls, unittest.TestCase):
            return "%s.%s.%s" % (suite if cls.__module__ == "__main__" else cls.__module__, cls.__qualname__,
                                 frame.f_code.co_name)
        frame = frame.f_back
    return suite + ".<module>"


_run_counts = {}


def _record(entry):
    if COMPARE_LOG:
        with open(COMPARE_LOG, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry, ensure_ascii=False) + "\n")
    elif entry["result"] == "different":
        sys.stderr.write("REPORTS DIFFER: %s %s at %s\n" % (entry["test"], " ".join(entry["args"]), entry["path"]))


def _skipped(args, reason, test_id=None):
    _record({"test": test_id or _current_test_id(), "args": args, "edition": _edition_of(args), "variant": None,
             "result": "skipped", "reason": reason})


def _short(value, limit=300):
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[:limit] + "..."


def _compare(test_id, args, old, new, variant=None):
    """old, new: (Run, report text or None, why not)."""
    (old_run, old_text, old_why), (new_run, new_text, new_why) = old, new
    entry = {"test": test_id, "args": args, "edition": _edition_of(args), "variant": variant,
             "old_exit": old_run.rc, "new_exit": new_run.rc}
    old_report, old_why = _parse_report(old_text, old_why)
    new_report, new_why = _parse_report(new_text, new_why)
    if old_run.timed_out or new_run.timed_out:
        entry.update(result="different", path="(run)", old="timed out" if old_run.timed_out else "finished",
                     new="timed out" if new_run.timed_out else "finished")
    elif old_report is None and new_report is None:
        # e.g. a usage error: neither wrote a report; the exit statuses must agree
        same = old_run.rc == new_run.rc
        entry.update(result="identical" if same else "different", kind="exit status only", note=new_why)
        if not same:
            entry.update(path="(exit status)", old=old_run.rc, new=new_run.rc)
    elif old_report is None or new_report is None:
        entry.update(result="different", kind="report", path="(report)", old=old_why or "a report",
                     new=new_why or "a report")
    else:
        old_n, new_n = normalise_report(old_report), normalise_report(new_report)
        d = first_difference(old_n, new_n)
        kind = "report"
        if d is not None and first_difference(canonical_exchange_order(old_n), canonical_exchange_order(new_n)) is None:
            d, kind = None, "report, exchanges numbered in another order"
        if d is None and old_run.rc != new_run.rc:
            d = ("(exit status)", old_run.rc, new_run.rc)
        if d is None:
            entry.update(result="identical", kind=kind)
        else:
            entry.update(result="different", kind="report", path=d[0], old=_short(d[1]), new=_short(d[2]))
    _record(entry)


def _compared_run(args, timeout, env, cwd):
    test_id = _current_test_id()
    _run_counts[test_id] = _run_counts.get(test_id, 0) + 1
    if _run_counts[test_id] > 1:
        test_id = "%s #%d" % (test_id, _run_counts[test_id])
    source = _report_source(args)
    if source is None:
        _skipped(args, "text output only (no JSON report)", test_id)
        return _execute(binary(), args, timeout, env, cwd)
    created = [p for p in _output_files(args) if not os.path.exists(p)]
    marks = {fx: fx.mark() for fx in live_fixtures()}

    scratch = tempfile.mkdtemp(prefix="adrprobe-compare-")

    def run(exe, a):
        # The old binary runs in a scratch directory: an old version may take
        # an argument (such as -o json=-) for a file name.
        r = _execute(exe, a, timeout, env, cwd if exe != COMPARE_WITH else (cwd or scratch))
        return (r,) + _report_text(r, source)

    def undo():
        # leave servers and files as if only the binary under test had run
        for fx, mark in marks.items():
            fx.rewind(mark)
        for path in created:
            try:
                os.remove(path)
            except OSError:
                pass

    for edition in COMPARE_EDITIONS:
        if edition == _edition_of(args):
            continue
        variant = _with_edition(args, edition)
        old = run(COMPARE_WITH, variant)
        new = run(binary(), variant)
        _compare(test_id, variant, old, new, variant="--edition " + edition)
        undo()
    old = run(COMPARE_WITH, args)
    undo()
    new = run(binary(), args)
    _compare(test_id, args, old, new)
    shutil.rmtree(scratch, ignore_errors=True)
    return new[0]

class closed_port:
    """Context manager: a base URL on 127.0.0.1 where nothing listens.  The
    port stays bound (without listen) meanwhile, so no parallel test's server
    can take it, and connecting to it is refused.  Over http:// TS-1 still
    fails (the scheme alone shows it); scheme="https" gives a target of which
    nothing can be judged, every technical rule `error`."""

    def __init__(self, scheme="http"):
        self.scheme = scheme

    def __enter__(self):
        import socket
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        return "%s://127.0.0.1:%d/v1" % (self.scheme, self.sock.getsockname()[1])

    def __exit__(self, *exc):
        self.sock.close()
        return False


# --------------------------------------------------------------------------
# reading reports
# --------------------------------------------------------------------------

def rule(report, rule_id):
    for r in report.get("rules", []):
        if r.get("id") == rule_id:
            return r
    raise AssertionError("rule %s not in report (rules: %s)" % (
        rule_id, [r.get("id") for r in report.get("rules", [])]))


def checks(report, rule_id, check_id):
    return [c for c in rule(report, rule_id).get("checks", []) if c.get("id") == check_id]


def worst(verdicts):
    verdicts = list(verdicts)
    return max(verdicts, key=lambda v: VERDICT_RANK.get(v, 9)) if verdicts else None


def check(report, rule_id, check_id):
    """(worst verdict, all messages joined by newlines) of the check id in the rule."""
    found = checks(report, rule_id, check_id)
    if not found:
        raise AssertionError("no %s check in rule %s; it has: %s" % (
            check_id, rule_id, json.dumps(rule(report, rule_id).get("checks", []), indent=1)[:3000]))
    return worst(c["verdict"] for c in found), "\n".join(c.get("message", "") for c in found)


def all_checks(report):
    for r in report.get("rules", []):
        for c in r.get("checks", []):
            yield r, c


def exchange_urls(report):
    return [e.get("url", "") for e in report.get("exchanges", [])]


def exchange_paths(report):
    from urllib.parse import urlsplit
    return [urlsplit(u).path for u in exchange_urls(report)]


# --------------------------------------------------------------------------
# schema
# --------------------------------------------------------------------------

def schema_validator():
    """A Draft 2020-12 validator of docs/report.schema.json (a failed assertion
    when the file is missing: it is part of the repository)."""
    assert SCHEMA_PATH.is_file(), "the report schema is missing: %s" % SCHEMA_PATH
    import jsonschema
    with open(SCHEMA_PATH, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    # The schema's "$id" ("adrprobe-report/1") is a relative URI, which some
    # jsonschema versions join with itself when resolving "#/$defs/...";
    # an absolute id of the same document avoids that.
    schema = dict(schema, **{"$id": SCHEMA_PATH.as_uri()})
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


def data_path(*parts):
    """A file or folder under tests/data (a failed assertion when it is missing:
    the data is part of the repository)."""
    path = TEST_DATA.joinpath(*parts)
    assert path.exists(), "test data missing from the repository: %s" % path
    return path


RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")


# --------------------------------------------------------------------------
# test case base
# --------------------------------------------------------------------------

class ProbeCase(unittest.TestCase):
    maxDiff = None

    def context(self, report, rule_id):
        try:
            return json.dumps(rule(report, rule_id), indent=1, ensure_ascii=False)[:4000]
        except AssertionError as e:
            return str(e)

    def assertNoCrash(self, run, rcs=(0, 1, 3)):
        self.assertFalse(run.timed_out, "adrprobe did not finish in time\n" + run.describe())
        self.assertGreaterEqual(run.rc, 0, "adrprobe died from signal %d\n%s" % (-run.rc, run.describe()))
        self.assertIn(run.rc, rcs, "unexpected exit status\n" + run.describe())

    def assertCheck(self, report, rule_id, check_id, verdicts, contains=(), all_contain=False):
        """The worst verdict of check_id in rule_id is one of verdicts; every
        string in contains appears (case-insensitively) in its messages."""
        if isinstance(verdicts, str):
            verdicts = (verdicts,)
        if isinstance(contains, str):
            contains = (contains,)
        verdict, message = check(report, rule_id, check_id)
        self.assertIn(verdict, verdicts, "%s %s: verdict %s, expected %s\n%s" % (
            rule_id, check_id, verdict, "/".join(verdicts), self.context(report, rule_id)))
        for text in contains:
            self.assertIn(text.lower(), message.lower(), "%s %s: message lacks %r\n%s" % (
                rule_id, check_id, text, self.context(report, rule_id)))
        return verdict, message

    def assertRule(self, report, rule_id, verdicts):
        if isinstance(verdicts, str):
            verdicts = (verdicts,)
        r = rule(report, rule_id)
        self.assertIn(r["verdict"], verdicts, "rule %s: verdict %s, expected %s\n%s" % (
            rule_id, r["verdict"], "/".join(verdicts), self.context(report, rule_id)))
        return r

    def assertRuleMentions(self, report, rule_id, text):
        """text appears in the rule's summary or in one of its check messages."""
        r = rule(report, rule_id)
        hay = [r.get("summary", "")] + [c.get("message", "") for c in r.get("checks", [])]
        self.assertTrue(any(text.lower() in h.lower() for h in hay),
                        "rule %s mentions no %r\n%s" % (rule_id, text, self.context(report, rule_id)))

    def assertAnyCheckMessage(self, report, predicate, what):
        hits = [(r["id"], c) for r, c in all_checks(report) if predicate(r, c)]
        self.assertTrue(hits, "no check in the report %s\nall checks:\n%s" % (what, json.dumps(
            [(r["id"], c.get("id"), c.get("verdict"), c.get("message")) for r, c in all_checks(report)],
            indent=0, ensure_ascii=False)[:6000]))
        return hits


# --------------------------------------------------------------------------
# tools a test needs, and how a suite ends
# --------------------------------------------------------------------------
#
# No silent skip: a test that cannot run fails the suite, with one exception. A
# test that needs a tool (a command, a Python module) which no package of this
# machine provides (apt has no installation candidate for it) is skipped, and
# says which tool and package; only that skip keeps the suite from failing. A
# tool whose package is installable here but not installed is a failure:
# install it (./dev test installs every package of its PACKAGES list).

NOT_PACKAGED = "tool not packaged here: "  # how such a skip's reason starts; main() looks for it


class ToolNotPackaged(unittest.SkipTest):
    """The one skip main() accepts: the test needs a tool no package of this machine provides."""

    def __init__(self, tool, package):
        super().__init__("%s%s (Debian package %s has no installation candidate on this machine)"
                         % (NOT_PACKAGED, tool, package))


_PACKAGED = {}


def packaged(package):
    """Whether apt can install package on this machine: `apt-cache policy PKG`
    shows a candidate. A machine without apt-cache has no package at all."""
    if package not in _PACKAGED:
        apt_cache = shutil.which("apt-cache")
        candidate = None
        if apt_cache:
            out = subprocess.run([apt_cache, "policy", package], capture_output=True, text=True, timeout=60,
                                 stdin=subprocess.DEVNULL, env=dict(os.environ, LC_ALL="C")).stdout
            m = re.search(r"^\s*Candidate:\s*(\S+)", out, re.M)
            candidate = m.group(1) if m else None
        _PACKAGED[package] = candidate not in (None, "(none)")
    return _PACKAGED[package]


def _missing(tool, package):
    if packaged(package):
        raise AssertionError("%s is missing: install %s (./dev test installs it)" % (tool, package))
    raise ToolNotPackaged(tool, package)


def require_tool(command, package):
    """The path of command (a name on PATH or an absolute path); when it is not
    there, a failure if package is installable here, else a ToolNotPackaged skip."""
    found = shutil.which(str(command))
    if found:
        return found
    _missing(command, package)


def require_module(name, package):
    """The imported Python module name (Debian's python3 imports it); when it
    does not import, a failure if package is installable here, else a
    ToolNotPackaged skip."""
    import importlib
    try:
        return importlib.import_module(name)
    except ImportError:
        _missing("Python module %s" % name, package)


def before_running(obj, check):
    """Run check() before a test method, or before a TestCase class's setUpClass."""
    if isinstance(obj, type):
        inherited = obj.setUpClass

        def setUpClass(cls):
            check()
            inherited.__func__(cls)
        obj.setUpClass = classmethod(setUpClass)
        return obj
    import functools

    @functools.wraps(obj)
    def test(*args, **kwargs):
        check()
        return obj(*args, **kwargs)
    return test


def needs_tool(command, package):
    """Class or test decorator: require_tool(command, package) before it runs."""
    return lambda obj: before_running(obj, lambda: require_tool(command, package))


def needs_module(name, package):
    """Class or test decorator: require_module(name, package) before it runs."""
    return lambda obj: before_running(obj, lambda: require_module(name, package))


class _Result(unittest.TextTestResult):
    """Counts what passed; unittest's result keeps failures, errors and skips."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.passed = 0

    def addSuccess(self, test):
        super().addSuccess(test)
        self.passed += 1

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.passed += 1


def exit_status(result):
    """How a suite ends (meson reads it): 1 on a failure, an error, an
    unexpected success, a skip that is not ToolNotPackaged, or no test at all;
    77 (meson: SKIP) when every test was skipped because a tool is not packaged
    here; else 0."""
    bad_skips = [(t, why) for t, why in result.skipped if not why.startswith(NOT_PACKAGED)]
    tool_skips = [(t, why) for t, why in result.skipped if why.startswith(NOT_PACKAGED)]
    if bad_skips:
        sys.stderr.write("\nFAILED: %d skipped test(s); a test may skip only when a tool it needs is not "
                         "packaged for this machine (harness.require_tool):\n" % len(bad_skips))
        for t, why in bad_skips:
            sys.stderr.write("  skipped %s: %s\n" % (t, why))
    if tool_skips:
        sys.stderr.write("\n%d test(s) skipped, a tool they need is not packaged for this machine:\n"
                         % len(tool_skips))
        for t, why in tool_skips:
            sys.stderr.write("  skipped %s: %s\n" % (t, why))
    if result.failures or result.errors or result.unexpectedSuccesses or bad_skips:
        return 1
    if result.passed == 0:
        if tool_skips:
            return 77
        sys.stderr.write("\nFAILED: no test ran\n")
        return 1
    return 0


def main():
    """Run the suite of the calling module (as unittest.main does, command-line
    test names included) and exit with exit_status()."""
    runner = unittest.TextTestRunner(resultclass=_Result, verbosity=2)
    program = unittest.main(verbosity=2, testRunner=runner, exit=False)
    sys.exit(exit_status(program.result))


# --------------------------------------------------------------------------
# static documents over HTTP (lint and --openapi by URL)
# --------------------------------------------------------------------------

def yaml_text(value):
    """A document as YAML text (python3-yaml)."""
    import yaml
    return yaml.safe_dump(value, sort_keys=False, allow_unicode=True)


class local_http_server:
    """A stdlib HTTP server with `handler` (a request handler class or factory)
    on 127.0.0.1 in a thread; `with` gives "http://127.0.0.1:PORT"."""

    def __init__(self, handler):
        import http.server
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return "http://127.0.0.1:%d" % self.httpd.server_address[1]

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


class static_server(local_http_server):
    """Serves {path: text or bytes} (or a directory, root=...) on 127.0.0.1 in a
    thread; `with static_server(files) as origin:` gives "http://127.0.0.1:PORT"."""

    def __init__(self, files=None, root=None):
        import http.server
        import functools
        files = {k: (v.encode("utf-8") if isinstance(v, str) else v) for k, v in (files or {}).items()}

        class Handler(http.server.SimpleHTTPRequestHandler):
            def do_GET(self):
                path = self.path.split("?", 1)[0]
                if root is None:
                    body = files.get(path)
                    if body is None:
                        self.send_error(404)
                        return
                    self.send_response(200)
                    self.send_header("Content-Type", "application/yaml" if path.endswith((".yaml", ".yml")) else "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                super().do_GET()

            def log_message(self, *args):
                pass

        super().__init__(functools.partial(Handler, directory=str(root)) if root else Handler)


def read_head(sock, step=65536, limit=None):
    """Bytes from sock up to and including the blank line that ends an HTTP head (a
    request's or a response's); None when the peer closes first or the head grows past
    limit. step=1 never reads past the head (a proxy relays what follows)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(step)
        if not chunk or (limit is not None and len(data) + len(chunk) > limit):
            return None
        data += chunk
    return data


def listening_inodes(port):
    """The names in /proc/PID/fd/ ("socket:[inode]") of the sockets listening on port that take
    connections to 127.0.0.1: bound to it, else bound to every address."""
    exact, wildcard = set(), set()
    for table, loopback, anywhere in (
            ("/proc/net/tcp", ("0100007F",), ("00000000",)),
            ("/proc/net/tcp6", ("0000000000000000FFFF00000100007F",), ("00000000000000000000000000000000",))):
        try:
            with open(table) as f:
                rows = f.read().splitlines()[1:]
        except FileNotFoundError:
            continue  # no IPv6
        for row in rows:
            fields = row.split()
            address, local_port = fields[1].split(":")
            if fields[3] != "0A" or int(local_port, 16) != port:  # 0A: LISTEN
                continue
            if address in loopback:
                exact.add("socket:[%s]" % fields[9])
            elif address in anywhere:
                wildcard.add("socket:[%s]" % fields[9])
    return exact or wildcard


def session_listens(port, session):
    """Whether the socket listening on 127.0.0.1:port belongs to a process of the session
    `session` (a server started with start_new_session: its pid, so a child that made a
    process group of its own counts too): a connect alone is answered as well by another
    process that took the port between a free-port probe and the server's bind. None when
    /proc cannot tell (no such socket seen, or not ours to read)."""
    try:
        inodes = listening_inodes(port)
        if not inodes:
            return None
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open("/proc/%s/stat" % pid) as f:
                    # The session is the 4th field after the command, which is in parentheses.
                    if int(f.read().rsplit(")", 1)[1].split()[3]) != session:
                        continue
                for fd in os.listdir("/proc/%s/fd" % pid):
                    if os.readlink("/proc/%s/fd/%s" % (pid, fd)) in inodes:
                        return True
            except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
                continue  # the process or the fd went away meanwhile
        return False
    except PermissionError:
        return None
