#!/usr/bin/python3
"""An audit report an auditor can file (CLI.md: `conclusion`, `run.command`,
`--rules`, `--checklist`).

A small FastAPI application (four documented paths, Debian's python3-fastapi
served by python3-uvicorn on 127.0.0.1) is checked against edition 2.2.0, the
way the auditor in the issue did:
- the conclusion is first in every format (the HTML banner, the first line of
  text and markdown, JSON `conclusion`, JUnit suite properties), and the JSON
  report is valid against docs/report.schema.json;
- the HTML report's main part (conclusion to checklist) prints on at most 10
  A4 pages in headless Chromium, no rule card is split across two pages unless
  it is taller than a page (then it starts a page), and link targets are
  printed after the link;
- the printout can be filed alone: its appendix "Evidence" holds every
  exchange a check that did not pass cites (request headers as sent, response
  headers, the body's first line), and every fix and checklist hint is printed
  whole;
- EH-2's evidence line shows the Content-Type it judged, VH-1's and VH-4's the
  API-Version (absent: "(none)").
Against the stdlib fixture server: `--rules` sends only the selected rules'
requests and lists the others as `skip` ("not selected"); a wrong base path
(both {base} and {base}/openapi.json answer 404) is a leading note; an
unreachable target is n/a in every format, unless a rule fails without an
answer (TS-1 on http://).

ADRPROBE_KEEP_PRINT=DIR keeps the printed PDF (report.pdf) there for a look."""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import FixtureServer, ProbeCase, run_adrprobe  # noqa: E402
from test_html import chromium, parse_dom, require_chromium  # noqa: E402

MAX_PAGES = 10


def fastapi_app():
    fastapi = harness.require_module("fastapi", "python3-fastapi")
    api = fastapi.FastAPI(title="Gebouwen", version="1.0.0",
                          description="A small API, as a team would publish it with FastAPI's defaults.")

    @api.get("/gebouwen")
    def list_gebouwen():
        return [{"id": "1", "naam": "Stadhuis"}]

    @api.get("/gebouwen/{gebouw_id}")
    def get_gebouw(gebouw_id: str):
        if gebouw_id != "1":
            raise fastapi.HTTPException(status_code=404, detail="Gebouw niet gevonden")
        return {"id": "1", "naam": "Stadhuis", "bouwjaar": 1650}

    @api.get("/adressen")
    def list_adressen():
        return [{"id": "1", "straat": "Dam"}]

    @api.get("/adressen/{adres_id}")
    def get_adres(adres_id: str):
        return {"id": adres_id, "straat": "Dam"}

    app = fastapi.FastAPI(openapi_url=None, docs_url=None, redoc_url=None)
    app.mount("/v1", api)
    return app


class FastApiServer:
    """The application on 127.0.0.1, a port the OS chose, in a thread."""

    def __enter__(self):
        uvicorn = harness.require_module("uvicorn", "python3-uvicorn")
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        config = uvicorn.Config(fastapi_app(), host="127.0.0.1", port=self.port, log_level="error", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise AssertionError("uvicorn did not start")
            time.sleep(0.05)
        return self

    @property
    def base_url(self):
        return "http://127.0.0.1:%d/v1" % self.port

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


def pdf_pages(pdf):
    out = subprocess.run([harness.require_tool("pdfinfo", "poppler-utils"), str(pdf)], capture_output=True, text=True,
                         check=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", out, re.M).group(1))


def page_texts(pdf, pages):
    tool = harness.require_tool("pdftotext", "poppler-utils")
    return [subprocess.run([tool, "-layout", "-f", str(n), "-l", str(n), str(pdf), "-"], capture_output=True,
                           text=True, check=True).stdout for n in range(1, pages + 1)]


def main_and_appendix(texts):
    """The pages of the main part (conclusion to checklist) and those of the
    appendix "Evidence", which starts on a page of its own."""
    at = next((i for i, t in enumerate(texts)
               if re.search(r"^\s*Evidence\s*$", t, re.M) and "the checks above cite" in t), len(texts))
    return texts[:at], texts[at:]


def squash(text):
    """Text without any white space: what pdftotext gives back of a line the
    page wrapped is then the line as written."""
    return "".join(text.split())


class FastApiAudit(ProbeCase):
    """edition 2.2.0 against the FastAPI application, in every format."""

    @classmethod
    def setUpClass(cls):
        require_chromium()
        cls.tmp = tempfile.mkdtemp(prefix="adrprobe-audit-")
        cls.paths = {f: Path(cls.tmp, "report." + f) for f in ("html", "json", "junit", "markdown")}
        with FastApiServer() as srv:
            cls.base_url = srv.base_url
            args = ["check", srv.base_url, "--edition", "2.2.0", "--param", "gebouw_id=1", "--param", "adres_id=1",
                    "--rate", "0", "-f", "text"]
            for f, path in cls.paths.items():
                args += ["-o", "%s=%s" % (f, path)]
            cls.adrprobe_run = run_adrprobe(args, timeout=120)
        cls.report = json.loads(cls.paths["json"].read_text(encoding="utf-8")) if cls.paths["json"].exists() else None
        cls.pdf = Path(cls.tmp, "report.pdf")
        chromium("--no-pdf-header-footer", "--print-to-pdf=%s" % cls.pdf, cls.paths["html"].as_uri(),
                 user_data_dir=Path(cls.tmp, "profile-pdf"))
        keep = os.environ.get("ADRPROBE_KEEP_PRINT")
        if keep and cls.pdf.exists():
            Path(keep).mkdir(parents=True, exist_ok=True)
            shutil.copy(cls.pdf, Path(keep, "report.pdf"))
            shutil.copy(cls.paths["html"], Path(keep, "report.html"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        self.assertNoCrash(self.adrprobe_run)
        self.assertIsNotNone(self.report, self.adrprobe_run.describe())

    def test_json_conclusion_and_command_line_against_the_schema(self):
        validator = harness.schema_validator()
        self.assertEqual([e.message for e in validator.iter_errors(self.report)], [])
        c = self.report["conclusion"]
        self.assertEqual(list(self.report)[0], "conclusion")  # CLI.md: every format shows it first
        must_failed = [r["id"] for r in self.report["rules"]
                       if r["kind"] == "technical" and r["verdict"] == "fail" and r.get("level") != "SHOULD"]
        self.assertTrue(must_failed, "FastAPI's defaults break MUST rules of 2.2.0 (NT-2's redirect, EH-2)")
        self.assertIs(c["conforms"], False)
        self.assertEqual(c["must_failed"], len(must_failed))
        functional = [r for r in self.report["rules"] if r["kind"] == "functional"]
        self.assertEqual(c["functional_pending"], len(functional))
        self.assertTrue(c["text"].startswith("Does not conform to 2.2.0: %d MUST rule" % len(must_failed)), c["text"])
        self.assertIn("%d functional rules await a reviewer" % len(functional), c["text"])
        command = self.report["run"]["command"]
        self.assertEqual(self.report["run"]["subcommand"], "check")
        self.assertIn("check %s --edition 2.2.0 --param gebouw_id=1" % self.base_url, command)

    def test_conclusion_first_in_text_markdown_junit(self):
        text = self.report["conclusion"]["text"]
        self.assertEqual(self.adrprobe_run.stdout.splitlines()[0], text)
        markdown = self.paths["markdown"].read_text(encoding="utf-8")
        self.assertTrue(markdown.splitlines()[0].startswith("**❌ Does not conform to 2.2.0"), markdown[:300])
        junit = self.paths["junit"].read_text(encoding="utf-8")
        self.assertIn('<property name="conclusion.conforms" value="false"', junit)
        self.assertIn('<property name="conclusion.must_failed" value="%d"' % self.report["conclusion"]["must_failed"], junit)

    def test_eh2_evidence_line_shows_the_content_type_judged(self):
        eh2 = harness.checks(self.report, "/core/error-handling/problem-details", "EH-2")[0]
        self.assertEqual(eh2["verdict"], "fail", eh2)
        lines = self.adrprobe_run.stdout.splitlines()
        at = next(i for i, l in enumerate(lines) if l.strip().startswith("EH-2"))
        self.assertRegex(lines[at + 1], r"#\d+ \S+ http://127\.0\.0\.1:\d+/v1\S* → 4\d\d .*content-type: application/json")

    def test_vh_evidence_lines_show_the_api_version_judged(self):
        # FastAPI sends no API-Version: VH-1 (the base URL redirects) and VH-4 say so on their evidence lines.
        self.assertEqual(harness.checks(self.report, "/core/version-header", "VH-1")[0]["verdict"], "fail")
        self.assertEqual(harness.checks(self.report, "/core/version-header", "VH-4")[0]["verdict"], "warn")
        lines = self.adrprobe_run.stdout.splitlines()
        for check_id in ("VH-1", "VH-4"):
            at = next(i for i, l in enumerate(lines) if l.strip().startswith(check_id))
            self.assertRegex(lines[at + 1], r"#\d+ \S+ http://127\.0\.0\.1:\d+/v1\S* → \d{3} .*api-version: \(none\)",
                             check_id)
        html = self.paths["html"].read_text(encoding="utf-8")
        self.assertIn('<span class="key judged"><b>api-version:</b> (none)</span>', html)

    def test_banner_first_on_screen(self):
        rc, out, err = chromium("--dump-dom", self.paths["html"].as_uri(), user_data_dir=Path(self.tmp, "profile-dom"))
        dom = parse_dom(out)
        banners = dom.find_all("div", cls="banner")
        self.assertEqual(len(banners), 1, err[-2000:])
        self.assertIn("banner-fail", banners[0].attrs["class"])
        self.assertIn(self.report["conclusion"]["text"], " ".join(banners[0].text().split()))
        self.assertLess(out.find('class="banner'), out.find('class="score"'))
        rows = dom.find_all("tr", cls="review-row")
        self.assertEqual(len(rows), len([r for r in self.report["rules"] if r["kind"] == "functional"]))
        for row in rows:
            self.assertEqual(len(row.find_all("details")), 1)
            for box in ("☐ conforms", "☐ does not conform", "☐ n/a"):
                self.assertIn(box, row.text())

    def test_prints_on_at_most_ten_a4_pages_with_no_card_split(self):
        self.assertTrue(self.pdf.exists(), "no PDF")
        pages = pdf_pages(self.pdf)
        data = self.pdf.read_bytes()
        for w, h in re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data):
            self.assertEqual((round(float(w)), round(float(h))), (595, 842), "a page that is not A4")
        texts, appendix = main_and_appendix(page_texts(self.pdf, pages))
        self.assertLessEqual(len(texts), MAX_PAGES, "the main part, conclusion to checklist")
        pages = len(texts)
        everything = "\n".join(texts)
        # link targets printed after the link text
        self.assertIn("<https://gitdocumentatie.logius.nl/publicatie/api/adr/2.2.0/", everything)
        # A rule card: its heading and every check line on one page.
        labels = {"pass": "✔ pass", "warn": "⚠ warn", "fail": "✖ fail", "error": "! error", "skip": "– skip"}
        start = next(i for i, t in enumerate(texts) if "Technical rules: checks and evidence" in t)
        # The cards follow the summary table on its page: only what comes after the heading.
        texts[start] = texts[start].split("Technical rules: checks and evidence", 1)[1]
        cards = 0
        for r in self.report["rules"]:
            if r["kind"] != "technical":
                continue
            heading = re.compile(r"%s\s+%s" % (re.escape(r["id"]), re.escape(r["title"][:20])))
            on = [i for i in range(start, pages) if heading.search(texts[i])]
            self.assertEqual(len(on), 1, "%s: its card heading is on pages %s" % (r["id"], [i + 1 for i in on]))
            # A card taller than a page (fixes print whole: FastAPI's EH-1 and EH-2 advice is 34
            # lines) is the one case the browser splits: it then starts at the top of a page and
            # goes on on the next, never after other content with a page break in it.
            tall = heading.search(texts[on[0]][:200]) and on[0] + 1 < pages
            for c in r["checks"]:
                line = re.compile(r"^\s*%s\s+%s" % (re.escape(c["id"]), re.escape(labels[c["verdict"]])), re.M)
                here = texts[on[0]:on[0] + 2] if tall else texts[on[0]:on[0] + 1]
                self.assertTrue(any(line.search(t) for t in here),
                                "%s %s is not on page %d with its rule's heading%s"
                                % (r["id"], c["id"], on[0] + 1, " (or the next: a card taller than a page)" if tall else ""))
            cards += 1
        self.assertGreater(cards, 10)

    def test_printout_holds_every_cited_exchange_fix_and_hint(self):
        """Issue 29, the auditor: the PDF is filed alone. Every exchange a check that
        did not pass cites is in the appendix "Evidence" with its request headers as
        sent, its response headers and the first line of its body (VH-4 cites more
        than the 6 a card lists); every fix is printed whole and every hint of the
        checklist printed."""
        self.assertTrue(self.pdf.exists(), "no PDF")
        main, appendix = main_and_appendix(page_texts(self.pdf, pdf_pages(self.pdf)))
        self.assertTrue(appendix, "no appendix \"Evidence\" in the PDF")
        text = squash("\n".join(appendix))
        # Each entry starts "#<id> <METHOD> <URL>": its text runs to the next one's start.
        starts = [(m.start(), int(m.group(1))) for m in re.finditer(r"#(\d+)[A-Z]+http://", text)]
        entries = {x: text[at:(starts[i + 1][0] if i + 1 < len(starts) else len(text))]
                   for i, (at, x) in enumerate(starts)}
        exchanges = {e["id"]: e for e in self.report["exchanges"]}
        technical = [r for r in self.report["rules"] if r["kind"] == "technical"]
        cited = sorted({x for r in technical for c in r["checks"] if c["verdict"] not in ("pass", "skip")
                        for x in c["exchanges"]})
        self.assertTrue(any(len(c["exchanges"]) > 6 for r in technical for c in r["checks"]
                            if c["verdict"] not in ("pass", "skip")), "no check cites more than a card lists")
        bodies = 0
        for x in cited:
            e = exchanges[x]
            self.assertIn(x, entries, "exchange #%d is not in the printed appendix" % x)
            entry = entries[x]
            self.assertTrue(entry.startswith(squash("#%d %s %s" % (x, e["method"], e["url"]))), entry[:200])
            self.assertIn(squash("→ %d" % e["status"]) if e["status"] is not None else "✖noresponse", entry)
            for name, value in e["request_headers"].items():
                self.assertIn(squash("%s: %s" % (name, value)), entry, "#%d: request header %s" % (x, name))
            for name, value in e["response_headers"].items():
                self.assertIn(squash("%s: %s" % (name, value)), entry, "#%d: response header %s" % (x, name))
            if e.get("response_body"):
                bodies += 1
                first = next(line for line in e["response_body"].splitlines() if line.strip())
                self.assertIn(squash(first), entry, "#%d: the body's first line" % x)
        self.assertGreater(bodies, 0, "no cited exchange has a body: EH-2's 404s should")
        everything = squash("\n".join(main))
        fixes = [c["fix"] for r in technical for c in r["checks"] if c.get("fix")]
        self.assertTrue(any(len(f["text"].strip().splitlines()) > 1 for f in fixes), "no fix of several lines")
        for fix in fixes:
            for line in fix["text"].splitlines():
                self.assertIn(squash(line), everything, "a fix's line is not printed: %r" % line)
        hints = [h for r in self.report["rules"] if r["kind"] == "functional" for h in r.get("hints", [])]
        self.assertTrue(hints, "the checklist has no hints")
        for hint in hints:
            self.assertIn(squash(hint), everything, "a checklist hint is not printed: %r" % hint)


ZAAK_ROOT = """openapi: 3.0.3
info: {title: Zaken, version: 1.0.0, contact: {name: Team, url: "https://example.org", email: a@example.org}}
servers: [{url: /v1}]
paths:
  /zaken:
    get:
      responses:
        "200":
          description: OK
          content:
            application/json:
              schema:
                type: object
                properties:
                  zoek: {$ref: "zrc.yaml#/components/schemas/ZaakZoek"}
                  einddatum: {type: string}
"""
ZAAK_OTHER = """components:
  schemas:
    ZaakZoek:
      type: object
      properties:
        archiefactiedatum: {type: string}
        startdatum: {type: string}
        registratiedatum: {type: string}
        datum: {type: string, format: date-time}
"""


class PlacesPerField(ProbeCase):
    """The Zaken API's pattern: date-named fields of a schema in another file, reached
    through one $ref of the root. Every field DT-3 and DT-4 list is one place (its own
    target behind that $ref), in JSON, SARIF (one location each) and GitLab (one finding each)."""

    def test_one_place_per_field(self):
        with tempfile.TemporaryDirectory() as tmp:
            Path(tmp, "openapi.yaml").write_text(ZAAK_ROOT, encoding="utf-8")
            Path(tmp, "zrc.yaml").write_text(ZAAK_OTHER, encoding="utf-8")
            sarif, gitlab = Path(tmp, "r.sarif"), Path(tmp, "r.gitlab")
            run = run_adrprobe(["lint", str(Path(tmp, "openapi.yaml")), "--edition", "2.2.0", "-f", "json",
                                "-o", "sarif=%s" % sarif, "-o", "gitlab=%s" % gitlab])
            self.assertNoCrash(run)
            report, sarif, gitlab = run.json(), json.loads(sarif.read_text()), json.loads(gitlab.read_text())
        self.assertEqual([e.message for e in harness.schema_validator().iter_errors(report)], [])
        expected = {"DT-3": ["archiefactiedatum", "startdatum", "registratiedatum", "einddatum"], "DT-4": ["datum"]}
        for rule_id, check_id in (("/core/date-time/format", "DT-3"), ("/core/date-time/date-omit-time-portion", "DT-4")):
            c = harness.checks(report, rule_id, check_id)[0]
            self.assertIn(c["verdict"], ("fail", "warn"), c)
            places = [(l["pointer"], l.get("target", "")) for l in c["locations"]]
            self.assertEqual(len(places), len(set(places)), places)
            self.assertEqual(len(places), len(expected[check_id]), (c["message"], places))
            for field in expected[check_id]:
                self.assertEqual(len([p for p in places if p[0].endswith("/" + field) or p[1].endswith("/" + field)]), 1,
                                 (field, places))
            behind = [p for p in places if p[1]]
            self.assertTrue(all(p[0].endswith("/properties/zoek") for p in behind), behind)
            self.assertTrue(all(p[1].startswith("zrc.yaml#/components/schemas/ZaakZoek/properties/") for p in behind), behind)
            results = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == check_id]
            self.assertEqual(len(results[0]["locations"]), len(places))
            self.assertEqual(len([f for f in gitlab if f["check_name"] == check_id]), len(places))


class RulesSelected(ProbeCase):
    """--rules: only the selected rules' checks send requests; the others are skip 'not selected'."""

    def test_only_the_selected_rules_requests(self):
        p = harness.probe(None, "--rules", "/core/no-trailing-slash")
        self.assertNoCrash(p)
        report = p.report
        self.assertEqual([e.message for e in harness.schema_validator().iter_errors(report)], [])
        self.assertEqual(report["run"]["options"]["rules"], ["/core/no-trailing-slash"])
        for r in report["rules"]:
            if r["id"] == "/core/no-trailing-slash":
                self.assertEqual(r["verdict"], "pass", r)
            else:
                self.assertEqual((r["verdict"], r["summary"], r["checks"]), ("skip", "not selected", []), r["id"])
        self.assertEqual(report["score"]["applicable"], 1)
        self.assertEqual(report["score"]["percent"], 100.0)
        self.assertIs(report["conclusion"]["conforms"], True)
        self.assertEqual(report["conclusion"]["functional_pending"], 0)
        # NT-2's GET {path}/ probes and the document: no HEAD, OPTIONS or CORS probe
        self.assertEqual(p.methods(), {"GET"})
        for r in p.requests:
            self.assertTrue(r["path"].endswith("/") or r["path"].endswith("/openapi.json"), r["path"])
        self.assertNotIn("Origin", {k for r in p.requests for k in r["headers"]})

    def test_an_alias_selects_its_rule_and_an_unknown_name_is_a_usage_error(self):
        p = harness.probe(None, "--rules", "api-48,/core/semver", edition="2.0.0")
        self.assertNoCrash(p)
        judged = [r["id"] for r in p.report["rules"] if r["summary"] != "not selected"]
        self.assertEqual(judged, ["/core/no-trailing-slash", "/core/semver"])
        run = run_adrprobe(["check", "http://127.0.0.1:9/v1", "--rules", "/core/nonsense"])
        self.assertEqual(run.rc, 2, run.describe())
        self.assertIn("--rules: edition 2.0.0 has no rule '/core/nonsense'", run.stderr)


class WrongBase(ProbeCase):
    def test_both_base_and_document_404_is_a_leading_note(self):
        with FixtureServer() as srv, tempfile.TemporaryDirectory() as tmp:
            wrong = "http://127.0.0.1:%d/wrong" % srv.port
            run = run_adrprobe(["check", wrong, "-f", "json", "--rate", "0", "-o", "text=%s/r.txt" % tmp])
            text = Path(tmp, "r.txt").read_text(encoding="utf-8")
        self.assertNoCrash(run)
        report = run.json()
        note = "%s and %s/openapi.json both answered 404: is the base URL right?" % (wrong, wrong)
        self.assertTrue(report["notes"][0].startswith(note), report["notes"])
        lines = text.splitlines()
        first_note = next(l for l in lines if "both answered 404" in l)
        self.assertLess(lines.index(first_note), next(i for i, l in enumerate(lines) if "Technical rules" in l))


class Unreachable(ProbeCase):
    """An unreachable https target is n/a in every format, and its conclusion null; over
    http:// TS-1 fails by the scheme alone, so its rule fails (probes.md: a rule is the
    worst of its checks, fail > error, down or not) and the report does not conform."""

    def run_down(self, url, tmp):
        files = {f: Path(tmp, "r." + f) for f in ("html", "junit", "markdown", "text")}
        args = ["check", url, "-f", "json", "--timeout", "3"]
        for f, path in files.items():
            args += ["-o", "%s=%s" % (f, path)]
        run = run_adrprobe(args)
        self.assertNoCrash(run)
        return run, run.json(), {f: path.read_text(encoding="utf-8") for f, path in files.items()}

    def test_na_everywhere(self):
        with harness.closed_port() as url, tempfile.TemporaryDirectory() as tmp:
            run, report, out = self.run_down(url.replace("http://", "https://"), tmp)
        self.assertEqual(run.rc, 3, run.describe())
        self.assertEqual(report["state"], "down")
        self.assertIsNone(report["score"]["percent"])
        self.assertIsNone(report["conclusion"]["conforms"])
        self.assertIn("the target is down", report["conclusion"]["text"])
        self.assertIn('<div class="pct">n/a</div>', out["html"])
        self.assertNotIn("0.0 %", out["html"])
        self.assertIn("banner-error", out["html"])
        self.assertIn('<property name="score" value="n/a"', out["junit"])
        self.assertIn('<property name="conclusion.conforms" value="null"', out["junit"])
        self.assertIn("score n/a", out["markdown"])
        self.assertTrue(out["markdown"].startswith("**❗ Conformance to 2.0.0 could not be established"))
        self.assertIn("n/a  the target is down", out["text"])
        self.assertTrue(out["text"].startswith("Conformance to 2.0.0 could not be established: the target is down"))

    def test_down_over_http_fails_transport_security(self):
        with harness.closed_port() as url, tempfile.TemporaryDirectory() as tmp:
            run, report, out = self.run_down(url, tmp)
        self.assertEqual([e.message for e in harness.schema_validator().iter_errors(report)], [])
        self.assertEqual(report["state"], "down")
        self.assertEqual(harness.checks(report, "/core/transport-security", "TS-1")[0]["verdict"], "fail")
        self.assertEqual(harness.rule(report, "/core/transport-security")["verdict"], "fail")
        others = {r["id"]: r["verdict"] for r in report["rules"]
                  if r["kind"] == "technical" and r["id"] != "/core/transport-security"}
        self.assertEqual(set(others.values()), {"error"}, others)
        self.assertEqual(run.rc, 1, run.describe())  # CLI.md: a rule at or above --fail-on fail
        score = report["score"]
        self.assertEqual((score["fail"], score["error"], score["percent"]), (1, len(others), 0.0))
        c = report["conclusion"]
        self.assertIs(c["conforms"], False)
        self.assertEqual((c["must_failed"], c["errors"]), (1, len(others)))
        self.assertTrue(c["text"].startswith("Does not conform to 2.0.0: 1 MUST rule fails (/core/transport-security); "
                                             "the target is down: %d technical rules could not be judged" % len(others)),
                        c["text"])
        # Every human format: down once, then the rule that failed and why.
        self.assertIn("banner-fail", out["html"])
        self.assertIn("down: could not reach", out["html"])
        self.assertIn('<section class="rule fail"', out["html"])
        self.assertIn("the base URL is http://: connections must use TLS", out["html"])
        self.assertTrue(out["text"].startswith(c["text"]))
        self.assertRegex(out["text"], r"FAIL\s+/core/transport-security")
        self.assertIn("0.0 %  the target is down: 1 fail", out["text"])
        self.assertIn("**TS-1** fail /core/transport-security", out["markdown"])
        self.assertIn('<property name="conclusion.conforms" value="false"', out["junit"])


if __name__ == "__main__":
    harness.main()
