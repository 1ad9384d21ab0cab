#!/usr/bin/python3
"""The HTML report (-o html=PATH) opened the way an auditor opens it: in a
browser. A fixture plants script in response headers, a redirect Location and
the document; headless Chromium (Debian's chromium) loads the report, and the
DOM after load must show that nothing ran, that there is no <script> at all,
that every failing rule is in the summary table with its verdict, that each
failing check links the exchanges that prove it, and that the functional rules
have the reviewer's checklist. The same report prints to an A4 PDF and makes a
screenshot."""

import html.parser
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import FixtureServer, ProbeCase, default_doc, run_adrprobe  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_TIMEOUT = 90  # seconds, per Chromium run

# Each planted script would leave a mark on the page if it ever ran.
SCRIPT = "<script>document.body.setAttribute('data-pwned','1')</script>"
IMG = "<img src=x onerror=\"document.body.setAttribute('data-pwned','2')\">"

PLANTED = {
    "trailing_slash": 301,
    "api_version": "1.0.0" + SCRIPT,
    "extra_headers": {
        "X-Powered-By": "Express " + SCRIPT,
        # on every response, the 301s of NT-2 included
        "Location": "javascript:document.body.setAttribute('data-pwned','3')//" + IMG,
    },
    "doc_patch": {
        "info": {"title": "Gebouwen " + SCRIPT, "description": IMG},
        "paths": {"/getGebouwen" + IMG: {"get": {"summary": SCRIPT,
                                                 "responses": {"200": {"description": "OK " + SCRIPT}}}}},
    },
}


class Node:
    def __init__(self, tag, attrs, parent=None):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    def text(self):
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def walk(self):
        for c in self.children:
            if isinstance(c, Node):
                yield c
                yield from c.walk()

    def find_all(self, tag=None, cls=None, **attrs):
        out = []
        for n in self.walk():
            if tag and n.tag != tag:
                continue
            if cls and cls not in n.attrs.get("class", "").split():
                continue
            if any(n.attrs.get(k) != v for k, v in attrs.items()):
                continue
            out.append(n)
        return out

    def hrefs(self):
        return [n.attrs["href"] for n in self.find_all("a") if "href" in n.attrs]


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class DomBuilder(html.parser.HTMLParser):
    """The tree of Chromium's --dump-dom output (serialised, so well formed)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Node(tag, attrs, self.current))

    def handle_endtag(self, tag):
        n = self.current
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            self.current = n.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parse_dom(text):
    b = DomBuilder()
    b.feed(text)
    b.close()
    return b.root


def chromium(*args, user_data_dir):
    """Run headless Chromium, bounded in time (its whole process group is
    killed after CHROMIUM_TIMEOUT s); returns (exit status, stdout, stderr)."""
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--user-data-dir=%s" % user_data_dir] + list(args)
    # Chromium is no sanitizer build: the ASan/UBSan settings of ./dev test-asan are adrprobe's only.
    env = {k: v for k, v in os.environ.items() if k not in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LD_PRELOAD")}
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=CHROMIUM_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        raise AssertionError("chromium did not finish in %d s: %s\n%s" % (
            CHROMIUM_TIMEOUT, " ".join(cmd), err.decode("utf-8", "replace")[-2000:]))
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # anything it left behind
        except (ProcessLookupError, PermissionError):
            pass
    return proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def require_chromium():
    """Debian's chromium opens the report: a failure when it is missing and
    installable here (./dev installs it), a skip only where it is not packaged."""
    harness.require_tool(CHROMIUM, "chromium")


class HtmlReport(ProbeCase):
    """A report of an API that plants script everywhere it can, in Chromium."""

    @classmethod
    def setUpClass(cls):
        require_chromium()
        cls.tmp = tempfile.mkdtemp(prefix="adrprobe-html-")
        cls.html_path = Path(cls.tmp, "report.html")
        json_path = Path(cls.tmp, "report.json")
        with FixtureServer(PLANTED) as srv:
            cls.adrprobe_run = run_adrprobe(harness.check_args(
                srv.base_url, ("--edition", "2.2.0", "-o", "html=%s" % cls.html_path, "-o", "json=%s" % json_path),
                fmt="text"))
        cls.report = json.loads(json_path.read_text(encoding="utf-8")) if json_path.exists() else None
        cls.source = cls.html_path.read_text(encoding="utf-8") if cls.html_path.exists() else ""
        rc, out, err = chromium("--dump-dom", cls.html_path.as_uri(), user_data_dir=Path(cls.tmp, "profile-dom"))
        cls.dom_text, cls.chromium_err = out, err
        cls.dom = parse_dom(out)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        self.assertIsNotNone(self.report, "no JSON report written\n" + self.adrprobe_run.describe())
        self.assertTrue(self.source, "no HTML report written\n" + self.adrprobe_run.describe())
        self.assertIn("<body", self.dom_text, "chromium --dump-dom gave no DOM:\n" + self.chromium_err[-3000:])

    def section_of(self, rule_id):
        for s in self.dom.find_all("section"):
            ids = [n.text() for n in s.find_all("span", cls="id")]
            if rule_id in ids:
                return s
        self.fail("no section for %s in the DOM" % rule_id)

    def test_planted_script_did_not_run(self):
        self.assertEqual(self.adrprobe_run.rc, 1, self.adrprobe_run.describe())  # failing rules
        body = self.dom.find_all("body")
        self.assertEqual(len(body), 1)
        self.assertNotIn("data-pwned", body[0].attrs)
        self.assertNotIn("data-pwned", self.dom_text.split("<body", 1)[1].split(">", 1)[0])
        self.assertEqual(self.dom.find_all("script"), [], "script elements in the DOM")
        at = self.source.find("<script")
        self.assertEqual(at, -1, "<script in the HTML file: ...%s..." % self.source[max(0, at - 200):at + 100])
        self.assertEqual(self.dom.find_all("img"), [], "an img element from server text")
        self.assertEqual([n for n in self.dom.walk() if any(k.startswith("on") for k in n.attrs)], [],
                         "event handler attributes in the DOM")
        # ... shown as text instead, where the reviewer can read them
        text = self.dom.text()
        self.assertIn("1.0.0" + SCRIPT, text)  # the API-Version header
        self.assertIn("Express " + SCRIPT, text)  # X-Powered-By
        self.assertIn("/getGebouwen" + IMG, text)  # a documented path

    def test_self_contained_and_no_javascript_links(self):
        csp = [m for m in self.dom.find_all("meta") if m.attrs.get("http-equiv", "").lower() == "content-security-policy"]
        self.assertEqual(len(csp), 1)
        self.assertEqual(csp[0].attrs["content"], "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
        for n in self.dom.walk():
            self.assertNotIn("src", n.attrs, "an element loads %r" % n.attrs.get("src"))
            if n.tag == "link":
                self.fail("a <link> element: %r" % n.attrs)
        # A failing check's fix links the documentation it follows (the catalogue's, not the server's).
        fix_sources = {c["fix"]["source"] for r in self.report["rules"] for c in r.get("checks", []) if "fix" in c}
        for href in self.dom.hrefs():
            self.assertTrue(href.startswith("#") or re.match(r"https://[^/]*logius\.nl/", href) or href in fix_sources,
                            "a link to outside the report that is not a rule's text or a fix's source: %r" % href)
        self.assertIn("javascript:document.body.setAttribute", self.dom.text())  # the Location, as text

    def test_every_failing_rule_in_the_summary_table(self):
        failing = [r for r in self.report["rules"] if r["verdict"] == "fail"]
        self.assertGreaterEqual(len(failing), 3, [r["id"] for r in failing])
        table = self.dom.find_all("table", cls="rules")
        self.assertEqual(len(table), 1)
        rows = {}
        for tr in table[0].find_all("tr"):
            cells = tr.find_all("td")
            if len(cells) > 1:  # not the one-cell line that points to the checklist on paper
                rows[cells[1].find_all("a")[0].text()] = tr
        self.assertEqual(set(rows), {r["id"] for r in self.report["rules"]}, "rules missing from the summary table")
        for r in self.report["rules"]:
            verdict = rows[r["id"]].find_all("span", cls="v")
            self.assertEqual([v.text() for v in verdict],
                             [{"fail": "✖ fail", "warn": "⚠ warn", "pass": "✔ pass", "error": "! error",
                               "skip": "– skip", "manual": "☐ manual"}[r["verdict"]]], r["id"])

    def test_failing_checks_link_their_exchanges(self):
        exchanges = {e["id"]: e for e in self.report["exchanges"]}
        cited = 0
        for r in self.report["rules"]:
            for c in r["checks"]:
                if c["verdict"] != "fail" or not c["exchanges"]:
                    continue
                section = self.section_of(r["id"])
                blocks = [b for b in section.find_all("div", cls="check")
                          if b.find_all("span", cls="cid")[0].text() == c["id"]]
                self.assertTrue(blocks, "no block for %s %s" % (r["id"], c["id"]))
                hrefs = set(h for b in blocks for h in b.hrefs())
                for x in c["exchanges"]:
                    cited += 1
                    self.assertIn("#x%d" % x, hrefs, "%s does not link exchange %d" % (c["id"], x))
                    # anchored once: its entry in the appendix "Evidence"
                    rows = self.dom.find_all(id="x%d" % x)
                    self.assertEqual(len(rows), 1, "exchange %d anchored %d times" % (x, len(rows)))
                    self.assertEqual(rows[0].attrs.get("class"), "xchg", "exchange %d is not under Evidence" % x)
                    row = rows[0].text()
                    e = exchanges[x]
                    self.assertIn(e["method"], row)
                    if "<" not in e["url"]:
                        self.assertIn(e["url"], row)
                    self.assertIn(str(e["status"]) if e["status"] is not None else "no response", row)
                    for name, value in e["response_headers"].items():
                        if name in ("location", "api-version") and "\\" not in value:
                            self.assertIn("%s: %s" % (name, value), row)
        self.assertGreater(cited, 0, "no failing check cites an exchange: the fixture plants too little")

    def test_functional_rules_have_the_checklist(self):
        """The compact checklist (the default): one row per functional rule with its boxes,
        the rule's text and what to look at behind <details>."""
        functional = [r for r in self.report["rules"] if r["kind"] == "functional"]
        self.assertTrue(functional)
        rows = {}
        for tr in self.dom.find_all("tr", cls="review-row"):
            rows[tr.find_all("summary")[0].find_all("span", cls="mono")[0].text()] = tr
        self.assertEqual(set(rows), {r["id"] for r in functional})
        for r in functional:
            row = rows[r["id"]]
            text = row.text()
            for box in ("☐ conforms", "☐ does not conform", "☐ n/a"):
                self.assertIn(box, text)
            self.assertEqual(len(row.find_all("details")), 1, r["id"])
            if r.get("review"):
                self.assertIn(" ".join(r["review"].split())[:60], " ".join(text.split()))

    def test_prints_on_a4(self):
        pdf = Path(self.tmp, "report.pdf")
        rc, out, err = chromium("--no-pdf-header-footer", "--print-to-pdf=%s" % pdf, self.html_path.as_uri(),
                                user_data_dir=Path(self.tmp, "profile-pdf"))
        self.assertTrue(pdf.exists(), "no PDF (exit %s):\n%s" % (rc, err[-3000:]))
        data = pdf.read_bytes()
        self.assertTrue(data.startswith(b"%PDF-"))
        boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)
        self.assertTrue(boxes, "no MediaBox in the PDF")
        for w, h in boxes:
            self.assertEqual((round(float(w)), round(float(h))), (595, 842), "a page that is not A4")
        self.assertGreater(len(boxes), 1)  # the report runs over several pages

    def test_screenshot(self):
        png = Path(self.tmp, "report.png")
        rc, out, err = chromium("--screenshot=%s" % png, "--window-size=1280,2400", "--hide-scrollbars",
                                self.html_path.as_uri(), user_data_dir=Path(self.tmp, "profile-png"))
        self.assertTrue(png.exists(), "no screenshot (exit %s):\n%s" % (rc, err[-3000:]))
        data = png.read_bytes()
        self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        self.assertEqual(width, 1280)
        self.assertGreater(height, 1000)


class LintHtml(ProbeCase):
    """A lint report has no exchanges; the rules that need a live API are skip."""

    def test_lint_report(self):
        with tempfile.TemporaryDirectory() as tmp:
            doc = Path(tmp, "openapi.json")
            doc.write_text(json.dumps(default_doc("/v1", "1.0.0")), encoding="utf-8")
            out = Path(tmp, "lint.html")
            run = run_adrprobe(["lint", str(doc), "-o", "html=%s" % out])
            self.assertTrue(out.exists(), run.describe())
            text = out.read_text(encoding="utf-8")
        self.assertIn("static checks on the document alone", text)
        self.assertIn("needs a live API", text)
        self.assertNotIn('id="x', text)
        self.assertNotIn("<script", text)


class ModuleHtml(ProbeCase):
    """--modules geo (module-geo.md): the Geospatial module is a section of its
    own after the edition's rules, in the table of contents and the facts at
    the top, in Chromium on screen and on A4 paper."""

    def test_module_section_on_screen_and_paper(self):
        require_chromium()
        with tempfile.TemporaryDirectory() as tmp:
            html_path, json_path = Path(tmp, "report.html"), Path(tmp, "report.json")
            with FixtureServer(PLANTED) as srv:
                run = run_adrprobe(harness.check_args(
                    srv.base_url, ("--edition", "2.2.0", "--modules", "geo", "-o", "html=%s" % html_path,
                                   "-o", "json=%s" % json_path), fmt="text"))
            self.assertTrue(html_path.exists() and json_path.exists(), run.describe())
            report = json.loads(json_path.read_text(encoding="utf-8"))
            [module] = report["modules"]
            heading = "%s module %s" % (module["title"], module["version"])
            # The text report: the heading with its own count, after the edition's rules.
            self.assertIn("\n " + heading + "  ", run.stdout)
            self.assertLess(run.stdout.index(" Technical rules"), run.stdout.index(heading))
            rc, out, err = chromium("--dump-dom", html_path.as_uri(), user_data_dir=Path(tmp, "profile-dom"))
            dom = parse_dom(out)
            self.assertEqual(dom.find_all("script"), [])
            [h2] = dom.find_all("h2", id="module-geo")
            self.assertEqual(h2.text(), heading)
            self.assertIn("#module-geo", dom.find_all("nav", cls="toc")[0].hrefs())
            page = " ".join(dom.find_all("body")[0].text().split())
            self.assertIn(" ".join(module["reason"].split()), page)
            # Every rule of the module in its own table, none in the edition's.
            tables = dom.find_all("table", cls="rules")
            self.assertEqual(len(tables), 2)
            listed = lambda table: [a.text() for a in table.find_all("a", cls="mono")]
            geo = [r for r in report["rules"] if r.get("module") == "geo"]
            self.assertEqual(listed(tables[1]), [r["id"] for kind in ("technical", "functional")
                                                 for r in geo if r["kind"] == kind])
            self.assertFalse([i for i in listed(tables[0]) if i.startswith("/geo/")])
            png = Path(tmp, "report.png")
            chromium("--screenshot=%s" % png, "--window-size=1280,2400", "--hide-scrollbars", html_path.as_uri(),
                     user_data_dir=Path(tmp, "profile-png"))
            self.assertEqual(png.read_bytes()[:8], b"\x89PNG\r\n\x1a\n")
            pdf = Path(tmp, "report.pdf")
            chromium("--no-pdf-header-footer", "--print-to-pdf=%s" % pdf, html_path.as_uri(),
                     user_data_dir=Path(tmp, "profile-pdf"))
            boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf.read_bytes())
            self.assertTrue(boxes)
            for w, h in boxes:
                self.assertEqual((round(float(w)), round(float(h))), (595, 842), "a page that is not A4")
            keep = os.environ.get("ADRPROBE_KEEP_SCREENSHOTS")
            if keep:
                shutil.copy(png, Path(keep) / "report-geo.png")
                shutil.copy(pdf, Path(keep) / "report-geo.pdf")


if __name__ == "__main__":
    harness.main()
