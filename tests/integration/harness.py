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
"""

import json
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fixture_server import BEARER, FixtureServer, default_doc  # noqa: E402,F401

REPO = HERE.parent.parent
SCHEMA_PATH = REPO.parent / "shared" / "contract" / "report.schema.json"

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
    """Run adrprobe with args; kill its whole process group after timeout s."""
    exe = binary()
    if not os.access(exe, os.X_OK):
        raise AssertionError("adrprobe binary not found at %s: build it (ninja -C build) or set ADRPROBE" % exe)
    cmd = [exe] + [str(a) for a in args]
    full_env = dict(os.environ)
    full_env.pop("NO_COLOR", None)
    full_env.update(env or {})
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


def run_in_pty(args, timeout=30, env=None):
    """Run adrprobe with stdout and stderr on a pseudo-terminal; returns (rc, output)."""
    exe = binary()
    if not os.access(exe, os.X_OK):
        raise AssertionError("adrprobe binary not found at %s" % exe)
    master, slave = os.openpty()
    full_env = dict(os.environ, TERM="xterm-256color")
    full_env.pop("NO_COLOR", None)
    full_env.update(env or {})
    proc = subprocess.Popen([exe] + [str(a) for a in args], stdin=slave, stdout=slave, stderr=slave,
                            env=full_env, start_new_session=True)
    os.close(slave)
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
    return proc.returncode, b"".join(chunks).decode("utf-8", "replace")


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
    with FixtureServer(profile, max_seconds=timeout + 30) as srv:
        run = run_adrprobe(check_args(srv.base_url, args, edition, fmt, rate), timeout=timeout, env=env)
        requests = srv.requests()
        return Probe(run, srv, requests)


class closed_port:
    """Context manager: a base URL on 127.0.0.1 where nothing listens.  The
    port stays bound (without listen) meanwhile, so no parallel test's server
    can take it, and connecting to it is refused."""

    def __enter__(self):
        import socket
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        return "http://127.0.0.1:%d/v1" % self.sock.getsockname()[1]

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
    """A Draft 2020-12 validator of report.schema.json, or None when missing."""
    if not SCHEMA_PATH.exists():
        return None
    import jsonschema
    with open(SCHEMA_PATH, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    # The schema's "$id" ("adrprobe-report/1") is a relative URI, which some
    # jsonschema versions join with itself when resolving "#/$defs/...";
    # an absolute id of the same document avoids that.
    schema = dict(schema, **{"$id": SCHEMA_PATH.as_uri()})
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


requires_schema = unittest.skipUnless(SCHEMA_PATH.exists(),
                                      "report schema not found at %s (shared/ must sit beside the repository)"
                                      % SCHEMA_PATH)

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


def main():
    unittest.main(verbosity=2)
