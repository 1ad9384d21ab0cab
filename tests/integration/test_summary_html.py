#!/usr/bin/python3
"""summary.html of a night of monitoring, opened the way the platform team
opens it: in a browser, and printed. A summary.json of 14 targets over 30
technical rules (changes of every kind, a target down, one with hostile text)
is written by hand and rendered by the real binary (`adrprobe summary`);
headless Chromium (Debian's chromium) then loads the page, makes a screenshot
at 1280 px and prints it to PDF. The checks: tonight's counts above the table,
changed rows first, the matrix complete and within the page at 1280 px, hosts
on one line, nothing of the hostile text ran, links only inside the directory,
and the print is A4 in a bounded number of pages, the matrix on landscape."""

import json
import os
import re
import shutil
import sys
import tempfile
import unittest
from pathlib import Path
from urllib.parse import unquote

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import run_adrprobe  # noqa: E402
from test_html import chromium, parse_dom, require_chromium  # noqa: E402

SCRIPT = "<script>document.body.setAttribute('data-pwned','1')</script>"

RULES = ["/core/no-trailing-slash", "/core/path-segments-kebab-case", "/core/query-keys-camel-case",
         "/core/hide-implementation", "/core/date-time/format", "/core/date-time/timezone",
         "/core/date-time/date-omit-time-portion", "/core/http-methods", "/core/resource-operations",
         "/core/error-handling/problem-details", "/core/error-handling/invalid-input",
         "/core/error-handling/all-errors", "/core/doc-openapi-contact", "/core/publish-openapi",
         "/core/deprecation-schedule", "/core/uri-version", "/core/version-header", "/core/semver",
         "/core/transport/security", "/core/transport/tls-profile", "/core/no-state", "/core/cors",
         "/core/doc-language", "/core/changelog", "/core/uri-naming", "/core/nested-resources",
         "/core/filtering", "/core/sorting", "/core/pagination", "/core/rate-limits"]
assert len(RULES) == 30
VERDICTS = ["pass", "pass", "pass", "warn", "fail", "pass", "error", "pass", "skip", "pass"]


def target(i, name, change=None, reachable=True, note="", now=None):
    verdicts = {} if not reachable else {r: VERDICTS[(i + j) % len(VERDICTS)] for j, r in enumerate(RULES)}
    verdicts.update(now or {})
    if i == 5:  # an older edition: the last five rules are not in it
        verdicts = {r: v for r, v in verdicts.items() if r not in RULES[25:]}
    counts = {v: sum(1 for x in verdicts.values() if x == v) for v in ("pass", "warn", "fail", "error")}
    applicable = sum(counts.values())
    score = dict(counts, applicable=applicable,
                 percent=round(100.0 * counts["pass"] / applicable, 1) if reachable and applicable else None)
    stem = re.sub(r"[^a-z0-9._-]", "-", name.lower())
    return {
        "name": name,
        "base_url": "https://%s.api.gemeente-voorbeeld.example.nl:8443/bag/individuele-bevragingen/v2/" % stem[:20],
        "edition": "2.2.0",
        "report": stem + ".json",
        "files": {"json": stem + ".json", "html": stem + ".html"},
        "score": score,
        "failing": [r for r, v in verdicts.items() if v == "fail"],
        "erroring": [r for r, v in verdicts.items() if v == "error"],
        "change": change,
        "reachable": reachable,
        "note": note,
        "cert_days_left": 200 - 20 * i,
        "exit_status": 1 if not reachable or any(v == "fail" for v in verdicts.values()) else 0,
        "generated_at": "2026-11-23T02:%02d:00Z" % i,
        "verdicts": verdicts,
        # the monitoring fields (a reader that knows them shows them)
        "owner": "Team %d" % (i % 3) if i % 4 else "",
        "labels": {"domain": "bag", "tier": "gold" if i % 2 else "silver"},
    }


def change(new_fail=(), fixed=(), regressed=()):
    return {"new-fail": list(new_fail), "fixed": list(fixed), "regressed": list(regressed)}


NAMES = ["adressen", "basisregistratie-gebouwen", "belastingen", "cultuur", "dienstverlening", "energie",
         "financien", "gezondheid", "haven", "kadaster", "omgevingswet", "zaken", "zorg"]


def summary_json():
    targets = []
    for i, name in enumerate(NAMES):
        c, now = change(), {}
        if name == "belastingen":
            c, now = change(new_fail=[RULES[4]], regressed=[RULES[3]]), {RULES[4]: "fail", RULES[3]: "warn"}
        elif name == "haven":
            c, now = change(regressed=[RULES[13]]), {RULES[13]: "warn"}
        elif name == "energie":
            c, now = change(fixed=[RULES[0], RULES[1]]), {RULES[0]: "pass", RULES[1]: "pass"}
        elif name == "zorg":
            c = None  # new in the register
        targets.append(target(i, name, c, now=now))
    targets.append(target(len(NAMES), "kapot", change(), reachable=False,
                          note="could not reach https://kapot.example.nl/v1: connection refused"))
    targets.append(target(len(NAMES) + 1, "evil " + SCRIPT, change(new_fail=[RULES[6]]), now={RULES[6]: "fail"}))
    return {"schema": "adrprobe-summary/1", "tool": {"name": "adrprobe", "version": "0.4.0"},
            "generated_at": "2026-11-23T02:30:00Z", "shard": {"k": 0, "n": 1, "register": len(targets)},
            "complete": True, "notes": [], "targets": targets}


def png_size(path):
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


# The test's own probe, in a copy of the page without its CSP: it measures the
# layout at 1280 px and writes the figures into the DOM for --dump-dom.
MEASURE = """<script>
addEventListener('load', () => {
  const doc = document.documentElement, m = document.querySelector('table.matrix');
  const scroll = document.querySelector('.mx-scroll');
  const hosts = [...document.querySelectorAll('.url > .nw:first-child')];
  const out = {
    viewport: innerWidth, doc_width: doc.scrollWidth, body_width: document.body.scrollWidth,
    matrix_width: m.getBoundingClientRect().width, scroll_width: scroll.clientWidth,
    matrix_scroll: scroll.scrollWidth, hosts: hosts.length,
    wrapped_hosts: hosts.filter(h => h.getClientRects().length > 1).map(h => h.textContent),
  };
  const pre = document.createElement('pre');
  pre.id = 'measured';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


class SummaryHtml(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        require_chromium()
        cls.tmp = tempfile.mkdtemp(prefix="adrprobe-summary-html-")
        cls.dir = Path(cls.tmp, "night")
        cls.dir.mkdir()
        data = summary_json()
        for t in data["targets"]:
            for f in t["files"].values():
                (cls.dir / f).write_text("{}", encoding="utf-8")
        (cls.dir / "summary.json").write_text(json.dumps(data), encoding="utf-8")
        cls.data = data
        cls.summary_run = run_adrprobe(["summary", "--out-dir", cls.dir, cls.dir], timeout=60)
        cls.page_path = cls.dir / "summary.html"
        cls.page = cls.page_path.read_text(encoding="utf-8") if cls.page_path.exists() else ""
        rc, out, err = chromium("--dump-dom", cls.page_path.as_uri(), user_data_dir=Path(cls.tmp, "profile-dom"))
        cls.dom_text, cls.dom_err = out, err

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        self.assertTrue(self.page, "no summary.html: " + self.summary_run.describe())
        self.assertIn("<body", self.dom_text, "chromium --dump-dom gave no DOM:\n" + self.dom_err[-3000:])

    def test_tonight_counts_above_the_table(self):
        dom = parse_dom(self.dom_text)
        tonight = dom.find_all("section", cls="tonight")
        self.assertEqual(len(tonight), 1)
        text = " ".join(tonight[0].text().split())
        # belastingen, haven, energie, evil: 4 of 15
        self.assertIn("4 of 15 targets changed", text)
        for count in ("0 down", "2 new-fail", "2 regressed", "1 fixed", "0 back up", "3 got worse"):
            self.assertIn(count, text)
        self.assertLess(self.dom_text.index('class="tonight"'), self.dom_text.index('class="targets"'))

    def test_changed_rows_first_and_the_down_target(self):
        dom = parse_dom(self.dom_text)
        table = dom.find_all("table", cls="targets")[0]
        names = [row.find_all("b")[0].text() for row in table.find_all("tbody")[0].find_all("tr")]
        self.assertEqual(len(names), 15)
        self.assertEqual(names[:4], ["belastingen", "evil " + SCRIPT, "haven", "energie"])
        # then the one still down, then the failing, the not completely tested, the passing: by name in each
        self.assertEqual(names[4], "kapot")
        rows = {t["name"]: t for t in self.data["targets"]}
        group = lambda name: 0 if rows[name]["failing"] else 1 if rows[name]["erroring"] else 2
        self.assertEqual(names[5:], sorted(names[5:], key=lambda name: (group(name), name)))
        row = [r for r in table.find_all("tr") if r.find_all("b") and r.find_all("b")[0].text() == "kapot"][0]
        self.assertEqual(" ".join(row.text().split()).count("down: could not reach"), 1)
        self.assertIn("n/a", row.text())

    def test_the_matrix(self):
        dom = parse_dom(self.dom_text)
        matrix = dom.find_all("table", cls="matrix")
        self.assertEqual(len(matrix), 1)
        heads = matrix[0].find_all("th", cls="rot")
        self.assertEqual([h.attrs.get("title") for h in heads], RULES)
        rows = matrix[0].find_all("tbody")[0].find_all("tr")
        self.assertEqual(len(rows), 15)
        for row in rows:
            cells = row.find_all("td")
            name = row.find_all("th")[0].text()
            if name == "kapot":
                self.assertEqual(len(cells), 1)
                self.assertEqual(cells[0].attrs.get("colspan"), "30")
            else:
                self.assertEqual(len(cells), 30, name)
        belastingen = [r for r in rows if r.find_all("th")[0].text() == "belastingen"][0]
        marked = [c.attrs.get("title") for c in belastingen.find_all("td") if "chg" in c.attrs.get("class", "")]
        self.assertEqual(marked, [RULES[3] + ": warn, regressed", RULES[4] + ": fail, new fail"])

    def test_nothing_ran_and_links_stay_inside(self):
        dom = parse_dom(self.dom_text)
        body = dom.find_all("body")[0]
        self.assertNotIn("data-pwned", body.attrs)  # the planted script would have set it
        self.assertEqual(dom.find_all("script"), [])
        self.assertNotIn("<script", self.page)
        self.assertIn("evil " + SCRIPT, [b.text() for b in dom.find_all("b")])
        hrefs = dom.hrefs()
        self.assertEqual(len(hrefs), 30)  # JSON and HTML of each target
        for href in hrefs:
            self.assertNotRegex(href, r"^[a-z]+:|^/|(^|/)\.\.(/|$)", href)
            self.assertTrue((self.dir / unquote(href)).is_file(), href)

    def test_layout_at_1280_px(self):
        probe = self.page.replace('<meta http-equiv="Content-Security-Policy"', '<meta name="x-csp-removed"')
        probe = probe.replace("</body>", MEASURE + "</body>")
        path = Path(self.tmp, "measure.html")
        path.write_text(probe, encoding="utf-8")
        rc, out, err = chromium("--window-size=1280,2000", "--hide-scrollbars", "--dump-dom", path.as_uri(),
                                user_data_dir=Path(self.tmp, "profile-measure"))
        found = re.search(r'<pre id="measured">(.*?)</pre>', out, re.S)
        self.assertTrue(found, "no measurement:\n" + err[-3000:])
        m = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
        self.assertEqual(m["viewport"], 1280)
        self.assertLessEqual(m["doc_width"], 1280, m)          # no horizontal overflow of the page
        self.assertLessEqual(m["body_width"], 1280, m)
        self.assertLessEqual(m["matrix_scroll"], m["scroll_width"], m)  # 30 rules fit without scrolling
        self.assertEqual(m["hosts"], 15 * 1, m)                # one base URL per row
        self.assertEqual(m["wrapped_hosts"], [], m)            # scheme, host and port on one line

    def test_screenshot(self):
        png = Path(self.tmp, "summary.png")
        rc, out, err = chromium("--screenshot=%s" % png, "--window-size=1280,3000", "--hide-scrollbars",
                                self.page_path.as_uri(), user_data_dir=Path(self.tmp, "profile-png"))
        self.assertTrue(png.exists(), "no screenshot (exit %s):\n%s" % (rc, err[-3000:]))
        self.assertEqual(png_size(png), (1280, 3000))
        keep = os.environ.get("ADRPROBE_KEEP_SCREENSHOTS")
        if keep:
            shutil.copy(png, Path(keep) / "summary.png")

    def test_prints_on_a4(self):
        pdf = Path(self.tmp, "summary.pdf")
        rc, out, err = chromium("--no-pdf-header-footer", "--print-to-pdf=%s" % pdf, self.page_path.as_uri(),
                                user_data_dir=Path(self.tmp, "profile-pdf"))
        self.assertTrue(pdf.exists(), "no PDF (exit %s):\n%s" % (rc, err[-3000:]))
        data = pdf.read_bytes()
        self.assertTrue(data.startswith(b"%PDF-"))
        boxes = [(round(float(w)), round(float(h)))
                 for w, h in re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)]
        self.assertTrue(boxes, "no MediaBox in the PDF")
        for box in boxes:
            self.assertIn(box, [(595, 842), (842, 595)], "a page that is not A4")
        self.assertLessEqual(len(boxes), 5, boxes)  # 15 targets: a few pages, not one per row
        self.assertEqual(boxes.count((842, 595)), 1, boxes)  # the matrix: one landscape page
        keep = os.environ.get("ADRPROBE_KEEP_SCREENSHOTS")
        if keep:
            shutil.copy(pdf, Path(keep) / "summary.pdf")

    def test_a_module_is_a_column_group_of_its_own(self):
        """A row with the Geospatial module (summary.json `modules`): its rules
        are columns after the edition's, under the module's heading; a row
        without it has empty cells there, titled so. On paper the matrix is
        still one landscape page."""
        night = Path(self.tmp, "geo")
        night.mkdir()
        geo_rules = ["/geo/crs-list", "/geo/default-crs", "/geo/bbox-query-parameter"]
        with_geo = target(0, "kaart", change(new_fail=["/geo/default-crs"]))
        with_geo["verdicts"].update({"/geo/crs-list": "pass", "/geo/default-crs": "fail", "/geo/bbox-query-parameter": "skip"})
        with_geo["modules"] = [{"id": "geo", "heading": "Geospatial module 1.0.2", "rules": geo_rules}]
        rows = [with_geo, target(1, "zaken", change())]
        for t in rows:
            for f in t["files"].values():
                (night / f).write_text("{}", encoding="utf-8")
        data = {"schema": "adrprobe-summary/1", "tool": {"name": "adrprobe", "version": "0.5.0"},
                "generated_at": "2026-11-23T02:30:00Z", "targets": rows}
        (night / "summary.json").write_text(json.dumps(data), encoding="utf-8")
        run = run_adrprobe(["summary", "--out-dir", night, night], timeout=60)
        page = night / "summary.html"
        self.assertTrue(page.exists(), run.describe())
        rc, out, err = chromium("--dump-dom", page.as_uri(), user_data_dir=Path(self.tmp, "profile-geo"))
        dom = parse_dom(out)
        [matrix] = dom.find_all("table", cls="matrix")
        head_rows = matrix.find_all("thead")[0].find_all("tr")
        self.assertEqual(len(head_rows), 2)
        groups = [(th.text(), th.attrs.get("colspan")) for th in head_rows[0].find_all("th")]
        self.assertEqual(groups, [("", None), ("Edition", "30"), ("Geospatial module 1.0.2", "3")])
        self.assertEqual([h.attrs.get("title") for h in matrix.find_all("th", cls="rot")], RULES + geo_rules)
        body = {r.find_all("th")[0].text(): r.find_all("td") for r in matrix.find_all("tbody")[0].find_all("tr")}
        self.assertEqual([c.attrs.get("title") for c in body["kaart"][30:]],
                         ["/geo/crs-list: pass", "/geo/default-crs: fail, new fail", "/geo/bbox-query-parameter: skip"])
        self.assertEqual([c.attrs.get("title") for c in body["zaken"][30:]],
                         [r + ": Geospatial module 1.0.2 not judged" for r in geo_rules])
        self.assertIn("<code>/geo/</code> (Geospatial module 1.0.2)", page.read_text(encoding="utf-8"))
        png = Path(self.tmp, "summary-geo.png")
        chromium("--screenshot=%s" % png, "--window-size=1280,1400", "--hide-scrollbars", page.as_uri(),
                 user_data_dir=Path(self.tmp, "profile-geo-png"))
        self.assertEqual(png_size(png), (1280, 1400))
        pdf = Path(self.tmp, "summary-geo.pdf")
        chromium("--no-pdf-header-footer", "--print-to-pdf=%s" % pdf, page.as_uri(),
                 user_data_dir=Path(self.tmp, "profile-geo-pdf"))
        boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf.read_bytes())
        self.assertEqual([(round(float(w)), round(float(h))) for w, h in boxes].count((842, 595)), 1, boxes)
        keep = os.environ.get("ADRPROBE_KEEP_SCREENSHOTS")
        if keep:
            shutil.copy(png, Path(keep) / "summary-geo.png")
            shutil.copy(pdf, Path(keep) / "summary-geo.pdf")


if __name__ == "__main__":
    harness.main()
