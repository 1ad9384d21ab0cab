#!/usr/bin/python3
"""`adrprobe demo --serve` (CLI.md): the reference API served on 127.0.0.1
until SIGINT or SIGTERM, a target for `check` and `batch`. It prints
`base_url:`, `ca_file:` (HTTPS only), `check:` and `register:` lines on stdout,
writes the CA to $TMPDIR (or --ca-out PATH) and removes it when it stops, exit 0.
A port in use, report options with --serve, and --port or --ca-out without it
are usage errors (exit 2).

The served API is a real `adrprobe demo --serve` process; check and batch are
real runs of the binary against it."""

import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ProbeCase, run_adrprobe  # noqa: E402

KEYS = ("base_url", "ca_file", "check", "register")


class PortInUse(AssertionError):
    """demo --serve --port N exited 2: N is in use."""


class Served:
    """A running `adrprobe demo --serve ...`: its process and the lines it printed."""

    def __init__(self, args, env=None, timeout=60):
        full_env = dict(os.environ)
        full_env.update(env or {})
        self.proc = subprocess.Popen([harness.binary(), "demo", "--serve"] + list(args), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=full_env,
                                     start_new_session=True)
        self.lines = []
        self.info = {}
        deadline = time.monotonic() + timeout
        buffered = b""
        while "register" not in self.info:
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.poll() is not None:
                self.kill(close=False)
                err = self.proc.stderr.read().decode("utf-8", "replace")
                self.kill()
                failure = PortInUse if self.proc.returncode == 2 and "is in use" in err else AssertionError
                raise failure("demo --serve printed no register: line (exit %s)\nstdout: %r\nstderr: %s" % (
                    self.proc.returncode, buffered + b"".join(l.encode() for l in self.lines), err))
            ready, _, _ = select.select([self.proc.stdout], [], [], min(left, 0.5))
            if not ready:
                continue
            chunk = os.read(self.proc.stdout.fileno(), 4096)
            buffered += chunk
            while b"\n" in buffered:
                line, buffered = buffered.split(b"\n", 1)
                text = line.decode("utf-8")
                self.lines.append(text)
                key, sep, value = text.partition(": ")
                assert sep and key in KEYS, "unexpected line %r" % text
                self.info[key] = value

    def stop(self, sig=signal.SIGTERM, timeout=30):
        """Sends sig; returns (exit status, the rest of stdout, stderr)."""
        self.proc.send_signal(sig)
        try:
            out, err = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError("demo --serve did not stop within %ss of %s" % (timeout, sig))
        return self.proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")

    def kill(self, close=True):
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr) if close else ():
            stream.close()


def held_port():
    """A socket listening on 127.0.0.1 on a free port (the caller closes it)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(4)
    return s


class DemoServe(ProbeCase):
    def serve(self, *args, env=None):
        served = Served(args, env=env)
        self.addCleanup(served.kill)
        return served

    def tmpdir(self):
        d = tempfile.TemporaryDirectory()
        self.addCleanup(d.cleanup)
        return d.name

    def test_check_and_batch_against_the_served_api_then_sigterm(self):
        tmp = self.tmpdir()
        served = self.serve("--port", "0", env={"TMPDIR": tmp})
        base, ca = served.info["base_url"], served.info["ca_file"]
        self.assertRegex(base, r"^https://127\.0\.0\.1:\d+/v1$")
        self.assertEqual(Path(ca).parent, Path(tmp), "the CA goes to $TMPDIR")
        self.assertIn("-----BEGIN CERTIFICATE-----", Path(ca).read_text())
        self.assertEqual(served.lines[:2], ["base_url: " + base, "ca_file: " + ca])
        self.assertEqual(served.info["check"], "adrprobe check %s --ca-file %s" % (base, ca))

        # The check: line, run as printed (plus the report options).
        args = served.info["check"].split()[1:]
        run = run_adrprobe(args + ["--edition", "2.2.0", "-f", "json", "--rate", "0"], timeout=120)
        self.assertEqual(run.rc, 0, run.describe())
        report = run.json()
        self.assertEqual(report["target"]["base_url"], base)
        self.assertTrue(report["tls"]["trusted"], report["tls"])
        technical = [r for r in report["rules"] if r["kind"] == "technical"]
        self.assertEqual(len(technical), 16)
        for r in technical:
            self.assertRule(report, r["id"], "pass")

        # The register: line, written to a file as printed, is a one-target register.
        import yaml
        register = yaml.safe_load(served.info["register"])
        self.assertEqual(register, {"targets": [{"name": "demo", "base_url": base, "ca_file": ca}]})
        reg = Path(tmp, "targets.yaml")
        reg.write_text(served.info["register"] + "\n", encoding="utf-8")
        out = Path(tmp, "out")
        run = run_adrprobe(["batch", reg, "--out-dir", out, "--edition", "2.2.0", "--rate", "0", "--no-color"],
                           timeout=120)
        self.assertEqual(run.rc, 0, run.describe())
        summary = json.loads(Path(out, "summary.json").read_text())
        [row] = summary["targets"]
        self.assertEqual((row["name"], row["base_url"], row["edition"]), ("demo", base, "2.2.0"), row)
        self.assertEqual(row["score"]["percent"], 100.0, row)
        self.assertEqual(row["failing"], [])
        self.assertTrue(Path(out, "demo.json").is_file())

        rc, rest, err = served.stop(signal.SIGTERM)
        self.assertEqual(rc, 0, err)
        self.assertEqual(rest, "", "nothing more on stdout after the four lines")
        self.assertIn("stopped (SIGTERM)", err)
        self.assertFalse(Path(ca).exists(), "the CA file was left behind")
        self.assertEqual(sorted(p.name for p in Path(tmp).iterdir()), ["out", "targets.yaml"])

    def test_a_slow_client_is_answered_and_an_idle_one_does_not_hold_the_stop(self):
        """A client that sends its first request 6 s after the TLS handshake
        (adrprobe on a loaded CI, its TLS checks beside it) is answered: the
        server waits as nginx does, not cpp-httplib's 5 s. A client that keeps
        its connection open and idle does not hold SIGTERM for that long."""
        import ssl
        served = self.serve("--port", "0")
        port = int(served.info["base_url"].rsplit(":", 1)[1].split("/")[0])
        context = ssl.create_default_context(cafile=served.info["ca_file"])

        def connect():
            conn = context.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=30),
                                       server_hostname="127.0.0.1")
            self.addCleanup(conn.close)
            return conn

        def answer(conn):
            conn.sendall(b"GET /v1/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            return (harness.read_head(conn) or b"").split(b"\r\n", 1)[0]

        slow = connect()
        time.sleep(6)
        self.assertEqual(answer(slow), b"HTTP/1.1 200 OK")
        idle = connect()
        self.assertEqual(answer(idle), b"HTTP/1.1 200 OK")
        started = time.monotonic()
        rc, _, err = served.stop(timeout=20)
        self.assertEqual(rc, 0, err)
        # The idle wait is 30 s; a loaded machine may take seconds to stop.
        self.assertLess(time.monotonic() - started, 15, "SIGTERM waited for the idle connection: " + err)

    def test_given_port_ca_out_and_sigint(self):
        tmp = self.tmpdir()
        ca_out = Path(tmp, "demo ca.pem")  # a space: the check: line quotes it
        # A port free when held_port() closed it may be taken before demo --serve binds it
        # (suites run side by side): another one then.
        for attempt in range(5):
            with held_port() as s:
                port = s.getsockname()[1]
            try:
                served = self.serve("--port", str(port), "--ca-out", ca_out)
                break
            except PortInUse:
                if attempt == 4:
                    raise
        self.assertEqual(served.info["base_url"], "https://127.0.0.1:%d/v1" % port)
        self.assertEqual(served.info["ca_file"], str(ca_out))
        self.assertEqual(served.info["check"],
                         "adrprobe check https://127.0.0.1:%d/v1 --ca-file '%s'" % (port, ca_out))
        self.assertIn("-----BEGIN CERTIFICATE-----", ca_out.read_text())
        run = run_adrprobe(["check", served.info["base_url"], "--ca-file", ca_out, "--edition", "2.0.0", "-q",
                            "--rate", "0", "--no-color"], timeout=120)
        self.assertEqual(run.rc, 0, run.describe())

        # A second server on that port: a usage error, the first one goes on serving.
        second = run_adrprobe(["demo", "--serve", "--port", port], timeout=30)
        self.assertEqual(second.rc, 2, second.describe())
        self.assertIn("port %d on 127.0.0.1 is in use" % port, second.stderr)
        self.assertEqual(served.proc.poll(), None)

        rc, _, err = served.stop(signal.SIGINT)
        self.assertEqual(rc, 0, err)
        self.assertIn("stopped (SIGINT)", err)
        self.assertFalse(ca_out.exists(), "the --ca-out file was left behind")

    def test_broken_profile_is_served_over_http_and_fails_check(self):
        served = self.serve("--profile", "broken", "--port", "0")
        base = served.info["base_url"]
        self.assertRegex(base, r"^http://127\.0\.0\.1:\d+/v1$")
        self.assertNotIn("ca_file", served.info, "plain HTTP has no CA")
        self.assertEqual(served.info["check"], "adrprobe check " + base)
        run = run_adrprobe(["check", base, "--edition", "2.2.0", "-f", "json", "--rate", "0"], timeout=120)
        self.assertEqual(run.rc, 1, run.describe())
        report = run.json()
        for rule_id in ("/core/error-handling/problem-details", "/core/date-time/format"):
            self.assertRule(report, rule_id, "fail")
        rc, _, err = served.stop()
        self.assertEqual(rc, 0, err)

    def test_port_in_use_is_a_usage_error(self):
        with held_port() as s:
            port = s.getsockname()[1]
            run = run_adrprobe(["demo", "--serve", "--port", port], timeout=30)
        self.assertEqual(run.rc, 2, run.describe())
        self.assertIn("port %d on 127.0.0.1 is in use" % port, run.stderr)
        self.assertNotIn("internal error", run.stderr)
        self.assertEqual(run.stdout, "")

    def test_usage_errors(self):
        tmp = self.tmpdir()
        existing = Path(tmp, "ca.pem")
        existing.write_text("mine\n")
        for args, says in (
                (["demo", "--serve", "-f", "json"], "--format"),
                (["demo", "--serve", "--port", "0", "-o", "json=" + str(Path(tmp, "r.json"))], "--output"),
                (["demo", "--serve", "--edition", "2.2.0"], "--edition"),
                (["demo", "--port", "0"], "--port goes with --serve"),
                (["demo", "--ca-out", str(Path(tmp, "x.pem"))], "--ca-out goes with --serve"),
                (["demo", "--serve", "--profile", "broken", "--ca-out", str(Path(tmp, "x.pem"))], "plain HTTP"),
                (["demo", "--serve", "--ca-out", str(existing)], "the file exists"),
                (["demo", "--serve", "--port", "70000"], "--port"),
                # Hostile input IV: a port is decimal; 0x50 served on port 80
                (["demo", "--serve", "--port", "0x50"], "--port: '0x50' is not a whole number"),
                (["demo", "--serve", "--port", "4294967376"], "--port: '4294967376' is out of range"),
        ):
            with self.subTest(args=args):
                run = run_adrprobe(args, timeout=30, env={"TMPDIR": tmp})
                self.assertEqual(run.rc, 2, run.describe())
                self.assertIn(says, run.stderr)
                self.assertEqual(run.stdout, "")
        self.assertEqual(existing.read_text(), "mine\n", "an existing --ca-out file was touched")
        self.assertEqual(sorted(p.name for p in Path(tmp).iterdir()), ["ca.pem"], "a usage error left files")

    def test_help_explains_serve(self):
        run = run_adrprobe(["demo", "--help"], timeout=30)
        self.assertEqual(run.rc, 0, run.describe())
        for option in ("--serve", "--port", "--ca-out"):
            self.assertIn(option, run.stdout)
        self.assertIn("SIGTERM", run.stdout)


if __name__ == "__main__":
    harness.main()
