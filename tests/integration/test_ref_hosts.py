#!/usr/bin/python3
"""DO-2's SSRF guard (probes.md DO-2, CLI.md --ref-hosts): an external $ref is
fetched only from a public address or from the base URL's own host, judged on
the resolved address and on every redirect hop; --ref-hosts any lifts it. The
description document's redirects (PO-1, PO-2, --openapi URL, lint URL) are
held to the same rule (probes.md PO-1)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ProbeCase, check_args, probe, rid  # noqa: E402
from side_server import Response, SideServer  # noqa: E402

DO = rid("doc-openapi")
PO = rid("publish-openapi")
REFUSED = "not fetched: non-public address (--ref-hosts any allows it)"
SCHEMAS = {"/schemas/adres.json": {"Adres": {"type": "object", "properties": {"straat": {"type": "string"}}}}}


def with_adres_ref(url):
    return {"doc_patch": {"components": {"schemas": {"Gebouw": {"properties": {"adres": {"$ref": url}}}}}}}


class RefHosts(ProbeCase):
    def test_private_host_is_not_fetched(self):
        # 127.0.0.2 is loopback, and not the base URL's host (127.0.0.1)
        with SideServer(SCHEMAS, host="127.0.0.2") as other:
            p = probe(with_adres_ref(other.origin + "/schemas/adres.json#/Adres"))
            seen = other.requests()
        self.assertNoCrash(p)
        self.assertCheck(p.report, DO, "DO-2", "error", contains=REFUSED)
        self.assertEqual(seen, [], "the non-public host received requests")

    def test_ref_hosts_any_fetches_it(self):
        with SideServer(SCHEMAS, host="127.0.0.2") as other:
            p = probe(with_adres_ref(other.origin + "/schemas/adres.json#/Adres"), "--ref-hosts", "any")
            seen = other.requests()
        self.assertCheck(p.report, DO, "DO-2", "pass")
        self.assertIn(("GET", "/schemas/adres.json"), seen)

    def test_base_url_host_on_another_port_is_fetched(self):
        with SideServer(SCHEMAS, host="127.0.0.1") as same_host:
            p = probe(with_adres_ref(same_host.origin + "/schemas/adres.json#/Adres"))
            seen = same_host.requests()
        self.assertCheck(p.report, DO, "DO-2", "pass")
        self.assertIn(("GET", "/schemas/adres.json"), seen)

    def test_host_name_is_judged_by_its_address(self):
        # "localhost" is not the base URL's host name (127.0.0.1) and resolves to loopback
        with SideServer(SCHEMAS, host="127.0.0.1") as same_machine:
            p = probe(with_adres_ref("http://localhost:%d/schemas/adres.json#/Adres" % same_machine.port))
            seen = same_machine.requests()
        self.assertCheck(p.report, DO, "DO-2", "error", contains=REFUSED)
        self.assertEqual(seen, [])

    def test_redirect_to_a_private_host_is_not_followed(self):
        # The base URL's host may be fetched, but its redirect to 127.0.0.2 is judged again.
        with SideServer(SCHEMAS, host="127.0.0.2") as other, SideServer(host="127.0.0.1") as same_host:
            same_host.routes["/schemas/adres.json"] = Response(
                302, b"", {"Location": other.origin + "/schemas/adres.json"}, content_type=None)
            p = probe(with_adres_ref(same_host.origin + "/schemas/adres.json#/Adres"))
            seen_other = other.requests()
            seen_same = same_host.requests()
        self.assertCheck(p.report, DO, "DO-2", "error", contains=REFUSED)
        self.assertEqual(seen_other, [])
        self.assertEqual(seen_same, [("GET", "/schemas/adres.json")])

    def test_refused_and_unresolved_refs_together_fail(self):
        # a refused ref is error; a dangling local ref beside it still makes DO-2 fail
        profile = with_adres_ref("http://127.0.0.2:9/schemas/adres.json#/Adres")
        profile["doc_patch"]["components"]["schemas"]["Gebouwen"] = {"$ref": "#/components/schemas/Nergens"}
        p = probe(profile)
        # the message names the first causes and "+N more"; every unresolved ref is in details
        self.assertCheck(p.report, DO, "DO-2", "fail", contains=("Nergens",))
        details = [d for c in harness.checks(p.report, DO, "DO-2") for d in c.get("details", [])]
        self.assertTrue(any(REFUSED in d for d in details), details)

    def test_invalid_value_is_a_usage_error(self):
        r = harness.run_adrprobe(["check", "http://127.0.0.1:9/v1", "--ref-hosts", "private"])
        self.assertEqual(r.rc, 2, r.describe())


# What an internal service answers (a 403 body is kept in a report, 2 KiB of it).
INTERNAL = "internal-admin: db_password=hunter2"


class DocumentRedirects(ProbeCase):
    """Hostile input IV, item 4: {base}/openapi.json answers 302 to an address
    in the internal network. The hop is not made, PO-1 says so (error, as for a
    refused $ref), and nothing of the internal answer is in the report."""

    def run_redirected(self, path, args, internal_host="127.0.0.2", internal_name=None):
        """An API on 127.0.0.1 whose `path` answers 302 to an internal server's
        /internal/ (at internal_name, else its address); runs adrprobe with
        args(the API's origin). The run, what the internal server saw, and where it was."""
        other = SideServer({"/internal/": Response(403, INTERNAL, content_type="text/plain")}, host=internal_host)
        api = SideServer(host="127.0.0.1")
        with other, api:
            internal = "http://%s:%d/internal/" % (internal_name or internal_host, other.port)
            api.routes[path] = Response(302, b"", {"Location": internal}, content_type=None)
            run = harness.run_adrprobe(args(api.origin))
            seen = other.requests()
        self.assertNoCrash(run)
        return run, seen, internal

    def assertNothingFetched(self, run, seen):
        self.assertEqual(seen, [], "the internal host received a request")
        self.assertNotIn("hunter2", run.stdout + run.stderr)

    def test_published_document_redirect_to_a_private_host_is_not_followed(self):
        run, seen, internal = self.run_redirected("/v1/openapi.json", lambda api: check_args(api + "/v1"))
        self.assertNothingFetched(run, seen)  # neither PO-1's request nor PO-2's
        report = run.json()
        self.assertCheck(report, PO, "PO-1", "error", contains=(REFUSED, "→ 302 → " + internal))
        self.assertCheck(report, PO, "PO-2", "error")
        # PO-1's chain: the 302 and the hop that was not made (no status, nothing kept)
        hops = [e for e in report["exchanges"] if e["url"] == internal]
        self.assertTrue(hops, report["exchanges"])
        for hop in hops:
            self.assertIsNone(hop.get("status"), hop)
            self.assertIn(REFUSED, hop.get("error", ""), hop)
        self.assertFalse(report.get("unreachable"), "a refused hop is no target down")

    def test_ref_hosts_any_follows_it(self):
        # The same fixture does reach the internal host when the guard is lifted.
        run, seen, _ = self.run_redirected("/v1/openapi.json",
                                           lambda api: check_args(api + "/v1", ["--ref-hosts", "any"]))
        self.assertIn(("GET", "/internal/"), seen)
        self.assertCheck(run.json(), PO, "PO-1", "fail", contains="403")

    def test_openapi_url_redirect_to_another_host_name_is_not_followed(self):
        # localhost resolves to loopback, and is not a host the user gave (127.0.0.1)
        run, seen, _ = self.run_redirected(
            "/docs/openapi.json", lambda api: check_args(api + "/v1", ["--openapi", api + "/docs/openapi.json"]),
            internal_host="127.0.0.1", internal_name="localhost")
        self.assertNothingFetched(run, seen)
        self.assertCheck(run.json(), DO, "DO-1", "error", contains=REFUSED)

    def test_lint_url_redirect_to_a_private_host_is_not_followed(self):
        run, seen, _ = self.run_redirected("/openapi.json", lambda api: ["lint", api + "/openapi.json", "-f", "json"])
        self.assertNothingFetched(run, seen)
        self.assertCheck(run.json(), DO, "DO-1", "error", contains=REFUSED)

    def test_redirect_on_the_given_host_is_followed(self):
        # The hosts the user gave may be on any address: a redirect there (another port) is followed.
        with SideServer({"/docs/openapi.json": harness.default_doc("/v1", "1.0.0")}, host="127.0.0.1") as docs, \
                SideServer(host="127.0.0.1") as api:
            api.routes["/v1/openapi.json"] = Response(302, b"", {"Location": docs.origin + "/docs/openapi.json"},
                                                      content_type=None)
            run = harness.run_adrprobe(check_args(api.origin + "/v1", []))
            seen = docs.requests()
        self.assertNoCrash(run)
        self.assertIn(("GET", "/docs/openapi.json"), seen)
        self.assertCheck(run.json(), PO, "PO-1", "warn", contains="redirect")


if __name__ == "__main__":
    harness.main()
