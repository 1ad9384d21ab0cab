"""summary --pushgateway and batch --pushgateway against Debian's Pushgateway.

Each test starts its own `prometheus-pushgateway` (prometheus-pushgateway, on
127.0.0.1 and a free port, no persistence file, its life bounded by coreutils
`timeout`; the package's service is never used) and reads back what it holds
with `GET /metrics`, parsed by python3-prometheus-client.

- Five nights of the GitLab template's own batch and summary lines (one shard,
  the cache carried from night to night, ADRPROBE_PUSHGATEWAY set) against a
  fixture API whose trailing-slash rule breaks on night 2 and is fixed on
  night 4. After each night the group job="adrprobe", register="apis" holds
  exactly that night's summary.prom: after a night without a change no
  adrprobe_rule_change series is left (a POST, as the templates pushed before,
  kept night 2's new-fail for good).
- batch --pushgateway for a night of one shard, --register-name with a "/"
  (the Pushgateway's base64 form), and --shard of two shards refused.
- A push that fails (a closed port, a Pushgateway that never answers, a 401)
  is one warning line and leaves the exit status as it is; the -H and
  --header-file values and the URL's password appear in no output.
"""

import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from fixture_server import FixtureServer  # noqa: E402

REPO = harness.REPO
GITLAB = REPO / "deploy" / "gitlab-ci.yml"

# --timeout 10: a down target is a refused connection (no wait); the reference API's
# TLS answers took over 3 s on a CI running the sanitizer build beside it.
FAST_ARGS = "--rate 0 --timeout 10 --max-paths 2 --deadline 60"
RULE = "/core/no-trailing-slash"   # fails when the API redirects a trailing slash (edition 2.0.0)
# The Pushgateway's basic auth (--web.config.file): its bcrypt hash, made once
# with `htpasswd -nbBC 4 adrprobe pg-s3cret-Passw0rd`.
PG_USER, PG_PASSWORD = "adrprobe", "pg-s3cret-Passw0rd"
PG_HASH = "$2y$04$J4igCsAK1ufzIFBk7Ori0eksofbwoKinEeY50FChp2U6H6hMABnYC"
SCRIPT_TIMEOUT = 90


def parser():
    return harness.require_module("prometheus_client.parser", "python3-prometheus-client")


class Pushgateway:
    """Debian's prometheus-pushgateway on 127.0.0.1:<free port>, in memory only
    (--persistence.file empty), optionally behind basic auth."""

    START_SECONDS = 20

    def __init__(self, basic_auth=False):
        self.exe = harness.require_tool("prometheus-pushgateway", "prometheus-pushgateway")
        self.tmp = Path(tempfile.mkdtemp(prefix="adrprobe-pushgateway-"))
        self.auth = None
        args = []
        if basic_auth:
            config = self.tmp / "web.yml"
            config.write_text("basic_auth_users:\n  %s: %s\n" % (PG_USER, PG_HASH))
            args.append("--web.config.file=%s" % config)
            self.auth = "Basic " + base64.b64encode(("%s:%s" % (PG_USER, PG_PASSWORD)).encode()).decode()
        self.proc = None
        for _ in range(5):
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                self.port = s.getsockname()[1]
            self.log = open(self.tmp / "pushgateway.log", "wb")
            bound = [shutil.which("timeout"), "-k", "5", "600"] if shutil.which("timeout") else []
            self.proc = subprocess.Popen(bound + [self.exe, "--web.listen-address=127.0.0.1:%d" % self.port,
                                                  "--persistence.file=", "--log.level=warn"] + args,
                                         stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
                                         start_new_session=True)
            if self.ready():
                break
            self.kill()   # another process took the port in between: again on another
        else:
            raise AssertionError("prometheus-pushgateway did not start:\n" + self.server_log())
        self.url = "http://127.0.0.1:%d" % self.port

    def ready(self):
        deadline = time.monotonic() + self.START_SECONDS
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                self.get("/-/ready", "http://127.0.0.1:%d" % self.port)
                return True
            except (OSError, urllib.error.URLError):
                time.sleep(0.1)
        return False

    def get(self, path, origin=None):
        request = urllib.request.Request((origin or self.url) + path)
        if self.auth:
            request.add_header("Authorization", self.auth)
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.read().decode("utf-8")

    def series(self):
        """adrprobe's series the Pushgateway holds: {(name, labels as a sorted tuple): value}."""
        return samples_of(self.get("/metrics"), lambda name: name.startswith("adrprobe_"))

    def server_log(self):
        return (self.tmp / "pushgateway.log").read_text(errors="replace")[-3000:]

    def kill(self):
        proc, self.proc = self.proc, None
        if proc and proc.poll() is None:
            os.killpg(proc.pid, 15)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                proc.wait()
        self.log.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()
        shutil.rmtree(self.tmp, ignore_errors=True)


def samples_of(text, wanted=lambda name: True):
    out = {}
    for family in parser().text_string_to_metric_families(text):
        for s in family.samples:
            if wanted(s.name):
                out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def pushed_as(prom, register):
    """summary.prom's samples as the Pushgateway shows them: each with the
    group's labels (job, register) and the empty instance it adds."""
    out = {}
    for (name, labels), value in samples_of(prom).items():
        labels = dict(labels, job="adrprobe", register=register, instance="")
        out[(name, tuple(sorted(labels.items())))] = value
    return out


def of(series, name):
    """The samples of one family: [(labels dict, value)]."""
    return [(dict(labels), value) for (n, labels), value in series.items() if n == name]


def gitlab_script(job):
    return "\n".join(job.get("before_script", []) + job["script"])


def run_shell(script, cwd, env):
    full_env = {"HOME": str(cwd), "LC_ALL": "C.UTF-8"}
    full_env.update({k: str(v) for k, v in env.items()})
    try:
        return subprocess.run(["/bin/sh", "-e", "-c", script], cwd=cwd, env=full_env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=SCRIPT_TIMEOUT)
    except subprocess.TimeoutExpired as e:
        raise AssertionError("script did not end in %d s:\n%s\n%s%s" % (SCRIPT_TIMEOUT, script, e.stdout, e.stderr))


def copy_tree(src, dst):
    dst.mkdir(parents=True, exist_ok=True)
    if src.is_dir():
        shutil.copytree(src, dst, dirs_exist_ok=True, symlinks=True)


def write_register(path, targets):
    path.write_text(yaml.safe_dump({"defaults": {"edition": "2.0.0", "rate": 0}, "targets": targets}))
    return path


class GitLabNights(unittest.TestCase):
    """The template's lines, five nights, one Pushgateway."""

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="adrprobe-push-nights-"))
        self.bin = self.tmp / "bin"
        self.bin.mkdir()
        (self.bin / "adrprobe").symlink_to(Path(harness.binary()).resolve())
        self.doc = yaml.safe_load(GITLAB.read_text())

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def env(self, workspace, **more):
        env = {k: str(v) for k, v in self.doc["variables"].items()}
        env.update({"PATH": "%s:/usr/bin:/bin" % self.bin, "CI": "true", "CI_PROJECT_DIR": str(workspace),
                    "CI_PIPELINE_SOURCE": "schedule", "CI_REGISTRY_IMAGE": "registry.example.nl/apis",
                    "ADRPROBE_TARGETS": "apis.yaml", "ADRPROBE_BATCH_ARGS": FAST_ARGS,
                    "CI_NODE_INDEX": 1, "CI_NODE_TOTAL": 1})
        env.update(more)
        return env

    def night(self, number, register, cache, gateway):
        """One night: the batch job (one shard), its artifacts into the summary
        job, the summary job; the cache restored before and saved after."""
        batch, summary = self.doc["adrprobe:batch"], self.doc["adrprobe:summary"]
        ws_batch, ws_summary = self.tmp / ("night%d-batch" % number), self.tmp / ("night%d-summary" % number)
        for ws in (ws_batch, ws_summary):
            ws.mkdir()
            copy_tree(cache, ws / ".adrprobe-state")
        (ws_batch / "apis.yaml").write_text(register)
        proc = run_shell(gitlab_script(batch), ws_batch, self.env(ws_batch))
        log = "batch: %d\n%s%s" % (proc.returncode, proc.stdout, proc.stderr)
        self.assertIn(proc.returncode, (0, 1), log)
        for p in batch["artifacts"]["paths"]:
            copy_tree(ws_batch / p, ws_summary / p)
        proc = run_shell(gitlab_script(summary), ws_summary, self.env(ws_summary, ADRPROBE_PUSHGATEWAY=gateway.url))
        log += "summary: %d\n%s%s" % (proc.returncode, proc.stdout, proc.stderr)
        self.assertIn(proc.returncode, (0, 1), log)
        self.assertNotIn("warning: push", proc.stderr, log)
        shutil.rmtree(cache)
        copy_tree(ws_summary / ".adrprobe-state", cache)
        return ws_summary / "public", proc.returncode, log

    def test_five_nights_each_replaces_the_last(self):
        parser()
        self.assertIsNotNone(shutil.which("sh"))
        cache = self.tmp / "runner-cache"
        cache.mkdir()
        # delta: a trailing slash answered 404 (passes), then redirected (fails) on
        # nights 2 and 3, then 404 again
        delta_slash = {1: 404, 2: 301, 3: 301, 4: 404, 5: 404}
        # the change marks tonight: night 2 new-fail, night 4 fixed, none on 1, 3, 5
        expected_change = {1: set(), 2: {("delta", RULE, "new-fail")}, 3: set(), 4: {("delta", RULE, "fixed")},
                           5: set()}
        with FixtureServer({"base": "/alpha/v1"}, max_seconds=600, mounts=[{"base": "/delta/v1"}]) as srv, \
                Pushgateway() as gateway:
            delta = srv.mount("/delta/v1")
            register = yaml.safe_dump({"defaults": {"edition": "2.0.0", "rate": 0}, "targets": [
                {"name": "alpha", "base_url": srv.base_url, "owner": "team-a"},
                {"name": "delta", "base_url": delta.base_url, "owner": "team-d"}]})
            for number in range(1, 6):
                delta.profile["trailing_slash"] = delta_slash[number]
                public, rc, log = self.night(number, register, cache, gateway)
                ctx = "night %d\n%s" % (number, log)
                self.assertEqual(rc, 1 if number == 2 else 0, ctx)   # --fail-on regressed
                held = gateway.series()
                prom = (public / "summary.prom").read_text(encoding="utf-8")
                # the group holds tonight's summary.prom, nothing of an earlier night
                self.assertEqual(held, pushed_as(prom, "apis"), ctx)
                changes = {(labels["target"], labels["rule"], labels["change"])
                           for labels, value in of(held, "adrprobe_rule_change")}
                self.assertEqual(changes, expected_change[number], ctx)
                failing = {labels["target"]: value for labels, value in of(held, "adrprobe_rule_failing")
                           if labels["rule"] == RULE}
                self.assertEqual(failing, {"alpha": 0, "delta": 1 if number in (2, 3) else 0}, ctx)
                counts = {(labels["target"], labels["change"]): value for labels, value in of(held, "adrprobe_changes")}
                if number == 1:
                    self.assertEqual(counts, {}, "no baseline on the first night: no change counts")
                else:
                    self.assertEqual(counts[("delta", "new-fail")], 1 if number == 2 else 0, ctx)
                    self.assertEqual(counts[("delta", "fixed")], 1 if number == 4 else 0, ctx)
                for (name, labels), _ in held.items():
                    labels = dict(labels)
                    self.assertEqual((labels["job"], labels["register"]), ("adrprobe", "apis"), name)
                self.assertEqual({labels["owner"] for labels, _ in of(held, "adrprobe_target_info")},
                                 {"team-a", "team-d"})
                # the Pushgateway's own record of the group: pushed, never failed
                groups = samples_of(gateway.get("/metrics"), lambda name: name.startswith("push_"))
                times = {(name, dict(labels)["register"]): value for (name, labels), value in groups.items()}
                self.assertGreater(times[("push_time_seconds", "apis")], 0, ctx)
                self.assertEqual(times[("push_failure_time_seconds", "apis")], 0, ctx)


class BatchPush(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="adrprobe-push-batch-"))

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_a_night_of_one_shard_pushes_itself_under_the_registers_name(self):
        with FixtureServer({"base": "/a/v1"}, max_seconds=120) as srv, Pushgateway() as gateway:
            register = write_register(self.tmp / "gemeente-apis.yaml", [{"name": "a", "base_url": srv.base_url}])
            out = self.tmp / "out"
            run = harness.run_adrprobe(["batch", register, "--out-dir", out, "--pushgateway", gateway.url + "/",
                                        "--fail-on", "never"] + FAST_ARGS.split())
            self.assertEqual(run.rc, 0, run.describe())
            self.assertNotIn("warning", run.stderr)
            prom = (out / "summary.prom").read_text(encoding="utf-8")
            self.assertEqual(gateway.series(), pushed_as(prom, "gemeente-apis"))
            self.assertEqual(json.loads((out / "summary.json").read_text())["register_name"], "gemeente-apis")
            # a name with a "/" goes in the Pushgateway's base64 form, and is the label as given
            run = harness.run_adrprobe(["batch", register, "--out-dir", out, "--pushgateway", gateway.url,
                                        "--register-name", "team a/apis", "--fail-on", "never"] + FAST_ARGS.split())
            self.assertEqual(run.rc, 0, run.describe())
            self.assertNotIn("warning", run.stderr)
            registers = {dict(labels)["register"] for (name, labels) in gateway.series()}
            self.assertEqual(registers, {"gemeente-apis", "team a/apis"})
            # summary reads the name the batch recorded
            merged = self.tmp / "merged"
            run = harness.run_adrprobe(["summary", "--out-dir", merged, "--pushgateway", gateway.url,
                                        "--fail-on", "never", out])
            self.assertEqual(run.rc, 0, run.describe())
            self.assertNotIn("warning", run.stderr)
            self.assertEqual(json.loads((merged / "summary.json").read_text())["register_name"], "team a/apis")

    def test_a_shard_of_several_is_refused_before_any_request(self):
        with FixtureServer({"base": "/a/v1"}, max_seconds=120) as srv:
            register = write_register(self.tmp / "apis.yaml", [{"name": "a", "base_url": srv.base_url},
                                                               {"name": "b", "base_url": srv.base_url + "x"}])
            run = harness.run_adrprobe(["batch", register, "--out-dir", self.tmp / "out", "--shard", "0/2",
                                        "--pushgateway", "http://127.0.0.1:9/"] + FAST_ARGS.split())
            self.assertEqual(run.rc, 2, run.describe())
            self.assertIn("--pushgateway with --shard", run.stderr)
            self.assertEqual(srv.requests(), [])
            for bad, why in (("ftp://pg.example/", "http"), ("http://pg.example:9091/metrics/job/x", "/metrics/job"),
                             ("http://pg.example:9091/?a=1", "query")):
                run = harness.run_adrprobe(["batch", register, "--out-dir", self.tmp / "out", "--pushgateway", bad])
                self.assertEqual(run.rc, 2, run.describe())
                self.assertIn("--pushgateway", run.stderr)
                self.assertIn(why, run.stderr)
            self.assertEqual(srv.requests(), [])


class FailedPush(unittest.TestCase):
    """A push that fails: one warning, the exit status of the night, no secret shown."""

    TOKEN = "pg-token-9f3a7c21e0"

    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="adrprobe-push-failed-"))
        # one target failing a rule: the night's status is 1, with a push or without
        with FixtureServer({"base": "/a/v1", "trailing_slash": 301}, max_seconds=120) as srv:
            register = write_register(cls.tmp / "apis.yaml", [{"name": "a", "base_url": srv.base_url}])
            cls.out = cls.tmp / "out"
            run = harness.run_adrprobe(["batch", register, "--out-dir", cls.out] + FAST_ARGS.split())
            assert run.rc == 1, run.describe()
        (cls.tmp / "headers").write_text("X-Scope-OrgID: ${PG_TENANT}\n")
        cls.env = {"PG_TOKEN": cls.TOKEN, "PG_TENANT": "tenant-5be0d7c4"}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def summary(self, url, name="m", bearer=True):
        """summary --pushgateway url, with a header from -H (unless `bearer` is
        false: it would replace the URL's credentials) and one from --header-file."""
        merged = self.tmp / name
        headers = ["-H", "Authorization: Bearer ${PG_TOKEN}"] if bearer else []
        run = harness.run_adrprobe(["summary", "--out-dir", merged, "--pushgateway", url, "--timeout", "2",
                                    "--header-file", self.tmp / "headers"] + headers + [self.out],
                                   env=self.env, timeout=60)
        self.assertEqual(run.rc, 1, "the night's status, whatever the push: %s" % run.describe())
        for secret in (self.TOKEN, "tenant-5be0d7c4", PG_PASSWORD):
            self.assertNotIn(secret, run.stdout + run.stderr)
            for f in merged.iterdir():
                self.assertNotIn(secret, f.read_text(encoding="utf-8", errors="replace"), f.name)
        self.assertTrue((merged / "summary.prom").is_file(), "the files are written before the push")
        return run

    def warnings(self, run):
        return [line for line in run.stderr.splitlines() if "push to" in line]

    def test_a_closed_port(self):
        with harness.closed_port() as url:
            origin = url.rsplit("/", 1)[0]
            run = self.summary(origin)
        lines = self.warnings(run)
        self.assertEqual(len(lines), 1, run.stderr)
        self.assertTrue(lines[0].startswith("adrprobe: warning: push to %s/metrics/job/adrprobe/register/apis failed: "
                                            % origin), lines[0])
        self.assertIn("refused", lines[0])

    def test_a_pushgateway_that_never_answers(self):
        with socket.socket() as s:   # listens, never reads: the request waits for an answer
            s.bind(("127.0.0.1", 0))
            s.listen(8)
            start = time.monotonic()
            run = self.summary("http://127.0.0.1:%d" % s.getsockname()[1])
            took = time.monotonic() - start
        lines = self.warnings(run)
        self.assertEqual(len(lines), 1, run.stderr)
        self.assertIn("timeout after 2 s", lines[0])
        self.assertLess(took, 20, "--timeout 2 bounds the push")

    def test_a_refusal_and_a_password_in_the_url(self):
        with Pushgateway(basic_auth=True) as gateway:
            # the URL's password is wrong: 401, said with the password masked
            wrong = "http://%s:%s@127.0.0.1:%d" % (PG_USER, "wrong-" + PG_PASSWORD, gateway.port)
            run = self.summary(wrong, bearer=False)
            lines = self.warnings(run)
            self.assertEqual(len(lines), 1, run.stderr)
            self.assertIn("push to http://%s:***@127.0.0.1:%d/metrics/job/adrprobe/register/apis failed: HTTP 401"
                          % (PG_USER, gateway.port), lines[0])
            self.assertEqual(gateway.series(), {})
            # the right one: the push goes through (libcurl sends the URL's credentials)
            right = "http://%s:%s@127.0.0.1:%d" % (PG_USER, PG_PASSWORD, gateway.port)
            run = self.summary(right, name="m2", bearer=False)
            self.assertEqual(self.warnings(run), [], run.stderr)
            prom = (self.tmp / "m2" / "summary.prom").read_text(encoding="utf-8")
            self.assertEqual(gateway.series(), pushed_as(prom, "apis"))

    def test_headers_go_along(self):
        with Pushgateway(basic_auth=True) as gateway:
            env = dict(self.env, PG_AUTH=gateway.auth)
            merged = self.tmp / "m3"
            run = harness.run_adrprobe(["summary", "--out-dir", merged, "--pushgateway", gateway.url,
                                        "-H", "Authorization: ${PG_AUTH}", self.out], env=env, timeout=60)
            self.assertEqual(run.rc, 1, run.describe())
            self.assertEqual(self.warnings(run), [], run.stderr)
            self.assertNotIn(gateway.auth.split()[1], run.stdout + run.stderr)
            prom = (merged / "summary.prom").read_text(encoding="utf-8")
            self.assertEqual(gateway.series(), pushed_as(prom, "apis"))


if __name__ == "__main__":
    harness.main()
