"""deploy/image.sh: the OCI image, built with buildah and run.

Builds the image from the binary under test ($ADRPROBE, else build/adrprobe)
twice, plain (for Kubernetes: no shell) and with --shell (busybox, for GitLab
CI), under names of this run's own, then mounts each (buildah from + mount)
and runs the binary in it with chroot as nobody (65534:65534) and the image's
environment: `adrprobe demo` (HTTPS with the CA it makes per run, which goes to
$TMPDIR), `--version`, and a check of a fixture server by a name that only the
image's /etc/hosts knows (glibc's name lookup in the image); in the -ci image,
the GitLab template's batch and summary job scripts, two nights in a row. The
containers and images are removed afterwards.

Needs root (buildah's storage and mount, chroot), buildah and busybox-static
(the -ci image's shell). Not root is a failure that says so (./dev test runs as
root in CI). Without buildah or busybox-static it fails where Debian packages
them (./dev installs both) and skips only where they are not packaged
(harness.require_tool). A sanitizer build of the binary cannot start in the
chroot (ASan needs /proc, which the chroot has not), so tests/meson.build does
not register this suite in a sanitizer build (./dev test-asan); run directly
with one, it fails and says why.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import REPO, FixtureServer, _execute, binary, yaml_text  # noqa: E402

IMAGE_SH = REPO / "deploy" / "image.sh"
NOBODY = "65534:65534"


def meson_version():
    m = re.search(r"^\s*version\s*:\s*'([^']+)'", (REPO / "meson.build").read_text(), re.M)
    assert m, "no version in meson.build"
    return m.group(1)


def buildah(*args, timeout=120):
    proc = subprocess.run(["buildah", *args], capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        raise AssertionError("buildah %s: exit %d\n%s" % (" ".join(args), proc.returncode, proc.stderr))
    return proc.stdout.strip()


class Image:
    """One image built by deploy/image.sh, and a working container of it, mounted."""

    def __init__(self, name, shell):
        self.name, self.shell = name, shell
        self.container = self.mountpoint = None
        args = [str(IMAGE_SH)] + (["--shell"] if shell else []) + [binary()]
        start = time.monotonic()
        self.build = subprocess.run(args, capture_output=True, text=True, timeout=300,
                                    env=dict(os.environ, IMAGE=name), stdin=subprocess.DEVNULL)
        self.build_seconds = time.monotonic() - start
        if self.build.returncode != 0:
            raise AssertionError("%s: exit %d\nstderr:\n%s" % (" ".join(args), self.build.returncode,
                                                                self.build.stderr))
        self.inspect = json.loads(buildah("inspect", "--type", "image", name))
        self.config = self.inspect["OCIv1"]["config"]
        self.env = dict(e.split("=", 1) for e in self.config.get("Env", []))
        self.size = buildah("images", "--format", "{{.Size}}", name).splitlines()[0]
        self.container = buildah("from", "--pull-never", name)
        self.mountpoint = Path(buildah("mount", self.container))

    def run(self, args, timeout=120, user=NOBODY, env_extra=None):
        """Runs a command in the image (chroot as `user`) with the image's
        environment only (and env_extra, as a CI runner sets its variables)."""
        env = {k: None for k in os.environ}
        env.update(self.env)
        env.update(env_extra or {})
        return _execute("/usr/sbin/chroot", ["--userspec=" + user, str(self.mountpoint)] + list(args),
                        timeout=timeout, env=env, cwd="/")

    def remove(self):
        if self.container:
            subprocess.run(["buildah", "umount", self.container], capture_output=True)
            subprocess.run(["buildah", "rm", self.container], capture_output=True)
        subprocess.run(["buildah", "rmi", "-f", self.name], capture_output=True)


IMAGES = {}


def setUpModule():
    harness.require_tool("buildah", "buildah")
    harness.require_tool("/bin/busybox", "busybox-static")
    if os.geteuid() != 0:
        raise AssertionError("test_image needs root (buildah's storage, buildah mount, chroot); CI runs it as root")
    exe = binary()
    if not os.access(exe, os.X_OK):
        raise AssertionError("adrprobe binary not found at %s" % exe)
    libs = subprocess.run(["ldd", exe], capture_output=True, text=True).stdout
    # gcc links the sanitizer runtimes as libraries, clang into the binary (./dev test-asan).
    symbols = subprocess.run(["nm", "-D", exe], capture_output=True, text=True).stdout
    if re.search(r"lib(asan|ubsan|tsan)", libs) or re.search(r"\b__(asan|tsan)_init\b", symbols):
        raise AssertionError("%s is a sanitizer build: it cannot start in a chroot without /proc; this suite is "
                             "for the plain build (tests/meson.build leaves it out of a sanitizer build)" % exe)
    tag = "localhost/adrprobe-test-%d:%s" % (os.getpid(), meson_version())
    try:
        IMAGES["plain"] = Image(tag, shell=False)
        IMAGES["ci"] = Image(tag + "-ci", shell=True)
    except BaseException:
        tearDownModule()
        raise
    for kind, image in IMAGES.items():
        print("test_image: %s image %s: %s, built in %.1f s" % (kind, image.name, image.size, image.build_seconds),
              file=sys.stderr)


def tearDownModule():
    for image in IMAGES.values():
        image.remove()


class BuiltImage(unittest.TestCase):
    def test_last_line_of_stdout_is_the_image(self):
        for image in IMAGES.values():
            self.assertEqual(image.build.stdout.splitlines()[-1], image.name)
            self.assertIn("built " + image.name, image.build.stderr)

    def test_config(self):
        for kind, image in IMAGES.items():
            with self.subTest(kind):
                c = image.config
                self.assertEqual(c["User"], NOBODY)
                self.assertEqual(c["Entrypoint"], ["/usr/bin/adrprobe"])
                self.assertEqual(image.env["TMPDIR"], "/tmp")
                self.assertEqual(image.env["SSL_CERT_FILE"], "/etc/ssl/certs/ca-certificates.crt")
                labels = c["Labels"]
                self.assertEqual(labels["org.opencontainers.image.title"], "adrprobe")
                self.assertEqual(labels["org.opencontainers.image.version"], meson_version())
                self.assertEqual(labels["org.opencontainers.image.licenses"], "EUPL-1.2")

    def test_file_system(self):
        for kind, image in IMAGES.items():
            with self.subTest(kind):
                root = image.mountpoint
                tmp = os.stat(root / "tmp")
                self.assertEqual(tmp.st_mode & 0o7777, 0o1777, "/tmp: world-writable and sticky")
                self.assertEqual((root / "etc/ssl/certs/ca-certificates.crt").read_bytes(),
                                 Path("/etc/ssl/certs/ca-certificates.crt").read_bytes())
                # OpenSSL's own directory points at the bundle, as on Debian (links inside the image)
                self.assertEqual(os.readlink(root / "usr/lib/ssl/cert.pem"), "/etc/ssl/certs/ca-certificates.crt")
                self.assertIn("nobody:x:65534:65534:", (root / "etc/passwd").read_text())
                self.assertIn("nogroup:x:65534:", (root / "etc/group").read_text())
                self.assertRegex((root / "etc/nsswitch.conf").read_text(), r"(?m)^hosts:\s+files dns$")
                # nothing of the image's files is nobody's (/tmp holds what the tests wrote)
                for path in root.rglob("*"):
                    if path.relative_to(root).parts[0] != "tmp":
                        self.assertEqual(path.lstat().st_uid, 0, path)
        self.assertFalse(os.path.lexists(IMAGES["plain"].mountpoint / "bin/sh"), "the plain image has no shell")
        self.assertFalse(os.path.lexists(IMAGES["plain"].mountpoint / "usr/bin/sh"))

    def test_version(self):
        for kind, image in IMAGES.items():
            with self.subTest(kind):
                run = image.run(["/usr/bin/adrprobe", "--version"], timeout=30)
                self.assertEqual(run.rc, 0, run.describe())
                self.assertTrue(run.stdout.startswith("adrprobe %s\n" % meson_version()), run.describe())
                self.assertIn("OpenSSL", run.stdout)

    def test_demo_runs_as_nobody(self):
        image = IMAGES["plain"]
        run = image.run(["/usr/bin/adrprobe", "demo", "--no-color"])
        self.assertEqual(run.rc, 0, run.describe())
        self.assertIn("Score  100.0 %", run.stdout)
        self.assertIn("8 pass", run.stdout)
        self.assertIn("serving at https://127.0.0.1:", run.stderr)
        self.assertEqual(list((image.mountpoint / "tmp").iterdir()), [], "the demo's CA file was left in /tmp")

    def test_demo_https_is_trusted_in_the_image(self):
        image = IMAGES["plain"]
        run = image.run(["/usr/bin/adrprobe", "demo", "-f", "json", "--edition", "2.0.0"])
        self.assertEqual(run.rc, 0, run.describe())
        report = json.loads(run.stdout)
        self.assertTrue(report["tls"]["trusted"], report["tls"])
        self.assertEqual(report["tls"]["accepted_protocols"], ["TLSv1.2", "TLSv1.3"])
        rules = {r["id"]: r["verdict"] for r in report["rules"]}
        self.assertEqual(rules["/core/transport-security"], "pass")

    def test_names_resolve_through_the_images_hosts_file(self):
        # Kubernetes writes /etc/hosts (hostAliases) and /etc/resolv.conf; here a
        # name only the image's /etc/hosts has, resolved by glibc in the image.
        image = IMAGES["plain"]
        hosts = image.mountpoint / "etc/hosts"
        original = hosts.read_text()
        hosts.write_text(original + "127.0.0.1 fixture.adrprobe.test\n")
        try:
            with FixtureServer() as srv:
                base = "http://fixture.adrprobe.test:%d/v1" % srv.port
                run = image.run(["/usr/bin/adrprobe", "check", base, "-f", "json", "--rate", "0"], timeout=60)
                requests = srv.requests()
        finally:
            hosts.write_text(original)
        self.assertIn(run.rc, (0, 1), run.describe())
        report = json.loads(run.stdout)
        statuses = [e["status"] for e in report["exchanges"] if e["url"] == base]
        self.assertIn(200, statuses, run.describe())
        self.assertFalse([e for e in report["exchanges"] if e["error"] and "resolve" in e["error"].lower()])
        self.assertTrue(requests, "the fixture server saw no request")

    def test_ci_image_has_a_shell_for_gitlab(self):
        image = IMAGES["ci"]
        self.assertTrue(os.path.lexists(image.mountpoint / "bin/sh"))
        # GitLab's script lines: arithmetic expansion, adrprobe on the PATH, mkdir as nobody in /tmp
        script = ('set -e; echo "shard $((2-1))/2"; mkdir -p /tmp/out/2; adrprobe --version; '
                  'cp /etc/hosts /tmp/out/2/; ls /tmp/out/2')
        run = image.run(["/bin/sh", "-c", script], timeout=30)
        self.assertEqual(run.rc, 0, run.describe())
        self.assertIn("shard 1/2\n", run.stdout)
        self.assertIn("adrprobe %s\n" % meson_version(), run.stdout)
        self.assertIn("hosts\n", run.stdout)
        # the image's adrprobe is the binary, not a busybox link
        self.assertFalse(os.path.islink(image.mountpoint / "usr/bin/adrprobe"))

    def test_gitlab_template_scripts_run_batch_and_summary(self):
        """deploy/gitlab-ci.yml's job scripts, as GitLab runs them in the -ci
        image: two parallel batch jobs (CI_NODE_INDEX 1 and 2), then the summary
        job over their out/ directories, then a second night with the baseline
        the first one kept."""
        import yaml
        template = yaml.safe_load((REPO / "deploy" / "gitlab-ci.yml").read_text())
        variables = {k: str(v) for k, v in template["variables"].items()}
        image = IMAGES["ci"]
        work = image.mountpoint / "tmp" / "ci"
        servers = [FixtureServer({"base": "/a/v1"}, mounts=[{"base": "/b/v1"}]), FixtureServer()]
        try:
            for s in servers:
                s.start()
            urls = [servers[0].base_url, servers[0].mount("/b/v1").base_url, servers[1].base_url]
            work.mkdir()
            (work / variables["ADRPROBE_TARGETS"]).write_text(yaml_text(
                {"defaults": {"edition": "1.0"}, "targets": [{"name": "t%d" % i, "base_url": u}
                                                              for i, u in enumerate(urls)]}))
            os.chown(work, 65534, 65534)

            def job(name, env):
                script = "cd /tmp/ci\n" + "\n".join(template[name]["script"])
                return image.run(["/bin/sh", "-e", "-c", script], timeout=60,
                                 env_extra=dict(variables, ADRPROBE_BATCH_ARGS="--rate 0", **env))

            def night():
                for index in (1, 2):
                    run = job("adrprobe:batch", {"CI_NODE_INDEX": str(index), "CI_NODE_TOTAL": "2"})
                    self.assertEqual(run.rc, 0, run.describe())
                    self.assertIn("(shard %d/2)" % (index - 1), run.stdout)
                run = job("adrprobe:summary", {})
                self.assertEqual(run.rc, 0, run.describe())
                return json.loads((work / "public" / "summary.json").read_text())

            first = night()
            self.assertEqual(sorted(t["name"] for t in first["targets"]), ["t0", "t1", "t2"])
            for t in first["targets"]:
                self.assertIsNone(t["change"])
                self.assertTrue((work / "public" / t["report"]).is_file(), t["report"])
                self.assertTrue((work / "public" / t["files"]["junit"]).is_file(), t["files"])
            self.assertEqual(len(list((work / variables["ADRPROBE_BASELINE_DIR"]).glob("*.json"))), 3)
            self.assertTrue((work / variables["ADRPROBE_PREVIOUS_DIR"] / "summary.json").is_file())
            html = (work / "public" / "summary.html").read_text()
            for t in first["targets"]:
                self.assertIn('href="%s"' % t["report"], html)
            second = night()
            for t in second["targets"]:
                self.assertEqual(t["change"], {"new-fail": [], "fixed": [], "regressed": [], "down": False, "back_up": False}, t["name"])
        finally:
            for s in servers:
                s.stop()
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    harness.main()
