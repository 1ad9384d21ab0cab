#!/usr/bin/python3
"""Secrets (probes.md, "What the report shows of server text and secrets"):
header values from -H, --header-file, ${VAR} and a batch file, and the
password of a URL, never appear in any report, log, summary or progress line,
even where the server echoes them back: in response headers, base64-encoded,
in error bodies and percent-encoded in a redirect Location; in a response
header's name ("X-<value>: 1", lower-cased as names are kept); in a path of
the document fetched with them, so in a check's location (a JSON pointer,
'/' as ~1), the URL password as the Basic credential there too; and inside
base64 of a longer text at each alignment ('{"k": "<value>"}'), where only a
decoder finds it.

Every format the binary lists is written (so a new format is covered without
touching this file), by `check` (with -v, and with stderr on a terminal for the
progress line), `batch` (with summary.*) and `lint`; every output is searched
for each secret in each form it can take, and must also show the run's target
(so an empty output cannot pass).

The audit fields (CLI.md): `request_headers` as sent, `response_body` excerpts
and `run.command` are searched like the rest in every format; where a format
shows one (SHOWN: JSON all three, HTML the headers sent and the command line;
text, markdown, JUnit, SARIF, GitLab and OpenMetrics none of them) the test
also finds it there, masked, so a format that stopped showing it, or showed it
from unmasked data, fails here."""

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
NAME_VALUE = "Nm7Kq2Xv9Lp4Tzw8"            # -H X-Name-Key: a value that can be a header name (echo_names)
URL_USER = "auditor"
URL_PASSWORD = "s3cret/pw+U9k3Fd7s"        # in the URL percent-encoded: s3cret%2Fpw%2BU9k3Fd7s

ENV = {"ADRPROBE_IT_SECRET": ENV_VALUE, "ADRPROBE_IT_BATCH": BATCH_VALUE}


def b64(text):
    return base64.b64encode(text.encode()).decode()


def encoded(text):
    """text, percent-encoded (upper and lower case hex)."""
    return {text, urllib.parse.quote(text, safe=""), urllib.parse.quote(text, safe="").lower()}


def b64_parts(value):
    """The part of base64(x + value + ...) that depends on value alone, for x
    of 0, 1 and 2 bytes: what shows of value in any longer encoded text."""
    data = value.encode()
    out = set()
    for k in range(3):
        enc = base64.b64encode(b"\0" * k + data + b"\0\0\0").decode()
        out.add(enc[-(-8 * k // 6):8 * (k + len(data)) // 6])
    return out


def forms(*values):
    """Every form of a secret that must not show: each value as given and
    base64-encoded (without its padding, which a longer text need not end
    with, and the parts of its encodings at each alignment, in both
    alphabets), each of those percent-encoded, escaped in a JSON pointer
    (~0, ~1) and lower-cased (a header name), and the value's distinctive
    tail."""
    out = set()
    for value in values:
        for form in {value, b64(value).rstrip("=")} | b64_parts(value):
            for f in {form, form.replace("+", "-").replace("/", "_")}:
                out |= encoded(f)
    out |= {f.replace("~", "~0").replace("/", "~1") for f in out}
    out |= {f.lower() for f in out}
    out.add(values[0][-8:])
    return out


def base64_holds(text, secret):
    """Whether a run of base64 in text (standard or URL-safe), decoded from
    any of its first four characters, holds secret."""
    data = secret.encode()
    for alphabet in (r"[A-Za-z0-9+/]{8,}", r"[A-Za-z0-9_-]{8,}"):
        for run in re.findall(alphabet, text):
            run = run.replace("-", "+").replace("_", "/")
            for start in range(4):
                chunk = run[start:]
                chunk = chunk[:len(chunk) // 4 * 4]
                if data in base64.b64decode(chunk):
                    return True
    return False


def url_password_forms():
    basic = b64("%s:%s" % (URL_USER, URL_PASSWORD))
    return forms(URL_PASSWORD, "%s:%s" % (URL_USER, URL_PASSWORD), "Basic " + basic)


SECRETS = {
    "-H value": forms(H_VALUE),
    "-H value fit for a header name": forms(NAME_VALUE),
    "--header-file value": forms(FILE_VALUE),
    "${VAR} in -H": forms(ENV_VALUE, "Bearer " + ENV_VALUE),
    "URL password": url_password_forms(),
}
BATCH_SECRETS = dict(SECRETS, **{"batch file ${VAR}": forms(BATCH_VALUE), "batch defaults": forms(DEFAULTS_VALUE)})

# The values themselves, each found by base64_holds in no output.
VALUES = [H_VALUE, NAME_VALUE, FILE_VALUE, ENV_VALUE, URL_PASSWORD, "%s:%s" % (URL_USER, URL_PASSWORD)]
BATCH_VALUES = VALUES + [BATCH_VALUE, DEFAULTS_VALUE]

# The document needs -H (X-Api-Key), so the run fetches it with the user's
# headers, and its paths carry them.
ECHO = {"echo_headers": True, "echo_everywhere": True, "trailing_slash": 301, "openapi_json": "redirect",
        "not_found_status": 404, "echo_names": True, "echo_paths": True, "echo_b64_json": True,
        "doc_needs_header": "X-Api-Key"}


# Where each format shows the audit fields, and how a masked one reads there
# (for the -H value X-Api-Key): the formats not listed show none of them.
SHOWN = {
    "json": {
        "request_headers": lambda text: any(e.get("request_headers", {}).get("X-Api-Key") == "***"
                                            for e in json.loads(text)["exchanges"]),
        "response_body": lambda text: any("you sent: " in e.get("response_body", "") and "***" in e["response_body"]
                                          for e in json.loads(text)["exchanges"]),
        "run.command": lambda text: "-H 'X-Api-Key: ***'" in json.loads(text)["run"]["command"],
    },
    "html": {
        "request_headers": lambda text: "<b>X-Api-Key:</b> ***</span>" in text,
        "run.command": lambda text: "-H &#39;X-Api-Key: ***&#39;" in text,
    },
}


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

    def assertNoSecret(self, outputs, secrets, evidence, values):
        """No output holds any form of any secret, nor base64 that decodes to
        one of `values`; each shows one of `evidence`."""
        self.assertTrue(outputs)
        for where, text in outputs.items():
            self.assertTrue(any(e in text for e in evidence),
                            "%s shows none of %s: an empty or unrelated output proves nothing\n%s"
                            % (where, evidence, text[:2000]))
            for name, forms_of in secrets.items():
                for value in forms_of:
                    at = text.find(value)
                    if at >= 0:
                        self.fail("%s shows the %s (as %r): ...%s..." % (where, name, value, text[max(0, at - 200):at + 200]))
            for value in values:
                self.assertFalse(base64_holds(text, value), "%s holds %r base64-encoded" % (where, value))

    def assertPlanted(self, report, basic=False):
        """The server really echoed the values where this suite plants them,
        and the report shows those places masked (else passing proves nothing)."""
        names = {k for e in report["exchanges"] for k in e["response_headers"]}
        self.assertIn("x-***", names, "no response header name was masked")
        pointers = [loc["pointer"] for r in report["rules"] for c in r["checks"] for loc in c.get("locations", [])]
        echoed = [p for p in pointers if p.startswith("/paths/~1k~1")]
        self.assertTrue(echoed, pointers)
        self.assertTrue(all("***" in p for p in echoed), echoed)
        if basic:
            self.assertTrue(any(p.startswith("/paths/~1k~1Basic ***") for p in echoed), echoed)
        # base64 of '{"k": "<value>"}' at each alignment, in a header and in the document
        b64_headers = [v for e in report["exchanges"] for k, v in e["response_headers"].items()
                       if k.startswith("x-echo-b64-json-")]
        self.assertTrue(b64_headers, "no base64 echoed in a header")
        self.assertTrue(all("***" in v for v in b64_headers), b64_headers)
        b64_paths = [p for p in pointers if p.startswith("/paths/~1b~1")]
        self.assertTrue(b64_paths, pointers)
        self.assertTrue(all("***" in p for p in b64_paths), b64_paths)

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
            # 2.2.0: KC-1 judges the document's paths and records their pointers
            common = ["-H", "X-Api-Key: " + H_VALUE, "-H", "Authorization: Bearer ${ADRPROBE_IT_SECRET}",
                      "-H", "X-Name-Key: " + NAME_VALUE, "--header-file", str(self.headers_file(tmp)), "--rate", "0",
                      "--edition", "2.2.0"]
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
        self.assertPlanted(report)
        # run.command: the command line as given, every -H value and the URL's password masked
        command = report["run"]["command"]
        self.assertIn(" check ", command)
        self.assertIn("-H 'X-Api-Key: ***'", command)
        self.assertIn("-H 'Authorization: ***'", command)
        self.assertIn("--header-file", command)
        self.assertIn("%s:***@127.0.0.1:%d" % (URL_USER, srv.port), command)
        self.assertNoSecret({"run.command": command}, SECRETS, ("127.0.0.1:%d" % srv.port,), VALUES)
        # The request headers as libcurl sent them (the -H ones and the URL's Basic credential
        # among them) and the error bodies that echo them are in the report, masked.
        sent_headers = [e["request_headers"] for e in report["exchanges"] if e.get("status") is not None]
        self.assertTrue(any(h.get("X-Api-Key") == "***" for h in sent_headers), sent_headers[:3])
        self.assertTrue(any(h.get("X-File-Key") == "***" for h in sent_headers), sent_headers[:3])
        self.assertTrue(any(h.get("Authorization") == "***" for h in sent_headers), sent_headers[:3])
        self.assertTrue(any("User-Agent" in h for h in sent_headers), sent_headers[:3])
        bodies = [e["response_body"] for e in report["exchanges"] if "you sent: " in e.get("response_body", "")]
        self.assertTrue(bodies, "no error body echoing the request is in the report")
        self.assertTrue(all("***" in b for b in bodies), bodies[:3])
        # Each audit field, masked, in every output of a format that shows it (stdout and -o alike).
        for f, fields in SHOWN.items():
            self.assertIn(f, self.formats)
            shown_in = {where: text for where, text in outputs.items()
                        if where == "stdout -f %s" % f or where.startswith("-o %s (" % f)}
            self.assertEqual(len(shown_in), len(self.formats) + 1, sorted(shown_in))
            for field, masked in fields.items():
                for where, text in shown_in.items():
                    self.assertTrue(masked(text), "%s does not show %s masked" % (where, field))
        self.assertNoSecret(outputs, SECRETS, ("127.0.0.1:%d" % srv.port, "/v1", "X-Api-Key"), VALUES)

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
                      "-H", "X-Name-Key: " + NAME_VALUE, "--header-file", str(self.headers_file(tmp)),
                      "--edition", "2.2.0"]
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
            reports = {p: json.loads(outputs["batch file " + p.name]) for p in written if p.suffix == ".json"}
            reports = {p: r for p, r in reports.items() if isinstance(r, dict) and r.get("schema") == "adrprobe-report/1"}
            self.assertEqual(len(reports), 2)
            report_file = next(iter(reports))
            diff = run_adrprobe(["diff", str(report_file), str(report_file)], timeout=30)
            outputs["diff stdout"] = diff.stdout + diff.stderr
            sent = a.requests() + b.requests()
        headers = [r["headers"] for r in sent]
        self.assertIn(BATCH_VALUE, {h.get("X-Batch-Key") for h in headers})
        self.assertIn(DEFAULTS_VALUE, {h.get("X-Default-Key") for h in headers})
        self.assertIn(H_VALUE, {h.get("X-Api-Key") for h in headers})
        self.assertTrue(any(h.get("Authorization", "").startswith("Basic ") for h in headers))
        self.assertIn("batch:", terminal.stderr)
        for report in reports.values():
            self.assertPlanted(report)
            self.assertIn("-H 'X-Api-Key: ***'", report["run"]["command"])
        sent_headers = [h for r in reports.values() for e in r["exchanges"] for h in [e.get("request_headers", {})]]
        self.assertTrue(any(h.get("X-Batch-Key") == "***" for h in sent_headers), "no batch-file header shown masked")
        self.assertTrue(any(h.get("X-Default-Key") == "***" for h in sent_headers), "no batch default header shown masked")
        self.assertNoSecret(outputs, BATCH_SECRETS, ("127.0.0.1", "with-password", "with-header"), BATCH_VALUES)

    def test_lint_with_a_password_in_the_document_url(self):
        # info.version "1.0" fails SV-1: every format has a finding to show (an
        # empty GitLab list would prove nothing), and it names the document URL.
        # The document is fetched with the URL's Basic credentials alone: its
        # paths carry them, so a location's pointer does.
        with tempfile.TemporaryDirectory() as tmp, \
                FixtureServer(dict(ECHO, version="1.0", doc_needs_header=None)) as srv:
            url = password_url(srv, "/v1/openapi.json")
            outputs = {}
            for stdout_format in self.formats:
                files = {f: Path(tmp, "%s-%s.out" % (stdout_format, f)) for f in self.formats}
                args = ["lint", url, "-f", stdout_format, "-v", "--edition", "2.2.0"]
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
        pointers = [loc["pointer"] for r in json.loads(outputs["lint stdout -f json"])["rules"] for c in r["checks"]
                    for loc in c.get("locations", [])]
        self.assertIn("/paths/~1k~1Basic ***~1Upper", pointers)
        command = json.loads(outputs["lint stdout -f json"])["run"]["command"]
        self.assertIn("lint 'http://%s:***@127.0.0.1:%d/v1/openapi.json'" % (URL_USER, srv.port), command)
        self.assertIn("%s:***@127.0.0.1:%d" % (URL_USER, srv.port), outputs["lint -o html (-f text)"])
        self.assertNoSecret(outputs, {"URL password": url_password_forms()},
                            ("127.0.0.1:%d" % srv.port, "openapi.json", "probing:"),
                            [URL_PASSWORD, "%s:%s" % (URL_USER, URL_PASSWORD)])


if __name__ == "__main__":
    harness.main()
