"""The Debian package: what lintian says of it, what it holds, and the package
unpacked into an otherwise empty root and run there with chroot.

The .deb is $ADRPROBE_DEB, else build-deb/adrprobe_<meson.build's version>_<arch>.deb,
where `./dev deb` writes it. This suite is not part of `meson test`: building
the package compiles everything again with Debian's flags (minutes), so
`./dev deb` builds it and then runs this file, and fails when it fails.
Without a .deb, or without root (chroot), the suite fails and says why.

- lintian: no error (its warnings and notes are printed).
- The control fields: Package, Version (meson.build's), Architecture, and
  Depends as dh_shlibdeps computed it: every library the binary links
  directly (its ELF NEEDED entries) belongs to a package Depends names.
- The contents: /usr/bin/adrprobe, the man page and the bash completion
  (the repository's docs/adrprobe.1 and docs/adrprobe.bash-completion byte for
  byte), the copyright file (LICENSE word for word), the changelog and the
  README; nothing outside /usr.
- Installed: `dpkg-deb -x` into a temporary root, plus what deploy/rootfs.sh
  adds (the binary's libraries as ldd finds them, the dynamic loader, the CA
  bundle, /etc/passwd, /tmp: the OCI image's root, tests/integration/test_image.py),
  then `chroot ROOT /usr/bin/adrprobe --version` and `... demo` (HTTPS with the
  CA it makes, trusted; nothing left in /tmp); the installed man page renders
  with `man -l` and the installed completion completes.
"""

import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import REPO, _execute  # noqa: E402
from test_manpage import COMPLETION, MANPAGE, complete, meson_version  # noqa: E402

ROOTFS_SH = REPO / "deploy" / "rootfs.sh"


def run(cmd, timeout=120, **kw):
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, **kw)
    if proc.returncode != 0:
        raise AssertionError("%s: exit %d\nstdout:\n%s\nstderr:\n%s" % (" ".join(map(str, cmd)), proc.returncode,
                                                                       proc.stdout[-3000:], proc.stderr[-3000:]))
    return proc


def deb_path():
    if os.environ.get("ADRPROBE_DEB"):
        return Path(os.environ["ADRPROBE_DEB"])
    arch = run(["dpkg", "--print-architecture"]).stdout.strip()
    return REPO / "build-deb" / ("adrprobe_%s_%s.deb" % (meson_version(), arch))


DEB = {}


def setUpModule():
    deb = deb_path()
    if not deb.is_file():
        raise AssertionError("no package at %s: build it with ./dev deb (which then runs this suite), "
                             "or set ADRPROBE_DEB" % deb)
    if os.geteuid() != 0:
        raise AssertionError("this suite needs root (chroot); ./dev deb runs it with sudo")
    for tool in ("dpkg-deb", "lintian", "chroot", "readelf", "man"):
        if shutil.which(tool) is None:
            raise AssertionError("%s is not installed (./dev deb installs what it needs)" % tool)
    DEB["path"] = deb
    DEB["tmp"] = tempfile.mkdtemp(prefix="adrprobe-deb-test.")
    root = Path(DEB["tmp"]) / "root"
    root.mkdir()
    run(["dpkg-deb", "-x", deb, root])
    run([ROOTFS_SH, root, root / "usr/bin/adrprobe"], env=dict(os.environ, ROOTFS_SAY="test_deb"))
    DEB["root"] = root
    print("test_deb: %s (%d KiB), unpacked in %s" % (deb, deb.stat().st_size // 1024, root), file=sys.stderr)


def tearDownModule():
    if "tmp" in DEB:
        shutil.rmtree(DEB["tmp"], ignore_errors=True)


def field(name):
    return run(["dpkg-deb", "-f", DEB["path"], name]).stdout.strip()


def depends_packages():
    """Package names in Depends (every alternative)."""
    names = set()
    for dep in field("Depends").split(","):
        for alt in dep.split("|"):
            names.add(alt.strip().split(" ")[0].split(":")[0])
    return names


def provided_names(package):
    """A package's name and the virtual packages it provides."""
    proc = run(["dpkg-query", "-W", "-f=${Provides}", package])
    return {package} | {p.strip().split(" ")[0] for p in proc.stdout.split(",") if p.strip()}


def owning_package(path):
    """The installed package that holds a library path (merged /usr: dpkg may
    know it by /lib/... or /usr/lib/...)."""
    candidates = [path, os.path.realpath(path)]
    for p in list(candidates):
        if p.startswith("/usr/"):
            candidates.append(p[len("/usr"):])
        else:
            candidates.append("/usr" + p)
    for p in candidates:
        proc = subprocess.run(["dpkg", "-S", p], capture_output=True, text=True)
        if proc.returncode == 0:
            return proc.stdout.split(":")[0].strip()
    raise AssertionError("no installed package holds %s (tried %s)" % (path, ", ".join(candidates)))


def chroot(args, timeout=120, user="0:0"):
    """Runs a command in the unpacked root as `user`, with a bare environment."""
    env = {k: None for k in os.environ}
    env.update({"PATH": "/usr/bin:/bin", "TMPDIR": "/tmp", "LANG": "C.UTF-8"})
    return _execute("/usr/sbin/chroot", ["--userspec=" + user, str(DEB["root"])] + list(args),
                    timeout=timeout, env=env, cwd="/")


class Lintian(unittest.TestCase):
    def test_no_errors(self):
        # exit 1: a tag at --fail-on's level (error, the default); 2: lintian itself failed
        proc = subprocess.run(["lintian", "--display-info", str(DEB["path"])], capture_output=True,
                              text=True, timeout=600, stdin=subprocess.DEVNULL)
        self.assertIn(proc.returncode, (0, 1), proc.stderr)
        tags = [line for line in proc.stdout.splitlines() if re.match(r"^[EWIPX]: ", line)]
        print("test_deb: lintian: %s" % ("\n  ".join([""] + tags) if tags else "no tags"), file=sys.stderr)
        self.assertEqual([t for t in tags if t.startswith("E: ")], [], proc.stdout)
        self.assertEqual(proc.returncode, 0, proc.stdout)


class Control(unittest.TestCase):
    def test_fields(self):
        self.assertEqual(field("Package"), "adrprobe")
        self.assertEqual(field("Version"), meson_version())
        self.assertEqual(field("Architecture"), run(["dpkg", "--print-architecture"]).stdout.strip())
        self.assertEqual(DEB["path"].name, "adrprobe_%s_%s.deb" % (field("Version"), field("Architecture")))
        self.assertIn("REST API Design Rules", field("Description"))

    def test_depends_cover_every_linked_library(self):
        binary = DEB["root"] / "usr/bin/adrprobe"
        needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", run(["readelf", "-d", binary]).stdout)
        self.assertIn("libcurl.so.4", needed)
        ldd = run(["ldd", binary]).stdout
        resolved = dict(re.findall(r"^\s*(\S+) => (/\S+)", ldd, re.M))
        # the loader: "/lib64/ld-linux-x86-64.so.2 (0x...)"
        resolved.update({os.path.basename(p): p for p in re.findall(r"^\s*(/\S+) \(0x", ldd, re.M)})
        depends = depends_packages()
        for lib in needed:
            with self.subTest(lib):
                self.assertIn(lib, resolved, "ldd does not resolve %s" % lib)
                package = owning_package(resolved[lib])
                # the package, or a name it provides (libspdlog1.10 provides libspdlog1.10-fmt9,
                # the name its shlibs file gives)
                self.assertTrue(provided_names(package) & depends, "%s (%s, providing %s) is not in Depends: %s"
                                % (lib, package, ", ".join(sorted(provided_names(package))), field("Depends")))


class Contents(unittest.TestCase):
    def test_files(self):
        listing = run(["dpkg-deb", "-c", DEB["path"]]).stdout
        files = sorted(line.split()[-1].lstrip(".") for line in listing.splitlines() if not line.startswith("d"))
        for path in ("/usr/bin/adrprobe", "/usr/share/man/man1/adrprobe.1.gz",
                     "/usr/share/bash-completion/completions/adrprobe", "/usr/share/doc/adrprobe/copyright",
                     "/usr/share/doc/adrprobe/changelog.gz",
                     "/usr/share/doc/adrprobe/README.md.gz"):  # SEE ALSO of the man page
            self.assertIn(path, files)
        self.assertEqual([f for f in files if not f.startswith("/usr/")], [], "files outside /usr")
        mode = re.search(r"^(\S+) root/root .* \./usr/bin/adrprobe$", listing, re.M)
        self.assertIsNotNone(mode, listing)
        self.assertEqual(mode.group(1), "-rwxr-xr-x")

    def test_man_page_and_completion_are_the_repositorys(self):
        root = DEB["root"]
        self.assertEqual(gzip.decompress((root / "usr/share/man/man1/adrprobe.1.gz").read_bytes()),
                         MANPAGE.read_bytes())
        self.assertEqual((root / "usr/share/bash-completion/completions/adrprobe").read_bytes(),
                         COMPLETION.read_bytes())

    def test_copyright_holds_the_licence(self):
        text = (DEB["root"] / "usr/share/doc/adrprobe/copyright").read_text()
        self.assertIn("License: EUPL-1.2", text)
        licence = (REPO / "LICENSE").read_text()
        unfolded = "\n".join("" if line == " ." else line[1:] for line in text.split("\nLicense: EUPL-1.2\n")[-1]
                             .rstrip("\n").split("\n")) + "\n"
        self.assertEqual(unfolded, licence)

    def test_changelog_is_this_version(self):
        first = gzip.decompress((DEB["root"] / "usr/share/doc/adrprobe/changelog.gz").read_bytes()) \
            .decode().splitlines()[0]
        self.assertTrue(first.startswith("adrprobe (%s) " % meson_version()), first)

    def test_binary_is_stripped(self):
        sections = run(["readelf", "-S", DEB["root"] / "usr/bin/adrprobe"]).stdout
        self.assertNotIn(".debug_info", sections)


class Installed(unittest.TestCase):
    def test_version(self):
        r = chroot(["/usr/bin/adrprobe", "--version"], timeout=30)
        self.assertEqual(r.rc, 0, r.describe())
        self.assertTrue(r.stdout.startswith("adrprobe %s\n" % meson_version()), r.describe())
        self.assertIn("OpenSSL", r.stdout)
        self.assertIn("\nmalloc: jemalloc ", r.stdout)  # debian/rules: -Djemalloc=enabled

    def test_demo(self):
        r = chroot(["/usr/bin/adrprobe", "demo", "--no-color"])
        self.assertEqual(r.rc, 0, r.describe())
        self.assertIn("Score  100.0 %", r.stdout)
        self.assertIn("8 pass", r.stdout)
        self.assertIn("serving at https://127.0.0.1:", r.stderr)
        self.assertEqual(list((DEB["root"] / "tmp").iterdir()), [], "the demo's CA file was left in /tmp")

    def test_demo_as_nobody_https_trusted(self):
        r = chroot(["/usr/bin/adrprobe", "demo", "-f", "json", "--edition", "2.1.0"], user="65534:65534")
        self.assertEqual(r.rc, 0, r.describe())
        report = json.loads(r.stdout)
        self.assertTrue(report["tls"]["trusted"], report["tls"])
        self.assertEqual(report["tool"]["version"], meson_version())

    def test_usage_error_is_exit_2(self):
        r = chroot(["/usr/bin/adrprobe", "check", "api.example.nl/v1"], timeout=30)
        self.assertEqual(r.rc, 2, r.describe())
        self.assertIn("https://api.example.nl/v1", r.stderr)

    def test_man_page_renders(self):
        page = DEB["root"] / "usr/share/man/man1/adrprobe.1.gz"
        proc = subprocess.run(["man", "--warnings=w", "-l", str(page)], capture_output=True, text=True, timeout=60,
                              env=dict(os.environ, MANWIDTH="80", LC_ALL="C.UTF-8"), stdin=subprocess.DEVNULL)
        self.assertEqual((proc.returncode, proc.stderr), (0, ""))
        self.assertIn("adrprobe - test a live REST API against the Dutch REST API Design Rules", proc.stdout)

    def test_completion_completes(self):
        script = DEB["root"] / "usr/share/bash-completion/completions/adrprobe"
        self.assertEqual(complete(["adrprobe", "ch"], script_file=script)[0], ["check"])
        self.assertIn("openmetrics", complete(["adrprobe", "check", "-f", ""], script_file=script)[0])


if __name__ == "__main__":
    harness.main()
