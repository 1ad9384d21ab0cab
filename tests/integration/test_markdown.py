#!/usr/bin/python3
"""`-f markdown` (merge-request comments, CLI.md "Formats"): the real binary
against a fixture server whose document and headers plant HTML, an image and a
javascript: link; the summary table read back, the failing rules listed, and
the planted markup inert (escaped: no tag, no link, no image). And rendered
as GitHub does (cmark-gfm with its autolink and table extensions): server text
full of www., scheme:// and e-mail addresses makes no link. And summary.md,
the nightly digest: its URLs and times render and paste as written."""

import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import FixtureServer, ProbeCase, run_adrprobe  # noqa: E402
from test_output import OSC, controls  # noqa: E402

IMG = "<img src=x onerror=alert(1)>"
LINK = "[link](javascript:alert(1))"
PLANTED = {
    "api_version": "1.0" + IMG,  # VH-2 quotes the header
    "trailing_slash": 301,
    "doc_patch": {
        "info": {"contact": {"name": "Team " + LINK + OSC}},
        "paths": {"/getGebouw" + IMG.replace("/", ""): {"get": {"responses": {"200": {"description": "OK"}}}}},
    },
}


def table(md):
    """The rows of the first Markdown table: cells split on unescaped '|'."""
    rows = []
    for line in md.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            rows.append(cells)
        elif rows:
            break
    return rows


class Markdown(ProbeCase):
    def run_markdown(self, edition):
        with tempfile.TemporaryDirectory() as tmp, FixtureServer(PLANTED) as srv:
            report = Path(tmp, "r.json")
            run = run_adrprobe(harness.check_args(srv.base_url, ("-o", "json=%s" % report), edition=edition,
                                                  fmt="markdown"))
            self.assertNoCrash(run)
            return run.stdout, json.loads(report.read_text())

    def test_table_and_failing_rules(self):
        md, report = self.run_markdown("2.1.0")
        rows = table(md)
        self.assertEqual(rows[0][:3], ["Rule", "Verdict", "Summary"])
        technical = [r for r in report["rules"] if r["kind"] == "technical"]
        body = rows[2:]
        self.assertEqual(len(body), len(technical), "one row per technical rule")
        for rule, row in zip(technical, body):
            self.assertEqual(row[0], rule["id"])
            self.assertTrue(row[1].endswith(" " + rule["verdict"]), row)
        failing = [r for r in technical if r["verdict"] == "fail"]
        self.assertTrue(failing)
        for rule in failing:
            for c in rule["checks"]:
                if c["verdict"] == "fail":
                    self.assertIn("**%s** fail %s:" % (c["id"], rule["id"]), md)
        functional = sum(r["kind"] == "functional" for r in report["rules"])
        self.assertIn("%d functional rule" % functional, md)
        self.assertRegex(md.splitlines()[0], r"^\*\*❌ Does not conform to 2\.1\.0\\: \d+ MUST rules? fails? .*\*\*$")
        self.assertRegex(md.splitlines()[2], r"^### adrprobe check: .* · score \d+\.\d %$")
        self.assertRegex(md, r"GET http\\:\u2060//127\.0\.0\.1\\:\d+/v1/gebouwen/ → 301")  # a word joiner after :

    def test_a_module_after_the_edition_under_its_heading(self):
        """--modules geo: the module's rules in a table of their own under
        "### Geospatial module 1.0.2", after the edition's."""
        with tempfile.TemporaryDirectory() as tmp, FixtureServer(PLANTED) as srv:
            report = Path(tmp, "r.json")
            run = run_adrprobe(harness.check_args(srv.base_url, ("-o", "json=%s" % report, "--modules", "geo"),
                                                  edition="2.2.0", fmt="markdown"))
            self.assertNoCrash(run)
            report = json.loads(report.read_text())
        md = run.stdout
        [module] = report["modules"]
        heading = "\n### %s module %s\n" % (module["title"], module["version"])
        self.assertIn(heading, md)
        edition_part, module_part = md.split(heading)
        geo = [r for r in report["rules"] if r.get("module") == "geo" and r["kind"] == "technical"]
        self.assertEqual([row[0] for row in table(module_part)[2:]], [r["id"] for r in geo])
        self.assertFalse([row for row in table(edition_part)[2:] if row[0].startswith("/geo/")])

    def test_planted_markup_is_inert(self):
        for edition in ("2.1.0", "2.2.0"):
            with self.subTest(edition=edition):
                md, report = self.run_markdown(edition)
                self.assertIn("version-header", md)
                self.assertNotIn("<img", md)
                self.assertNotIn("](javascript", md)
                self.assertNotIn("[link]", md)
                self.assertIn("&lt;img src=x onerror=alert\\(1\\)&gt;", md)
                self.assertEqual(controls(md), [])
                if edition == "2.1.0":  # CT-1 passes and quotes the contact name in the table
                    self.assertIn("\\[link\\]\\(javascript\\:alert\\(1\\)\\)", md)
                    self.assertIn("\\\\x1b\\]0;pwned\\\\x07", md)


PHISH = "see www.evil-phish.example/adr-fix or mail helpdesk@evil-phish.example"
AUTOLINKS = {
    # SV-1 and UV-3 quote info.version; VH-3 quotes the API-Version header beside it.
    "version": PHISH,
    "api_version": "1.0.0 (docs: https://evil-phish.example/v, WWW.Evil-Phish.example, ops@evil-phish.example)",
    "trailing_slash": 301,
    "extra_headers": {"X-Powered-By": "PHP/8.1 see https://evil-phish.example/php"},
    "doc_patch": {
        "info": {"title": "Docs at https://evil-phish.example/t ftp://evil-phish.example/t www.evil-phish.example",
                 "contact": {"name": "xmpp:ops@evil-phish.example mailto:ops@evil-phish.example"}},
        "paths": {"/www.evil-phish.example/getIt": {"get": {"responses": {"200": {"description": "OK"}}}},
                  "/x/https:/evil-phish.example/Mail@evil-phish.example":
                      {"get": {"responses": {"200": {"description": "OK"}}}}},
    },
}


class Autolinks(ProbeCase):
    """Rendered by cmark-gfm with the autolink extension, the comment has no
    link, image or raw HTML that server text made; the planted text is there."""

    def test_no_link_from_server_text(self):
        cmark = harness.require_tool("cmark-gfm", "cmark-gfm")
        for edition in ("2.1.0", "2.2.0"):
            with self.subTest(edition=edition), FixtureServer(AUTOLINKS) as srv:
                run = run_adrprobe(harness.check_args(srv.base_url, edition=edition, fmt="markdown"))
                self.assertNoCrash(run)
                md = run.stdout
                html = subprocess.run([cmark, "-e", "autolink", "-e", "table", "-t", "html"], input=md,
                                      capture_output=True, text=True, timeout=30, check=True).stdout
                # the planted text reached the comment (else there is nothing to link)
                text = re.sub(r"<[^>]+>", "", html).replace("\u2060", "")
                self.assertIn("www.evil-phish.example/adr-fix or mail helpdesk@evil-phish.example", text)
                self.assertIn("ops@evil-phish.example", text)
                self.assertIn("https://evil-phish.example/v", text)
                self.assertIn("WWW.Evil-Phish.example", text)
                self.assertIn("http://127.0.0.1:%d/v1" % srv.port, text)  # the server's own URLs
                self.assertIn("/www.evil-phish.example/getIt", text)
                self.assertIn("<table>", html)  # the table extension did run
                self.assertNotIn("<a", html)
                self.assertNotIn("<img", html)
                self.assertNotIn("raw HTML omitted", html)
                self.assertNotIn("evil-phish.example\"", html)  # in no attribute at all
                # The same with raw HTML let through (--unsafe): still no tag but the renderer's own.
                unsafe = subprocess.run([cmark, "--unsafe", "-e", "autolink", "-e", "table", "-t", "html"],
                                        input=md, capture_output=True, text=True, timeout=30, check=True).stdout
                tags = set(re.findall(r"</?([a-zA-Z][a-zA-Z0-9]*)", unsafe))
                # pre and code: a failing check's fix, the change as a fenced block (our own text)
                self.assertLessEqual(tags, {"h3", "h4", "p", "strong", "table", "thead", "tbody", "tr", "th",
                                            "td", "ul", "li", "pre", "code"}, tags)


class Digest(ProbeCase):
    """summary.md, pasted into a chat: URLs, times and a server's words are code
    spans. Rendered by cmark-gfm with the autolink extension they link nothing,
    and the text a reader copies (tags stripped, entities read) is the
    report's, byte for byte: no backslash escape, no invisible word joiner."""

    def test_summary_md_pastes_as_written_and_links_nothing(self):
        cmark = harness.require_tool("cmark-gfm", "cmark-gfm")
        import html as html_text
        old_base, new_base = "/www.evil-phish.example/v1", "/ops@evil-phish.example/v1"
        with tempfile.TemporaryDirectory() as tmp, harness.closed_port() as down, \
                FixtureServer({"base": old_base}, mounts=[{"base": new_base}]) as srv:
            tmp = Path(tmp)
            for night, base in ((1, srv.base_url), (2, srv.mount(new_base).base_url)):
                register = tmp / "targets.yaml"
                register.write_text(harness.yaml_text({"targets": [
                    {"name": "api", "base_url": base, "owner": "Team www.evil-phish.example"},
                    {"name": "weg", "base_url": down, "timeout": 2}]}), encoding="utf-8")
                args = ["batch", register, "--out-dir", tmp / str(night), "--rate", "0", "-q", "--fail-on", "regressed"]
                if night == 2:
                    args += ["--baseline-dir", tmp / "1"]
                    time.sleep(1.1)  # reports are dated to the second: two nights, two times
                run = run_adrprobe(args, timeout=60)
                self.assertIn(run.rc, (0, 3), run.describe())
            md = (tmp / "2" / "summary.md").read_text(encoding="utf-8")
            summary = json.loads((tmp / "2" / "summary.json").read_text(encoding="utf-8"))
        rows = {t["name"]: t for t in summary["targets"]}
        page = subprocess.run([cmark, "-e", "autolink", "-t", "html"], input=md, capture_output=True, text=True,
                              timeout=30, check=True).stdout
        self.assertNotIn("<a", page, md)
        text = html_text.unescape(re.sub(r"<[^>]+>", "", page))
        # the move and the outage as the reports have them
        self.assertIn("moved from %s to %s" % (srv.base_url, srv.mount(new_base).base_url), text, md)
        weg = rows["weg"]
        self.assertTrue(weg["down_since"] and weg["note"], weg)
        self.assertIn("weg: still down since %s" % weg["down_since"], text, md)
        self.assertIn(": %s\n" % weg["note"], text, md)
        # no escape and no joiner in those, in the Markdown nor in what it shows
        for shown in (md, text):
            for url in (srv.base_url, srv.mount(new_base).base_url, weg["note"], weg["down_since"]):
                self.assertIn(url, shown)
        # register text around them is still escaped (an owner is no address either)
        self.assertIn("#### Team www\u2060.evil-phish.example", md)


if __name__ == "__main__":
    harness.main()
