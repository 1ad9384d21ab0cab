#!/usr/bin/python3
"""A run at scale (issue 16): --max-requests cuts a run and the report says so
at the top, naming the documented paths left out; without it every path is
probed. The exchange records (issue 19): every response header line as sent
(two Set-Cookie lines stay two), the request headers as libcurl sent them, and
the start of an error body."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ProbeCase, probe  # noqa: E402

OK = {"responses": {"200": {"description": "OK"}}}
N_PATHS = 30


def wide_doc():
    return {"paths": {f"/gebouwen{i}": {"get": OK} for i in range(N_PATHS)}}


class MaxRequests(ProbeCase):
    def test_cut_run_says_so_first_and_names_the_paths_left_out(self):
        p = probe({"doc_patch": wide_doc()}, "--max-paths", "0", "--max-requests", "40")
        self.assertIn(p.rc, (0, 1, 3), p.describe())
        r = p.report
        self.assertLessEqual(len(r["exchanges"]), 40, "more requests than --max-requests")
        self.assertLessEqual(len(p.requests), 40, "the server saw more requests than --max-requests")
        first = r["notes"][0]
        self.assertTrue(first.startswith("--max-requests 40 cut the run: "), first)
        left = r["paths_left_out"]
        self.assertTrue(left, "no path named as left out")
        self.assertIn(left[0], first, "the top note does not name the first path left out")
        sent = {e["url"].split("/v1", 1)[1] for e in r["exchanges"]}
        for path in left:
            self.assertNotIn(path, sent, f"{path} is named as left out but was probed")
        self.assertEqual(r["run"]["options"]["max_requests"], 40)
        # The text report leads with it too.
        text = probe({"doc_patch": wide_doc()}, "--max-paths", "0", "--max-requests", "40", fmt="text")
        self.assertIn("--max-requests 40 cut the run", text.stdout)
        self.assertLess(text.stdout.index("--max-requests 40 cut the run"), text.stdout.index("Technical rules"),
                        "the note is not above the rules")

    def test_no_limit_probes_every_documented_path(self):
        p = probe({"doc_patch": wide_doc()}, "--max-paths", "0")
        r = p.report
        self.assertNotIn("paths_left_out", r)
        self.assertFalse([n for n in r["notes"] if "--max-requests" in n], r["notes"])
        probed = {e["url"].split("/v1", 1)[1] for e in r["exchanges"] if e["method"] == "GET"}
        for i in range(N_PATHS):
            self.assertIn(f"/gebouwen{i}", probed)
        self.assertEqual(r["run"]["options"]["max_requests"], 0)

    def test_negative_is_a_usage_error(self):
        run = harness.run_adrprobe(["check", "http://127.0.0.1:9/v1", "--max-requests", "-1"])
        self.assertEqual(run.rc, 2, run.describe())
        self.assertIn("--max-requests", run.stderr)


class ExchangeRecords(ProbeCase):
    COOKIES = [["Set-Cookie", "sessie=abc; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/"],
               ["Set-Cookie", "taal=nl; Path=/"]]

    def test_repeated_set_cookie_lines_are_kept_whole(self):
        p = probe({"extra_header_lines": self.COOKIES})
        r = p.report
        with_cookies = [e for e in r["exchanges"] if "set-cookie" in e.get("response_headers", {})]
        self.assertTrue(with_cookies, "no exchange shows Set-Cookie")
        for e in with_cookies:
            self.assertEqual(e["response_headers"]["set-cookie"],
                             "sessie=abc; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/\ntaal=nl; Path=/")
        hints = " ".join(harness.rule(r, harness.rid("stateless"))["hints"])
        self.assertIn("'sessie'", hints)
        self.assertIn("'taal'", hints)

    def test_request_headers_as_sent_and_error_bodies(self):
        p = probe(None, "--user-agent", "adrprobe-test/1")
        r = p.report
        sent = [e for e in r["exchanges"] if e["status"] is not None]
        self.assertTrue(sent)
        for e in sent:
            names = {k.lower(): v for k, v in e["request_headers"].items()}
            self.assertEqual(names.get("user-agent"), "adrprobe-test/1", e)
            self.assertIn("host", names, e)
            self.assertIn("accept", names, e)
        errors = [e for e in sent if e["status"] >= 400]
        self.assertTrue(errors, "the fixture answered no request with an error")
        for e in errors:
            self.assertIn("response_body", e)
            self.assertLessEqual(len(e["response_body"].encode()), 2048)
            self.assertIsInstance(e["response_body_truncated"], bool)
        for e in sent:
            if e["status"] < 400 and "response_body" in e:
                self.assertLessEqual(len(e["response_body"].encode()), 2048)


if __name__ == "__main__":
    harness.main()
