"""deploy/: the nightly templates run as deployed, five nights in a row.

The GitLab template's own `script:` lines, the Kubernetes CronJobs' `sh -c`
command strings and the GitHub workflow's `run:` steps are taken from the files
(python3-yaml) and run with the shell the platform uses (dash for GitLab's
`script:` under `sh -e`, as GitLab runs it; busybox sh, the -ci image's shell,
for the Kubernetes pods), with the platform's variables and the real adrprobe
on PATH. What the platform carries between runs is simulated: GitLab's cache
(copied from one night's workspace to the next) and the batch jobs' artifacts
(copied into the summary job's workspace); a temporary directory standing in
for the Kubernetes volume; GitHub's cache and artifacts.

The APIs are fixture servers on 127.0.0.1. Night 1 all answer; night 2 one is
down (its server stopped, its port held without listening), one has moved to a
new base path (same name in the register), one regresses on one rule (its
server's profile changed to one that fails one more rule);
nights 3 and 4 nothing changes (the down one stays down, the regressed one
fails as it did); night 5 the down one is back. Each night's exit statuses,
baseline files, change marks, history, summary.md, JUnit and the links of
summary.html are checked, and since when (CLI.md, "Nightly monitoring"): the
JUnit cases that fail are tonight's changes only (a failure as before is
skipped, "known failure since DATE"), each rule's failing_since and the down
target's down_since carried from night to night (across the down nights too),
summary.html's rows in the order changed, still down, failing, passing, and
summary.md's text as a chat shows it (rendered by cmark-gfm, tags stripped):
URLs and times as written, no backslash, no invisible character. Then the
Pushgateway push line against a local HTTP server, and a register of 200
targets through two shards, its summary.html in headless Chromium. A fifth
target is the built-in reference API, served over HTTPS by `adrprobe demo
--serve` (its CA file in the register), up all five nights.
"""

import html
import http.server
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fixture_server  # noqa: E402
import harness  # noqa: E402
from fixture_server import FixtureServer  # noqa: E402

REPO = harness.REPO
GITLAB = REPO / "deploy" / "gitlab-ci.yml"
CRONJOB = REPO / "deploy" / "kubernetes" / "cronjob.yaml"
GITHUB = REPO / "deploy" / "github-actions.yml"

# Quick runs: the fixtures answer at once; no path needs probing beyond a few.
# --timeout 10: a down target is a refused connection (no wait); the reference API's
# TLS answers took over 3 s on a CI running the sanitizer build beside it.
FAST_ARGS = "--rate 0 --timeout 10 --max-paths 2 --deadline 60"
# well above --deadline: a script runs a batch and more (a sanitizer build, a loaded CI)
SCRIPT_TIMEOUT = 180

NAMES = ["alpha", "beta", "gamma", "delta", "reference"]
OWNERS = {"alpha": "team-a", "beta": "team-b", "gamma": "team-a", "delta": "team-d", "reference": "platform"}
# delta, from night 2 on: answers a trailing slash with a redirect (no-trailing-slash fails)
REGRESSED_RULE = "/core/no-trailing-slash"
# every night, on every http:// fixture (the reference API is https): a long-standing failure
PLAIN_HTTP_RULE = "/core/transport-security"
NIGHTS = 5
DOWN_NIGHTS = (2, 3, 4)   # beta


def busybox():
    return harness.require_tool("busybox", "busybox")


# --------------------------------------------------------------------------
# the APIs
# --------------------------------------------------------------------------

class AdoptedFixture(FixtureServer):
    """A FixtureServer on a socket bound before, not listening (a restart on the
    same port): the port is never free in between for a parallel suite to take."""

    def __init__(self, profile, sock, **kwargs):
        super().__init__(profile, **kwargs)
        self.sock = sock

    def start(self):
        original = fixture_server._HTTPServer
        sock = self.sock

        class Adopted(original):
            def __init__(self, address, handler):
                super().__init__(address, handler, bind_and_activate=False)
                self.socket.close()
                self.socket = sock
                self.server_address = sock.getsockname()
                self.server_activate()

        fixture_server._HTTPServer = Adopted  # start() binds the module's _HTTPServer
        try:
            return super().start()
        finally:
            fixture_server._HTTPServer = original


class DemoServe:
    """`adrprobe demo --serve --port 0`: the reference API over HTTPS until
    SIGTERM; its base URL and CA file are read from the lines it prints."""

    def __init__(self):
        self.proc = subprocess.Popen([harness.binary(), "demo", "--serve", "--port", "0"], stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)
        self.lines = {}
        deadline = time.monotonic() + 30
        while not {"base_url", "ca_file"} <= set(self.lines) and time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            key, _, value = line.partition(": ")
            self.lines[key] = value.strip()
        assert {"base_url", "ca_file"} <= set(self.lines), "demo --serve printed %s" % self.lines
        self.base_url, self.ca_file = self.lines["base_url"], self.lines["ca_file"]

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.proc.stdout.close()


class Apis:
    """alpha and gamma share a server (gamma at /gamma/v1, later /moved/gamma/v1),
    beta and delta each have one of their own (beta stopped and restarted on its
    port, delta's profile changed); reference
    is `adrprobe demo --serve`."""

    def __init__(self):
        self.demo = DemoServe()
        self.shared = FixtureServer({"base": "/alpha/v1"}, max_seconds=600,
                                    mounts=[{"base": "/gamma/v1"}, {"base": "/moved/gamma/v1"}]).start()
        self.beta = FixtureServer({"base": "/beta/v1"}, max_seconds=600).start()
        self.delta = FixtureServer({"base": "/delta/v1"}, max_seconds=600).start()
        self.beta_port, self.delta_port = self.beta.port, self.delta.port
        self.holder = None

    def url(self, name, night):
        if name == "alpha":
            return self.shared.base_url
        if name == "gamma":
            return self.shared.mount("/gamma/v1" if night == 1 else "/moved/gamma/v1").base_url
        if name == "beta":
            return "http://127.0.0.1:%d/beta/v1" % self.beta_port
        if name == "reference":
            return self.demo.base_url
        return "http://127.0.0.1:%d/delta/v1" % self.delta_port

    def register(self, night):
        targets = []
        for name in NAMES:
            t = {"name": name, "base_url": self.url(name, night), "owner": OWNERS[name]}
            if name == "alpha":
                t["labels"] = {"tier": "gold"}
            if name == "reference":
                t["ca_file"] = self.demo.ca_file
            targets.append(t)
        return yaml.safe_dump({"defaults": {"edition": "2.0.0", "rate": 0}, "targets": targets}, sort_keys=False)

    def night(self, night):
        """Sets the servers up for night 1..5: 3 and 4 are as 2."""
        if night == 2:
            self.beta.stop()
            # the port stays bound, not listening: connections are refused, and
            # no other server of a parallel suite takes it
            self.holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            self.holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self.holder.bind(("127.0.0.1", self.beta_port))
            # the same server, from now on with a profile that fails one more rule
            self.delta.fixture.profile["trailing_slash"] = 301
        elif night == 5:
            # the held socket listens again: the port is never free in between
            holder, self.holder = self.holder, None
            self.beta = AdoptedFixture({"base": "/beta/v1"}, holder, max_seconds=600).start()

    def stop(self):
        for srv in (self.shared, self.beta, self.delta, self.demo):
            srv.stop()
        if self.holder:
            self.holder.close()


# --------------------------------------------------------------------------
# shells and files
# --------------------------------------------------------------------------

def tool_bin(directory):
    """A directory for PATH: the adrprobe under test, and busybox's wget (the
    -ci image's) when busybox is installed."""
    directory.mkdir(parents=True, exist_ok=True)
    exe = Path(harness.binary())
    assert os.access(exe, os.X_OK), "adrprobe binary not found at %s" % exe
    link = directory / "adrprobe"
    if not link.exists():
        link.symlink_to(exe)
    bb = shutil.which("busybox")
    if bb and not (directory / "wget").exists():
        (directory / "wget").symlink_to(bb)
    return directory


def run_shell(shell, script, cwd, env, timeout=SCRIPT_TIMEOUT):
    """Runs script with `shell -e -c`; returns the CompletedProcess."""
    full_env = {"HOME": str(cwd), "LC_ALL": "C.UTF-8"}
    full_env.update({k: str(v) for k, v in env.items()})
    try:
        return subprocess.run(shell + ["-e", "-c", script], cwd=cwd, env=full_env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise AssertionError("script did not end in %d s:\n%s\nstdout:\n%s\nstderr:\n%s" % (
            timeout, script, e.stdout, e.stderr))


def copy_tree(src, dst):
    """cp -R src/. dst/ (dst created)."""
    dst.mkdir(parents=True, exist_ok=True)
    if src.is_dir():
        shutil.copytree(src, dst, dirs_exist_ok=True, symlinks=True)


class LinkParser(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        for key, value in attrs:
            if key in ("href", "src") and value is not None:
                self.links.append(value)


def page_links(path):
    p = LinkParser()
    p.feed(path.read_text(encoding="utf-8"))
    return p.links


# --------------------------------------------------------------------------
# what every platform's night must show
# --------------------------------------------------------------------------

class Night:
    """What one night of one platform left: exit statuses and directories."""

    def __init__(self, number, batch_rcs, summary_rc, public, baseline, shard_dirs, log):
        self.number = number
        self.batch_rcs = batch_rcs        # {shard index (0-based): status}
        self.summary_rc = summary_rc
        self.public = public              # the published summary directory
        self.baseline = baseline          # the baseline directory after the night
        self.shard_dirs = shard_dirs      # {shard index: its batch --out-dir}
        self.log = log

    def summary(self):
        return json.loads((self.public / "summary.json").read_text(encoding="utf-8"))


def next_second():
    """Waits until the clock's second changes: reports say when they were made to
    the second, and a summary's history counts a run once by that time, so
    nights a fraction of a second apart would be one run."""
    start = int(time.time())
    while int(time.time()) == start:
        time.sleep(0.02)


def shard_of(name, shards):
    return NAMES.index(name) % shards


def erring_checks(baseline):
    """What each report of the night says of its checks that did not end in a
    verdict, and its notes: why a target that should pass has errors."""
    lines = []
    for path in sorted(baseline.glob("*.json")) if baseline.is_dir() else []:
        try:
            report = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            continue
        for rule in report.get("rules", []):
            for check in rule.get("checks", []):
                if check.get("verdict") == "error":
                    lines.append("%s %s: %s" % (path.stem, check.get("id"), check.get("message")))
        lines += ["%s note: %s" % (path.stem, note) for note in report.get("notes", [])]
    return "\n".join(lines)


class NightlyChecks:
    """Assertions shared by the GitLab, Kubernetes and GitHub runs."""

    shards = 2
    junit = True      # the batch writes JUnit (-o junit) for the platform's test view

    def expected_batch_rcs(self, night):
        # night 2: the shard with beta (newly down) and delta (regressed) is 1
        worse = {shard_of("beta", self.shards), shard_of("delta", self.shards)} if night == 2 else set()
        return {k: (1 if k in worse else 0) for k in range(self.shards)}

    def check_night(self, n, history):
        ctx = "night %d\n%s%s" % (n.number, n.log, erring_checks(n.baseline))
        self.assertEqual(n.batch_rcs, self.expected_batch_rcs(n.number), ctx)
        self.assertEqual(n.summary_rc, 1 if n.number == 2 else 0, ctx)

        # the baseline: one report per target name, and no shard's summary
        self.assertEqual(sorted(p.name for p in n.baseline.iterdir()), sorted(x + ".json" for x in NAMES), ctx)
        reports = {}
        for name in NAMES:
            report = json.loads((n.baseline / (name + ".json")).read_text(encoding="utf-8"))
            self.assertEqual(report.get("schema"), "adrprobe-report/1", "%s: not a target's report" % name)
            reports[name] = report

        s = n.summary()
        rows = {t["name"]: t for t in s["targets"]}
        self.assertEqual(sorted(rows), sorted(NAMES), ctx)
        self.assertTrue(s["complete"], ctx)
        for name, row in rows.items():
            self.assertEqual(row["owner"], OWNERS[name])
        self.assertEqual(rows["alpha"]["labels"], {"tier": "gold"})
        # the reference API of demo --serve, over HTTPS with its CA: up and conformant every night
        self.assertEqual(rows["reference"]["state"], "up", ctx)
        self.assertEqual(rows["reference"]["failing"], [], json.dumps(rows["reference"], indent=1))
        self.assertTrue(rows["reference"]["base_url"].startswith("https://127.0.0.1:"))

        # history: one more run each night, for every target (gamma too, after its move)
        for name in NAMES:
            self.assertEqual(len(s["history"].get(name, [])), n.number,
                             "%s: history %s\n%s" % (name, s["history"].get(name), ctx))
        history.append(s)
        self.nights_reports.append(reports)

        md = (n.public / "summary.md").read_text(encoding="utf-8")
        if n.number == 1:
            for name in NAMES:
                self.assertIsNone(rows[name]["change"], "night 1 has no baseline: " + name)
                self.assertEqual(rows[name]["state"], "up", name)
        elif n.number == 2:
            beta, delta, gamma, alpha = rows["beta"], rows["delta"], rows["gamma"], rows["alpha"]
            self.assertEqual(beta["state"], "down")
            self.assertIsNone(beta["score"])
            self.assertIs(beta["change"]["down"], True)
            self.assertIs(beta["change"]["back_up"], False)
            for mark in ("new-fail", "regressed", "fixed"):
                self.assertEqual(beta["change"][mark], [], "a down target has no per-rule marks: " + mark)
            self.assertIn(REGRESSED_RULE, delta["change"]["new-fail"] + delta["change"]["regressed"],
                          json.dumps(delta, indent=1))
            self.assertIs(delta["change"]["down"], False)
            self.assertEqual(gamma["moved_from"], self.apis.url("gamma", 1))
            self.assertEqual(gamma["base_url"], self.apis.url("gamma", 2))
            self.assertEqual(gamma["state"], "up")
            for row in (alpha, gamma):
                self.assertEqual(row["change"]["new-fail"] + row["change"]["regressed"], [], json.dumps(row))
                self.assertIs(row["change"]["down"], False)
            # the down target's JUnit (where the platform shows it): one test case, not one per rule
            junit = None if not self.junit else ET.parse(n.shard_dirs[shard_of("beta", self.shards)] / "beta.xml").getroot()
            if junit is not None:
                cases = junit.findall(".//testcase")
                self.assertEqual(len(cases), 1, ET.tostring(junit, encoding="unicode"))
                self.assertEqual(cases[0].get("name"), "down")
            # its baseline keeps the last up night's verdicts
            self.assertEqual(reports["beta"]["state"], "down")
            self.assertTrue(reports["beta"].get("last_up"), "a down report carries last_up")
            for word in ("beta", "delta", "gamma", "down", "moved"):
                self.assertIn(word, md, md)
            self.assertIn(REGRESSED_RULE, md, md)
        elif n.number in DOWN_NIGHTS:
            # nothing changed: beta still down, delta failing as the night before
            beta, delta = rows["beta"], rows["delta"]
            self.assertEqual(beta["state"], "down")
            self.assertEqual((beta["change"]["down"], beta["change"]["back_up"]), (False, False), json.dumps(beta))
            self.assertIn(REGRESSED_RULE, delta["failing"])
            for name in NAMES:
                c = rows[name]["change"]
                self.assertEqual(c["new-fail"] + c["regressed"] + c["fixed"], [], "%s: %s" % (name, c))
            self.assertNotIn("moved_from", rows["gamma"])
        else:
            beta = rows["beta"]
            self.assertEqual(beta["state"], "up")
            self.assertIs(beta["change"]["back_up"], True, json.dumps(beta))
            self.assertIs(beta["change"]["down"], False)
            self.assertEqual(beta["change"]["new-fail"] + beta["change"]["regressed"], [])
            self.assertNotIn("moved_from", rows["gamma"])
            self.assertIn("back up", md, md)
            self.assertIn("beta", md, md)
            self.assertEqual([p["state"] for p in s["history"]["beta"]], ["up", "down", "down", "down", "up"])

        self.check_since(n, s, reports)
        self.check_junit(n, reports)
        self.check_rows(n, s)
        self.check_digest(n, s, md)

        # every link of summary.html resolves to a file inside the published directory
        links = page_links(n.public / "summary.html")
        self.assertTrue(any(link.endswith(".json") for link in links), links)
        root = n.public.resolve()
        for link in links:
            parts = urlsplit(link)
            if link.startswith("#") or parts.scheme in ("http", "https", "mailto", "data"):
                continue
            self.assertFalse(parts.scheme or parts.netloc, "%s: a link outside the page's directory" % link)
            target = (n.public / unquote(parts.path)).resolve()
            self.assertTrue(target.is_file() and root in target.parents,
                            "summary.html links %s, which is not a file inside %s" % (link, n.public))

    # ---- since when -------------------------------------------------------

    def report_time(self, name, night):
        """generated_at of `name`'s report of night `night` (1-based)."""
        return self.nights_reports[night - 1][name]["generated_at"]

    def expected_since(self, name, night):
        """{rule id: failing_since} of `name`'s report on `night`: each streak from its first night."""
        if name == "reference":
            return {}
        # transport-security fails on every http:// night from night 1, down or up (TS-1
        # needs no answer to fail an http:// URL): beta's streak goes on across its down
        # nights, gamma's across its move
        since = {PLAIN_HTTP_RULE: self.report_time(name, 1)}
        if name == "delta" and night >= 2:
            since[REGRESSED_RULE] = self.report_time("delta", 2)
        return since

    def check_since(self, n, s, reports):
        rows = {t["name"]: t for t in s["targets"]}
        for name in NAMES:
            ctx = "night %d, %s: %s" % (n.number, name, json.dumps(rows[name], indent=1))
            expected = self.expected_since(name, n.number)
            # every rule of the report carries failing_since, null when it does not fail
            in_report = {r["id"]: r["failing_since"] for r in reports[name]["rules"] if r["failing_since"] is not None}
            self.assertEqual(in_report, expected, ctx)
            down = name == "beta" and n.number in DOWN_NIGHTS
            # a down row lists no rules (CLI.md: one entry), so no dates of rules either
            self.assertEqual(rows[name]["failing_since"], {} if down else expected, ctx)
            # down since the first report of the outage, night 2's, carried by each down report
            expected_down = self.report_time("beta", 2) if down else None
            self.assertEqual(rows[name]["down_since"], expected_down, ctx)
            self.assertEqual(reports[name].get("down_since"), expected_down, ctx)
        if n.number in DOWN_NIGHTS:
            # the down report carries the up night's dates for the night it answers again
            last_up = {r["id"]: r.get("failing_since") for r in reports["beta"]["last_up"]["rules"]}
            self.assertEqual(last_up[PLAIN_HTTP_RULE], self.report_time("beta", 1))

    def check_junit(self, n, reports):
        """--fail-on regressed: only tonight's changes fail; a failure as before is
        skipped, "known failure since DATE"; each case says its change and date."""
        if not self.junit:
            return
        failed, skipped = {}, {}
        for name in NAMES:
            suite = ET.parse(n.shard_dirs[shard_of(name, self.shards)] / (name + ".xml")).getroot().find("testsuite")
            for case in suite.findall("testcase"):
                rule = case.get("name").split(" ", 1)[0]
                props = {p.get("name"): p.get("value") for p in case.findall("properties/property")}
                for kind in ("failure", "error"):
                    if case.find(kind) is not None:
                        failed[(name, rule)] = (case.find(kind).get("message"), props)
                if case.find("skipped") is not None and rule != "down" and props.get("failing_since"):
                    skipped[(name, rule)] = (case.find("skipped").get("message"), props)
                if rule == "down" and case.find("skipped") is not None:
                    skipped[(name, rule)] = (case.find("skipped").get("message"), props)
        ctx = "night %d: failed %s\nskipped %s" % (n.number, failed, skipped)
        if n.number == 2:
            # delta's new failure and beta's going down: nothing else
            self.assertEqual(sorted(failed), [("beta", "down"), ("delta", REGRESSED_RULE)], ctx)
            message, props = failed[("delta", REGRESSED_RULE)]
            self.assertTrue(message.startswith("new-fail: "), message)
            self.assertEqual(props, {"change": "new-fail", "failing_since": self.report_time("delta", 2)})
            message, props = failed[("beta", "down")]
            self.assertIn("(down since %s)" % self.report_time("beta", 2), message)
            self.assertEqual(props["change"], "down")
        else:
            self.assertEqual(failed, {}, ctx)
        # the failures as before, each since its first night (a down target's are its one down case)
        expected = set()
        for name in NAMES:
            if name == "beta" and n.number in DOWN_NIGHTS:
                continue
            for rule, since in self.expected_since(name, n.number).items():
                if (name, rule) in failed:
                    continue
                expected.add((name, rule))
                message, props = skipped[(name, rule)]
                lead = "known failure since %s: " if n.number > 1 else "failing since %s, no baseline to compare with: "
                self.assertTrue(message.startswith(lead % since), message)
                self.assertEqual(props["failing_since"], since)
        if n.number in DOWN_NIGHTS[1:]:
            expected.add(("beta", "down"))
            message, props = skipped[("beta", "down")]
            self.assertTrue(message.startswith("known failure since %s: down: " % self.report_time("beta", 2)), message)
            self.assertEqual(props, {"change": "unchanged", "down_since": self.report_time("beta", 2)})
        self.assertEqual(set(skipped), expected, ctx)

    def check_rows(self, n, s):
        """summary.html: changed rows first, then still down, failing, passing (by name within each)."""
        def rank(t):
            c = t["change"] or {}
            if c.get("down"):
                return 0
            if c.get("new-fail"):
                return 1
            if c.get("regressed"):
                return 2
            if c.get("fixed") or c.get("back_up"):
                return 3
            if t["state"] == "down":
                return 4
            return 5 if t["failing"] else 6 if t["erroring"] else 7
        page = (n.public / "summary.html").read_text(encoding="utf-8")
        table = page[page.index('<table class="targets">'):]
        table = table[:table.index("</table>")]
        order = re.findall(r'<tr[^>]*><td><b class="name">([^<]*)</b>', table)
        expected = [t["name"] for t in sorted(s["targets"], key=lambda t: (rank(t), t["name"]))]
        self.assertEqual(order, expected, "night %d" % n.number)
        first = {1: "alpha", 2: "beta", 3: "beta", 4: "beta", 5: "beta"}[n.number]
        self.assertEqual(order[0], first)
        self.assertEqual(order[-1], "reference")   # the one passing
        tonight = page[page.index('<section class="tonight"'):]
        tonight = " ".join(re.sub(r"<[^>]+>", " ", tonight[:tonight.index("</section>")]).split())
        self.assertIn("%d still down" % (1 if n.number in DOWN_NIGHTS[1:] else 0), tonight)
        self.assertIn("%d moved" % (1 if n.number == 2 else 0), tonight)
        if n.number in DOWN_NIGHTS[1:]:
            row = table[table.index('<b class="name">beta</b>'):]
            self.assertIn("down since", row[:row.index("</tr>")])
            self.assertIn("still down", row[:row.index("</tr>")])

    def check_digest(self, n, s, md):
        """summary.md as a chat shows it: rendered by cmark-gfm (GitHub's), tags
        stripped, entities read; the same text pasted where Markdown is not read."""
        cmark = harness.require_tool("cmark-gfm", "cmark-gfm")
        page = subprocess.run([cmark, "-e", "autolink", "-t", "html"], input=md, capture_output=True, text=True,
                              timeout=30, check=True).stdout
        self.assertNotIn("<a ", page, "no link in the digest")
        text = html.unescape(re.sub(r"<[^>]+>", "", page))
        ctx = "night %d\n%s" % (n.number, md)
        for shown in (md, text):
            self.assertNotIn("\\", shown, ctx)
            self.assertNotIn("\u2060", shown, ctx)
        if s.get("previous_generated_at"):
            self.assertIn("Since the previous run of %s." % s["previous_generated_at"], text, ctx)
        rows = {t["name"]: t for t in s["targets"]}
        if n.number == 2:
            self.assertIn("moved from %s to %s" % (self.apis.url("gamma", 1), self.apis.url("gamma", 2)), text, ctx)
            self.assertIn("beta: down since %s (1 night): %s" % (rows["beta"]["down_since"], rows["beta"]["note"]), text, ctx)
        if n.number in DOWN_NIGHTS[1:]:
            # still down, with its owner, since when and for how many nights; the regression
            # of night 2 still listed as failing, not gone from the digest
            self.assertIn("beta: still down since %s (%d nights): %s" % (
                self.report_time("beta", 2), n.number - 1, rows["beta"]["note"]), text, ctx)
            self.assertIn("failing since %s (%d nights): %s" % (
                self.report_time("delta", 2), n.number - 1, REGRESSED_RULE), text, ctx)
            self.assertLess(md.index("#### %s" % OWNERS["delta"]), md.index(REGRESSED_RULE), ctx)
        if n.number > 1:
            # alpha's failure since night 1, every night after
            self.assertIn("failing since %s (%d nights): %s" % (self.report_time("alpha", 1), n.number, PLAIN_HTTP_RULE),
                          text, ctx)

    def five_nights(self, run_night):
        self.apis = Apis()
        self.nights_reports = []
        history = []
        try:
            for number in range(1, NIGHTS + 1):
                if number > 1:
                    next_second()
                self.apis.night(number)
                night = run_night(number, self.apis.register(number))
                self.check_night(night, history)
        finally:
            self.apis.stop()


# --------------------------------------------------------------------------
# GitLab CI
# --------------------------------------------------------------------------

GITLAB_GLOBAL_KEYS = {"variables", "stages", "default", "include", "workflow", "image", "services",
                      "cache", "before_script", "after_script", "spec"}


def gitlab_script(job):
    """before_script and script joined, as GitLab runs them in one shell."""
    return "\n".join(job.get("before_script", []) + job["script"])


class GitLabNights(NightlyChecks, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.doc = yaml.safe_load(GITLAB.read_text())
        cls.batch = cls.doc["adrprobe:batch"]
        cls.summary_job = cls.doc["adrprobe:summary"]
        cls.tmp = Path(tempfile.mkdtemp(prefix="adrprobe-nightly-gitlab-"))
        cls.bin = tool_bin(cls.tmp / "bin")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def env(self, workspace, **more):
        env = {k: str(v) for k, v in self.doc["variables"].items()}
        env.update({"PATH": "%s:/usr/bin:/bin" % self.bin, "CI": "true", "GITLAB_CI": "true",
                    "CI_PROJECT_DIR": str(workspace), "CI_BUILDS_DIR": str(workspace.parent),
                    "CI_PIPELINE_SOURCE": "schedule", "CI_DEFAULT_BRANCH": "main",
                    "CI_COMMIT_REF_NAME": "main", "CI_REGISTRY_IMAGE": "registry.example.nl/apis",
                    "ADRPROBE_TARGETS": "apis.yaml", "ADRPROBE_BATCH_ARGS": FAST_ARGS})
        env.update({k: str(v) for k, v in more.items()})
        return env

    def cache_paths(self, job):
        cache = job["cache"]
        self.assertEqual(cache["key"], "$ADRPROBE_CACHE_KEY")
        return cache["paths"]

    def restore_cache(self, job, store, workspace):
        for p in self.cache_paths(job):
            copy_tree(store / p, workspace / p)

    def save_cache(self, job, store, workspace):
        for p in self.cache_paths(job):
            if (store / p).exists():
                shutil.rmtree(store / p)
            copy_tree(workspace / p, store / p)

    def test_five_nights(self):
        self.assertEqual(self.batch["cache"]["policy"], "pull")
        self.assertEqual(self.summary_job["cache"]["policy"], "pull-push")
        self.assertEqual(self.summary_job["cache"]["when"], "always")
        self.shards = self.batch["parallel"]
        store = self.tmp / "runner-cache"  # what GitLab keeps under the cache key
        store.mkdir()

        def run_night(number, register):
            night = self.tmp / ("night%d" % number)
            log, rcs, shard_dirs = [], {}, {}
            summary_ws = night / "adrprobe-summary"
            summary_ws.mkdir(parents=True)
            for index in range(1, self.shards + 1):
                ws = night / ("adrprobe-batch-%d" % index)
                ws.mkdir()
                (ws / "apis.yaml").write_text(register)
                self.restore_cache(self.batch, store, ws)       # policy: pull
                proc = run_shell(["/bin/sh"], gitlab_script(self.batch), ws,
                                 self.env(ws, CI_NODE_INDEX=index, CI_NODE_TOTAL=self.shards,
                                          CI_JOB_NAME="adrprobe:batch %d/%d" % (index, self.shards)))
                log.append("batch %d: %d\n%s%s" % (index, proc.returncode, proc.stdout, proc.stderr))
                rcs[index - 1] = proc.returncode
                # artifacts (when: always): out/ into the summary job's workspace
                for p in self.batch["artifacts"]["paths"]:
                    copy_tree(ws / p, summary_ws / p)
                shard_dirs[index - 1] = summary_ws / "out" / str(index)
            (summary_ws / "apis.yaml").write_text(register)
            self.restore_cache(self.summary_job, store, summary_ws)
            proc = run_shell(["/bin/sh"], gitlab_script(self.summary_job), summary_ws,
                             self.env(summary_ws, CI_JOB_NAME="adrprobe:summary"))
            log.append("summary: %d\n%s%s" % (proc.returncode, proc.stdout, proc.stderr))
            self.save_cache(self.summary_job, store, summary_ws)  # pull-push, when: always
            public = summary_ws / "public"
            self.assertIn("public/", self.summary_job["artifacts"]["paths"])
            # the JUnit artifacts GitLab reads: one file per target
            junit = sorted(p.name for p in (summary_ws / "out").glob("*/*.xml"))
            self.assertEqual(junit, sorted(x + ".xml" for x in NAMES), "\n".join(log))
            return Night(number, rcs, proc.returncode, public,
                         store / self.doc["variables"]["ADRPROBE_BASELINE_DIR"], shard_dirs, "\n".join(log))

        self.five_nights(run_night)


# --------------------------------------------------------------------------
# Kubernetes
# --------------------------------------------------------------------------

def k8s_expand(text, env):
    """Kubernetes' own expansion of a container's command and args: $(NAME) of a
    variable the container defines becomes its value, $$ becomes $; anything
    else (a shell's $(cmd), $((n+1))) stays as it is."""
    def one(m):
        if m.group(0) == "$$":
            return "$"
        return env[m.group(1)] if m.group(1) in env else m.group(0)
    return re.sub(r"\$\$|\$\(([^)]*)\)", one, text)


def container_script(cronjob):
    c = cronjob["spec"]["jobTemplate"]["spec"]["template"]["spec"]["containers"][0]
    assert c["command"][:2] == ["/bin/sh", "-c"] and len(c["command"]) == 3, c["command"]
    return c, c["command"][2]


class KubernetesNights(NightlyChecks, unittest.TestCase):
    junit = False     # no test view to feed
    @classmethod
    def setUpClass(cls):
        cls.docs = [d for d in yaml.safe_load_all(CRONJOB.read_text()) if d]
        cronjobs = {d["metadata"]["name"]: d for d in cls.docs if d["kind"] == "CronJob"}
        cls.batch_cj, cls.summary_cj = cronjobs["adrprobe-batch"], cronjobs["adrprobe-summary"]
        cls.tmp = Path(tempfile.mkdtemp(prefix="adrprobe-nightly-k8s-"))
        cls.bin = tool_bin(cls.tmp / "bin")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def pod_env(self, container, volumes_root, **more):
        """The container's env with each path under a volume's mountPath moved
        to the stand-in directory, and PATH with adrprobe."""
        mounts = [m["mountPath"] for m in container["volumeMounts"]]
        env = {}
        for e in container.get("env", []):
            if "value" not in e:
                continue
            value = e["value"]
            for m in mounts:
                if value == m or value.startswith(m + "/"):
                    value = str(volumes_root) + value
                    break
            env[e["name"]] = value
        env.update({"PATH": "%s:/usr/bin:/bin" % self.bin})
        env.update({k: str(v) for k, v in more.items()})
        return env

    def run_pod(self, cronjob, root, **more):
        container, script = container_script(cronjob)
        env = self.pod_env(container, root, **more)
        return run_shell([busybox(), "sh"], k8s_expand(script, env), root, env)

    def test_five_nights(self):
        import datetime
        job = self.batch_cj["spec"]["jobTemplate"]["spec"]
        self.shards = job["completions"]
        root = self.tmp / "volumes"      # /data, /config and /tmp of the pods
        for d in ("data", "config", "tmp"):
            (root / d).mkdir(parents=True)
        today = datetime.datetime.now(datetime.timezone.utc).date()
        run_names = {}

        def run_night(number, register):
            (root / "config" / "targets.yaml").write_text(register)
            log, rcs = [], {}
            # night 1 in the directory of the pods' own `date` (the CronJob's default),
            # then the next days' after it, as ADRPROBE_RUN (busybox's sh runs its own date)
            more = {}
            if number > 1:
                first = datetime.date.fromisoformat(run_names[1])
                run_names[number] = str(first + datetime.timedelta(days=number - 1))
                more = {"ADRPROBE_RUN": run_names[number]}
            for index in range(self.shards):
                proc = self.run_pod(self.batch_cj, root, JOB_COMPLETION_INDEX=index,
                                    ADRPROBE_BATCH_ARGS=FAST_ARGS, **more)
                log.append("batch %d: %d\n%s%s" % (index, proc.returncode, proc.stdout, proc.stderr))
                rcs[index] = proc.returncode
            if number == 1:
                # today's date by the pods' clock: a UTC midnight since `today` was read makes it tomorrow's
                made = sorted(p.name for p in (root / "data" / "runs").iterdir())
                self.assertEqual(len(made), 1, "\n".join(log))
                self.assertIn(made[0], (str(today), str(today + datetime.timedelta(days=1))), "\n".join(log))
                run_names[1] = made[0]
            # the summary CronJob finds the newest run itself
            proc = self.run_pod(self.summary_cj, root, ADRPROBE_KEEP_RUNS=2)
            log.append("summary: %d\n%s%s" % (proc.returncode, proc.stdout, proc.stderr))
            run = root / "data" / "runs" / run_names[number]
            self.assertTrue((run / "summary" / "summary.json").is_file(), "\n".join(log))
            self.assertEqual((run / "summary" / "summary.json").read_bytes(),
                             (root / "data" / "latest" / "summary.json").read_bytes(), "latest/ is tonight's")
            # a second summary of the same night changes nothing and says why
            again = self.run_pod(self.summary_cj, root)
            self.assertEqual(again.returncode, 3, again.stdout + again.stderr)
            self.assertIn("has its summary already", again.stdout)
            # ADRPROBE_KEEP_RUNS=2: the oldest run directory goes on night 3
            self.assertEqual(sorted(p.name for p in (root / "data" / "runs").iterdir()),
                             [run_names[k] for k in sorted(run_names)][-2:])
            self.assertEqual(sorted(p.name for p in (root / "data").iterdir()), ["baseline", "latest", "runs"])
            return Night(number, rcs, proc.returncode, root / "data" / "latest", root / "data" / "baseline",
                         {k: run / "out" / str(k) for k in range(self.shards)}, "\n".join(log))

        self.five_nights(run_night)

    def test_kubernetes_expansion_leaves_the_shell_alone(self):
        env = {"JOB_COMPLETION_INDEX": "1"}
        self.assertEqual(k8s_expand("$(JOB_COMPLETION_INDEX)/$$(X) $(date -u +%F) $((n+1)) $X", env),
                         "1/$(X) $(date -u +%F) $((n+1)) $X")
        for cj in (self.batch_cj, self.summary_cj):
            container, script = container_script(cj)
            env = {e["name"]: "VALUE" for e in container["env"]}
            self.assertEqual(k8s_expand(script, env), script,
                             "the script is the shell's: Kubernetes must not change it")


# --------------------------------------------------------------------------
# GitHub Actions
# --------------------------------------------------------------------------

EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


class ActionsRunner:
    """Just enough of GitHub Actions to run the workflow's jobs here: ${{ }}
    expressions from a context, `run:` steps under the workflow's default shell
    (sh -e, dash), and stand-ins for the actions it uses (checkout, cache
    restore/save, upload/download-artifact). The cache and the artifact store
    are directories; the install step (apt-get) is left out: adrprobe is on PATH."""

    def __init__(self, test, workflow, root, bin_dir, checkout_files):
        self.t, self.wf, self.root, self.bin = test, workflow, root, bin_dir
        self.checkout_files = checkout_files
        self.caches = {}          # key -> directory, in the order saved
        self.artifacts = {}       # name -> directory
        self.run_id = 1000
        self.sarif_uploads = []

    def expand(self, text, ctx):
        def one(m):
            expr = m.group(1)
            if expr not in ctx:
                raise AssertionError("the workflow uses ${{ %s }}, which this test does not know" % expr)
            return str(ctx[expr])
        return EXPRESSION.sub(one, str(text))

    def run_job(self, name, matrix=None, variables=None):
        """Runs job `name` in a fresh workspace; returns (status, workspace, log)."""
        job = self.wf["jobs"][name]
        ws = self.root / ("run%d-%s%s" % (self.run_id, name, "" if matrix is None else "-%s" % matrix))
        ws.mkdir(parents=True)
        ctx = {"github.run_id": self.run_id, "github.run_attempt": 1}
        ctx.update({"vars." + k: v for k, v in (variables or {}).items()})
        for k in ("ADRPROBE_DEB_URL", "ADRPROBE_PUSHGATEWAY", "ADRPROBE_DON_REGISTER", "ADRPROBE_DON_OAUTH2_TOKEN_URL",
                  "ADRPROBE_DON_OAUTH2_CLIENT_ID"):
            ctx.setdefault("vars." + k, "")
        ctx.setdefault("secrets.ADRPROBE_DON_OAUTH2_CLIENT_SECRET", "")
        if matrix is not None:
            shards = job["strategy"]["matrix"]["shard"]
            ctx.update({"matrix.shard": matrix, "strategy.job-total": len(shards)})
        env = {"PATH": "%s:/usr/bin:/bin" % self.bin, "GITHUB_WORKSPACE": str(ws), "CI": "true",
               "GITHUB_OUTPUT": str(ws.parent / (ws.name + ".output"))}
        for scope in (self.wf.get("env", {}), job.get("env", {})):
            env.update({k: self.expand(v, ctx) for k, v in scope.items()})
        shell = self.wf["defaults"]["run"]["shell"]
        self.t.assertEqual(shell, "sh -e {0}")
        failed, status, log = False, 0, []
        outcomes = {}
        for step in job["steps"]:
            cond = step.get("if", "")
            if failed and "always()" not in cond:
                outcomes[step.get("id")] = "skipped"
                continue
            if "steps.summary.conclusion != 'skipped'" in cond and outcomes.get("summary") == "skipped":
                continue
            if step.get("id") == "install":
                continue
            if "run" in step:
                self.t.assertNotIn("${{", step["run"], "no expression inside a script (injection): env")
                step_env = dict(env)
                step_env.update({k: self.expand(v, ctx) for k, v in step.get("env", {}).items()})
                proc = run_shell(["/bin/sh"], step["run"], ws, step_env)
                log.append("%s: %d\n%s%s" % (step.get("name"), proc.returncode, proc.stdout, proc.stderr))
                outcomes[step.get("id")] = "success" if proc.returncode == 0 else "failure"
                if proc.returncode != 0:
                    failed, status = True, proc.returncode
                continue
            self.uses(step, ctx, ws)
        return status, ws, "\n".join(log)

    def uses(self, step, ctx, ws):
        action, with_ = step["uses"].split("@")[0], {k: self.expand(v, ctx) for k, v in step.get("with", {}).items()}
        if action == "actions/checkout":
            for rel, text in self.checkout_files.items():
                (ws / rel).write_text(text)
        elif action == "actions/cache/restore":
            key, prefixes = with_["key"], with_.get("restore-keys", "").split()
            hit = self.caches.get(key)
            if hit is None:
                for prefix in prefixes:   # the newest entry whose key starts with the prefix
                    matches = [k for k in self.caches if k.startswith(prefix)]
                    if matches:
                        hit = self.caches[matches[-1]]
                        break
            if hit is not None:
                copy_tree(hit / with_["path"], ws / with_["path"])
        elif action == "actions/cache/save":
            key = with_["key"]
            self.t.assertNotIn(key, self.caches, "a GitHub cache entry is immutable: a new key each run")
            entry = self.root / "cache" / key
            copy_tree(ws / with_["path"], entry / with_["path"])
            self.caches[key] = entry
        elif action == "actions/upload-artifact":
            name = with_["name"]
            self.t.assertNotIn(name, self.artifacts)
            copy_tree(ws / with_["path"], self.root / "artifacts" / str(self.run_id) / name)
            self.artifacts[name] = self.root / "artifacts" / str(self.run_id) / name
        elif action == "actions/download-artifact":
            import fnmatch
            self.t.assertEqual(with_.get("merge-multiple"), "True")
            for name, d in self.artifacts.items():
                if fnmatch.fnmatch(name, with_["pattern"]):
                    copy_tree(d, ws / with_["path"])
        elif action == "github/codeql-action/upload-sarif":
            sarif = ws / with_["sarif_file"]
            self.t.assertTrue(sarif.is_file(), "upload-sarif: %s was not written" % sarif)
            self.sarif_uploads.append(sarif)
        else:
            raise AssertionError("the workflow uses %s, which this test does not stand in for" % action)

    def night(self):
        self.run_id += 1
        self.artifacts = {}


class GitHubNights(NightlyChecks, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.wf = yaml.safe_load(GITHUB.read_text())
        cls.tmp = Path(tempfile.mkdtemp(prefix="adrprobe-nightly-github-"))
        cls.bin = tool_bin(cls.tmp / "bin")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_triggers_and_jobs(self):
        on = self.wf[True] if True in self.wf else self.wf["on"]   # YAML 1.1 reads `on` as true
        self.assertIn("schedule", on)
        self.assertIn("workflow_dispatch", on)
        self.assertEqual(set(self.wf["jobs"]), {"batch", "summary", "lint"})
        summary = self.wf["jobs"]["summary"]
        self.assertEqual(summary["needs"], "batch")
        self.assertEqual(summary["if"], "always()")
        self.assertIs(self.wf["jobs"]["batch"]["strategy"]["fail-fast"], False)
        uses = [s["uses"] for s in summary["steps"] if "uses" in s]
        self.assertTrue(any(u.startswith("actions/cache/restore@") for u in uses), uses)
        self.assertTrue(any(u.startswith("actions/cache/save@") for u in uses), uses)
        self.assertTrue(any(u.startswith("actions/upload-artifact@") for u in uses), uses)
        lint = self.wf["jobs"]["lint"]
        self.assertEqual(lint["permissions"]["security-events"], "write")
        self.assertTrue(any(s.get("uses", "").startswith("github/codeql-action/upload-sarif@") for s in lint["steps"]))

    def test_five_nights(self):
        self.shards = len(self.wf["jobs"]["batch"]["strategy"]["matrix"]["shard"])
        runner = ActionsRunner(self, self.wf, self.tmp / "runner", self.bin, {})

        def run_night(number, register):
            runner.night()
            runner.checkout_files = {self.wf["env"]["ADRPROBE_TARGETS"]: register}
            rcs, log = {}, []
            for shard in self.wf["jobs"]["batch"]["strategy"]["matrix"]["shard"]:
                status, ws, text = runner.run_job("batch", matrix=shard, variables={})
                rcs[shard] = status
                log.append(text)
                # the JUnit of each target, in the shard's artifact
                self.assertTrue((ws / "out" / str(shard)).is_dir(), text)
            status, ws, text = runner.run_job("summary")
            log.append(text)
            latest = list(runner.caches.values())[-1]
            junit = sorted(p.name for p in (ws / "out").glob("*/*.xml"))
            self.assertEqual(junit, sorted(x + ".xml" for x in NAMES), "\n".join(log))
            self.assertIn("adrprobe-summary", runner.artifacts)
            return Night(number, rcs, status, runner.artifacts["adrprobe-summary"],
                         latest / self.wf["env"]["ADRPROBE_BASELINE_DIR"],
                         {k: ws / "out" / str(k) for k in rcs}, "\n".join(log))

        # FAST_ARGS through the workflow's own variable
        self.wf["env"]["ADRPROBE_BATCH_ARGS"] = FAST_ARGS
        self.five_nights(run_night)
        self.assertEqual(len(runner.caches), NIGHTS, "one cache entry a night")

    def test_lint_job_writes_sarif(self):
        doc = fixture_server.default_doc("/v1", "1.0.0")
        runner = ActionsRunner(self, self.wf, self.tmp / "lint", self.bin,
                               {self.wf["env"]["ADRPROBE_OPENAPI"]: yaml.safe_dump(doc)})
        status, ws, log = runner.run_job("lint")
        self.assertEqual(status, 0, log)
        sarif = json.loads((ws / "adrprobe-lint.sarif").read_text(encoding="utf-8"))
        self.assertEqual(sarif["version"], "2.1.0")
        self.assertEqual(sarif["runs"][0]["tool"]["driver"]["name"], "adrprobe")
        self.assertEqual(runner.sarif_uploads, [ws / "adrprobe-lint.sarif"])


# --------------------------------------------------------------------------
# the Pushgateway push, and a register of 200 targets
# --------------------------------------------------------------------------

class Pushgateway(harness.local_http_server):
    """A local HTTP server that records each PUT (path, body) and answers 200."""

    def __init__(self):
        posts = self.posts = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_PUT(self):
                length = int(self.headers.get("Content-Length") or 0)
                posts.append((self.path, self.rfile.read(length).decode("utf-8")))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        super().__init__(Handler)


class PushAndLarge(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="adrprobe-nightly-large-"))
        cls.bin = tool_bin(cls.tmp / "bin")
        cls.gitlab = yaml.safe_load(GITLAB.read_text())

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_pushgateway_gets_summary_prom_with_owners(self):
        parser = harness.require_module("prometheus_client.parser", "python3-prometheus-client")
        ws = self.tmp / "push"
        with FixtureServer({"base": "/a/v1"}, mounts=[{"base": "/b/v1"}]) as srv:
            register = {"targets": [{"name": "a", "base_url": srv.base_url, "owner": "team-a"},
                                    {"name": "b", "base_url": srv.mount("/b/v1").base_url, "owner": "team-b"}]}
            ws.mkdir()
            (ws / "out" / "1").mkdir(parents=True)
            (ws / "apis.yaml").write_text(yaml.safe_dump(register))
            run = harness.run_adrprobe(["batch", ws / "apis.yaml", "--out-dir", ws / "out" / "1"]
                                       + FAST_ARGS.split())
            self.assertIn(run.rc, (0, 1), run.describe())
        gateway = Pushgateway()
        with gateway as url:
            env = {k: str(v) for k, v in self.gitlab["variables"].items()}
            env.update({"PATH": "%s:/usr/bin:/bin" % self.bin, "ADRPROBE_PUSHGATEWAY": url})
            proc = run_shell(["/bin/sh"], gitlab_script(self.gitlab["adrprobe:summary"]), ws, env)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            self.assertNotIn("failed", proc.stdout + proc.stderr)
        posts = gateway.posts
        self.assertEqual([p for p, _ in posts], ["/metrics/job/adrprobe/register/apis"])
        body = posts[0][1]
        self.assertEqual(body, (ws / "public" / "summary.prom").read_text(encoding="utf-8"))
        owners = set()
        for family in parser.text_string_to_metric_families(body):
            for sample in family.samples:
                if "owner" in sample.labels:
                    owners.add(sample.labels["owner"])
        self.assertEqual(owners, {"team-a", "team-b"}, body[:3000])


    def test_a_register_of_200_targets_in_two_shards(self):
        from test_html import chromium, require_chromium
        require_chromium()
        ws = self.tmp / "large"
        ws.mkdir()
        servers = [FixtureServer({"base": "/api%d-0/v1" % k}, max_seconds=300,
                                 mounts=[{"base": "/api%d-%d/v1" % (k, i)} for i in range(1, 50)]) for k in range(4)]
        try:
            targets = []
            for k, srv in enumerate(servers):
                srv.start()
                for i in range(50):
                    targets.append({"name": "api-%03d" % (k * 50 + i), "owner": "team-%d" % (i % 7),
                                    "base_url": "%s/api%d-%d/v1" % (srv.origin, k, i)})
            (ws / "apis.yaml").write_text(yaml.safe_dump({"targets": targets}))
            batch, summary = self.gitlab["adrprobe:batch"], self.gitlab["adrprobe:summary"]
            env = {k: str(v) for k, v in self.gitlab["variables"].items()}
            env.update({"PATH": "%s:/usr/bin:/bin" % self.bin, "ADRPROBE_TARGETS": "apis.yaml",
                        "ADRPROBE_BATCH_ARGS": FAST_ARGS + " --concurrency 8", "CI_NODE_TOTAL": 2})
            for index in (1, 2):
                proc = run_shell(["/bin/sh"], gitlab_script(batch), ws, dict(env, CI_NODE_INDEX=index), timeout=120)
                self.assertEqual(proc.returncode, 0, proc.stdout[-3000:] + proc.stderr[-3000:])
        finally:
            for srv in servers:
                srv.stop()
        proc = run_shell(["/bin/sh"], gitlab_script(summary), ws, env)
        self.assertEqual(proc.returncode, 0, proc.stdout[-3000:] + proc.stderr[-3000:])
        public = ws / "public"
        s = json.loads((public / "summary.json").read_text(encoding="utf-8"))
        self.assertEqual(len(s["targets"]), 200)
        self.assertTrue(s["complete"])
        self.assertEqual({t["state"] for t in s["targets"]}, {"up"})
        self.assertEqual(len(list((ws / ".adrprobe-state" / "baseline").glob("*.json"))), 200)
        self.assertIn("200", (public / "summary.md").read_text(encoding="utf-8"))
        for link in page_links(public / "summary.html"):
            if not link.startswith("#") and not urlsplit(link).scheme:
                self.assertTrue((public / unquote(urlsplit(link).path)).is_file(), link)
        rc, dom, err = chromium("--dump-dom", (public / "summary.html").as_uri(), user_data_dir=ws / "chromium")
        self.assertEqual(rc, 0, err[-3000:])
        self.assertIn("<body", dom, err[-3000:])
        for name in ("api-000", "api-101", "api-199"):
            self.assertIn(name, dom)


if __name__ == "__main__":
    harness.main()
