"""Each fix of probes/fixes/<stack>.yaml proven on real servers of that stack
(probes.md "How to fix"; CLI.md `fix`), one per shape of app.

A shape is a folder tests/fixes/<shape>/ with a stack.json (its `stack`, the
folder's name if not given): tests/fixes/<stack>/ and others shaped as the
framework's tutorial or generator makes an app (routes on the app, a router
with a prefix, startproject's layout). For every fix of every stack file and
every shape of that stack: the shape is started as written (the check fails
or warns, and the report's `fix` for it is that very entry: the stack was
recognised from the exchanges alone), and once more with the line marked
`fix:<check>` replaced by the entry's text (the check passes). A shape leaves
a fix out only with the reason in its stack.json (`without`). A stack file
without its app, or a fix whose check does not go from failing to passing,
fails the suite: an unproven fix is not shipped. A check edition
2.2.0 does not judge (HM-1..HM-3 are hints there), or one the app fails only in
an older edition (2.2.0 exempts the root resource from NT-2), is proven in 2.1.0.
The fix applied is the one the text report printed.

Every server starts once, all of them at the same time, on 127.0.0.1, and
adrprobe runs on them side by side.
"""

import concurrent.futures
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import unittest

import harness
import tls_fixture

import yaml

DATA = harness.REPO / "probes" / "fixes"
APPS = harness.REPO / "tests" / "fixes"
EDITION = "2.2.0"
# A check the newest edition does not judge (2.2.0 re-typed /core/http-methods as functional:
# HM-1..HM-3 are hints there) is proven in the newest edition that still judges it.
OLDER_EDITIONS = ("2.1.0",)
START_SECONDS = 30
# TS-1's fixes serve HTTPS with the certificate chain and key in the app's
# folder under these names (Let's Encrypt's): a leaf of a CA of this test,
# which adrprobe is given with --ca-file.
TLS_FILES = ("fullchain.pem", "privkey.pem")
PKI = {}  # "ca": the CA's certificate, "files": (certificate, key) for 127.0.0.1


def stack_files():
    """{stack id: the parsed data file}, the generic advice left out."""
    out = {}
    for path in sorted(DATA.glob("*.yaml")):
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f)
        if data["stack"] != "any":
            out[data["stack"]] = data
    return out


def shape_specs():
    """{shape folder: its stack.json, with its `stack`}, every folder of tests/fixes that has one."""
    out = {}
    for path in sorted(APPS.glob("*/stack.json")):
        spec = json.loads(path.read_text(encoding="utf-8"))
        spec.setdefault("stack", path.parent.name)
        out[path.parent.name] = spec
    return out


# A change in two places (Go: a wrapper at the top level of the file, then the
# line that starts the server) starts its second part with a comment "Then, ...".
SECOND_PART = re.compile(r"^\s*(//|#) Then, ")


# Advice for apps of different shapes (routes on an express.Router() or on the
# app) gives each its own change, the second and later starting with a comment
# "Or, ...": a shape's stack.json names the one that fits it (`alternative`).
# In a change in two places, each part may offer its own (Go's server started
# with ListenAndServe(addr, nil) rather than a mux of its own).
ALTERNATIVE = re.compile(r"^\s*(//|#) Or, ")


def split_at(lines, pattern):
    out = [[]]
    for line in lines:
        if pattern.match(line):
            out.append([])
        out[-1].append(line)
    return out


def parts(text):
    """The parts of a fix's text, each for one marked line, in the file's order (each with its alternatives)."""
    return split_at(text.rstrip("\n").split("\n"), SECOND_PART)


def chosen_parts(text, alternative=1):
    """The parts of text, of each that offers a change per shape the alternative-th (1: the first)."""
    out = []
    for part in parts(text):
        choices = split_at(part, ALTERNATIVE)
        if len(choices) > 1:
            assert alternative <= len(choices), "the text offers %d changes, not %d" % (len(choices), alternative)
            part = choices[alternative - 1]
        out.append(part)
    return out


def without_part(text, i):
    """text with its part i (of parts()) left out: a comment in its place, so the marked lines still match."""
    pieces = parts(text)
    comment = re.match(r"\s*(//|#)", pieces[i][0]).group(1)
    pieces[i] = ["%s %s" % (comment, "Then, left out" if i else "left out")]
    return "\n".join("\n".join(p) for p in pieces) + "\n"


def apply_fix(source, check, text, alternative=1):
    """source with the lines marked fix:<check> replaced by the parts of text's alternative (1: the first),
    each indented like its line."""
    return apply_fix_to_files([source], check, text, alternative)[0]


def apply_fix_to_files(sources, check, text, alternative=1):
    """apply_fix over the files of an app (startproject's settings.py, then urls.py), their marked lines
    taken in the files' order: a change in two files has a part for each."""
    marker = re.compile(r"fix:%s(?![\w-])" % re.escape(check))
    files = [source.split("\n") for source in sources]
    hits = [(f, i) for f, lines in enumerate(files) for i, line in enumerate(lines) if marker.search(line)]
    pieces = chosen_parts(text, alternative)
    assert len(hits) == len(pieces), "expected %d lines marked fix:%s, found %d" % (len(pieces), check, len(hits))
    for (f, hit), piece in reversed(list(zip(hits, pieces))):
        line = files[f][hit]
        indent = line[: len(line) - len(line.lstrip())]
        files[f][hit:hit + 1] = [indent + t if t.strip() else "" for t in piece]
    return ["\n".join(lines) for lines in files]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One copy of the shape tests/fixes/<shape>/, optionally with one fix applied, started on a free port."""

    def __init__(self, shape, check=None, text=None, env=None):
        self.shape, self.check, self.text, self.extra_env = shape, check, text, env or {}
        self.spec = SHAPES[shape]
        self.stack = self.spec["stack"]
        self.proc = None
        self.fresh_dir()
        self.prepare()

    def fresh_dir(self):
        self.dir = tempfile.mkdtemp(prefix="adrprobe-fix-%s-" % self.shape)
        os.chmod(self.dir, 0o755)  # a server started as root serves files as nobody

    def prepare(self):
        """The app's files (its folders too: startproject's layout) in self.dir for a port free now,
        the fix applied."""
        check, text = self.check, self.text
        self.port = free_port()
        app = APPS / self.shape
        shutil.copy(APPS / "openapi.json", self.dir)
        for name, source in zip(TLS_FILES, PKI.get("files", ())):
            shutil.copy(source, os.path.join(self.dir, name))
        self.apply_error = ""
        files = {}  # target path -> content, in the files' order
        for path in sorted(app.rglob("*")):
            target = os.path.join(self.dir, path.relative_to(app))
            if path.is_dir():
                os.makedirs(target, mode=0o755, exist_ok=True)
            elif path.name != "stack.json":
                files[target] = path.read_text(encoding="utf-8")
        marked = [t for t, content in files.items() if check and re.search(r"fix:%s(?![\w-])" % re.escape(check), content)]
        if marked:
            try:
                changed = apply_fix_to_files([files[t] for t in marked], check, text,
                                             self.spec.get("alternative", {}).get(check, 1))
                files.update(zip(marked, changed))
            except AssertionError as e:  # the text does not fit the app's marks: prove() says so
                self.apply_error, marked = str(e), []
        self.marked = len(marked)
        for target, content in files.items():
            with open(target, "w", encoding="utf-8") as f:
                f.write(content.replace("{{PORT}}", str(self.port)).replace("{{DIR}}", self.dir)
                        .replace("{{DATA}}", str(harness.TEST_DATA)))

    def requirement(self):
        """require_tool / require_module for the stack (fails, or skips where it is not packaged)."""
        if "tool" in self.spec:
            harness.require_tool(self.spec["tool"], self.spec["package"])
        if "module" in self.spec:
            harness.require_module(self.spec["module"], self.spec["package"])
        for module, package in self.spec.get("also", {}).items():  # a framework's extension the app uses
            harness.require_module(module, package)
        for tool, package in self.spec.get("also_tools", {}).items():  # what its start needs (ogr2ogr, apache2)
            harness.require_tool(tool, package)
        if "npm" in self.spec:
            assert (APPS / "node_modules" / self.spec["npm"]).is_dir(), \
                "tests/fixes/node_modules/%s is missing: run ./dev setup (npm ci --prefix tests/fixes)" % self.spec["npm"]

    def start(self):
        try:
            self.requirement()
        except (unittest.SkipTest, AssertionError):
            return  # the test says why
        fill = lambda c: c.replace("{PORT}", str(self.port)).replace("{DIR}", self.dir)  # noqa: E731
        command = [fill(c) for c in self.spec["command"]]
        env = dict(os.environ, NODE_PATH=str(APPS / "node_modules"), PYTHONDONTWRITEBYTECODE="1")
        env.update({k: fill(v) for k, v in self.spec.get("env", {}).items()})
        env.update(self.extra_env)
        self.log = open(os.path.join(self.dir, "server.log"), "wb")
        self.proc = subprocess.Popen(command, cwd=self.dir, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)

    def wait(self, deadline):
        for _ in range(3):
            answered_by_other = False
            while self.proc and self.proc.poll() is None and time.monotonic() < deadline:
                try:
                    socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                except OSError:
                    time.sleep(0.1)
                    continue
                # The port answers, but maybe not for this server: a process that took the port
                # between free_port() and the server's bind answers while the server still retries
                # its own (nginx does for 2.5 s) or has not bound yet (go run still compiling).
                if self.listens() is False:
                    answered_by_other = True
                    break
                return self.ready(deadline)
            # Another process took the port between free_port() and the
            # server's bind (suites run side by side): again on a new one.
            if not self.restart_if_port_taken(answered_by_other):
                return False
        return False

    def listens(self):
        """Whether the socket listening on 127.0.0.1:port is one of the server's processes' (those
        of the session start_new_session made it); None when /proc cannot tell."""
        return harness.session_listens(self.port, self.proc.pid)

    def restart_if_port_taken(self, answered_by_other=False):
        """Started again on a new port when it died because another process had its port, or when
        another process answers on its port (the server is stopped first)."""
        if not answered_by_other and not (self.proc and self.proc.poll() is not None and self.port_taken()):
            return False
        self.kill()
        self.log.close()
        # In a new folder: what the dead server left there (nginx's unix socket, bound before
        # its port failed) would stop the next start with "address already in use" again.
        shutil.rmtree(self.dir, ignore_errors=True)
        self.fresh_dir()
        self.prepare()
        self.start()
        return True

    def port_taken(self):
        log = self.server_log().lower()
        # The system's words, Node.js's error code, Django's runserver's own words.
        return any(words in log for words in ("address already in use", "eaddrinuse", "port is already in use"))

    def tls(self):
        """TS-1's fix applied: the server speaks HTTPS."""
        return self.check == "TS-1"

    def url(self):
        """The API's base URL: /v1, or the shape's `base` (FastAPI's routes with their /v1 in the document
        the server's root serves; a geospatial server's OGC API)."""
        return "%s://127.0.0.1:%d%s" % ("https" if self.tls() else "http", self.port, self.spec.get("base", "/v1"))

    def args(self):
        """--openapi for a stack whose document is not at {base}/openapi.json (stack.json `openapi`)."""
        return ["--openapi", "http://127.0.0.1:%d%s" % (self.port, self.spec["openapi"])] if "openapi" in self.spec else []

    def ready(self, deadline):
        """The port answers; a stack with `ready` (a server that listens before it has loaded its
        project) is ready when that URL answers 200."""
        if "ready" not in self.spec:
            return True
        import urllib.request
        while self.proc.poll() is None and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d%s" % (self.port, self.spec["ready"]), timeout=2) as r:
                    if r.status == 200:
                        return True
            except OSError:
                pass
            time.sleep(0.1)
        return False

    def server_log(self):
        try:
            with open(os.path.join(self.dir, "server.log"), encoding="utf-8", errors="replace") as f:
                return f.read()[-3000:]
        except OSError:
            return ""

    def kill(self):
        """The server's process group stopped (SIGTERM, then SIGKILL after 5 s)."""
        if self.proc and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
            except ProcessLookupError:
                self.proc.wait()

    def stop(self):
        self.kill()
        if self.proc:
            self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


STACKS = stack_files()
SHAPES = shape_specs()
# (shape, check) -> (fix entry, server as written, server with the fix as printed, the printed text)
CASES = {}
# A fix that works only under a setting its advice states: (shape, check, the app's
# environment that turns the setting the other way, words of the advice that state it).
CONDITIONS = [(shape, "EH-2", {"DJANGO_DEBUG": "1"}, "only with DEBUG = False")
              for shape in ("django-rest-framework", "django-rest-framework-app")]
CONDITION_SERVERS = {}  # (shape, check) -> server with the fix and the other setting
# A fix in parts none of which is enough alone: (shape, check). DRF's 405 is its
# EXCEPTION_HANDLER's (settings.py), Django's 404 handler404's (urls.py).
EVERY_PART_NEEDED = [("django-rest-framework-app", "EH-2")]
PART_SERVERS = {}  # (shape, check) -> [server with the fix but its part i left out, for each i]
SERVERS = []
BEFORES = {}  # shape -> its server as written
REPORTS = {}  # (id(server), edition) -> (Run, report, output directory)
# adrprobe runs on this many servers at once (each run mostly waits on its server).
PARALLEL_RUNS = 6


def start_all(servers):
    for s in servers:
        s.start()
    deadline = time.monotonic() + START_SECONDS
    for s in servers:
        s.wait(deadline)
    # A server whose port another process took between free_port() and its
    # bind may have looked up (that process answered) and died since.
    time.sleep(1)
    for s in servers:
        if s.restart_if_port_taken():
            s.wait(time.monotonic() + START_SECONDS)


def fixes_of(shape):
    """The stack's fixes a shape proves: all but those its stack.json leaves out, with the reason."""
    spec = SHAPES[shape]
    return [e for e in STACKS[spec["stack"]].get("fixes") or [] if e["check"] not in spec.get("without", {})]


def run_all(jobs):
    """run_on for each (server, its checks) side by side, a server's checks in turn; a failure is
    run_on's again when a test asks."""
    def one(job):
        server, checks = job
        for check in checks:
            try:
                run_on(server, edition_for(CASES_BEFORE.get(id(server), server), check))
            except (unittest.SkipTest, AssertionError):
                pass
    with concurrent.futures.ThreadPoolExecutor(PARALLEL_RUNS) as pool:
        list(pool.map(one, jobs))


CASES_BEFORE = {}  # id(server with a fix) -> the server as written, whose failure picks the edition


def setUpModule():
    """The apps as written first; each fix is then applied as the text report printed it."""
    tls_fixture.require_tls_tools()
    pki = tls_fixture.Pki(tempfile.mkdtemp(prefix="adrprobe-fix-pki-"))
    PKI.update(ca=pki.ca_file, files=pki.issue("fixes"))
    befores = {shape: Server(shape) for shape, spec in SHAPES.items() if spec["stack"] in STACKS}
    BEFORES.update(befores)
    SERVERS.extend(befores.values())
    start_all(befores.values())
    run_all([(before, [e["check"] for e in fixes_of(shape)]) for shape, before in befores.items()])
    afters = []
    for shape, before in befores.items():
        after_by_text = {}
        for entry in fixes_of(shape):
            try:
                printed = printed_fix(before, entry["check"])
            except (unittest.SkipTest, AssertionError):
                printed = None  # the app did not run: prove() says why
            text = printed if printed is not None else entry["text"]  # prove() says it was not printed
            if text not in after_by_text:  # one server per distinct change
                after_by_text[text] = Server(shape, entry["check"], text)
                afters.append((after_by_text[text], [entry["check"]]))
                CASES_BEFORE[id(after_by_text[text])] = before
            CASES[(shape, entry["check"])] = (entry, before, after_by_text[text], printed)
    for shape, check, env, _ in CONDITIONS:
        if (shape, check) in CASES:
            server = Server(shape, check, CASES[(shape, check)][0]["text"], env)
            CONDITION_SERVERS[(shape, check)] = server
            CASES_BEFORE[id(server)] = CASES[(shape, check)][1]
            afters.append((server, [check]))
    for shape, check in EVERY_PART_NEEDED:
        if (shape, check) in CASES:
            text = CASES[(shape, check)][0]["text"]
            PART_SERVERS[(shape, check)] = [Server(shape, check, without_part(text, i)) for i in range(len(parts(text)))]
            for server in PART_SERVERS[(shape, check)]:
                CASES_BEFORE[id(server)] = CASES[(shape, check)][1]
                afters.append((server, [check]))
    SERVERS.extend(s for s, _ in afters)
    start_all([s for s, _ in afters])
    run_all(afters)


def printed_fix(before, check):
    """The change the text report prints under check on the app as written (the lines under its
    "fix (Stack): URL" line, their indentation taken off), or None: not printed."""
    _, _, out = run_on(before, edition_for(before, check))
    with open(os.path.join(out, "r.txt"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines):
        if not re.match(r"^ {9}%s +(fail|warn) " % re.escape(check), line):
            continue
        for j in range(i + 1, len(lines)):
            if re.match(r"^ {9}\S", lines[j]) or not lines[j].startswith(" "):
                break  # the next check or rule: no fix printed under this one
            if lines[j].startswith("              fix "):
                block = []
                for code in lines[j + 1:]:
                    if code and not code.startswith(" " * 16):
                        break
                    block.append(code[16:])
                while block and not block[-1]:
                    block.pop()
                return "\n".join(block) + "\n"
    return None


def tearDownModule():
    for s in SERVERS:
        s.stop()
    if "ca" in PKI:
        shutil.rmtree(os.path.dirname(PKI["ca"]), ignore_errors=True)


def run_on(server, edition=EDITION):
    """adrprobe check on the server (once per edition): JSON on stdout, text, markdown and HTML into files."""
    if (id(server), edition) not in REPORTS:
        server.requirement()
        # Its own time to start: start_all's deadline is shared by all servers and may have
        # passed before this one listened; one that died on its port since starts again on a new one.
        assert server.wait(time.monotonic() + START_SECONDS), "the %s server did not start on port %d:\n%s" % (
            server.shape, server.port, server.server_log())
        out = tempfile.mkdtemp(prefix="adrprobe-fix-report-")
        args = harness.check_args(server.url(), server.args() + [
            "-o", "text=%s/r.txt" % out, "-o", "markdown=%s/r.md" % out, "-o", "html=%s/r.html" % out]
                                  + (["--ca-file", str(PKI["ca"])] if server.tls() else []), edition)
        run = harness.run_adrprobe(args, timeout=60)
        REPORTS[(id(server), edition)] = (run, run.json(), out)
    return REPORTS[(id(server), edition)]


def edition_for(before, check):
    """The newest edition whose rules judge check and in which the app as written fails it (2.2.0 exempts
    the root resource from NT-2, which 2.1.0 does not); else the newest that judges it; else the newest."""
    judging = []
    for edition in (EDITION,) + OLDER_EDITIONS:
        found = check_results(run_on(before, edition)[1], check)
        if any(c["verdict"] in ("fail", "warn") for c in found):
            return edition
        if found:
            judging.append(edition)
    return (judging or [EDITION])[0]


def check_results(report, check_id):
    return [c for r in report["rules"] for c in r.get("checks", []) if c["id"] == check_id]


class FixesProven(harness.ProbeCase):
    """One test per fix of a stack file and shape of app (made below from the data files)."""

    def prove(self, shape, check):
        entry, before, after, printed = CASES[(shape, check)]
        stack = SHAPES[shape]["stack"]
        self.assertGreaterEqual(after.marked, 1, "tests/fixes/%s has no line marked fix:%s %s" % (
            shape, check, after.apply_error))
        # The change is applied as the text report printed it: what a developer copies.
        self.assertEqual(printed, entry["text"], "%s: the text report does not print %s's fix as written" % (shape, check))
        edition = edition_for(before, check)
        run, report, _ = run_on(before, edition)
        self.assertNoCrash(run)
        harness.schema_validator().validate(report)
        found = check_results(report, check)
        self.assertTrue(found, "%s: no %s in the report" % (shape, check))
        failing = [c for c in found if c["verdict"] in ("fail", "warn")]
        self.assertTrue(failing, "%s as written: %s does not fail: %s" % (shape, check, json.dumps(found)[:2000]))
        # The advice is this stack's entry: recognised from the exchanges the run made.
        self.assertEqual(failing[0].get("fix"), {"stack": stack, "text": entry["text"], "source": entry["source"]},
                         json.dumps(failing[0], indent=1)[:3000])
        run, report, _ = run_on(after, edition)
        self.assertNoCrash(run)
        harness.schema_validator().validate(report)
        found = check_results(report, check)
        self.assertTrue(found and all(c["verdict"] == "pass" for c in found),
                        "%s with the fix of probes/fixes/%s.yaml: %s does not pass: %s\nserver log:\n%s" % (
                            shape, stack, check, json.dumps(found)[:2000], after.server_log()))
        self.assertTrue(all("fix" not in c for c in found))


def _make(shape, check):
    def test(self):
        self.prove(shape, check)
    test.__doc__ = "%s: %s fails as written, passes with the fix of probes/fixes/%s.yaml" % (
        shape, check, SHAPES[shape]["stack"])
    return test


for _shape, _spec in SHAPES.items():
    for _entry in (fixes_of(_shape) if _spec["stack"] in STACKS else []):
        setattr(FixesProven, "test_%s_%s" % (_shape.replace("-", "_"), _entry["check"].replace("-", "_")),
                _make(_shape, _entry["check"]))


class EveryFailureAdvised(harness.ProbeCase):
    """On every shape as written, every check that fails gets advice: its stack's, or the advice for any server."""

    def test_each_shape(self):
        for shape, before in BEFORES.items():
            with self.subTest(shape=shape):
                run, report, _ = run_on(before)
                self.assertNoCrash(run)
                unadvised = [c["id"] for r in report["rules"] for c in r.get("checks", [])
                             if c["verdict"] == "fail" and not c.get("fix")]
                # What the shape's server cannot be configured to do (a version without the feature)
                # is named with the reason in its stack.json (`unadvised`), never left out silently.
                known = SHAPES[shape].get("unadvised", {})
                self.assertTrue(all(known.values()), "tests/fixes/%s/stack.json: unadvised without a reason" % shape)
                self.assertEqual(sorted(set(unadvised) - set(known)), [])


class Conditions(harness.ProbeCase):
    """A fix that depends on a setting says so, and does not fix the check with the setting the other way."""

    def test_each_condition(self):
        for shape, check, env, words in CONDITIONS:
            with self.subTest(shape=shape, check=check, env=env):
                entry = CASES[(shape, check)][0]
                self.assertIn(words, entry["text"])
                run, report, _ = run_on(CONDITION_SERVERS[(shape, check)],
                                        edition_for(CASES[(shape, check)][1], check))
                self.assertNoCrash(run)
                found = check_results(report, check)
                self.assertTrue(found and any(c["verdict"] == "fail" for c in found), json.dumps(found)[:2000])


class EveryPartNeeded(harness.ProbeCase):
    """A fix in two places is needed in both: with either left out, the check still fails."""

    def test_each_part_left_out(self):
        for shape, check in EVERY_PART_NEEDED:
            for i, server in enumerate(PART_SERVERS[(shape, check)]):
                with self.subTest(shape=shape, check=check, left_out=i + 1):
                    self.assertTrue(server.marked and not server.apply_error, server.apply_error)
                    run, report, _ = run_on(server, edition_for(CASES[(shape, check)][1], check))
                    self.assertNoCrash(run)
                    found = check_results(report, check)
                    self.assertTrue(found and any(c["verdict"] == "fail" for c in found), json.dumps(found)[:2000])


class DataFiles(unittest.TestCase):
    def test_every_stack_has_an_app(self):
        """A stack is shipped only with the app its fixes are proven on."""
        for stack in STACKS:
            with self.subTest(stack=stack):
                self.assertTrue((APPS / stack / "stack.json").is_file(), "tests/fixes/%s/stack.json is missing" % stack)

    def test_every_shape_is_of_a_stack(self):
        for shape, spec in SHAPES.items():
            with self.subTest(shape=shape):
                self.assertIn(spec["stack"], STACKS, "tests/fixes/%s/stack.json: no probes/fixes/ file has its stack" % shape)
                checks = {e["check"] for e in STACKS[spec["stack"]]["fixes"]}
                for check, why in spec.get("without", {}).items():
                    self.assertIn(check, checks)
                    self.assertTrue(why, "tests/fixes/%s/stack.json leaves %s out without a reason" % (shape, check))

    def test_stacks_have_a_second_shape(self):
        """Each fix is proven on two shapes of app at least, one as the framework's tutorial or generator makes it."""
        for stack in STACKS:
            with self.subTest(stack=stack):
                shapes = [shape for shape, spec in SHAPES.items() if spec["stack"] == stack]
                if len(shapes) == 1 and SHAPES[shapes[0]].get("one_shape"):
                    continue  # a server configured, not programmed: its stack.json says why one shape is all there is
                self.assertGreaterEqual(len(shapes), 2, shapes)
                self.assertTrue(all(SHAPES[shape].get("shape") for shape in shapes[1:]), shapes)

    def test_every_stack_has_fixes_and_signatures(self):
        for stack, data in STACKS.items():
            with self.subTest(stack=stack):
                self.assertTrue(data.get("fixes"), stack)
                self.assertTrue(data.get("detect"), stack)
                for entry in data["fixes"]:
                    self.assertTrue(entry["source"].startswith("https://"), entry)

    def test_apply_fix_keeps_indentation(self):
        self.assertEqual(apply_fix("a\n    x  # fix:NT-2\nb", "NT-2", "one\n\ntwo\n"), "a\n    one\n\n    two\nb")
        with self.assertRaises(AssertionError):
            apply_fix("x # fix:NT-22", "NT-2", "y")

    def test_apply_fix_in_two_files(self):
        self.assertEqual(apply_fix_to_files(["A = 1\n# fix:EH-2", "x\n# fix:EH-2"], "EH-2",
                                            "S = {}\n# Then, in urls.py:\ndef h(): pass\n"),
                         ["A = 1\nS = {}", "x\n# Then, in urls.py:\ndef h(): pass"])

    def test_apply_fix_of_the_shape(self):
        text = "// On a Router:\nr({ strict: true });\n// Or, on the app:\napp.set('strict', true);\n"
        self.assertEqual(apply_fix("  x // fix:NT-2", "NT-2", text), "  // On a Router:\n  r({ strict: true });")
        self.assertEqual(apply_fix("x // fix:NT-2", "NT-2", text, 2), "// Or, on the app:\napp.set('strict', true);")
        with self.assertRaises(AssertionError):
            apply_fix("x // fix:NT-2", "NT-2", text, 3)

    def test_apply_fix_of_the_shape_in_two_places(self):
        text = "func p() {}\n// Then, where it starts:\nserve(p(mux))\n// Or, with nil:\nserve(p(def))\n"
        self.assertEqual(apply_fix("// fix:EH-2\nserve(nil) // fix:EH-2", "EH-2", text, 2),
                         "func p() {}\n// Or, with nil:\nserve(p(def))")
        self.assertEqual(apply_fix("// fix:EH-2\nserve(mux) // fix:EH-2", "EH-2", text),
                         "func p() {}\n// Then, where it starts:\nserve(p(mux))")

    def test_apply_fix_in_two_places(self):
        self.assertEqual(apply_fix("// fix:EH-2\nfunc main() {\n\tserve(mux) // fix:EH-2\n}", "EH-2",
                                   "func wrap() {}\n// Then, where it starts:\nserve(wrap(mux))\n"),
                         "func wrap() {}\nfunc main() {\n\t// Then, where it starts:\n\tserve(wrap(mux))\n}")


class PortTaken(unittest.TestCase):
    """The harness itself: a server whose port another process took starts again, and the
    socket file nginx bound before its port failed does not stop the new start."""

    def nginx_on_a_taken_port(self):
        """An nginx server whose port another process holds, and that process's socket."""
        harness.require_tool("/usr/sbin/nginx", "nginx-light")
        server = Server("nginx-proxy")
        self.addCleanup(server.stop)
        taker = socket.socket()
        self.addCleanup(taker.close)
        taker.bind(("127.0.0.1", server.port))
        taker.listen(1)
        return server, taker

    def test_nginx_proxy_starts_again_after_its_port_was_taken(self):
        server, taker = self.nginx_on_a_taken_port()
        with taker:
            server.start()
            server.proc.wait(30)  # nginx tries its bind for 2.5 s, then gives up
        self.assertTrue(server.port_taken(), server.server_log())
        self.assertTrue(server.restart_if_port_taken())
        self.assertTrue(server.wait(time.monotonic() + START_SECONDS), server.server_log())
        time.sleep(0.5)  # nginx has bound its port before its unix socket
        self.assertIsNone(server.proc.poll(), server.server_log())
        self.assertNotIn("address already in use", server.server_log().lower())

    def test_a_port_another_process_answers_on_is_not_the_servers(self):
        server, taker = self.nginx_on_a_taken_port()
        with taker:
            taken = server.port
            server.start()  # nginx retries its bind while the taker answers
            self.assertIs(server.listens(), False)
            self.assertTrue(server.wait(time.monotonic() + START_SECONDS), server.server_log())
            self.assertNotEqual(server.port, taken)
            self.assertIs(server.listens(), True)


class Rendered(unittest.TestCase):
    """The fix in the other formats, on the Express app as written (NT-2 fails there)."""

    @classmethod
    def setUpClass(cls):
        if ("express", "NT-2") not in CASES:
            raise AssertionError("probes/fixes/express.yaml has no NT-2 fix")
        cls.entry, before, _, _ = CASES[("express", "NT-2")]
        _, _, cls.out = run_on(before)

    def read(self, name):
        with open(os.path.join(self.out, name), encoding="utf-8") as f:
            return f.read()

    def test_text_has_the_whole_fix(self):
        """Without -v: where it is documented, then every line of the change."""
        text = self.read("r.txt")
        self.assertIn("fix (Express): %s\n" % self.entry["source"], text)
        self.assertIn("\n".join("                " + line if line else "" for line in self.entry["text"].strip().split("\n")),
                      text)
        self.assertNotIn("-v)", text)

    def test_markdown_has_the_change_as_code(self):
        md = self.read("r.md")
        self.assertIn("fix for Express, see `%s`:" % self.entry["source"], md)
        self.assertIn("    const router = express.Router({ strict: true });", md)

    def test_html_fix_box_in_chromium(self):
        """Chromium loads the report: the change is in a box of the check's card, as written."""
        import test_html
        test_html.require_chromium()
        profile = tempfile.mkdtemp(prefix="adrprobe-fix-chromium-")
        try:
            rc, out, err = test_html.chromium("--dump-dom", "file://%s/r.html" % self.out, user_data_dir=profile)
        finally:
            shutil.rmtree(profile, ignore_errors=True)
        dom = test_html.parse_dom(out)
        boxes = dom.find_all("div", cls="fix")
        self.assertEqual(len([b for b in boxes if "express.Router({ strict: true })" in b.text()]), 1, err[-2000:])
        box = [b for b in boxes if "strict: true" in b.text()][0]
        self.assertIn("check", box.parent.attrs.get("class", ""))
        self.assertEqual(box.find_all("pre")[0].text(), self.entry["text"].strip())
        self.assertIn(self.entry["source"], box.hrefs())

    def test_html_has_a_fix_box(self):
        html = self.read("r.html")
        self.assertIn('<div class="fix">', html)
        self.assertIn("express.Router({ strict: true });", html)
        self.assertIn('href="%s"' % self.entry["source"], html)


class Tabs(unittest.TestCase):
    """Go's fix is indented with tabs: every format but JSON showed each as \\x09, which does not compile."""

    def test_tabs_print_as_tabs(self):
        entry, before, _, _ = CASES[("go-net-http", "EH-2")]
        tabbed = [line for line in entry["text"].split("\n") if line.startswith("\t") and not set("<>&'\"") & set(line)]
        self.assertTrue(tabbed, entry["text"])
        _, _, out = run_on(before)
        for name in ("r.txt", "r.md", "r.html"):
            with self.subTest(format=name), open(os.path.join(out, name), encoding="utf-8") as f:
                report = f.read()
                self.assertNotIn("\\x09", report)
                for line in tabbed:  # indented as the format indents code, then the tabs
                    self.assertRegex(report, r"\n *" + re.escape(line) + "\n")


class GenericAdviceLinks(unittest.TestCase):
    """Advice that is what the rule says links the rule's text in the edition judged (a 2.0.0 report cited 2.2.0's)."""

    def test_the_judged_editions_text(self):
        for edition in ("2.0.0", "2.2.0"):
            with self.subTest(edition=edition):
                report = harness.probe({"trailing_slash": 200}, edition=edition).report
                rule = [r for r in report["rules"] if r["id"] == "/core/no-trailing-slash"][0]
                nt2 = [c for c in rule["checks"] if c["id"] == "NT-2"][0]
                self.assertEqual(nt2["verdict"], "fail")
                self.assertIsNone(nt2["fix"]["stack"])
                self.assertEqual(nt2["fix"]["source"], rule["url"])
                self.assertIn("/%s/" % edition, nt2["fix"]["source"])


if __name__ == "__main__":
    harness.main()
