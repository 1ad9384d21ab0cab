#!/usr/bin/python3
"""`adrprobe register` (CLI.md, "A register from the API register of
developer.overheid.nl"): a batch file from DON's API register.

Two registers answer: Prism serving the register's own document
(tests/data/don-api-register/, from its examples; tests/don/package-lock.json
pins it), and a small register of our own for what examples cannot show:
several pages, a title collision, an API without servers, a retired one, a
slow /apis/{id}, hostile values, a Link to another host, a Total-Pages of
10^9. The written file must be one `batch` reads; `--merge` keeps a hand-kept
register's settings over two nights (DON adds one API and retires another);
`summary` shows DON's score beside the live one.
"""

import http.server
import json
import os
import socket
import subprocess
import tempfile
import threading
import time
import unittest
import urllib.parse
import urllib.request
from pathlib import Path

import harness
from fixture_server import bearer_valid
from harness import run_adrprobe

REPO = Path(__file__).resolve().parents[2]
PRISM = REPO / "tests" / "don" / "node_modules" / ".bin" / "prism"


def load_yaml(text):
    import yaml
    return yaml.safe_load(text)


def api(i, title=None, org="Kadaster", lifecycle="active", servers=None, oas=None, score=70, auth=("API Key",)):
    """An ApiDetail of DON's schema (a summary is the same without servers, oasUrl, auth)."""
    return {
        "id": "id%s" % i, "title": title if title is not None else "API %s" % i,
        "description": "d", "contact": {},
        "organisation": {"uri": "https://%s.example" % org.lower().replace(" ", ""), "label": org},
        "adrScore": score, "lifecycle": {"status": lifecycle, "version": "1.0.0"},
        "servers": [{"url": s, "description": "prod"} for s in (servers if servers is not None
                                                                 else ["https://api%s.example.nl/v1" % i])],
        "oasUrl": oas, "auth": list(auth), "docsUrl": None,
    }


class Register:
    """DON's register API on 127.0.0.1: GET /apis (pages of `per_page`, with
    Total-Pages and Link as configured) and GET /apis/{id}; every request
    recorded with its query and headers."""

    def __init__(self, apis, per_page=2, total_pages=None, link=None, slow=(), listing=None, jwks=None, echo=False):
        """jwks: the register is behind OAuth 2.0, every request without a
        bearer JWT that server's keys signed, unexpired, is a 401. echo: the
        text ECHO in an answer becomes the request's Authorization header."""
        self.apis, self.per_page, self.total_pages, self.link = apis, per_page, total_pages, link
        self.slow, self.listing, self.echo = set(slow), listing, echo
        self.jwks = None
        if jwks:
            import jwt  # python3-jwt: the suites behind OAuth 2.0 require it
            self.jwks = jwt.PyJWKClient(jwks)
        self.requests = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()  # ends a slow answer's wait at close()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                url = urllib.parse.urlsplit(self.path)
                query = urllib.parse.parse_qs(url.query)
                with outer.lock:
                    outer.requests.append((url.path, query, dict(self.headers)))
                if outer.jwks and not bearer_valid(outer.jwks, self.headers.get("Authorization", "")):
                    return outer.send(self, 401, {"status": 401, "title": "Unauthorized"},
                                      [("WWW-Authenticate", 'Bearer error="invalid_token"')])
                outer.answer(self, url.path, query)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = "http://127.0.0.1:%d/api-register/v1" % self.server.server_address[1]

    def send(self, handler, status, body, headers=()):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        if self.echo:
            data = data.replace(b"ECHO", json.dumps(handler.headers.get("Authorization", ""))[1:-1].encode())
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            handler.send_header(name, value)
        handler.end_headers()
        try:
            handler.wfile.write(data)
        except BrokenPipeError:
            pass  # the slow answer, after adrprobe's --timeout

    def answer(self, handler, path, query):
        prefix = "/api-register/v1"
        if path == prefix + "/apis":
            page = int(query.get("page", ["1"])[0])
            if self.listing:
                return self.listing(self, handler, page)
            items = self.apis[(page - 1) * self.per_page: page * self.per_page]
            summaries = [{k: v for k, v in a.items() if k not in ("servers", "oasUrl", "auth", "docsUrl")} for a in items]
            pages = self.total_pages or max(1, -(-len(self.apis) // self.per_page))
            headers = [("Total-Pages", str(pages))]
            if self.link:
                headers.append(("Link", self.link))
            return self.send(handler, 200, summaries, headers)
        if path.startswith(prefix + "/apis/"):
            wanted = urllib.parse.unquote(path[len(prefix + "/apis/"):])
            for a in self.apis:
                if a["id"] == wanted:
                    if wanted in self.slow:
                        # far beyond the test's --timeout, which stays well above
                        # what a normal answer takes under load
                        if self.stopping.wait(20):
                            handler.close_connection = True
                            return
                    return self.send(handler, 200, a)
        return self.send(handler, 404, {"status": 404})

    def paths(self):
        with self.lock:
            return [p for p, _, _ in self.requests]

    def close(self):
        self.stopping.set()
        self.server.shutdown()
        self.server.server_close()


def register(args, timeout=120, env=None):
    return run_adrprobe(["register", "--rate", "0"] + list(args), timeout=timeout, env=env)


def targets_by_id(doc):
    return {t["labels"]["don_id"]: t for t in doc["targets"] if "don_id" in t.get("labels", {})}


class Fixture(unittest.TestCase):
    """Paging, the title collision, an API without servers, a retired one, a
    slow /apis/{id}; only --from is asked, -H goes only there."""

    def setUp(self):
        self.other = Register([])  # another host a Link points at: never asked
        apis = [api(1, title="Same API"), api(2, title="Same API", org="KVK"),
                api(3, servers=[]), api(4, lifecycle="retired"), api(5, lifecycle="deprecated"),
                api(6, title="Slow API"), api(7, oas="https://docs.elsewhere.example/openapi.json"),
                api(8, servers=["http://10.1.2.3/v1"])]
        link = "<%s/apis?page=2>; rel=\"next\"" % self.other.url.replace("127.0.0.1", "localhost")
        self.don = Register(apis, per_page=3, link=link, slow={"id6"})
        self.addCleanup(self.don.close)
        self.addCleanup(self.other.close)

    def test_pages_names_and_what_is_left_out(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "apis.yaml")
            r = register(["--from", self.don.url, "-H", "X-Api-Key: ${DON_KEY}", "--timeout", "5", "-o", out],
                         env={"DON_KEY": "s3cret-don-key"})
            self.assertEqual(r.rc, 3, r.describe())  # the slow /apis/{id}
            text = Path(out).read_text()
        doc = load_yaml(text)
        by_id = targets_by_id(doc)
        self.assertEqual(sorted(by_id), ["id1", "id2", "id7", "id8"])
        # Colliding titles: DON's id; a unique one: its slug.
        self.assertEqual(by_id["id1"]["name"], "id1")
        self.assertEqual(by_id["id2"]["name"], "id2")
        self.assertEqual(by_id["id7"]["name"], "api-7")
        self.assertEqual(by_id["id7"]["openapi"], "https://docs.elsewhere.example/openapi.json")
        self.assertEqual(by_id["id1"]["labels"], {"don_id": "id1", "lifecycle": "active", "auth": "API Key"})
        self.assertEqual(by_id["id1"]["don_adr_score"], 70)
        self.assertEqual(by_id["id1"]["owner"], "Kadaster")
        self.assertEqual(by_id["id1"]["base_url"], "https://api1.example.nl/v1")
        # Sorted by owner, then name.
        self.assertEqual([t["name"] for t in doc["targets"]], ["id2", "api-7", "api-8", "id1"])
        # Never dropped silently: the comment names each left out with why.
        for expected in ("API 3 (id3): no server URL", "API 4 (id4): retired",
                         "API 5 (id5): lifecycle 'deprecated' is not in --status", "Slow API (id6): GET %s/apis/id6: timeout" % self.don.url,
                         "API 8 (id8): its server is at a private address (10.1.2.3)", "API 7 (id7): its oasUrl is on another host"):
            self.assertIn(expected, text)
        paths = self.don.paths()
        # Pages until Total-Pages (3), each built from --from; no detail of the retired or deprecated.
        self.assertEqual([q["page"][0] for p, q, _ in self.don.requests if p.endswith("/apis")], ["1", "2", "3"])
        self.assertTrue(all(q.get("perPage") == ["100"] for p, q, _ in self.don.requests if p.endswith("/apis")))
        self.assertNotIn("/api-register/v1/apis/id4", paths)
        self.assertNotIn("/api-register/v1/apis/id5", paths)
        self.assertTrue(all(h.get("X-Api-Key") == "s3cret-don-key" for _, _, h in self.don.requests))
        self.assertEqual(self.other.paths(), [])  # the Link's host
        self.assertNotIn("s3cret-don-key", r.stdout + r.stderr + text)

    def test_status_filter_and_stdout(self):
        r = register(["--from", self.don.url, "--status", "deprecated"])
        self.assertEqual(r.rc, 0, r.describe())
        self.assertEqual(sorted(targets_by_id(load_yaml(r.stdout))), ["id5"])
        # --organisation: asked of the register (organisation=URI) and checked on each answer.
        r = register(["--from", self.don.url, "--organisation", "https://kvk.example"])
        self.assertEqual(r.rc, 0, r.describe())
        self.assertEqual(sorted(targets_by_id(load_yaml(r.stdout))), ["id2"])
        self.assertIn(["https://kvk.example"], [q.get("organisation") for p, q, _ in self.don.requests])
        r = register(["--from", self.don.url, "--status", "active,retired"])
        self.assertEqual(r.rc, 2, r.describe())
        self.assertIn("retired APIs are never written", r.stderr)

    def test_written_register_runs_in_batch_and_summary_shows_dons_score(self):
        with harness.closed_port() as down, tempfile.TemporaryDirectory() as d:
            don = Register([api(1, servers=[down], score=42.5)], per_page=100)
            self.addCleanup(don.close)
            path = os.path.join(d, "apis.yaml")
            r = register(["--from", don.url, "-o", path])
            self.assertEqual(r.rc, 0, r.describe())
            out = os.path.join(d, "out")
            b = run_adrprobe(["batch", path, "--out-dir", out, "--rate", "0", "--no-color", "-o", "html"], timeout=120)
            # down, but read and run: over http:// TS-1 still fails by the scheme alone (exit 1)
            self.assertEqual(b.rc, 1, b.describe())
            summary = json.loads(Path(out, "summary.json").read_text())
            self.assertEqual(summary["targets"][0]["don_adr_score"], 42.5)
            html = Path(out, "summary.html").read_text()
            self.assertIn("DON score", html)
            self.assertIn(">42.5<", html)
            merged = run_adrprobe(["summary", out, "--out-dir", os.path.join(d, "merged")], timeout=60)
            self.assertIn(merged.rc, (0, 1, 3), merged.describe())
            again = json.loads(Path(d, "merged", "summary.json").read_text())
            self.assertEqual(again["targets"][0]["don_adr_score"], 42.5)


class Hostile(unittest.TestCase):
    """The register's answers are untrusted."""

    VALUES = ["line one\nline two", ": # & * ! | > ' \" % @", "- dash", "-", "\u202etxt.exe", "n" * 10240,
              "x\n  injected: yes", "~", "null", "", "{a: b}", "#c", "&a", "*a", "!t", "|", ">", "%d", "@x", "---"]

    def test_values_parse_back_exactly(self):
        apis = [api(i, title=v, org=v, auth=(v, "OAuth2")) for i, v in enumerate(self.VALUES)]
        apis += [api(90, servers=["file:///etc/passwd"]), api(91, servers=["javascript:alert(1)"]),
                 api(92, servers=["http://127.0.0.1:1/v1"]), api(93, oas="file:///etc/shadow")]
        don = Register(apis, per_page=7)
        self.addCleanup(don.close)
        r = register(["--from", don.url])
        self.assertEqual(r.rc, 0, r.describe())
        doc = load_yaml(r.stdout)
        by_id = targets_by_id(doc)
        for i, v in enumerate(self.VALUES):
            if len((v + ", OAuth2").encode()) > 256:
                # more than a register's owner or label may hold (every series of summary.prom carries them)
                self.assertNotIn("id%d" % i, by_id)
                self.assertIn("(id%d): a value is longer than the 256 bytes a target's owner or label may hold" % i,
                              r.stdout)
                continue
            t = by_id["id%d" % i]
            self.assertEqual(t.get("owner", ""), v)  # no organisation label: no owner
            self.assertEqual(t["labels"], {"don_id": "id%d" % i, "lifecycle": "active", "auth": v + ", OAuth2"})
            self.assertEqual(set(t) - {"owner"}, {"name", "base_url", "labels", "don_adr_score"})
        self.assertNotIn("id90", by_id)
        self.assertNotIn("id91", by_id)
        self.assertIn("API 90 (id90): its server URL is not http(s)", r.stdout)
        self.assertIn("API 91 (id91): its server URL", r.stdout)
        self.assertIn("API 92 (id92): its server is at a loopback address", r.stdout)
        self.assertNotIn("openapi", by_id["id93"])
        self.assertNotIn("\u202e", r.stdout)
        # Only the register was asked: not 127.0.0.1:1, not the APIs.
        self.assertTrue(all(p.startswith("/api-register/v1/apis") for p in don.paths()))

    def test_a_billion_pages_and_a_link_loop_are_bounded(self):
        def endless(reg, handler, page):
            items = [api("%d-%d" % (page, k)) for k in range(100)]
            reg.send(handler, 200, items, [("Total-Pages", "1000000000"), ("Link", "<x>; rel=next")])
        don = Register([], listing=endless)
        self.addCleanup(don.close)
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "apis.yaml")
            start = time.monotonic()
            r = register(["--from", don.url, "-o", out], timeout=300)
            self.assertEqual(r.rc, 2, r.describe())
            self.assertIn("more than 10000 APIs", r.stderr)
            self.assertFalse(os.path.exists(out))  # nothing written
            self.assertLess(time.monotonic() - start, 200)
        # A Link loop (next back to page 1) repeating the same page: one API, paging stops.
        def loop(reg, handler, page):
            reg.send(handler, 200, [api(1)], [("Link", "<%s/apis?page=1>; rel=next" % reg.url)])
        don2 = Register([api(1)], listing=loop)
        self.addCleanup(don2.close)
        r = register(["--from", don2.url])
        self.assertEqual(r.rc, 0, r.describe())
        self.assertEqual(len(load_yaml(r.stdout)["targets"]), 1)
        self.assertLessEqual(len([p for p in don2.paths() if p.endswith("/apis")]), 2)

    def test_a_huge_page_is_bounded(self):
        # 10^5 APIs on one page: more than the 10,000 a register may list.
        def many(reg, handler, page):
            reg.send(handler, 200, [{"id": "i%d" % k} for k in range(100000)], [("Total-Pages", "1")])
        don = Register([], listing=many)
        self.addCleanup(don.close)
        r = register(["--from", don.url])
        self.assertEqual(r.rc, 2, r.describe())
        self.assertIn("more than 10000 APIs", r.stderr)
        # A million entries that cannot be read, beside one that can, on each of three pages:
        # counted, the first 100 listed with why (each a line of its own made a file of 40 MB,
        # which batch would not read, and held 400 bytes an entry until then).
        def junk(reg, handler, page):
            reg.send(handler, 200, b"[" + b"{}," * 1000000 + json.dumps(api(page)).encode() + b"]",
                     [("Total-Pages", "3")])
        don = Register([api(1), api(2), api(3)], listing=junk)
        self.addCleanup(don.close)
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "apis.yaml")
            r = register(["--from", don.url, "-o", out], timeout=300)
            self.assertEqual(r.rc, 0, r.describe())
            text = Path(out).read_text()
        self.assertEqual(sorted(targets_by_id(load_yaml(text))), ["id1", "id2", "id3"])
        self.assertLess(len(text), 20000)
        self.assertIn("page 1: entry 1 of a page: no id", text)
        self.assertIn("2999900 more entries of the pages could not be read (the first 100 are listed)", text)
        self.assertNotIn("page 2: entry", text)

    def test_unusable_answers_exit_2_with_the_reason(self):
        def html(reg, handler, page):
            reg.send(handler, 200, b"<html>maintenance</html>")
        don = Register([], listing=html)
        self.addCleanup(don.close)
        r = register(["--from", don.url])
        self.assertEqual(r.rc, 2, r.describe())
        self.assertIn("the register's answer is unusable", r.stderr)
        self.assertIn("not JSON", r.stderr)
        self.assertEqual(r.stdout, "")


class Merge(unittest.TestCase):
    """Two nights: DON adds one API and retires another; the hand-kept settings stay."""

    def test_two_nights(self):
        night1 = [api(1, title="BAG"), api(2, title="KVK", org="KVK"), api(3, title="BRK")]
        don = Register(night1, per_page=100)
        self.addCleanup(don.close)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "apis.yaml")
            r = register(["--from", don.url, "-o", path])
            self.assertEqual(r.rc, 0, r.describe())
            doc = load_yaml(Path(path).read_text())
            # The platform team's own settings, by hand.
            doc["defaults"] = {"edition": "2.1.0", "headers": {"X-Api-Key": "${SHARED_KEY}"}}
            for t in doc["targets"]:
                if t["name"] == "bag":
                    t.update({"owner": "Team Adressen", "rate": 2, "headers": {"Authorization": "Bearer ${BAG_TOKEN}"}})
                    t["labels"]["tier"] = "gold"
            doc["targets"].append({"name": "internal", "base_url": "https://internal.example.nl/v1"})
            Path(path).write_text(harness.yaml_text(doc))
            # Night 2: BRK retired, a new API.
            don.apis = [api(1, title="BAG", score=90), api(2, title="KVK", org="KVK"), api(3, title="BRK", lifecycle="retired"),
                        api(4, title="Nieuwe API", org="Aa en Hunze")]
            r = register(["--from", don.url, "--merge", path, "-o", path])
            self.assertEqual(r.rc, 0, r.describe())
            text = Path(path).read_text()
            second = load_yaml(text)
            by_name = {t["name"]: t for t in second["targets"]}
            self.assertEqual(sorted(by_name), ["bag", "internal", "kvk", "nieuwe-api"])
            self.assertEqual(second["defaults"], {"edition": "2.1.0", "headers": {"X-Api-Key": "${SHARED_KEY}"}})
            bag = by_name["bag"]
            self.assertEqual(bag["owner"], "Team Adressen")
            self.assertEqual(bag["rate"], 2)
            self.assertEqual(bag["headers"], {"Authorization": "Bearer ${BAG_TOKEN}"})
            self.assertEqual(bag["labels"]["tier"], "gold")
            self.assertEqual(bag["don_adr_score"], 90)
            self.assertEqual(by_name["internal"]["labels"], {"don": "absent"})
            self.assertIn("BRK (id3): retired", text)
            self.assertEqual([t["name"] for t in second["targets"]], ["internal", "nieuwe-api", "kvk", "bag"])
            # Night 3 without changes: the file stays byte for byte.
            r = register(["--from", don.url, "--merge", path, "-o", path])
            self.assertEqual(r.rc, 0, r.describe())
            self.assertEqual(Path(path).read_text(), text)


class TemplateNights(unittest.TestCase):
    """The GitLab template's batch job as written, with this adrprobe, for two
    nights: the register refreshed from DON (ADRPROBE_DON_REGISTER), then the
    batch over it. Between the nights DON adds one API and retires another.
    The register API is behind OAuth 2.0 (test_oauth2's authorisation server):
    the template's token endpoint and client id, the client secret from the
    environment as a masked CI/CD variable gives it."""

    def test_two_nights_through_the_gitlab_template(self):
        import yaml
        from test_oauth2 import CLIENT_ID, SECRET, AuthServer, require_server  # test_oauth2 imports this module
        require_server()
        job = yaml.safe_load((REPO / "deploy" / "gitlab-ci.yml").read_text())
        variables, script = job["variables"], "\n".join(job["adrprobe:batch"]["script"])
        with harness.closed_port() as down, tempfile.TemporaryDirectory() as d, AuthServer() as auth:
            work, bindir = Path(d) / "project", Path(d) / "bin"
            work.mkdir()
            bindir.mkdir()
            (bindir / "adrprobe").symlink_to(os.path.abspath(harness.binary()))
            targets = work / variables["ADRPROBE_TARGETS"]
            targets.write_text(harness.yaml_text({"targets": [{"name": "internal", "base_url": down + "/internal"}]}))
            don = Register([api(1, servers=[down + "/one"], score=60), api(2, servers=[down + "/two"])], per_page=100,
                           jwks=auth.jwks)
            self.addCleanup(don.close)
            env = dict(variables, PATH="%s:/usr/bin:/bin" % bindir, HOME=d, CI_NODE_INDEX="1", CI_NODE_TOTAL="1",
                       ADRPROBE_DON_REGISTER=don.url, ADRPROBE_REGISTER_ARGS="--rate 0", ADRPROBE_BATCH_ARGS="--rate 0",
                       ADRPROBE_DON_OAUTH2_TOKEN_URL=auth.token_url, ADRPROBE_DON_OAUTH2_CLIENT_ID=CLIENT_ID,
                       ADRPROBE_DON_OAUTH2_CLIENT_SECRET=SECRET)

            def night():
                proc = subprocess.run(["/bin/sh", "-e", "-c", script], cwd=work, env=env, capture_output=True,
                                      text=True, timeout=300)
                # --fail-on regressed: down from the first night on is no regression
                self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
                self.assertNotIn(SECRET, proc.stdout + proc.stderr + targets.read_text())
                summary = json.loads((work / "out" / "1" / "summary.json").read_text())
                return {t["name"]: t for t in summary["targets"]}

            first = night()
            self.assertEqual(sorted(first), ["api-1", "api-2", "internal"])
            self.assertEqual(first["api-1"]["don_adr_score"], 60)
            self.assertEqual(first["internal"]["labels"], {"don": "absent"})
            don.apis = [api(1, servers=[down + "/one"], score=65), api(2, servers=[down + "/two"], lifecycle="retired"),
                        api(3, servers=[down + "/three"])]
            second = night()
            self.assertEqual(sorted(second), ["api-1", "api-3", "internal"])
            self.assertEqual(second["api-1"]["don_adr_score"], 65)
            self.assertIn("API 2 (id2): retired", targets.read_text())
            # one token a night, and every request to the register carried one the register took
            self.assertEqual([r["status"] for r in auth.requests], [200, 200])
            self.assertTrue(all(h.get("Authorization", "").startswith("Bearer ") for _, _, h in don.requests))


class Prism(unittest.TestCase):
    """The register's own document, served by Prism from its examples."""

    def start_prism(self, node):
        """Prism on a port found free, its base URL once it answers GET /apis
        with the document's example (nothing else on the port would). Another
        process may take the port before Prism binds it: Prism then exits, and
        starts again on another port, up to 5 times. Its output goes to a log
        file, shown when it never answers."""
        doc = harness.data_path("don-api-register", "api", "openapi.json")
        log_dir = tempfile.TemporaryDirectory()
        self.addCleanup(log_dir.cleanup)
        log = Path(log_dir.name, "prism.log")
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        for attempt in range(5):
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                port = s.getsockname()[1]
            base = "http://127.0.0.1:%d" % port
            with open(log, "ab") as out:
                out.write(b"--- attempt %d, port %d\n" % (attempt + 1, port))
                out.flush()
                proc = subprocess.Popen([node, str(PRISM), "mock", "-h", "127.0.0.1", "-p", str(port), str(doc)],
                                        stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
            self.addCleanup(lambda proc=proc: proc.poll() is not None or (os.killpg(proc.pid, 15),
                                                                          proc.wait(timeout=30)))
            deadline = time.monotonic() + 120
            while proc.poll() is None and time.monotonic() < deadline:
                try:
                    request = urllib.request.Request(base + "/apis", headers={"X-Api-Key": "k"})
                    with direct.open(request, timeout=5) as answer:
                        if answer.status == 200 and b"dicF0B3HR" in answer.read():
                            return base
                except OSError:  # not listening yet, or not Prism's answer (HTTPError too)
                    pass
                time.sleep(0.5)
            if proc.poll() is None:
                break  # running, but no answer in 120 s: starting again would not help
        self.fail("Prism did not answer GET /apis:\n" + log.read_text(errors="replace"))

    def test_register_against_prism(self):
        if not PRISM.exists():
            self.fail("Prism is not installed: npm ci --prefix tests/don (./dev test does it)")
        base = self.start_prism(harness.require_tool("node", "nodejs"))
        r = register(["--from", base, "-H", "X-Api-Key: k"])
        self.assertEqual(r.rc, 0, r.describe())
        self.assertEqual(load_yaml(r.stdout), {"targets": [{
            "name": "api-register-api-v1",
            "base_url": "https://api.developer.overheid.nl/api-register/v1",
            "openapi": "https://api.developer.overheid.nl/api-register/v1/openapi.json",
            "owner": "developer.overheid.nl",
            "labels": {"don_id": "dicF0B3HR", "lifecycle": "active", "auth": "OAuth2"},
            "don_adr_score": 85}]})
        # Prism's Link names another host (DON's production) with rel='next': never followed,
        # and its pages repeat the one example: paging stops at the first page with nothing new.
        self.assertIn("1 API listed on 2 pages", r.stderr)


if __name__ == "__main__":
    harness.main()
