#!/usr/bin/python3
"""DO-2's SSRF guard (probes.md DO-2, CLI.md --ref-hosts): an external $ref is
fetched only from a public address or from the base URL's own host, judged on
the resolved address and on every redirect hop; --ref-hosts any lifts it."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ProbeCase, probe, rid  # noqa: E402
from side_server import Response, SideServer  # noqa: E402

DO = rid("doc-openapi")
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


if __name__ == "__main__":
    harness.main()
