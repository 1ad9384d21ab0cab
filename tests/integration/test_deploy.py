"""deploy/: the GitLab CI template, the Kubernetes CronJob and the GitHub Actions workflow.

Both files are parsed (python3-yaml) and checked for what GitLab and
Kubernetes require of them and for what adrprobe's sharding needs (CLI.md,
"Batch file"): GitLab's 1-based CI_NODE_INDEX becomes the 0-based --shard,
Kubernetes' completions, parallelism and --shard ...$(JOB_COMPLETION_INDEX)/N
agree, every $(VAR) an argument names is defined, every volume mounted exists.
The template's shell snippets run under /bin/sh (and busybox's sh, the shell
of the -ci image, when installed) with a stand-in `adrprobe` that records its
arguments and exits with a chosen status. kubectl is not needed.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

REPO = harness.REPO
GITLAB = REPO / "deploy" / "gitlab-ci.yml"
CRONJOB = REPO / "deploy" / "kubernetes" / "cronjob.yaml"
GITHUB = REPO / "deploy" / "github-actions.yml"


def meson_version():
    m = re.search(r"^\s*version\s*:\s*'([^']+)'", (REPO / "meson.build").read_text(), re.M)
    assert m, "no version in meson.build"
    return m.group(1)


# --------------------------------------------------------------------------
# GitLab CI
# --------------------------------------------------------------------------

# GitLab's own keys at the top level of a .gitlab-ci.yml: not jobs.
GITLAB_GLOBAL_KEYS = {"variables", "stages", "default", "include", "workflow", "image", "services",
                      "cache", "before_script", "after_script", "spec"}


def script_text(job):
    return "\n".join(job.get("before_script", []) + job["script"])


def shell_reads(text):
    """The variables a script's shell reads: $NAME and ${NAME}, but not a
    '${NAME}' in single quotes, which the shell passes on as it is (adrprobe
    reads it from the environment itself, e.g. a client secret)."""
    text = re.sub(r"'\$\{[A-Za-z_]\w*\}'", "", text)
    return set(re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", text))


def shells():
    """The POSIX shells to run the template's scripts in: /bin/sh, and busybox's
    sh (the -ci image's shell) when it is installed."""
    found = [["/bin/sh"]]
    if os.path.exists("/bin/busybox"):
        found.append(["/bin/busybox", "sh"])
    return found


class GitLabTemplate(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.doc = yaml.safe_load(GITLAB.read_text())
        cls.jobs = {k: v for k, v in cls.doc.items() if k not in GITLAB_GLOBAL_KEYS and not k.startswith(".")}
        cls.batch = cls.jobs.get("adrprobe:batch")
        cls.summary = cls.jobs.get("adrprobe:summary")

    def test_two_jobs_each_with_a_script(self):
        self.assertEqual(set(self.jobs), {"adrprobe:batch", "adrprobe:summary"})
        for name, job in self.jobs.items():
            self.assertIsInstance(job.get("script"), list, name)
            self.assertTrue(all(isinstance(line, str) and line.strip() for line in job["script"]), name)
            self.assertIn("stage", job, name)

    def test_variables_have_defaults(self):
        variables = self.doc["variables"]
        for name in ("ADRPROBE_IMAGE", "ADRPROBE_TARGETS", "ADRPROBE_BASELINE_DIR", "ADRPROBE_PREVIOUS_DIR",
                     "ADRPROBE_CACHE_KEY", "ADRPROBE_BATCH_ARGS", "ADRPROBE_PUSHGATEWAY"):
            self.assertIn(name, variables)
            self.assertIsInstance(variables[name], str, name)
        # The default image is the -ci variant (with a shell) of this version.
        self.assertTrue(variables["ADRPROBE_IMAGE"].endswith(":%s-ci" % meson_version()),
                        "ADRPROBE_IMAGE %r: the tag is <meson.build version>-ci" % variables["ADRPROBE_IMAGE"])

    def test_every_variable_a_script_reads_is_defined_or_gitlabs(self):
        for name, job in self.jobs.items():
            text = script_text(job)
            # the template's variables, and the script's own (for f in ...; x=...)
            defined = set(self.doc["variables"]) | set(re.findall(r"\bfor ([A-Za-z_]\w*) in", text)) | \
                set(re.findall(r"(?:^|[;\s])([A-Za-z_]\w*)=", text))
            for var in shell_reads(text) | set(re.findall(r"\$\(\(([A-Za-z_][A-Za-z0-9_]*)", text)):
                self.assertTrue(var in defined or var.startswith("CI_"),
                                "%s reads $%s, which neither the template nor GitLab defines" % (name, var))

    def test_batch_job_is_sharded_with_parallel(self):
        parallel = self.batch["parallel"]
        self.assertIs(type(parallel), int, "GitLab takes no variable in parallel: an integer")
        self.assertGreaterEqual(parallel, 2)
        self.assertLessEqual(parallel, 200)

    def test_batch_command(self):
        text = script_text(self.batch)
        self.assertIn('adrprobe batch "$ADRPROBE_TARGETS"', text)
        self.assertIn("--shard $((CI_NODE_INDEX-1))/$CI_NODE_TOTAL", text)
        self.assertIn('--out-dir "out/$CI_NODE_INDEX"', text)
        self.assertIn("-o junit", text)
        self.assertIn("--fail-on regressed", text)
        self.assertIn('--baseline-dir "$ADRPROBE_BASELINE_DIR"', text)

    def test_state_is_carried_in_a_cache_with_a_fixed_key(self):
        variables = self.doc["variables"]
        self.assertNotIn("$", variables["ADRPROBE_CACHE_KEY"], "a fixed key: the same cache every night")
        for name, policy in (("adrprobe:batch", "pull"), ("adrprobe:summary", "pull-push")):
            cache = self.jobs[name]["cache"]
            self.assertEqual(cache["key"], "$ADRPROBE_CACHE_KEY", name)
            self.assertEqual(cache["policy"], policy, name)
            # GitLab expands no variable in cache paths: they name the directories literally
            for var in ("ADRPROBE_BASELINE_DIR", "ADRPROBE_PREVIOUS_DIR"):
                self.assertTrue(any(variables[var].startswith(p.rstrip("/") + "/") for p in cache["paths"]),
                                "%s: %s=%s is not under the cache's paths %s" % (name, var, variables[var],
                                                                                 cache["paths"]))
        self.assertEqual(self.summary["cache"]["when"], "always", "saved also on a night that got worse")
        self.assertIn("resource_group", self.summary, "two summaries never update the cache at once")

    def test_jobs_run_in_the_image_with_gitlabs_shell(self):
        for name, job in self.jobs.items():
            image = job["image"]
            self.assertEqual(image["name"], "$ADRPROBE_IMAGE", name)
            self.assertEqual(image["entrypoint"], [""], name + ": the image's entrypoint is adrprobe")

    def test_only_scheduled_and_web_pipelines(self):
        for name, job in self.jobs.items():
            conditions = [r["if"] for r in job["rules"]]
            self.assertEqual(len(conditions), len(job["rules"]), name + ": every rule has an if")
            self.assertIn('$CI_PIPELINE_SOURCE == "schedule"', conditions, name)
            self.assertIn('$CI_PIPELINE_SOURCE == "web"', conditions, name)
            for c in conditions:
                self.assertRegex(c, r'^\$CI_PIPELINE_SOURCE == "(schedule|web)"$', name)

    def test_could_not_test_is_allowed_to_fail(self):
        codes = self.batch["allow_failure"]["exit_codes"]
        codes = codes if isinstance(codes, list) else [codes]
        self.assertIn(3, codes)
        self.assertNotIn(1, codes, "a failing rule stays a failed job")
        self.assertNotIn(2, codes, "a configuration error stays a failed job")

    def test_batch_artifacts(self):
        artifacts = self.batch["artifacts"]
        self.assertEqual(artifacts["reports"]["junit"], "out/*/*.xml")
        self.assertIn("out/", artifacts["paths"])
        self.assertEqual(artifacts["when"], "always", "the reports of a failing night are kept")

    def test_summary_needs_every_batch_job(self):
        needs = self.summary["needs"]
        names = [n["job"] if isinstance(n, dict) else n for n in needs]
        self.assertIn("adrprobe:batch", names)
        for n in needs:
            if isinstance(n, dict):
                self.assertTrue(n.get("artifacts", True), "the summary reads the batch jobs' artifacts")
        self.assertTrue(all(r.get("when") == "always" for r in self.summary["rules"]),
                        "the summary runs also when a shard failed")

    def test_summary_command_and_artifacts(self):
        text = script_text(self.summary)
        self.assertIn("adrprobe summary --out-dir public \"$@\" --fail-on regressed out/* || status=$?", text)
        self.assertIn('--previous "$ADRPROBE_PREVIOUS_DIR"', text)
        self.assertEqual(self.summary["script"][-1], "exit $status", "the summary's status, after the updates")
        self.assertIn('set -- "$@" --pushgateway "$ADRPROBE_PUSHGATEWAY"', text)
        self.assertNotIn("wget", text, "adrprobe PUTs summary.prom itself (a POST leaves stale series)")
        artifacts = self.summary["artifacts"]
        self.assertEqual(artifacts["paths"], ["public/"], "summary.* and the reports it links, one directory")
        self.assertEqual(artifacts["when"], "always")
        self.assertIn("expose_as", artifacts)
        # expose_as takes no globs and no variables in paths
        self.assertFalse([p for p in artifacts["paths"] if "*" in p or "$" in p])

    # -- the scripts, run --------------------------------------------------

    def run_script(self, shell, job, workdir, env, exit_status=0):
        """Runs a job's script lines as GitLab does (one shell, stop at the
        first failing line), with a stand-in adrprobe that appends its
        arguments, one per line, to workdir/calls and exits exit_status."""
        bindir = workdir / "bin"
        bindir.mkdir(exist_ok=True)
        fake = bindir / "adrprobe"
        fake.write_text('#!/bin/sh\nfor a in "$@"; do printf "%%s\\n" "$a"; done >> "%s/calls"\n'
                        'echo --- >> "%s/calls"\nexit %d\n' % (workdir, workdir, exit_status))
        fake.chmod(0o755)
        full_env = {"PATH": "%s:/usr/bin:/bin" % bindir, "HOME": str(workdir)}
        full_env.update({k: str(v) for k, v in self.doc["variables"].items()})
        full_env.update({k: str(v) for k, v in env.items()})
        # $CI_REGISTRY_IMAGE-style references in variables stay as they are: unused by scripts.
        proc = subprocess.run(shell + ["-e", "-c", "\n".join(job["script"])], cwd=workdir, env=full_env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
        calls = (workdir / "calls").read_text().split("---\n") if (workdir / "calls").exists() else []
        return proc, [c.splitlines() for c in calls if c.strip()]

    def test_each_parallel_job_probes_its_zero_based_shard(self):
        n = self.batch["parallel"]
        for shell in shells():
            for index in range(1, n + 1):
                with tempfile.TemporaryDirectory() as d, self.subTest(shell=shell[-1], index=index):
                    work = Path(d)
                    proc, calls = self.run_script(shell, self.batch, work,
                                                  {"CI_NODE_INDEX": index, "CI_NODE_TOTAL": n})
                    self.assertEqual(proc.returncode, 0, proc.stderr)
                    self.assertEqual(len(calls), 1)
                    args = calls[0]
                    self.assertEqual(args[:2], ["batch", self.doc["variables"]["ADRPROBE_TARGETS"]])
                    self.assertEqual(args[args.index("--shard") + 1], "%d/%d" % (index - 1, n))
                    self.assertEqual(args[args.index("--out-dir") + 1], "out/%d" % index)
                    self.assertEqual(args[args.index("-o") + 1], "junit")
                    self.assertTrue((work / "out" / str(index)).is_dir())
                    self.assertNotIn("--baseline-dir", args, "no baseline directory, no --baseline-dir")
                    self.assertIn("no baseline", proc.stdout)

    def test_baseline_dir_and_extra_args_when_given(self):
        for shell in shells():
            with tempfile.TemporaryDirectory() as d, self.subTest(shell=shell[-1]):
                work = Path(d)
                (work / "last night").mkdir()
                proc, calls = self.run_script(shell, self.batch, work,
                                              {"CI_NODE_INDEX": 2, "CI_NODE_TOTAL": 3,
                                               "ADRPROBE_BASELINE_DIR": "last night",
                                               "ADRPROBE_BATCH_ARGS": "--rate 5 --fail-on warn"})
                self.assertEqual(proc.returncode, 0, proc.stderr)
                args = calls[0]
                self.assertEqual(args[args.index("--shard") + 1], "1/3")
                self.assertEqual(args[args.index("--baseline-dir") + 1], "last night")
                self.assertEqual(args[-4:], ["--rate", "5", "--fail-on", "warn"])

    def test_register_refreshed_from_don_only_when_asked(self):
        self.assertEqual(self.doc["variables"]["ADRPROBE_DON_REGISTER"], "", "no refresh unless set")
        targets = self.doc["variables"]["ADRPROBE_TARGETS"]
        for shell in shells():
            for status in (0, 3):
                with tempfile.TemporaryDirectory() as d, self.subTest(shell=shell[-1], status=status):
                    proc, calls = self.run_script(shell, self.batch, Path(d),
                                                  {"CI_NODE_INDEX": 1, "CI_NODE_TOTAL": 2,
                                                   "ADRPROBE_DON_REGISTER": "https://don.example/v1",
                                                   "ADRPROBE_REGISTER_ARGS": "-HX-Api-Key:${DON_KEY}"},
                                                  exit_status=status)
                    # 3 (some APIs not fetched) does not stop the batch; its own status is the job's.
                    self.assertEqual(proc.returncode, status, proc.stderr)
                    self.assertEqual(len(calls), 2)
                    self.assertEqual(calls[0], ["register", "--from", "https://don.example/v1", "--merge", targets,
                                                "-o", targets, "-HX-Api-Key:${DON_KEY}"])
                    self.assertEqual(calls[1][:2], ["batch", targets])
        with tempfile.TemporaryDirectory() as d:
            proc, calls = self.run_script(["/bin/sh"], self.batch, Path(d),
                                          {"CI_NODE_INDEX": 1, "CI_NODE_TOTAL": 2,
                                           "ADRPROBE_DON_REGISTER": "https://don.example/v1"}, exit_status=2)
            self.assertEqual(proc.returncode, 2, "an unusable register answer stops the job")
            self.assertEqual(len(calls), 1)

    def test_register_behind_oauth2_with_the_secret_from_a_masked_variable(self):
        variables = self.doc["variables"]
        self.assertEqual(variables["ADRPROBE_DON_OAUTH2_TOKEN_URL"], "", "no token unless set")
        self.assertEqual(variables["ADRPROBE_DON_OAUTH2_CLIENT_ID"], "")
        self.assertNotIn("ADRPROBE_DON_OAUTH2_CLIENT_SECRET", variables, "the secret is never in the file")
        self.assertIn("masked, protected CI/CD variable ADRPROBE_DON_OAUTH2_CLIENT_SECRET", GITLAB.read_text())
        targets = variables["ADRPROBE_TARGETS"]
        secret = "s3cr3t-0f-the-client"
        for shell in shells():
            with tempfile.TemporaryDirectory() as d, self.subTest(shell=shell[-1]):
                # -x: the shell traces every command, as a debugging CI job does
                proc, calls = self.run_script(shell + ["-x"], self.batch, Path(d),
                                              {"CI_NODE_INDEX": 1, "CI_NODE_TOTAL": 2,
                                               "ADRPROBE_DON_REGISTER": "https://don.example/v1",
                                               "ADRPROBE_DON_OAUTH2_TOKEN_URL": "https://auth.example/token",
                                               "ADRPROBE_DON_OAUTH2_CLIENT_ID": "adrprobe",
                                               "ADRPROBE_DON_OAUTH2_CLIENT_SECRET": secret,
                                               "ADRPROBE_REGISTER_ARGS": "--rate 1"})
                self.assertEqual(proc.returncode, 0, proc.stderr)
                self.assertEqual(calls[0], ["register", "--from", "https://don.example/v1", "--merge", targets,
                                            "-o", targets, "--oauth2-token-url", "https://auth.example/token",
                                            "--oauth2-client-id", "adrprobe",
                                            "--oauth2-client-secret", "${ADRPROBE_DON_OAUTH2_CLIENT_SECRET}",
                                            "--rate", "1"])
                # adrprobe reads the secret from the environment: on no command line, in no trace
                self.assertNotIn(secret, proc.stdout + proc.stderr)
                self.assertNotIn("--oauth2-token-url", calls[1], "the batch's own arguments are its own")

    def test_the_jobs_exit_status_is_adrprobes(self):
        # allow_failure: exit_codes: [3] sees adrprobe's own status.
        for shell in shells():
            for status in (1, 2, 3):
                with tempfile.TemporaryDirectory() as d, self.subTest(shell=shell[-1], status=status):
                    proc, _ = self.run_script(shell, self.batch, Path(d),
                                              {"CI_NODE_INDEX": 1, "CI_NODE_TOTAL": 2}, exit_status=status)
                    self.assertEqual(proc.returncode, status, proc.stderr)

    def test_summary_merges_every_shard_and_keeps_a_flat_baseline(self):
        baseline = self.doc["variables"]["ADRPROBE_BASELINE_DIR"]
        previous = self.doc["variables"]["ADRPROBE_PREVIOUS_DIR"]
        for shell in shells():
            for status in (0, 1, 3):
                with tempfile.TemporaryDirectory() as d, self.subTest(shell=shell[-1], status=status):
                    work = Path(d)
                    for shard, names in (("1", ["bag.json", "bag.xml", "summary.json", "summary.md"]),
                                         ("2", ["kvk.json", "summary.json", "summary.prom"])):
                        (work / "out" / shard).mkdir(parents=True)
                        for name in names:
                            (work / "out" / shard / name).write_text("{}")
                    (work / baseline).mkdir(parents=True)
                    (work / baseline / "old.json").write_text("{}")   # a target whose shard wrote nothing
                    (work / "public").mkdir()
                    (work / "public" / "summary.json").write_text('{"tonight": 1}')
                    proc, calls = self.run_script(shell, self.summary, work, {}, exit_status=status)
                    # the job's status is the summary's, and the updates ran whatever it was
                    self.assertEqual(proc.returncode, status, proc.stderr)
                    self.assertEqual(calls, [["summary", "--out-dir", "public", "--fail-on", "regressed",
                                              "out/1", "out/2"]])
                    self.assertIn("no previous summary", proc.stdout)
                    self.assertEqual(sorted(p.name for p in (work / baseline).iterdir()),
                                     ["bag.json", "kvk.json", "old.json"])
                    self.assertEqual((work / previous / "summary.json").read_text(), '{"tonight": 1}')

    def test_summary_with_a_previous_night(self):
        previous = self.doc["variables"]["ADRPROBE_PREVIOUS_DIR"]
        with tempfile.TemporaryDirectory() as d:
            work = Path(d)
            (work / "out" / "1").mkdir(parents=True)
            (work / previous).mkdir(parents=True)
            (work / previous / "summary.json").write_text("{}")
            proc, calls = self.run_script(["/bin/sh"], self.summary, work, {})
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(calls, [["summary", "--out-dir", "public", "--previous", previous,
                                      "--fail-on", "regressed", "out/1"]])

    def test_summary_of_shards_that_wrote_no_report(self):
        # every batch job failed before writing: the summary job still runs adrprobe
        baseline = self.doc["variables"]["ADRPROBE_BASELINE_DIR"]
        for shell in shells():
            with tempfile.TemporaryDirectory() as d, self.subTest(shell=shell[-1]):
                work = Path(d)
                (work / "out" / "1").mkdir(parents=True)
                proc, calls = self.run_script(shell, self.summary, work, {}, exit_status=3)
                self.assertEqual(proc.returncode, 3, proc.stderr)
                self.assertEqual(calls, [["summary", "--out-dir", "public", "--fail-on", "regressed", "out/1"]])
                self.assertEqual(list((work / baseline).iterdir()), [])

    def test_no_push_without_a_pushgateway(self):
        for shell in shells():
            with tempfile.TemporaryDirectory() as d, self.subTest(shell=shell[-1]):
                work = Path(d)
                (work / "out" / "1").mkdir(parents=True)
                proc, calls = self.run_script(shell, self.summary, work, {"ADRPROBE_PUSHGATEWAY": ""})
                self.assertEqual(proc.returncode, 0, proc.stderr)
                self.assertEqual(calls, [["summary", "--out-dir", "public", "--fail-on", "regressed", "out/1"]],
                                 "ADRPROBE_PUSHGATEWAY empty: no push")
            with tempfile.TemporaryDirectory() as d, self.subTest(shell=shell[-1]):
                work = Path(d)
                (work / "out" / "1").mkdir(parents=True)
                proc, calls = self.run_script(shell, self.summary, work, {"ADRPROBE_PUSHGATEWAY": "http://pg:9091"},
                                              exit_status=1)
                self.assertEqual(proc.returncode, 1, "the summary's status, with a push: " + proc.stderr)
                self.assertEqual(calls, [["summary", "--out-dir", "public", "--pushgateway", "http://pg:9091",
                                          "--fail-on", "regressed", "out/1"]])


# --------------------------------------------------------------------------
# Kubernetes
# --------------------------------------------------------------------------

CRON_FIELDS = [(0, 59), (0, 23), (1, 31), (1, 12), (0, 7)]


def valid_cron(schedule):
    """A standard 5-field cron schedule (numbers, *, ranges, steps, lists)."""
    fields = schedule.split()
    if len(fields) != 5:
        return False
    for field, (low, high) in zip(fields, CRON_FIELDS):
        for part in field.split(","):
            m = re.fullmatch(r"(\*|(\d+)(?:-(\d+))?)(?:/(\d+))?", part)
            if not m:
                return False
            numbers = [int(x) for x in (m.group(2), m.group(3)) if x is not None]
            if any(x < low or x > high for x in numbers) or (m.group(4) is not None and int(m.group(4)) == 0):
                return False
    return True


def minutes_of_day(schedule):
    """'M H * * *' -> minutes after midnight (a daily schedule)."""
    minute, hour = schedule.split()[:2]
    return int(hour) * 60 + int(minute)


class KubernetesCronJob(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.docs = [d for d in yaml.safe_load_all(CRONJOB.read_text()) if d]
        cronjobs = {d["metadata"]["name"]: d for d in cls.docs if d["kind"] == "CronJob"}
        cls.batch = cronjobs["adrprobe-batch"]
        cls.summary = cronjobs["adrprobe-summary"]
        cls.cronjobs = cronjobs

    @staticmethod
    def pod(cronjob):
        return cronjob["spec"]["jobTemplate"]["spec"]["template"]["spec"]

    @staticmethod
    def container(cronjob):
        containers = KubernetesCronJob.pod(cronjob)["containers"]
        assert len(containers) == 1
        return containers[0]

    def shards(self):
        return self.batch["spec"]["jobTemplate"]["spec"]["completions"]

    def test_api_versions_and_kinds(self):
        for d in self.docs:
            self.assertIn((d["apiVersion"], d["kind"]),
                          {("batch/v1", "CronJob"), ("v1", "PersistentVolumeClaim"), ("v1", "ConfigMap"),
                           ("apps/v1", "Deployment"), ("v1", "Service")})
            self.assertRegex(d["metadata"]["name"], r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
        self.assertEqual(set(self.cronjobs), {"adrprobe-batch", "adrprobe-summary"})

    def test_schedules(self):
        for name, cj in self.cronjobs.items():
            self.assertTrue(valid_cron(cj["spec"]["schedule"]), "%s: schedule %r" % (name, cj["spec"]["schedule"]))
            self.assertEqual(cj["spec"]["concurrencyPolicy"], "Forbid", name)
        self.assertFalse(valid_cron("0 2 * *"))
        self.assertFalse(valid_cron("60 2 * * *"))
        self.assertFalse(valid_cron("0 2 * * * *"))
        self.assertTrue(valid_cron("*/15 1-5 * * 1,3"))

    def test_summary_runs_after_the_batch_deadline(self):
        batch_job = self.batch["spec"]["jobTemplate"]["spec"]
        start = minutes_of_day(self.batch["spec"]["schedule"])
        latest_end = start + batch_job["activeDeadlineSeconds"] // 60
        self.assertGreaterEqual(minutes_of_day(self.summary["spec"]["schedule"]), latest_end)
        self.assertEqual(self.batch["spec"].get("timeZone"), self.summary["spec"].get("timeZone"))

    def test_indexed_job_with_one_pod_per_shard(self):
        job = self.batch["spec"]["jobTemplate"]["spec"]
        self.assertEqual(job["completionMode"], "Indexed")
        self.assertIsInstance(job["completions"], int)
        self.assertGreaterEqual(job["completions"], 1)
        self.assertEqual(job["parallelism"], job["completions"])
        for key in ("backoffLimit", "activeDeadlineSeconds"):
            self.assertIsInstance(job[key], int, key)

    @staticmethod
    def script(cronjob):
        return KubernetesCronJob.container(cronjob)["command"][2]

    @staticmethod
    def env_values(cronjob):
        return {e["name"]: e.get("value") for e in KubernetesCronJob.container(cronjob).get("env", [])}

    def test_commands_are_shell_scripts_of_the_ci_image(self):
        # the plain image has no shell: the CronJobs run the -ci image's busybox sh
        for name, cj in self.cronjobs.items():
            c = self.container(cj)
            self.assertEqual(c["command"][:2], ["/bin/sh", "-c"], name)
            self.assertEqual(len(c["command"]), 3, name)
            self.assertNotIn("args", c, name)
            self.assertTrue(c["command"][2].startswith("set -e\n"), name)

    def test_batch_script(self):
        text = self.script(self.batch)
        env = self.env_values(self.batch)
        self.assertEqual(env["ADRPROBE_SHARDS"], str(self.shards()), "ADRPROBE_SHARDS is completions")
        self.assertEqual(env["ADRPROBE_TARGETS"], "/config/targets.yaml")
        self.assertEqual(env["ADRPROBE_DATA"], "/data")
        self.assertIn('--shard "$JOB_COMPLETION_INDEX/$ADRPROBE_SHARDS"', text)
        self.assertIn('out="$ADRPROBE_DATA/runs/$run/out/$JOB_COMPLETION_INDEX"', text)
        self.assertIn('--baseline-dir "$ADRPROBE_DATA/baseline"', text)
        self.assertIn("--fail-on regressed", text)
        self.assertIn('exec adrprobe batch "$ADRPROBE_TARGETS" "$@" $ADRPROBE_BATCH_ARGS', text)

    def test_register_refresh_writes_one_file_a_night_on_the_claim(self):
        text = self.script(self.batch)
        env = self.env_values(self.batch)
        self.assertEqual(env["ADRPROBE_DON_REGISTER"], "", "no refresh unless set")
        self.assertIn('if [ -n "$ADRPROBE_DON_REGISTER" ]; then', text)
        self.assertIn('refreshed="$ADRPROBE_DATA/runs/$run/targets.yaml"', text)
        self.assertIn('adrprobe register --from "$ADRPROBE_DON_REGISTER" --merge "$ADRPROBE_TARGETS" -o "$refreshed" '
                      '"$@" $ADRPROBE_REGISTER_ARGS || { refresh=$?; [ $refresh -eq 3 ] || exit $refresh; }', text)
        self.assertIn('ADRPROBE_TARGETS="$refreshed"', text)
        self.assertLess(text.index("adrprobe register"), text.index("exec adrprobe batch"))
        # the register's arguments ("$@") are set before the batch's
        self.assertLess(text.index("adrprobe register"), text.index("set -- --out-dir"))

    def test_register_behind_oauth2_with_the_secret_from_a_secret(self):
        text = self.script(self.batch)
        env = {e["name"]: e for e in self.container(self.batch)["env"]}
        self.assertEqual(env["ADRPROBE_DON_OAUTH2_TOKEN_URL"]["value"], "", "no token unless set")
        self.assertEqual(env["ADRPROBE_DON_OAUTH2_CLIENT_ID"]["value"], "")
        secret = env["ADRPROBE_DON_OAUTH2_CLIENT_SECRET"]
        self.assertNotIn("value", secret, "the secret is never in the file")
        self.assertEqual(secret["valueFrom"], {"secretKeyRef": {"name": "adrprobe-don-oauth2", "key": "client_secret",
                                                                "optional": True}})
        self.assertIn('if [ -n "$ADRPROBE_DON_OAUTH2_TOKEN_URL" ]; then', text)
        self.assertIn('set -- --oauth2-token-url "$ADRPROBE_DON_OAUTH2_TOKEN_URL" --oauth2-client-id '
                      '"$ADRPROBE_DON_OAUTH2_CLIENT_ID" --oauth2-client-secret \'${ADRPROBE_DON_OAUTH2_CLIENT_SECRET}\'',
                      text)
        self.assertIn("kubectl create secret generic adrprobe-don-oauth2 --from-file=client_secret=",
                      CRONJOB.read_text())

    def test_summary_script(self):
        text = self.script(self.summary)
        self.assertIn('for d in "$run"/out/*/; do [ -d "$d" ] && set -- "$@" "${d%/}"; done', text)
        self.assertIn('adrprobe summary --out-dir "$run/summary" "$@" || status=$?', text)
        self.assertIn('set -- --previous "$data/latest"', text)
        self.assertIn("--fail-on regressed", text)
        self.assertTrue(text.rstrip().endswith("exit $status"), "the summary's status, after the updates")
        self.assertIn('set -- "$@" --pushgateway "$ADRPROBE_PUSHGATEWAY"', text)
        self.assertNotIn("wget", text, "adrprobe PUTs summary.prom itself (a POST leaves stale series)")
        self.assertEqual(self.env_values(self.summary)["ADRPROBE_PUSHGATEWAY"], "", "no push unless set")

    def test_scripts_read_only_defined_variables(self):
        for name, cj in self.cronjobs.items():
            text = self.script(cj)
            env = self.env_values(cj)
            defined = set(env) | set(re.findall(r"\bfor ([A-Za-z_]\w*) in", text)) | \
                set(re.findall(r"(?:^|[;\s])([A-Za-z_]\w*)=", text)) | {"ADRPROBE_RUN"}
            for var in shell_reads(text):
                self.assertIn(var, defined, "%s reads $%s, which neither its env nor the script defines" % (name, var))
            # Kubernetes expands $(NAME) of a defined variable in command, even inside the script
            for ref in re.findall(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", text):
                self.assertNotIn(ref, env, "%s: $(%s) would be expanded by Kubernetes, not the shell" % (name, ref))
        index = {e["name"]: e for e in self.container(self.batch)["env"]}["JOB_COMPLETION_INDEX"]
        self.assertEqual(index["valueFrom"]["fieldRef"]["fieldPath"],
                         "metadata.annotations['batch.kubernetes.io/job-completion-index']")

    def test_failures_and_retries(self):
        job = self.batch["spec"]["jobTemplate"]["spec"]
        self.assertIn(self.pod(self.batch)["restartPolicy"], ("Never", "OnFailure"))
        # podFailurePolicy and backoffLimitPerIndex need Never
        self.assertEqual(self.pod(self.batch)["restartPolicy"], "Never")
        self.assertIsInstance(job["backoffLimitPerIndex"], int)
        rules = job["podFailurePolicy"]["rules"]
        fail_index = [r for r in rules if r["action"] == "FailIndex"]
        self.assertEqual(len(fail_index), 1)
        on = fail_index[0]["onExitCodes"]
        self.assertEqual(on["operator"], "In")
        self.assertEqual(sorted(on["values"]), [1, 2, 3], "adrprobe's verdicts and usage errors: no retry")
        self.assertEqual(on["containerName"], self.container(self.batch)["name"])
        self.assertEqual(self.pod(self.summary)["restartPolicy"], "Never")
        fail_job = [r for r in self.summary["spec"]["jobTemplate"]["spec"]["podFailurePolicy"]["rules"]
                    if r["action"] == "FailJob"]
        self.assertEqual(sorted(fail_job[0]["onExitCodes"]["values"]), [1, 2, 3],
                         "a summary is not run twice: the second would find the night summarised")

    def test_security_context(self):
        for name, cj in self.cronjobs.items():
            pod_sc = self.pod(cj)["securityContext"]
            sc = self.container(cj)["securityContext"]
            self.assertTrue(pod_sc["runAsNonRoot"], name)
            self.assertEqual(pod_sc["runAsUser"], 65534, name)
            self.assertEqual(pod_sc["runAsGroup"], 65534, name)
            self.assertEqual(sc.get("runAsUser", 65534), 65534, name)
            self.assertIs(sc["readOnlyRootFilesystem"], True, name)
            self.assertIs(sc["allowPrivilegeEscalation"], False, name)
            self.assertEqual(sc["capabilities"]["drop"], ["ALL"], name)
            self.assertNotIn("add", sc["capabilities"], name)
            self.assertIs(self.pod(cj)["automountServiceAccountToken"], False, name)

    def test_image_reference(self):
        for name, cj in self.cronjobs.items():
            image = self.container(cj)["image"]
            self.assertRegex(image, r"^[a-z0-9.-]+(:\d+)?/[a-z0-9._/-]+:[A-Za-z0-9._-]+$", name)
            self.assertTrue(image.endswith(":%s-ci" % meson_version()),
                            "%s: %s is this version's image with a shell" % (name, image))

    def test_volumes_mounted_exist_and_tmpdir_is_writable(self):
        pvcs = {d["metadata"]["name"] for d in self.docs if d["kind"] == "PersistentVolumeClaim"}
        for name, cj in self.cronjobs.items():
            pod, c = self.pod(cj), self.container(cj)
            volumes = {v["name"]: v for v in pod["volumes"]}
            mounts = {m["mountPath"]: m for m in c["volumeMounts"]}
            for m in c["volumeMounts"]:
                self.assertIn(m["name"], volumes, "%s: volumeMount %s has no volume" % (name, m["name"]))
            self.assertEqual({m["name"] for m in c["volumeMounts"]}, set(volumes), name + ": every volume mounted")
            for v in volumes.values():
                if "persistentVolumeClaim" in v:
                    self.assertIn(v["persistentVolumeClaim"]["claimName"], pvcs, name)
            # the root file system is read-only: TMPDIR is an emptyDir
            tmpdir = {e["name"]: e.get("value") for e in c["env"]}["TMPDIR"]
            self.assertIn(tmpdir, mounts, name)
            self.assertIn("emptyDir", volumes[mounts[tmpdir]["name"]], name)
            # reports, baseline and summaries go to the claim
            self.assertIn("persistentVolumeClaim", volumes[mounts["/data"]["name"]], name)
            self.assertFalse(mounts["/data"].get("readOnly", False), name)

    def test_targets_from_a_configmap_and_keys_from_a_secret(self):
        pod, c = self.pod(self.batch), self.container(self.batch)
        volumes = {v["name"]: v for v in pod["volumes"]}
        config = [m for m in c["volumeMounts"] if m["mountPath"] == "/config"][0]
        self.assertTrue(config["readOnly"])
        self.assertEqual(volumes[config["name"]]["configMap"]["name"], "adrprobe-targets")
        self.assertIn({"secretRef": {"name": "adrprobe-secrets"}}, c["envFrom"])

    def test_web_serves_the_latest_summary_read_only(self):
        docs = {(d["kind"], d["metadata"]["name"]): d for d in self.docs}
        deployment = docs[("Deployment", "adrprobe-web")]
        pod = deployment["spec"]["template"]["spec"]
        c = pod["containers"][0]
        volumes = {v["name"]: v for v in pod["volumes"]}
        data = [m for m in c["volumeMounts"] if m["mountPath"] == "/data"][0]
        self.assertTrue(data["readOnly"])
        self.assertTrue(volumes[data["name"]]["persistentVolumeClaim"]["readOnly"])
        self.assertTrue(pod["securityContext"]["runAsNonRoot"])
        self.assertIs(c["securityContext"]["readOnlyRootFilesystem"], True)
        self.assertIs(c["securityContext"]["allowPrivilegeEscalation"], False)
        conf = docs[("ConfigMap", "adrprobe-web")]["data"]["default.conf"]
        self.assertIn("root /data/latest;", conf)
        self.assertIn("autoindex off;", conf)
        service = docs[("Service", "adrprobe-web")]
        self.assertEqual(service["spec"]["selector"], deployment["spec"]["selector"]["matchLabels"])
        self.assertEqual(deployment["spec"]["template"]["metadata"]["labels"],
                         deployment["spec"]["selector"]["matchLabels"])

    def test_the_header_says_how_to_create_what_it_references(self):
        text = CRONJOB.read_text()
        self.assertIn("kubectl create configmap adrprobe-targets --from-file=targets.yaml=", text)
        self.assertIn("kubectl create secret generic adrprobe-secrets", text)


# --------------------------------------------------------------------------
# GitHub Actions
# --------------------------------------------------------------------------

class GitHubWorkflow(unittest.TestCase):
    """The workflow's register refresh (its run: steps run in test_nightly)."""

    def test_register_behind_oauth2_with_the_secret_from_a_repository_secret(self):
        doc = yaml.safe_load(GITHUB.read_text())
        self.assertEqual(doc["env"]["ADRPROBE_DON_OAUTH2_TOKEN_URL"], "${{ vars.ADRPROBE_DON_OAUTH2_TOKEN_URL }}")
        self.assertEqual(doc["env"]["ADRPROBE_DON_OAUTH2_CLIENT_ID"], "${{ vars.ADRPROBE_DON_OAUTH2_CLIENT_ID }}")
        self.assertFalse([k for k, v in doc["env"].items() if "secrets." in str(v)], "no secret for every step")
        steps = [s for job in doc["jobs"].values() for s in job.get("steps", [])]
        holding = [s["name"] for s in steps if "ADRPROBE_DON_OAUTH2_CLIENT_SECRET" in s.get("env", {})]
        self.assertEqual(holding, ["Refresh the batch file from DON's API register"], "only the refresh step has it")
        refresh = next(s for s in steps if s.get("name") == holding[0])
        self.assertEqual(refresh["env"]["ADRPROBE_DON_OAUTH2_CLIENT_SECRET"],
                         "${{ secrets.ADRPROBE_DON_OAUTH2_CLIENT_SECRET }}")
        self.assertIn("--oauth2-client-secret '${ADRPROBE_DON_OAUTH2_CLIENT_SECRET}'", refresh["run"])
        self.assertIn('"$@" $ADRPROBE_REGISTER_ARGS', refresh["run"])


if __name__ == "__main__":
    harness.main()
