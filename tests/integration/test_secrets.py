#!/usr/bin/python3
"""Secrets (probes.md, "What the report shows of server text and secrets"):
header values from -H, --header-file, ${VAR} and a batch file, and the
password of a URL, never appear in any report, log, summary or progress line,
even where the server echoes them back: in response headers, base64-encoded,
in error bodies and percent-encoded in a redirect Location.

Every format the binary lists is written (so a new format is covered without
touching this file), by `check` (with -v, and with stderr on a terminal for the
progress line), `batch` (with summary.*) and `lint`; every output is searched
for each secret in each form it can take, and must also show the run's target
(so an empty output cannot pass)."""

import base64
import json
import os
import re
import sys
import tempfile
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import FixtureServer, ProbeCase, run_adrprobe  # noqa: E402

# Distinct values, each with characters that percent-encoding changes, and a
# tail found in no other text (it shows a secret even escaped for a format).
H_VALUE = "hdr+Sec/ret=Q7x9Kp2m"           # -H X-Api-Key
FILE_VALUE = "file+Sec/ret=Z3v8Lw5n"       # --header-file X-File-Key
ENV_VALUE = "env+Sec/ret=R4t6Yh1j"         # -H "Authorization: Bearer ${ADRPROBE_IT_SECRET}"
BATCH_VALUE = "batch+Sec/ret=M2n5Bq8c"     # batch file headers: {X-Batch-Key: "${ADRPROBE_IT_BATCH}"}
DEFAULTS_VALUE = "dflt+Sec/ret=W8e2Pz6v"   # batch file defaults: {X-Default-Key: ...}
URL_USER = "auditor"
URL_PASSWORD = "s3cret/pw+U9k3Fd7s"        # in the URL percent-encoded: s3cret%2Fpw%2BU9k3Fd7s

ENV = {"ADRPROBE_IT_SECRET": ENV_VALUE, "ADRPROBE_IT_BATCH": BATCH_VALUE}


def b64(text):
    return base64.b64encode(text.encode()).decode()


def encoded(text):
    """text, percent-encoded (upper and lower case hex)."""
    return {text, urllib.parse.quote(text, safe=""), urllib.parse.quote(text, safe="").lower()}


def forms(*values):
    """Every form of a secret that must not show: each value as given and
    base64-encoded (without its padding, which a longer text need not end
    with), each of those percent-encoded, and the value's distinctive tail."""
    out = set()
    for value in values:
        out |= encoded(value) | encoded(b64(value).rstrip("="))
    out.add(values[0][-8:])
    return out


def url_password_forms():
    basic = b64("%s:%s" % (URL_USER, URL_PASSWORD))
    return forms(URL_PASSWORD, "%s:%s" % (URL_USER, URL_PASSWORD), "Basic " + basic)


SECRETS = {
    "-H value": forms(H_VALUE),
    "--header-file value": forms(FILE_VALUE),
    "${VAR} in -H": forms(ENV_VALUE, "Bearer " + ENV_VALUE),
    "URL password": url_password_forms(),
}
BATCH_SECRETS = dict(SECRETS, **{"batch file ${VAR}": forms(BATCH_VALUE), "batch defaults": forms(DEFAULTS_VALUE)})

ECHO = {"echo_headers": True, "echo_everywhere": True, "trailing_slash": 301, "openapi_json": "redirect",
        "not_found_status": 404}


def password_url(srv, path="/v1"):
    return "http://%s:%s@127.0.0.1:%d%s" % (URL_USER, urllib.parse.quote(URL_PASSWORD, safe=""), srv.port, path)


def available_formats():
    """The formats this build writes, from its own messages: the -o choice in
    `check --help` and the list in the 'unknown format' error."""
    names = set()
    help_text = run_adrprobe(["check", "--help"], timeout=30).stdout
    m = re.search(r"-o,--output TEXT:\{([a-z0-9,_-]+)\}=PATH", help_text)
    if m:
        names |= set(m.group(1).split(","))
    err = run_adrprobe(["check", "http://127.0.0.1:9/v1", "-o", "no-such-format=x"], timeout=30).stderr
    m = re.search(r"available: ([a-z0-9, _-]+)\)", err)
    if m:
        names |= {n.strip() for n in m.group(1).split(",") if n.strip()}
    return sorted(names)


class Secrets(ProbeCase):
    @classmethod
    def setUpClass(cls):
        cls.formats = available_formats()

    def assertNoSecret(self, outputs, secrets, evidence):
        """No output holds any form of any secret; each shows one of `evidence`."""
        self.assertTrue(outputs)
        for where, text in outputs.items():
            self.assertTrue(any(e in text for e in evidence),
                            "%s shows none of %s: an empty or unrelated output proves nothing\n%s"
                            % (where, evidence, text[:2000]))
            for name, values in secrets.items():
                for value in values:
                    at = text.find(value)
                    if at >= 0:
                        self.fail("%s shows the %s (as %r): ...%s..." % (where, name, value, text[max(0, at - 200):at + 200]))

    def headers_file(self, tmp):
        path = Path(tmp, "headers.txt")
        path.write_text("# the nightly run's key\nX-File-Key: %s\n" % FILE_VALUE, encoding="utf-8")
        return path

    def test_formats_are_listed(self):
        self.assertIn("text", self.formats)
        self.assertIn("json", self.formats)

    def test_check_every_format_log_and_progress_line(self):
        with tempfile.TemporaryDirectory() as tmp, FixtureServer(ECHO) as srv:
            url = password_url(srv)
            common = ["-H", "X-Api-Key: " + H_VALUE, "-H", "Authorization: Bearer ${ADRPROBE_IT_SECRET}",
                      "--header-file", str(self.headers_file(tmp)), "--rate", "0"]
            outputs = {}
            for stdout_format in self.formats:
                files = {f: Path(tmp, "%s-%s.out" % (stdout_format, f)) for f in self.formats}
                args = ["check", url, "-f", stdout_format, "-v"] + common
                for f, path in files.items():
                    args += ["-o", "%s=%s" % (f, path)]
                run = run_adrprobe(args, env=ENV)
                self.assertNoCrash(run)
                outputs["stdout -f %s" % stdout_format] = run.stdout
                outputs["stderr -v (-f %s)" % stdout_format] = run.stderr
                for f, path in files.items():
                    outputs["-o %s (-f %s)" % (f, stdout_format)] = path.read_text(encoding="utf-8", errors="replace")
            # stderr on a terminal: the live progress line
            terminal = harness.run_stderr_on_pty(["check", url, "-f", "text"] + common, env=ENV)
            self.assertNoCrash(terminal)
            outputs["progress line (stderr on a terminal)"] = terminal.stderr
            outputs["stdout beside a terminal"] = terminal.stdout
            requests = srv.requests()
        # the secrets were really sent, and really echoed
        sent = [r["headers"] for r in requests]
        self.assertIn(H_VALUE, {h.get("X-Api-Key") for h in sent})
        self.assertIn(FILE_VALUE, {h.get("X-File-Key") for h in sent})
        self.assertIn("Bearer " + ENV_VALUE, {h.get("Authorization") for h in sent})
        self.assertTrue(any(h.get("Authorization", "").startswith("Basic ") for h in sent), "the URL password was not used")
        self.assertIn("probing:", terminal.stderr)
        report = json.loads(outputs["stdout -f json"])
        echoed = {k for e in report["exchanges"] for k, v in e["response_headers"].items() if k.startswith("x-echo-")}
        self.assertTrue({"x-echo-x-api-key", "x-echo-b64-x-api-key", "x-echo-x-file-key"} <= echoed, echoed)
        self.assertTrue(any("echo=" in e["response_headers"].get("location", "") for e in report["exchanges"]))
        self.assertNoSecret(outputs, SECRETS, ("127.0.0.1:%d" % srv.port, "/v1", "X-Api-Key"))

    def test_batch_every_format_summary_log_and_progress_line(self):
        with tempfile.TemporaryDirectory() as tmp, FixtureServer(ECHO) as a, FixtureServer(ECHO) as b:
            targets = Path(tmp, "targets.yaml")
            targets.write_text(harness.yaml_text({
                "defaults": {"rate": 0, "headers": {"X-Default-Key": DEFAULTS_VALUE}},
                "targets": [
                    {"name": "with-password", "base_url": password_url(a)},
                    {"name": "with-header", "base_url": b.base_url,
                     "headers": {"X-Batch-Key": "${ADRPROBE_IT_BATCH}"}},
                ]}), encoding="utf-8")
            common = ["-H", "X-Api-Key: " + H_VALUE, "-H", "Authorization: Bearer ${ADRPROBE_IT_SECRET}",
                      "--header-file", str(self.headers_file(tmp))]
            outputs = {}
            out = Path(tmp, "out")
            args = ["batch", str(targets), "--out-dir", str(out), "-v"] + common
            for f in self.formats:
                args += ["-o", f]
            run = run_adrprobe(args, env=ENV, timeout=120)
            self.assertNoCrash(run)
            outputs["batch stdout"] = run.stdout
            outputs["batch stderr -v"] = run.stderr
            written = sorted(p for p in out.iterdir() if p.is_file())
            names = {p.name for p in written}
            for summary in ("summary.json", "summary.html", "summary.prom"):
                self.assertIn(summary, names)
            # a file of each format for each target (json is written anyway)
            self.assertGreaterEqual(len([n for n in names if not n.startswith("summary.")]), 2 * len(self.formats))
            for path in written:
                outputs["batch file " + path.name] = path.read_text(encoding="utf-8", errors="replace")
            # the same on a terminal (its live line), and `adrprobe summary` over the directory
            terminal = harness.run_stderr_on_pty(["batch", str(targets), "--out-dir", str(Path(tmp, "tty"))] + common,
                                                 env=ENV, timeout=120)
            self.assertNoCrash(terminal)
            outputs["batch progress line (stderr on a terminal)"] = terminal.stderr
            outputs["batch stdout beside a terminal"] = terminal.stdout
            merged = Path(tmp, "merged")
            summary = run_adrprobe(["summary", str(out), "--out-dir", str(merged)], timeout=30)
            self.assertNoCrash(summary)
            outputs["summary stdout"] = summary.stdout + summary.stderr
            for path in sorted(merged.iterdir()):
                outputs["summary file " + path.name] = path.read_text(encoding="utf-8", errors="replace")
            reports = [p for p in written if p.suffix == ".json" and not p.name.startswith("summary")]
            diff = run_adrprobe(["diff", str(reports[0]), str(reports[0])], timeout=30)
            outputs["diff stdout"] = diff.stdout + diff.stderr
            sent = a.requests() + b.requests()
        headers = [r["headers"] for r in sent]
        self.assertIn(BATCH_VALUE, {h.get("X-Batch-Key") for h in headers})
        self.assertIn(DEFAULTS_VALUE, {h.get("X-Default-Key") for h in headers})
        self.assertIn(H_VALUE, {h.get("X-Api-Key") for h in headers})
        self.assertTrue(any(h.get("Authorization", "").startswith("Basic ") for h in headers))
        self.assertIn("batch:", terminal.stderr)
        self.assertNoSecret(outputs, BATCH_SECRETS, ("127.0.0.1", "with-password", "with-header"))

    def test_lint_with_a_password_in_the_document_url(self):
        # info.version "1.0" fails SV-1: every format has a finding to show (an
        # empty GitLab list would prove nothing), and it names the document URL.
        with tempfile.TemporaryDirectory() as tmp, FixtureServer(dict(ECHO, version="1.0")) as srv:
            url = password_url(srv, "/v1/openapi.json")
            outputs = {}
            for stdout_format in self.formats:
                files = {f: Path(tmp, "%s-%s.out" % (stdout_format, f)) for f in self.formats}
                args = ["lint", url, "-f", stdout_format, "-v"]
                for f, path in files.items():
                    args += ["-o", "%s=%s" % (f, path)]
                run = run_adrprobe(args)
                self.assertNoCrash(run)
                outputs["lint stdout -f %s" % stdout_format] = run.stdout
                outputs["lint stderr -v (-f %s)" % stdout_format] = run.stderr
                for f, path in files.items():
                    outputs["lint -o %s (-f %s)" % (f, stdout_format)] = path.read_text(encoding="utf-8", errors="replace")
            terminal = harness.run_stderr_on_pty(["lint", url, "-f", "text"])
            self.assertNoCrash(terminal)
            outputs["lint stdout beside a terminal"] = terminal.stdout
            if terminal.stderr.strip():
                outputs["lint stderr on a terminal"] = terminal.stderr
            requests = srv.requests()
        self.assertTrue(any(r["headers"].get("Authorization", "").startswith("Basic ") for r in requests))
        self.assertNoSecret(outputs, {"URL password": url_password_forms()},
                            ("127.0.0.1:%d" % srv.port, "openapi.json", "probing:"))


if __name__ == "__main__":
    harness.main()
