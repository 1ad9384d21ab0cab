"""The files the Debian package installs beside the binary, in step with it.

- The man page (docs/adrprobe.1): every command of `adrprobe --help` has an
  entry under COMMANDS, every option of every command's --help an entry (a
  tag line) and every choice (formats, editions, ...) a mention, written with
  \- so they render as ASCII hyphen-minus; the page renders without a warning
  (groff -ww, man --warnings=w -l); its header carries meson.build's version.
- The bash completion (docs/adrprobe.bash-completion), run in bash with the
  bash-completion package's helpers as it is in a shell: it offers exactly the
  commands of --help, for each command exactly the options of its --help, and
  for every option with a list of choices in the help (formats, editions,
  --fail-on, --profile, --ref-hosts) exactly those choices; file names where a
  file goes (-o FORMAT=PATH, --ca-file, lint's document, batch's register).
- debian/: the changelog's version is meson.build's, the copyright file holds
  LICENSE word for word, and ./dev installs every Build-Depends.

Needs man-db, groff and bash-completion (./dev installs them); without them it
fails. The package itself is built and tested by ./dev deb (test_deb.py).
"""

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
from harness import REPO, run_adrprobe  # noqa: E402

MANPAGE = REPO / "docs" / "adrprobe.1"
COMPLETION = REPO / "docs" / "adrprobe.bash-completion"
BASH_COMPLETION = Path("/usr/share/bash-completion/bash_completion")


def meson_version():
    m = re.search(r"^\s*version\s*:\s*'([^']+)'", (REPO / "meson.build").read_text(), re.M)
    assert m, "no version in meson.build"
    return m.group(1)


def help_text(*cmd):
    run = run_adrprobe(list(cmd) + ["--help"], timeout=30)
    assert run.rc == 0, run.describe()
    return run.stdout


def section(text, title):
    """The lines of a CLI11 help section ("Options:", "Subcommands:") up to
    the next blank line."""
    lines = text.splitlines()
    start = lines.index(title) + 1
    out = []
    for line in lines[start:]:
        if not line.strip():
            break
        out.append(line)
    return out


class Option:
    def __init__(self, names, spec):
        self.names = names  # ["-f", "--format"]
        m = re.search(r"\{([^}]*)\}", spec or "")
        self.choices = m.group(1).split(",") if m else None
        self.takes_path = bool(re.search(r"\}=PATH", spec or ""))  # -o FORMAT=PATH

    @property
    def long(self):
        return [n for n in self.names if n.startswith("--")]


def parse_options(text):
    """The options of one --help: `  -f,--format TEXT:{text,json}` lines."""
    options = []
    for line in section(text, "Options:"):
        m = re.match(r"^  (-[\w-]+(?:,-[\w-]+)*)(?: (\S+))?", line)
        if m:
            options.append(Option(m.group(1).split(","), m.group(2)))
    return options


def parse_commands(text):
    return [re.match(r"^  (\w+)\s", line).group(1) for line in section(text, "Subcommands:")
            if re.match(r"^  \w+\s", line)]


HELP = {}


def setUpModule():
    for tool in ("man", "groff", "bash"):
        if shutil.which(tool) is None:
            raise AssertionError("%s is not installed (./dev installs man-db and groff-base)" % tool)
    if not BASH_COMPLETION.is_file():
        raise AssertionError("%s is missing (./dev installs bash-completion)" % BASH_COMPLETION)
    HELP[""] = help_text()
    for cmd in parse_commands(HELP[""]):
        HELP[cmd] = help_text(cmd)


def commands():
    return [c for c in HELP if c]


def complete(words, cwd=None, script_file=COMPLETION):
    """What the completion offers for the last word of `words` (the words as
    bash splits the line: "=" is a word of its own). Returns (COMPREPLY, the
    compopt options asked for). script_file: the completion to source (the
    repository's, or one a package installed)."""
    # the line as typed: bash joins "--opt", "=", "val" without spaces
    line = re.sub(r" = ?", "=", " ".join(words))
    script = r'''
source "$1"
source "$2"
compopt() { printf '%s\n' "$*" >>"$COMPOPT_LOG"; }  # outside a completion bash refuses compopt
shift 2
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE=$LINE
COMP_POINT=${#COMP_LINE}
_adrprobe
printf '%s\n' "${COMPREPLY[@]}"
'''
    with tempfile.NamedTemporaryFile("r") as log:
        proc = subprocess.run(["bash", "--norc", "--noprofile", "-c", script, "complete",
                               str(BASH_COMPLETION), str(script_file)] + list(words),
                              capture_output=True, text=True, timeout=30, cwd=cwd, stdin=subprocess.DEVNULL,
                              env=dict(os.environ, LINE=line, COMPOPT_LOG=log.name))
        compopts = log.read().split()
    if proc.returncode != 0 or proc.stderr:
        raise AssertionError("completion of %r: exit %d\nstderr:\n%s" % (line, proc.returncode, proc.stderr))
    return [w for w in proc.stdout.split("\n") if w], compopts


class ManPage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        env = dict(os.environ, MANWIDTH="100", LC_ALL="C.UTF-8", MANPAGER="cat", PAGER="cat")
        cls.man = subprocess.run(["man", "--warnings=w", "-l", str(MANPAGE)], capture_output=True,
                                 text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
        # The text searched for options: rendered as man does, but with "-" as a
        # typographic hyphen (U+2010), as Debian's man.local suggests to authors:
        # an option written -x instead of \-x in the source is then not found
        # (man would show it as a hyphen that cannot be copied into a shell).
        source = re.sub(r"(?m)^(\.TH .*)$", lambda m: m.group(1) + "\n.char - \\[hy]", MANPAGE.read_text(), count=1)
        groff = subprocess.run(["groff", "-man", "-Tutf8", "-P-cbou", "-rLL=100n"], input=source,
                               capture_output=True, text=True, timeout=60)
        assert groff.returncode == 0, groff.stderr
        cls.text = groff.stdout

    def sections(self):
        out, title = {}, None
        for line in self.text.splitlines():
            if re.match(r"^[A-Z][A-Z ]+$", line):
                title = line
                out[title] = []
            elif title:
                out[title].append(line)
        return out

    def test_renders_without_warnings(self):
        self.assertEqual(self.man.returncode, 0, self.man.stderr)
        self.assertEqual(self.man.stderr, "", "man -l warns")
        groff = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", str(MANPAGE)], capture_output=True,
                               text=True, timeout=60, stdin=subprocess.DEVNULL)
        self.assertEqual((groff.returncode, groff.stderr), (0, ""), "groff -ww warns")
        for title in ("NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "EXIT STATUS", "ENVIRONMENT",
                      "EXAMPLES", "SEE ALSO"):
            self.assertIn(title, self.sections())

    def test_version_is_mesons(self):
        th = re.search(r'^\.TH ADRPROBE 1 \S+ "adrprobe ([^"]+)"', MANPAGE.read_text(), re.M)
        self.assertIsNotNone(th, "no .TH line")
        self.assertEqual(th.group(1), meson_version())
        self.assertIn("adrprobe %s" % meson_version(), self.man.stdout.splitlines()[-1])

    def test_every_command_has_an_entry(self):
        entries = self.sections()["COMMANDS"]
        for cmd in commands():
            with self.subTest(cmd):
                self.assertTrue([line for line in entries if re.match(r"^ {7}%s\b" % cmd, line)],
                                "no entry for %s under COMMANDS" % cmd)
                self.assertRegex(self.text, r"(?m)^ +adrprobe %s\b" % cmd, "%s is not in the SYNOPSIS" % cmd)

    def test_every_option_has_an_entry(self):
        # an entry: a tag line (.TP) that starts with an option, under COMMANDS
        # (a command's own options) or OPTIONS; "-f, --format FORMAT" and
        # "--cert FILE, --key FILE" are entries for both names
        tags = "\n".join(line for line in self.text.splitlines() if re.match(r"^( {7}| {14})-", line))
        for cmd in [""] + commands():
            for option in parse_options(HELP[cmd]):
                for name in option.names:
                    with self.subTest(command=cmd, option=name):
                        # an ASCII hyphen-minus (\- in the source), the whole name
                        self.assertRegex(tags, r"(?<![\w-])%s(?![\w-])" % re.escape(name))

    def test_every_choice_appears(self):
        for cmd in commands():
            for option in parse_options(HELP[cmd]):
                for choice in option.choices or ():
                    with self.subTest(command=cmd, option=option.names[-1], choice=choice):
                        self.assertRegex(self.text, r"(?<![\w.-])%s(?![\w-])" % re.escape(choice))

    def test_exit_statuses(self):
        tags = [line.split()[0] for line in self.sections()["EXIT STATUS"] if re.match(r"^ {7}\d ", line)]
        self.assertEqual(tags, ["0", "1", "2", "3"])


class Completion(unittest.TestCase):
    def test_commands(self):
        self.assertEqual(complete(["adrprobe", ""])[0], commands())
        self.assertEqual(complete(["adrprobe", "ch"])[0], ["check"])
        self.assertEqual(complete(["adrprobe", "s"])[0], ["summary"])
        self.assertEqual(sorted(complete(["adrprobe", "-"])[0]),
                         sorted(n for o in parse_options(HELP[""]) for n in o.names))

    def test_options_of_each_command(self):
        for cmd in commands():
            with self.subTest(cmd):
                offered = complete(["adrprobe", cmd, "-"])[0]
                expected = [n for o in parse_options(HELP[cmd]) for n in o.names]
                self.assertEqual(sorted(offered), sorted(expected))
                self.assertEqual(len(offered), len(set(offered)), "an option offered twice")

    def test_choices_of_each_option(self):
        seen = 0
        for cmd in commands():
            for option in parse_options(HELP[cmd]):
                if option.choices is None:
                    continue
                for name in option.names:
                    with self.subTest(command=cmd, option=name):
                        offered, compopts = complete(["adrprobe", cmd, name, ""])
                        if option.takes_path:
                            self.assertEqual(offered, [c + "=" for c in option.choices])
                            self.assertIn("nospace", compopts)
                        else:
                            self.assertEqual(offered, option.choices)
                        seen += 1
        self.assertGreater(seen, 20)

    def test_check_formats(self):
        formats = next(o for o in parse_options(HELP["check"]) if "--format" in o.names).choices
        self.assertEqual(complete(["adrprobe", "check", "-f", ""])[0], formats)
        self.assertEqual(complete(["adrprobe", "check", "https://api.example.nl/v1", "--format", "j"])[0],
                         [f for f in formats if f.startswith("j")])
        self.assertEqual(complete(["adrprobe", "check", "-o", "h"])[0], ["html="])
        # --edition=2. (bash splits at "=")
        self.assertEqual(complete(["adrprobe", "check", "--edition", "=", "2.2"])[0], ["2.2.0"])

    def test_batch_output_is_a_format(self):
        # batch -o FORMAT (a file per target): its help lists the formats in words
        formats = next(o for o in parse_options(HELP["check"]) if "--format" in o.names).choices
        batch_o = next(line for line in section(HELP["batch"], "Options:") if "-o,--output" in line)
        for f in formats:
            self.assertIn(f, batch_o)
        self.assertEqual(complete(["adrprobe", "batch", "targets.yaml", "-o", ""])[0], formats)
        self.assertEqual(complete(["adrprobe", "batch", "targets.yaml", "--output", ""])[0], formats)

    def test_file_names(self):
        with tempfile.TemporaryDirectory() as d:
            for name in ("ca.pem", "report.json", "targets.yaml", "notes.txt"):
                Path(d, name).write_text("")
            Path(d, "out").mkdir()
            # -o json=<TAB>: bash splits at "=", the file name is the word after it
            self.assertEqual(sorted(complete(["adrprobe", "check", "x", "-o", "json", "=", "re"], cwd=d)[0]),
                             ["report.json"])
            self.assertIn("ca.pem", complete(["adrprobe", "check", "x", "--ca-file", ""], cwd=d)[0])
            self.assertEqual(complete(["adrprobe", "lint", "ta"], cwd=d)[0], ["targets.yaml"])
            # batch's register: YAML files (and directories to go into)
            self.assertEqual(sorted(complete(["adrprobe", "batch", ""], cwd=d)[0]), ["out", "targets.yaml"])
            self.assertEqual(complete(["adrprobe", "summary", "--out-dir", "all", ""], cwd=d)[0], ["out"])
            self.assertEqual(complete(["adrprobe", "batch", "t.yaml", "--out-dir", ""], cwd=d)[0], ["out"])

    def test_no_file_names_where_a_value_is_free(self):
        with tempfile.TemporaryDirectory() as d:
            Path(d, "report.json").write_text("")
            for option in ("--timeout", "--rate", "-H", "--param", "--shard"):
                with self.subTest(option):
                    self.assertEqual(complete(["adrprobe", "batch", "t.yaml", option, ""], cwd=d)[0], [])


class PackageFiles(unittest.TestCase):
    def test_changelog_version_is_mesons(self):
        first = (REPO / "debian" / "changelog").read_text().splitlines()[0]
        m = re.match(r"^adrprobe \(([^)]+)\) ", first)
        self.assertIsNotNone(m, first)
        self.assertEqual(m.group(1), meson_version(),
                         "debian/changelog's newest entry is not meson.build's version: add one (dch -v %s)"
                         % meson_version())

    def test_copyright_holds_the_licence(self):
        text = (REPO / "debian" / "copyright").read_text()
        self.assertTrue(text.startswith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"))
        self.assertRegex(text, r"(?m)^Files: \*\nCopyright: .+\nLicense: EUPL-1\.2$")
        body = text.split("\nLicense: EUPL-1.2\n", 2)[-1]
        lines = [line[1:] for line in body.rstrip("\n").split("\n")]
        lines = ["" if line == "." else line for line in lines]
        self.assertEqual("\n".join(lines) + "\n", (REPO / "LICENSE").read_text())

    def test_dev_installs_the_build_depends(self):
        # the package arrays of ./dev (PACKAGES, DEB_PACKAGES, ...), comments left out
        dev = "\n".join(line.split("#")[0] for line in (REPO / "dev").read_text().splitlines())
        installed = set()
        for m in re.finditer(r"^[A-Z_]*PACKAGES=\(([^)]*)\)", dev, re.M):
            installed.update(m.group(1).split())
        self.assertIn("bash-completion", installed)  # the last line of PACKAGES
        control = (REPO / "debian" / "control").read_text()
        block = re.search(r"(?ms)^Build-Depends:(.*?)^\S", control).group(1)
        for dep in block.split(","):
            name = dep.split("(")[0].strip()
            if not name or name == "debhelper-compat":
                continue
            with self.subTest(name):
                self.assertIn(name, installed, "Build-Depends %s is not in ./dev's package lists" % name)
        self.assertIn("debhelper", installed)


if __name__ == "__main__":
    harness.main()
