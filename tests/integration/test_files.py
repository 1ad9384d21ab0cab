#!/usr/bin/python3
"""Files are written safely, under names that cannot collide ("Hostile input
III", items 4, 6, 10 and 11):

- a symbolic link planted in `--out-dir` (`<name>.json` or `summary.html` →
  a victim outside) is refused before any request, with a message naming it,
  and the victim is untouched; the old fixed `summary.html.part` name, planted
  as a link, is never used; `check -o json=LINK` is refused the same way;
- a target's files are named after its name (lower case, `[a-z0-9._-]`):
  targets `v1` and `v1.gitlab` with `-o gitlab` (the first's GitLab file is the
  second's report), `KVK` and `kvk` (one file on a case-insensitive file
  system), and eleven names too long for a file system are refused when the
  register is loaded, before any request;
- `--baseline-dir` finds a report by the target's name (an API that moved keeps
  its history; another target's report is said so; a report under the old
  host/path name is found once);
- `summary` links only report files inside each shard's directory: a shard's
  summary.json naming `../../../../etc/passwd`, an absolute path or a URL gets
  a note, not a link.

Every server listens on 127.0.0.1."""

import json
import os
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import FixtureServer, ProbeCase, run_adrprobe, yaml_text  # noqa: E402

EDITION = "1.0"  # a conformant fixture over plain HTTP passes every technical rule


def write_register(directory, targets, name="targets.yaml"):
    path = Path(directory, name)
    path.write_text(yaml_text({"defaults": {"edition": EDITION}, "targets": targets}), encoding="utf-8")
    return path


def batch(register, out, *args, timeout=60):
    return run_adrprobe(["batch", register, "--out-dir", out, "--rate", "0", "--no-color"] + list(args),
                        timeout=timeout)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        self.hrefs += [v for k, v in attrs if k in ("href", "src") and v]


def links_of(html_text):
    p = Links()
    p.feed(html_text)
    return p.hrefs


class Workspace:
    """A temporary directory with out/ (the batch's --out-dir) and outside/victim."""

    def __init__(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name)
        self.out = self.root / "out"
        self.out.mkdir()
        (self.root / "outside").mkdir()
        self.victim = self.root / "outside" / "victim"
        self.victim.write_text("precious\n", encoding="utf-8")

    def plant(self, name):
        """out/NAME -> ../outside/victim, as the issue's input."""
        link = self.out / name
        os.symlink("../outside/victim", link)
        return link

    def close(self):
        self.tmp.cleanup()


class SymlinksInOutDir(ProbeCase):
    """Item 4: batch writes through symlinks planted in --out-dir."""

    def setUp(self):
        self.ws = Workspace()
        self.srv = FixtureServer({}, max_seconds=60).start()
        self.register = write_register(self.ws.root, [{"name": "bag", "base_url": self.srv.base_url}])

    def tearDown(self):
        self.srv.stop()
        self.ws.close()

    def assertVictimUntouched(self):
        self.assertEqual(self.ws.victim.read_text(encoding="utf-8"), "precious\n")

    def assertRefusedBeforeProbing(self, run, name):
        self.assertEqual(run.rc, 2, run.describe())
        self.assertEqual(self.srv.requests(), [], "a request was sent before the refusal")
        self.assertIn("--out-dir %s: %s: is a symbolic link to ../outside/victim" % (self.ws.out, name), run.stderr)
        self.assertIn("never writes through one", run.stderr)
        self.assertVictimUntouched()
        self.assertTrue((self.ws.out / name).is_symlink())

    def test_report_name_planted_as_a_link(self):
        self.ws.plant("bag.json")
        run = batch(self.register, self.ws.out)
        self.assertRefusedBeforeProbing(run, "bag.json")
        self.assertFalse((self.ws.out / "summary.json").exists())

    def test_another_format_planted_as_a_link(self):
        self.ws.plant("bag.xml")
        self.assertRefusedBeforeProbing(batch(self.register, self.ws.out, "-o", "junit"), "bag.xml")

    def test_summary_planted_as_a_link(self):
        self.ws.plant("summary.html")
        self.assertRefusedBeforeProbing(batch(self.register, self.ws.out), "summary.html")

    def test_old_part_name_planted_as_a_link_is_never_used(self):
        # summary.html.part -> victim: the victim was overwritten and summary.html left a link
        part = self.ws.plant("summary.html.part")
        run = batch(self.register, self.ws.out)
        self.assertEqual(run.rc, 0, run.describe())
        self.assertTrue(self.srv.requests())
        self.assertVictimUntouched()
        summary = self.ws.out / "summary.html"
        self.assertFalse(summary.is_symlink())
        self.assertTrue(summary.is_file())
        self.assertIn("bag", summary.read_text(encoding="utf-8"))
        self.assertTrue(part.is_symlink())  # left alone
        # nothing else in the directory: no temporary file left behind
        self.assertEqual(sorted(p.name for p in self.ws.out.iterdir()),
                         ["bag.json", "summary.html", "summary.html.part", "summary.json", "summary.md", "summary.prom"])
        for p in self.ws.out.iterdir():
            if not p.is_symlink():
                self.assertEqual(p.stat().st_mode & 0o777, 0o644 & ~self.umask(), p.name)

    @staticmethod
    def umask():
        mask = os.umask(0)
        os.umask(mask)
        return mask

    def test_a_report_replaced_not_written_into(self):
        # last night's report, hard-linked elsewhere (a backup, a baseline copy): never changed in place
        batch(self.register, self.ws.out)
        backup = self.ws.root / "outside" / "backup.json"
        os.link(self.ws.out / "bag.json", backup)
        before = backup.read_bytes()
        run = batch(self.register, self.ws.out)
        self.assertEqual(run.rc, 0, run.describe())
        self.assertEqual(backup.read_bytes(), before)
        self.assertNotEqual((self.ws.out / "bag.json").stat().st_ino, backup.stat().st_ino)

    def test_summary_command_refuses_a_link_in_its_out_dir(self):
        batch(self.register, self.ws.out)
        merged = self.ws.root / "merged"
        merged.mkdir()
        os.symlink("../outside/victim", merged / "summary.json")
        run = run_adrprobe(["summary", "--out-dir", merged, self.ws.out])
        self.assertEqual(run.rc, 2, run.describe())
        self.assertIn("--out-dir %s: summary.json: is a symbolic link to ../outside/victim" % merged, run.stderr)
        self.assertVictimUntouched()


class CheckOutputLink(ProbeCase):
    """The same writer for check -o: a link, even one the user made, is refused
    before any request; a device the user names is written into."""

    def test_link_refused_before_probing(self):
        ws = Workspace()
        try:
            link = ws.plant("report.json")
            with FixtureServer({}, max_seconds=60) as srv:
                run = run_adrprobe(["check", srv.base_url, "--rate", "0", "-q", "-o", "json=%s" % link])
                self.assertEqual(run.rc, 2, run.describe())
                self.assertEqual(srv.requests(), [])
            self.assertIn("-o %s: is a symbolic link to ../outside/victim" % link, run.stderr)
            self.assertEqual(ws.victim.read_text(encoding="utf-8"), "precious\n")
        finally:
            ws.close()

    def test_dev_null_is_written_into(self):
        with FixtureServer({}, max_seconds=60) as srv:
            run = run_adrprobe(["check", srv.base_url, "--rate", "0", "--edition", EDITION, "-q",
                                "-o", "json=/dev/null"])
        self.assertEqual(run.rc, 0, run.describe())
        self.assertTrue(Path("/dev/null").is_char_device())


class NamesThatCollide(ProbeCase):
    """Items 6 and 10: refused when the register is loaded, before any request,
    naming both targets."""

    def refused(self, targets, *args, expect=(), out=None):
        with tempfile.TemporaryDirectory() as tmp, FixtureServer({}, max_seconds=60) as srv:
            for t in targets:
                t["base_url"] = srv.base_url + t.get("base_url", "")
            register = write_register(tmp, targets)
            out = Path(tmp, "out") if out is None else out(Path(tmp))
            run = batch(register, out, *args)
            self.assertEqual(run.rc, 2, run.describe())
            self.assertEqual(srv.requests(), [], "a request was sent before the refusal")
            for text in expect:
                self.assertIn(text, run.stderr)
            self.assertFalse(Path(out, "summary.json").exists())
            self.assertEqual([l for l in run.stderr.splitlines() if l.strip()], [run.stderr.strip()],
                             "one clear message")
            return run

    def test_a_gitlab_file_that_is_another_targets_report(self):
        self.refused([{"name": "v1", "base_url": "/v1"}, {"name": "v1.gitlab", "base_url": "/v1.gitlab"}],
                     "-o", "gitlab",
                     expect=["targets[1] (v1.gitlab) and targets[0] (v1) would both write v1.gitlab.json"])

    def test_the_same_without_gitlab_output(self):
        # the register is valid or not whatever -o asks for tonight
        self.refused([{"name": "v1"}, {"name": "v1.gitlab"}], expect=["v1.gitlab.json"])

    def test_names_that_differ_in_case_only(self):
        self.refused([{"name": "KVK", "base_url": "/KVK/v1"}, {"name": "kvk", "base_url": "/kvk/v1"}],
                     expect=["targets[0] (KVK) and targets[1] (kvk) would write the same files, kvk.*"])

    def test_unnamed_targets_whose_urls_differ_in_case_only(self):
        self.refused([{"base_url": "/KVK_v1"}, {"base_url": "/kvk_v1"}],
                     expect=["would write the same files", "give each a name of its own"])

    def test_the_batchs_own_name(self):
        self.refused([{"name": "Summary"}], expect=["the name 'summary' is the batch's"])

    def test_eleven_long_names_refused_before_any_request(self):
        # eleven targets sharing a 130-character path: the run probed everything,
        # then could not write (names over 255 bytes), lost the reports and linked them anyway
        path = "/" + "p" * 130
        targets = [{"name": "x" * 130 + "_" + "y" * 115 + "_%d" % i, "base_url": path} for i in range(11)]
        self.refused(targets, "-o", "junit",
                     expect=["targets[0] (", "more than the 255 a file system allows",
                             "give it a name of at most 243 bytes"])

    def test_a_path_too_long_for_the_system(self):
        # short names, an --out-dir so deep that out-dir/name.json is over PATH_MAX
        def deep(tmp):
            d = tmp
            while len(str(d)) + 201 < 3880:
                d = d / ("d" * 200)
            d = d / ("e" * (3879 - len(str(d))))
            d.mkdir(parents=True)
            self.assertEqual(len(str(d)), 3880)
            return d  # + "/" + 240 + ".json": 4126 bytes
        self.refused([{"name": "n" * 240}], out=deep, expect=["more than the 4095 a system call takes"])


class BaselinesByName(ProbeCase):
    """--baseline-dir looks a report up by the target's name."""

    def marks(self, run_dir):
        return load(run_dir / "summary.json")["targets"][0]

    def test_an_api_that_moved_keeps_its_history(self):
        with tempfile.TemporaryDirectory() as tmp, \
                FixtureServer({"trailing_slash": 301}, max_seconds=600) as old, FixtureServer({}, max_seconds=600) as new:
            n1, n2 = Path(tmp, "n1"), Path(tmp, "n2")
            batch(write_register(tmp, [{"name": "BAG", "base_url": old.base_url}]), n1)
            self.assertTrue((n1 / "bag.json").is_file())
            run = batch(write_register(tmp, [{"name": "BAG", "base_url": new.base_url}]), n2, "--baseline-dir", n1)
            self.assertEqual(run.rc, 0, run.describe())
            row = self.marks(n2)
            self.assertEqual(row["report"], "bag.json")
            self.assertEqual(row["change"], {"new-fail": [], "fixed": ["API-48"], "regressed": [], "down": False, "back_up": False})
            notes = load(n2 / "bag.json")["notes"]
            self.assertTrue(any("moved from %s to %s" % (old.base_url, new.base_url) in n for n in notes), notes)

    def test_another_targets_report_under_the_name(self):
        with tempfile.TemporaryDirectory() as tmp, FixtureServer({}, max_seconds=600) as srv:
            n1, n2 = Path(tmp, "n1"), Path(tmp, "n2")
            batch(write_register(tmp, [{"name": "bag", "base_url": srv.base_url}]), n1)
            os.rename(n1 / "bag.json", n1 / "kvk.json")
            run = batch(write_register(tmp, [{"name": "kvk", "base_url": srv.base_url}]), n2, "--baseline-dir", n1)
            self.assertEqual(run.rc, 0, run.describe())
            row = self.marks(n2)
            self.assertIsNone(row["change"])
            self.assertIn("the report of another target (bag, %s)" % srv.base_url, row["note"])

    def test_a_report_under_its_old_host_and_path_name_is_found_once(self):
        with tempfile.TemporaryDirectory() as tmp, FixtureServer({"trailing_slash": 301}, max_seconds=600) as srv:
            n1, n2, n3 = Path(tmp, "n1"), Path(tmp, "n2"), Path(tmp, "n3")
            register = write_register(tmp, [{"name": "bag", "base_url": srv.base_url}])
            batch(register, n1)
            old_name = "127.0.0.1_%d_v1.json" % srv.port
            os.rename(n1 / "bag.json", n1 / old_name)
            srv.fixture.profile["trailing_slash"] = 404
            run = batch(register, n2, "--baseline-dir", n1)
            self.assertEqual(run.rc, 0, run.describe())
            self.assertEqual(self.marks(n2)["change"], {"new-fail": [], "fixed": ["API-48"], "regressed": [], "down": False, "back_up": False})
            notes = load(n2 / "bag.json")["notes"]
            self.assertTrue(any(old_name in n and "bag.json" in n for n in notes), notes)
            # the next night reads bag.json, and says nothing of old names
            run = batch(register, n3, "--baseline-dir", n2)
            self.assertEqual(self.marks(n3)["change"], {"new-fail": [], "fixed": [], "regressed": [], "down": False, "back_up": False})
            self.assertFalse(any(old_name in n for n in load(n3 / "bag.json").get("notes", [])))


class SummaryLinksStayInside(ProbeCase):
    """Item 11: a hostile shard summary.json makes summary.html link
    ../../../../etc/passwd. Every report path read from it must be a regular
    file inside that shard's directory."""

    HOSTILE = {"json": "../../../../etc/passwd", "html": "/etc/passwd", "junit": "https://evil.example/x.xml",
               "markdown": "javascript:alert(1)", "sarif": "sub/../../outside.json", "text": "escape.txt"}

    def test_hostile_report_paths_are_not_linked(self):
        with tempfile.TemporaryDirectory() as tmp, FixtureServer({}, max_seconds=60) as srv:
            root = Path(tmp)
            shard = root / "shard"
            batch(write_register(tmp, [{"name": "good", "base_url": srv.base_url},
                                       {"name": "evil", "base_url": srv.base_url}]), shard)
            (root / "outside.json").write_text("{}", encoding="utf-8")
            os.symlink("../outside.json", shard / "escape.txt")  # a link in the shard that leads out
            summary = load(shard / "summary.json")
            for row in summary["targets"]:
                if row["name"] == "evil":
                    row["report"] = self.HOSTILE["json"]
                    row["files"] = dict(self.HOSTILE)
            (shard / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
            merged = root / "merged"
            run = run_adrprobe(["summary", "--out-dir", merged, shard])
            self.assertEqual(run.rc, 0, run.describe())
            page = (merged / "summary.html").read_text(encoding="utf-8")
            hrefs = links_of(page)
            # The good report is copied into the summary's directory (every link
            # resolves inside what is published); nothing of the evil row is.
            self.assertEqual(sorted(unquote(h) for h in hrefs), ["good.json"])
            for href in hrefs:
                self.assertTrue((merged / unquote(href)).resolve().is_relative_to(merged.resolve()), href)
            self.assertEqual((merged / "good.json").read_bytes(), (shard / "good.json").read_bytes())
            self.assertEqual(sorted(p.name for p in merged.iterdir()),
                             ["good.json", "summary.html", "summary.json", "summary.md", "summary.prom"])
            rows = {t["name"]: t for t in load(merged / "summary.json")["targets"]}
            self.assertEqual(rows["evil"]["report"], "")
            self.assertEqual(rows["evil"]["files"], {})
            self.assertEqual(rows["good"]["report"], "good.json")
            notes = load(merged / "summary.json")["notes"]
            self.assertEqual(len(notes), 1, notes)
            self.assertIn("7 report files not linked", notes[0])
            self.assertIn("../../../../etc/passwd", notes[0])
            self.assertIn("7 report files not linked", page)
            self.assertIn("warning", run.stderr)


if __name__ == "__main__":
    harness.main()
