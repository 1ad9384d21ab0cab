#!/usr/bin/python3
"""/core/transport-security (2.0.0) and /core/transport/{tls,security-headers,cors}
(2.1.0): TS-1..TS-7 against nginx TLS reverse proxies in front of the fixture API
(tls_fixture.py), plus the untrusted-certificate behaviour (every other rule
`error` unless --insecure) and the report's `tls` facts; client certificates
(--cert/--key against nginx's ssl_verify_client and a server that refuses the
handshake without one) and proxies (the handshakes tunnelled through an HTTP
CONNECT proxy, connect_proxy.py, as libcurl tunnels the HTTP probes).

Needs /usr/sbin/nginx (nginx-light) and the openssl command; skipped without them
(except the plain http:// case, which needs neither)."""

import datetime
import json
import shutil
import socket
import subprocess
import ssl
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ProbeCase, checks, rule  # noqa: E402
import tls_fixture  # noqa: E402
from tls_fixture import NginxTLS, Pki, requires_tls_tools  # noqa: E402
from connect_proxy import ConnectProxy, SocksProxy  # noqa: E402

TS = "/core/transport-security"
TLS21 = "/core/transport/tls"
HEADERS21 = "/core/transport/security-headers"
CORS21 = "/core/transport/cors"
UNTRUSTED = "TLS certificate not trusted: rerun with --ca-file or --insecure"
OTHER_TECHNICAL = [i for i in harness.technical_ids("2.0.0") if i != TS]

PKI = None
_PKI_DIR = None
CLIENT_PKI = None    # the CA the servers trust for client certificates
CLIENT = None        # (cert, key) issued by CLIENT_PKI
STRANGER = None      # (cert, key) issued by a CA no server trusts


def setUpModule():
    global PKI, _PKI_DIR, CLIENT_PKI, CLIENT, STRANGER
    if not tls_fixture.missing_tools():
        _PKI_DIR = tempfile.mkdtemp(prefix="adrprobe-tls-pki-")
        PKI = Pki(_PKI_DIR)
        CLIENT_PKI = Pki(Path(_PKI_DIR) / "clients")
        CLIENT = CLIENT_PKI.issue("client", cn="adrprobe test client", sans=("DNS:client.example",),
                                  usage="clientAuth")
        STRANGER = Pki(Path(_PKI_DIR) / "strangers").issue("stranger", cn="someone else",
                                                           sans=("DNS:someone.example",), usage="clientAuth")


def tearDownModule():
    if _PKI_DIR:
        shutil.rmtree(_PKI_DIR, ignore_errors=True)


class TLSProbe:
    """One adrprobe run against one nginx shape: the Run, the report, what reached the API."""

    def __init__(self, run, requests, port, srv_errors=""):
        self.run = run
        self.requests = requests
        self.port = port
        self.srv_errors = srv_errors
        self._report = None

    @property
    def report(self):
        if self._report is None:
            self._report = self.run.json()
        return self._report

    @property
    def tls(self):
        return self.report.get("tls")


def tls_probe(shape, *args, profile=None, edition=None, ca=True, host="127.0.0.1", cert_options=None,
              **settings):
    """Serve shape through nginx, run `adrprobe check https://HOST:PORT/v1 -f json --rate 0
    [--ca-file CA] args`, stop everything; returns a TLSProbe."""
    with NginxTLS(shape, profile=profile, pki=PKI, cert_options=cert_options, max_seconds=90, **settings) as srv:
        url = "https://%s:%d%s" % (host, srv.port, srv.fixture.fixture.base)
        extra = (["--ca-file", srv.ca_file] if ca else []) + list(args)
        run = harness.run_adrprobe(harness.check_args(url, extra, edition), timeout=60)
        return TLSProbe(run, srv.requests(), srv.port, srv.errors())


class TransportCase(ProbeCase):
    def assertChecks(self, report, rule_id, expected):
        """expected: {check id: verdict}"""
        for cid, verdict in expected.items():
            self.assertCheck(report, rule_id, cid, verdict)

    def assertUntrustedErrors(self, p):
        """probes.md: with an untrusted certificate and no --insecure every rule but
        TS-1 (and the handshake-based TS-2..4) is `error` with the rerun hint, and
        nothing is sent over HTTP."""
        report = p.report
        for rid in OTHER_TECHNICAL:
            with self.subTest(rule=rid):
                self.assertRule(report, rid, "error")
                for c in rule(report, rid).get("checks", []):
                    self.assertEqual(c["verdict"], "error", "%s %s\n%s" % (rid, c["id"], self.context(report, rid)))
                    self.assertIn(UNTRUSTED, c.get("message", ""), self.context(report, rid))
        for cid in ("TS-5", "TS-6", "TS-7"):
            self.assertCheck(report, TS, cid, "error", contains=UNTRUSTED)
        self.assertRule(report, TS, "fail")
        self.assertEqual(p.requests, [], "requests were sent over an untrusted connection")
        self.assertEqual(p.run.rc, 1, p.run.describe())


# --------------------------------------------------------------------------
# a well-configured server
# --------------------------------------------------------------------------

@requires_tls_tools
class Modern(TransportCase):
    @classmethod
    def setUpClass(cls):
        cls.p = tls_probe("modern")
        cls.p21 = tls_probe("modern", edition="2.1.0")

    def test_all_transport_checks_pass(self):
        r = self.p.report
        self.assertNoCrash(self.p.run)
        for cid in ("TS-1", "TS-2", "TS-3", "TS-4", "TS-5", "TS-6", "TS-7"):
            self.assertCheck(r, TS, cid, "pass")
        self.assertRule(r, TS, "pass")
        self.assertCheck(r, TS, "TS-1", "pass", contains="127.0.0.1")
        self.assertCheck(r, TS, "TS-3", "pass", contains=self.p.tls["cipher"])

    def test_handshake_facts(self):
        t = self.p.tls
        self.assertIsInstance(t, dict, json.dumps(self.p.report)[:2000])
        self.assertIs(t["handshake"], True)
        self.assertIs(t["trusted"], True)
        self.assertFalse(t.get("trust_error"))
        self.assertEqual(t["host"], "127.0.0.1")
        self.assertEqual(t["port"], self.p.port)
        self.assertEqual(t["protocol"], "TLSv1.3")
        self.assertIsNone(t["secure_renegotiation"])  # TLS 1.3 has no renegotiation: null, not false
        self.assertIn(t["cipher"], ("TLS_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256", "TLS_CHACHA20_POLY1305_SHA256"))
        self.assertEqual(t["accepted_protocols"], ["TLSv1.2", "TLSv1.3"])
        by_name = {x["name"]: x for x in t["protocols"]}
        self.assertEqual(set(by_name), {"SSLv3", "TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"})
        for name in ("TLSv1", "TLSv1.1"):
            self.assertIs(by_name[name]["accepted"], False, by_name[name])
            self.assertIs(by_name[name]["testable"], True, by_name[name])
            self.assertTrue(by_name[name].get("error"), by_name[name])
        self.assertEqual(by_name["TLSv1.2"].get("cipher"), "ECDHE-ECDSA-AES256-GCM-SHA384")  # server preference
        self.assertTrue(by_name["TLSv1.3"].get("cipher", "").startswith("TLS_"))
        self.assertIs(by_name["SSLv3"]["accepted"], False)

    def test_certificate_facts(self):
        c = self.p.tls["certificate"]
        self.assertIn("CN=localhost", c["subject"])
        self.assertIn("CN=adrprobe test CA", c["issuer"])
        self.assertIn("O=adrprobe tests", c["issuer"])
        self.assertEqual(sorted(c["sans"]), ["127.0.0.1", "localhost"])
        self.assertEqual(c["key"], "EC P-256")
        self.assertIn("SHA256", c["signature"].upper())
        self.assertGreater(c["days_left"], 0)
        self.assertEqual(c["days_left"], 30)  # issued for 30 days and an hour
        for field in ("not_before", "not_after"):
            self.assertRegex(c[field], harness.RFC3339)
        nb = datetime.datetime.fromisoformat(c["not_before"].replace("Z", "+00:00"))
        na = datetime.datetime.fromisoformat(c["not_after"].replace("Z", "+00:00"))
        now = datetime.datetime.now(datetime.timezone.utc)
        self.assertLess(nb, now)
        self.assertLess(now, na)
        self.assertEqual((na - nb).days, 30)
        # the chain starts with the leaf
        self.assertEqual(self.p.tls["chain"][0]["subject"], c["subject"])
        # TS-4 states expiry, issuer, subject, key type and size
        self.assertCheck(self.p.report, TS, "TS-4", "pass",
                         contains=(c["not_after"], "CN=localhost", "adrprobe test CA", "EC P-256"))

    def test_report_validates(self):
        errors = sorted(harness.schema_validator().iter_errors(self.p.report), key=lambda e: list(e.path))
        self.assertEqual([], ["%s: %s" % (list(e.path), e.message) for e in errors][:10])

    def test_edition_2_1_0_split(self):
        r = self.p21.report
        ids = [x["id"] for x in r["rules"]]
        self.assertNotIn(TS, ids)
        self.assertChecks(r, TLS21, {"TS-1": "pass", "TS-2": "pass", "TS-3": "pass", "TS-4": "pass"})
        self.assertChecks(r, HEADERS21, {"TS-5": "pass", "TS-6": "pass"})
        self.assertChecks(r, CORS21, {"TS-7": "pass"})
        for rid in (TLS21, HEADERS21, CORS21):
            self.assertRule(r, rid, "pass")
        # each check sits in exactly one of the three rules
        self.assertEqual(sorted(c["id"] for rid in (TLS21, HEADERS21, CORS21) for c in rule(r, rid)["checks"]),
                         ["TS-1", "TS-2", "TS-3", "TS-4", "TS-5", "TS-6", "TS-7"])


@requires_tls_tools
class Certificates(TransportCase):
    def test_rsa_2048_certificate(self):
        p = tls_probe("rsa")
        self.assertEqual(p.tls["certificate"]["key"], "RSA 2048")
        self.assertCheck(p.report, TS, "TS-4", "pass", contains="RSA 2048")
        self.assertChecks(p.report, TS, {"TS-1": "pass", "TS-2": "pass", "TS-3": "pass"})
        by_name = {x["name"]: x for x in p.tls["protocols"]}
        self.assertEqual(by_name["TLSv1.2"].get("cipher"), "ECDHE-RSA-AES256-GCM-SHA384")

    def test_unknown_issuer_without_ca_file(self):
        p = tls_probe("modern", ca=False)
        self.assertCheck(p.report, TS, "TS-1", "fail", contains=("not trusted", "issuer"))
        self.assertIs(p.tls["trusted"], False)
        self.assertIn("issuer", p.tls["trust_error"])
        # TS-2..4 still come from the handshakes
        self.assertChecks(p.report, TS, {"TS-2": "pass", "TS-3": "pass", "TS-4": "pass"})
        self.assertEqual(p.tls["accepted_protocols"], ["TLSv1.2", "TLSv1.3"])
        self.assertUntrustedErrors(p)

    def test_expired_without_insecure(self):
        p = tls_probe("expired")
        self.assertCheck(p.report, TS, "TS-1", "fail", contains="expired")
        self.assertIs(p.tls["trusted"], False)
        self.assertIn("expired", p.tls["trust_error"])
        self.assertLess(p.tls["certificate"]["days_left"], 0)
        self.assertEqual(p.tls["certificate"]["not_after"], "2020-02-01T00:00:00Z")
        self.assertCheck(p.report, TS, "TS-4", "warn", contains=("expired", "2020-02-01"))
        self.assertChecks(p.report, TS, {"TS-2": "pass", "TS-3": "pass"})
        self.assertUntrustedErrors(p)

    def test_expired_with_insecure_goes_on(self):
        p = tls_probe("expired", "--insecure")
        r = p.report
        self.assertCheck(r, TS, "TS-1", "fail", contains=("expired", "--insecure"))
        self.assertCheck(r, TS, "TS-4", "warn", contains="expired")
        self.assertChecks(r, TS, {"TS-2": "pass", "TS-3": "pass", "TS-5": "pass", "TS-6": "pass", "TS-7": "pass"})
        self.assertRule(r, TS, "fail")
        # the other rules are judged, not error
        self.assertChecks(r, "/core/version-header", {"VH-1": "pass", "VH-2": "pass", "VH-3": "pass"})
        self.assertNotEqual(rule(r, "/core/version-header")["verdict"], "error")
        self.assertChecks(r, "/core/publish-openapi", {"PO-1": "pass", "PO-2": "pass"})
        self.assertChecks(r, "/core/semver", {"SV-1": "pass"})
        for rid in OTHER_TECHNICAL:
            for c in rule(r, rid).get("checks", []):
                self.assertNotIn(UNTRUSTED, c.get("message", ""), "%s %s" % (rid, c["id"]))
        self.assertIn(("GET", "/v1"), [(q["method"], q["path"]) for q in p.requests])
        self.assertEqual(p.run.rc, 1, p.run.describe())

    def test_wrong_host_ip_literal(self):
        p = tls_probe("wrong_host")
        self.assertEqual(p.tls["certificate"]["sans"], ["other.example"])
        self.assertCheck(p.report, TS, "TS-1", "fail", contains=("not trusted", "mismatch"))
        self.assertIn("mismatch", p.tls["trust_error"])
        self.assertUntrustedErrors(p)

    def test_wrong_host_name(self):
        # localhost resolves to 127.0.0.1 here (nginx listens there only)
        p = tls_probe("wrong_host", host="localhost")
        self.assertEqual(p.tls["host"], "localhost")
        self.assertCheck(p.report, TS, "TS-1", "fail", contains=("not trusted", "hostname mismatch"))
        self.assertUntrustedErrors(p)

    def test_wrong_host_with_insecure(self):
        p = tls_probe("wrong_host", "--insecure")
        self.assertCheck(p.report, TS, "TS-1", "fail", contains=("mismatch", "--insecure"))
        self.assertChecks(p.report, "/core/version-header", {"VH-1": "pass"})
        self.assertTrue(p.requests)

    def test_expires_within_14_days_warns(self):
        p = tls_probe("expiring")  # valid for 5 days (and an hour)
        self.assertEqual(p.tls["certificate"]["days_left"], 5)
        self.assertCheck(p.report, TS, "TS-4", "warn", contains=("5 days", p.tls["certificate"]["not_after"]))
        self.assertChecks(p.report, TS, {"TS-1": "pass", "TS-2": "pass", "TS-3": "pass", "TS-5": "pass"})
        self.assertRule(p.report, TS, "warn")
        self.assertNotEqual(rule(p.report, "/core/version-header")["verdict"], "error")

    def test_expiry_threshold(self):
        now = datetime.datetime.now(datetime.timezone.utc)
        for days_ahead, verdict, days_left in ((datetime.timedelta(days=13, hours=23), "warn", 13),
                                               (datetime.timedelta(days=15, hours=1), "pass", 15)):
            with self.subTest(days_left=days_left):
                p = tls_probe("modern", cert_options={"not_after": now + days_ahead})
                self.assertEqual(p.tls["certificate"]["days_left"], days_left)
                self.assertCheck(p.report, TS, "TS-4", verdict, contains="%d days" % days_left)


# --------------------------------------------------------------------------
# protocol versions and cipher suites
# --------------------------------------------------------------------------

@requires_tls_tools
class Protocols(TransportCase):
    def test_legacy_versions_warn(self):
        p = tls_probe("legacy")
        t = p.tls
        self.assertEqual(t["accepted_protocols"], ["TLSv1", "TLSv1.1", "TLSv1.2"])
        by_name = {x["name"]: x for x in t["protocols"]}
        for name in ("TLSv1", "TLSv1.1", "TLSv1.2"):
            self.assertIs(by_name[name]["accepted"], True, by_name[name])
            self.assertTrue(by_name[name].get("cipher"), by_name[name])
        self.assertIs(by_name["TLSv1.3"]["accepted"], False)
        self.assertCheck(p.report, TS, "TS-2", "warn", contains=("TLSv1 ", "TLSv1.1", "phase out"))
        self.assertChecks(p.report, TS, {"TS-1": "pass", "TS-4": "pass", "TS-5": "pass",
                                         "TS-6": "pass", "TS-7": "pass"})
        # every OpenSSL cipher is on: anonymous ECDH among them (insufficient), and 3DES (phase out)
        self.assertCheck(p.report, TS, "TS-3", "fail", contains=("insufficient: ", "AECDH-AES256-SHA (TLSv1, TLSv1.1, TLSv1.2)"))
        self.assertRule(p.report, TS, "fail")
        self.assertEqual(t["protocol"], "TLSv1.2")
        self.assertIs(t["secure_renegotiation"], True)  # OpenSSL's nginx supports RFC 5746

    def test_agrees_with_openssl_s_client(self):
        flags = {"TLSv1": "-tls1", "TLSv1.1": "-tls1_1", "TLSv1.2": "-tls1_2", "TLSv1.3": "-tls1_3"}
        for shape in ("legacy", "modern"):
            with NginxTLS(shape, pki=PKI, max_seconds=600) as srv:
                run = harness.run_adrprobe(harness.check_args(srv.base_url, ["--ca-file", srv.ca_file]))
                report = run.json()
                ours = {x["name"]: x["accepted"] for x in report["tls"]["protocols"]}
                theirs = {name: tls_fixture.s_client(srv.port, flag)[0] for name, flag in flags.items()}
            for name in flags:
                with self.subTest(shape=shape, version=name):
                    self.assertEqual(ours[name], theirs[name] is not None,
                                     "adrprobe says %s accepted=%s, s_client negotiated %s" % (
                                         name, ours[name], theirs[name]))
                    if theirs[name] is not None:
                        self.assertEqual(theirs[name], name)

    def test_only_tls_1_0_and_1_1_fails(self):
        # probes.md TS-2: "No TLS 1.2 or 1.3 → fail"; TS-2 has its own pinned handshakes,
        # so it is judged even though the default handshake (TS-1) fails.
        p = tls_probe("legacy_only")
        self.assertEqual(p.tls["accepted_protocols"], ["TLSv1", "TLSv1.1"])
        self.assertIs(p.tls["handshake"], False)
        self.assertCheck(p.report, TS, "TS-1", "fail", contains="handshake")
        self.assertRule(p.report, TS, "fail")
        self.assertCheck(p.report, TS, "TS-2", "fail", contains=("TLSv1", "TLSv1.1"))

    def test_tls_1_3_only_passes(self):
        p = tls_probe("modern", protocols="TLSv1.3")
        self.assertEqual(p.tls["accepted_protocols"], ["TLSv1.3"])
        self.assertCheck(p.report, TS, "TS-2", "pass", contains="TLSv1.3")
        self.assertChecks(p.report, TS, {"TS-1": "pass", "TS-3": "pass"})

    def test_static_rsa_cipher_is_phase_out(self):
        p = tls_probe("static_rsa")
        self.assertEqual(p.tls["cipher"], "AES128-GCM-SHA256")
        self.assertCheck(p.report, TS, "TS-3", "warn", contains=("AES128-GCM-SHA256", "phase out"))
        self.assertChecks(p.report, TS, {"TS-1": "pass", "TS-2": "pass"})
        self.assertEqual(p.tls["accepted_protocols"], ["TLSv1.2"])
        self.assertRule(p.report, TS, "warn")

    def test_cbc_cipher_is_sufficient(self):
        p = tls_probe("modern", protocols="TLSv1.2", ciphers="ECDHE-ECDSA-AES128-SHA")
        self.assertEqual(p.tls["cipher"], "ECDHE-ECDSA-AES128-SHA")
        self.assertEqual(p.tls["protocol"], "TLSv1.2")
        self.assertCheck(p.report, TS, "TS-3", "pass", contains=("ECDHE-ECDSA-AES128-SHA", "sufficient"))
        self.assertCheck(p.report, TS, "TS-2", "pass")


# --------------------------------------------------------------------------
# every accepted cipher suite (TS-3)
# --------------------------------------------------------------------------

def suites_of(tls):
    """{version: [suite name, ...]} of the accepted versions."""
    return {p["name"]: [x["name"] for x in p.get("suites", [])] for p in tls["protocols"] if p["accepted"]}


def suite_facts(tls):
    """{(version, suite): (level, kx, kx_level)}"""
    return {(p["name"], x["name"]): (x["level"], x["kx"], x["kx_level"])
            for p in tls["protocols"] if p["accepted"] for x in p["suites"]}


TLS13_DEFAULT = {"TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256", "TLS_AES_128_GCM_SHA256"}


@requires_tls_tools
class Suites(TransportCase):
    def test_modern_every_suite_listed_and_good(self):
        p = tls_probe("modern")
        t = p.tls
        got = suites_of(t)
        self.assertEqual(set(got), {"TLSv1.2", "TLSv1.3"})
        # nginx's TLS 1.3 default suites; the three ECDHE-ECDSA suites of its list (EC certificate)
        self.assertEqual(set(got["TLSv1.3"]), TLS13_DEFAULT)
        self.assertEqual(set(got["TLSv1.2"]), {"ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-ECDSA-AES128-GCM-SHA256",
                                               "ECDHE-ECDSA-CHACHA20-POLY1305"})
        for (version, name), (level, kx, kx_level) in suite_facts(t).items():
            with self.subTest(suite=name, version=version):
                self.assertIn(level, ("good", "sufficient"))
                self.assertEqual(kx, "x25519")  # what nginx picks from an ordinary client's groups
                self.assertEqual(kx_level, "good")
        self.assertTrue(all(x["suites_complete"] for x in t["protocols"] if x["accepted"]))
        self.assertCheck(p.report, TS, "TS-3", "pass", contains=("6 suites accepted (TLSv1.2 3, TLSv1.3 3)",
                                                                  "every one good or sufficient"))
        self.assertGreater(t["handshakes"], 6)

    def test_legacy_with_tls_1_0_static_rsa_and_3des(self):
        # prefers ECDHE-RSA-AES256-GCM-SHA384 (good), still accepts TLS 1.0, static RSA and 3DES
        p = tls_probe("legacy_3des")
        t = p.tls
        self.assertEqual(t["cipher"], "ECDHE-RSA-AES256-GCM-SHA384")
        got = suites_of(t)
        self.assertEqual(set(got), {"TLSv1", "TLSv1.2"})
        # nginx serves 3DES only where its OpenSSL has it (Debian's OpenSSL 3 has none: see
        # RawHello3DES for a server that accepts it)
        cbc = {"ECDHE-RSA-AES128-SHA", "AES128-SHA"} | (
            {"ECDHE-RSA-DES-CBC3-SHA", "DES-CBC3-SHA"} if openssl_has_3des() else set())
        self.assertEqual(set(got["TLSv1"]), cbc)  # no GCM before TLS 1.2
        self.assertEqual(set(got["TLSv1.2"]), cbc | {"ECDHE-RSA-AES256-GCM-SHA384"})
        facts = suite_facts(t)
        self.assertEqual(facts[("TLSv1.2", "AES128-SHA")], ("phase_out", None, None))  # static RSA: no ephemeral key
        self.assertEqual(facts[("TLSv1", "ECDHE-RSA-AES128-SHA")], ("sufficient", "x25519", "good"))
        self.assertCheck(p.report, TS, "TS-3", "warn",
                         contains=("TLSv1.2 negotiated ECDHE-RSA-AES256-GCM-SHA384: good",
                                   "phase out: ", "AES128-SHA (TLSv1, TLSv1.2)"))
        # 2.2.0 (NCSC 2025-05): SHA-1 CBC and static RSA are insufficient
        p22 = tls_probe("legacy_3des", edition="2.2.0")
        self.assertCheck(p22.report, TLS21, "TS-3", "fail",
                         contains=("insufficient: ", "ECDHE-RSA-AES128-SHA (TLSv1, TLSv1.2)", "AES128-SHA (TLSv1, TLSv1.2)"))
        self.assertEqual(suite_facts(p22.tls)[("TLSv1.2", "AES128-SHA")][0], "insufficient")
        # TS-4 in 2.2.0: an RSA 2048 certificate is phase out
        self.assertCheck(p22.report, TLS21, "TS-4", "warn", contains=("phase out", "RSA 2048 bits (below 3072)"))

    def test_ecdhe_cbc_and_dhe(self):
        p = tls_probe("dhe_cbc")
        t = p.tls
        got = suites_of(t)
        self.assertEqual(set(got["TLSv1.2"]), {"ECDHE-RSA-AES256-SHA384", "ECDHE-RSA-AES128-SHA256",
                                               "DHE-RSA-AES256-GCM-SHA384", "DHE-RSA-AES128-SHA256"})
        self.assertEqual(set(got["TLSv1.3"]), TLS13_DEFAULT)
        facts = suite_facts(t)
        # the DH parameters nginx was given are RFC 7919's ffdhe3072, and named so
        self.assertEqual(facts[("TLSv1.2", "DHE-RSA-AES256-GCM-SHA384")], ("sufficient", "ffdhe3072", "sufficient"))
        self.assertEqual(facts[("TLSv1.2", "ECDHE-RSA-AES128-SHA256")][1], "x25519")
        self.assertCheck(p.report, TS, "TS-3", "pass", contains=("every one good or sufficient", "ffdhe3072", "x25519"))
        # 2025-05: ECDHE-CBC, DHE and ffdhe3072 are all phase out
        p22 = tls_probe("dhe_cbc", edition="2.2.0")
        self.assertCheck(p22.report, TLS21, "TS-3", "warn",
                         contains=("phase out: ", "ECDHE-RSA-AES256-SHA384 (TLSv1.2)", "DHE-RSA-AES128-SHA256 (TLSv1.2)",
                                   "key exchange phase out: ffdhe3072"))
        self.assertEqual(suite_facts(p22.tls)[("TLSv1.2", "DHE-RSA-AES256-GCM-SHA384")],
                         ("phase_out", "ffdhe3072", "phase_out"))

    def test_dh_parameters_of_no_rfc_7919_group_are_insufficient(self):
        p = tls_probe("dhe_cbc", dhparam="modp_2048")
        facts = suite_facts(p.tls)
        self.assertEqual(facts[("TLSv1.2", "DHE-RSA-AES128-SHA256")][1:], ("modp_2048", "insufficient"))
        self.assertCheck(p.report, TS, "TS-3", "fail", contains="key exchange insufficient: modp_2048")

    def test_text_and_html_list_the_suites(self):
        with NginxTLS("legacy_3des", pki=PKI, max_seconds=60) as srv:
            text = harness.run_adrprobe(harness.check_args(srv.base_url, ["--ca-file", srv.ca_file, "-v"], fmt="text"))
            html = harness.run_adrprobe(harness.check_args(srv.base_url, ["--ca-file", srv.ca_file], fmt="html"))
        self.assertNoCrash(text)
        out = text.stdout
        self.assertIn("TLSv1.2 suites:", out)
        self.assertRegex(out, r"TLSv1 suites:\n +ECDHE-RSA-AES128-SHA +sufficient +x25519 good\n +AES128-SHA +phase out")
        page = html.stdout
        self.assertIn("<h4>Accepted cipher suites</h4>", page)
        self.assertIn("<td>TLSv1</td><td><code>AES128-SHA</code></td><td><span class=\"v-warn\">phase out</span></td>", page)

    def test_agrees_with_sslscan(self):
        harness.require_tool("sslscan", "sslscan")
        # the same accepted suites as sslscan (Debian sslscan, same OpenSSL), per version
        with NginxTLS("legacy_3des", pki=PKI, max_seconds=60) as srv:
            run = harness.run_adrprobe(harness.check_args(srv.base_url, ["--ca-file", srv.ca_file]))
            theirs = sslscan_suites(srv.port)
        ours = {k: set(v) for k, v in suites_of(run.json()["tls"]).items()}
        self.assertEqual(ours, theirs)


def openssl_has_3des():
    return subprocess.run(["openssl", "ciphers", "3DES:@SECLEVEL=0"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


# The suites the probe offers by hand-made ClientHellos (src/tls/raw_hello.cpp): 3DES, RC4,
# single DES, IDEA, SEED and EXPORT, which an OpenSSL without weak ciphers cannot offer.
HAND_MADE_SUITES = frozenset({
    0xC012, 0xC008, 0x0016, 0x0013, 0x000A, 0xC017, 0x001B, 0xC011, 0xC007, 0x0005, 0x0004, 0xC016,
    0x0018, 0x0015, 0x0012, 0x0009, 0x0007, 0x009A, 0x0096, 0x0014, 0x0008, 0x0006, 0x0003})


class LoopbackServer:
    """A listener on 127.0.0.1 that serves each connection on a thread of its own (_serve)."""

    def __enter__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self._stop = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self.sock.close()
        return False

    def _accept(self):
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        raise NotImplementedError


def answer_request(tls, status=b"200 OK", body=b'{"ok": true}'):
    """Reads one HTTP request on tls and answers it with status and a JSON body; then closes."""
    try:
        if harness.read_head(tls, 4096) is None:
            return
        tls.sendall(b"HTTP/1.1 %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                    b"Connection: close\r\n\r\n%s" % (status, len(body), body))
    except (OSError, ssl.SSLError):
        pass
    finally:
        tls.close()


class ScriptedTLS(LoopbackServer):
    """Not a TLS server: reads each ClientHello and answers one that offers a suite of `accept`
    at `version` (None: at the version offered), choosing the first it offers, with `answer`:
    "flight" (a ServerHello, an empty Certificate and ServerHelloDone, then it closes: a
    server that takes only those suites), "stall" (a ServerHello, then nothing while the
    connection stays open) or "silent" (nothing at all, the connection held open). Any other
    ClientHello gets a handshake_failure alert; given `tls` (an ssl.SSLContext), one that
    offers suites outside HAND_MADE_SUITES (OpenSSL's) gets a real handshake instead and a
    404 to its request. Enough for the probe's hand-made ClientHellos (an OpenSSL without
    3DES cannot offer them); it records every ClientHello it saw as (version, suites,
    arrival time)."""

    ALERT = b"\x15\x03\x03\x00\x02\x02\x28"

    def __init__(self, version=0x0303, accept=(0x000A,), answer="flight", tls=None):
        self.version, self.accept, self.answer, self.tls, self.hellos = version, accept, answer, tls, []

    @staticmethod
    def _parse(hello):
        """(version, suite ids) of a ClientHello record, or None."""
        # record(5) type(1) len(3) version(2) random(32) sid
        if len(hello) < 44 or hello[0] != 0x16 or hello[5] != 1:
            return None
        at = 43 + 1 + hello[43]
        n = int.from_bytes(hello[at:at + 2], "big")
        return (int.from_bytes(hello[9:11], "big"),
                [int.from_bytes(hello[at + 2 + i:at + 4 + i], "big") for i in range(0, n, 2)])

    def _server_hello(self, version, suite):
        body = version.to_bytes(2, "big") + b"r" * 32 + b"\x00" + suite.to_bytes(2, "big") + b"\x00"
        msgs = b"\x02" + len(body).to_bytes(3, "big") + body
        if self.answer == "flight":
            msgs += b"\x0b\x00\x00\x03\x00\x00\x00" + b"\x0e\x00\x00\x00"
        return b"\x16\x03\x03" + len(msgs).to_bytes(2, "big") + msgs

    def _hold(self, conn):
        """Says nothing until the client closes or the server stops."""
        conn.settimeout(0.5)
        while not self._stop.is_set():
            try:
                if not conn.recv(65536):
                    return
            except socket.timeout:
                continue
            except OSError:
                return

    def _serve(self, conn):
        with conn:
            conn.settimeout(10)
            data, until = b"", time.monotonic() + 5
            try:  # peeked, so that OpenSSL's ClientHello is still there for a real handshake
                while (len(data) < 5 or len(data) < 5 + int.from_bytes(data[3:5], "big")) and time.monotonic() < until:
                    chunk = conn.recv(65536, socket.MSG_PEEK)
                    if not chunk:
                        break
                    if len(chunk) == len(data):  # the rest of the record has not come yet
                        time.sleep(0.01)
                    data = chunk
            except OSError:
                return
            hello = self._parse(data)
            if hello:
                self.hellos.append(hello + (time.monotonic(), ))
            if self.tls and hello and not set(hello[1]) <= HAND_MADE_SUITES | {0x00FF}:
                try:
                    answer_request(self.tls.wrap_socket(conn, server_side=True), b"404 Not Found", b"{}")
                except (OSError, ssl.SSLError):
                    pass
                return
            try:
                conn.recv(len(data))
                version = hello and (self.version or hello[0])
                chosen = [x for x in hello[1] if x in self.accept] if hello and version == hello[0] else []
                if not chosen:
                    conn.sendall(self.ALERT)
                    return
                if self.answer != "silent":
                    conn.sendall(self._server_hello(version, chosen[0]))
                if self.answer != "flight":
                    self._hold(conn)
            except OSError:
                pass


class RawHello3DES(TransportCase):
    def test_a_3des_suite_this_openssl_cannot_offer_is_found_by_hand(self):
        with ScriptedTLS() as srv:
            run = harness.run_adrprobe(harness.check_args("https://127.0.0.1:%d/v1" % srv.port, ["--timeout", "3"]))
            hellos = list(srv.hellos)
        report = run.json()
        got = suites_of(report["tls"])
        self.assertEqual(got.get("TLSv1.2"), ["DES-CBC3-SHA"], json.dumps(report["tls"])[:3000])
        self.assertEqual(report["tls"]["accepted_protocols"], ["TLSv1.2"])
        self.assertCheck(report, TS, "TS-3", "warn", contains="phase out: DES-CBC3-SHA (TLSv1.2)")  # NCSC 2.1
        # the hand-made ClientHellos offered 3DES at TLS 1.0 and 1.2 (where OpenSSL could not)
        if not openssl_has_3des():
            self.assertIn((0x0301, ), [(v, ) for v, suites, _ in hellos if 0x000A in suites])
            self.assertTrue(any(v == 0x0303 and 0x000A in suites for v, suites, _ in hellos))


class StalledHandMadeHellos(TransportCase):
    """A server that refuses every ClientHello of OpenSSL and answers each hand-made one
    with a ServerHello and then nothing: the hand-made ClientHellos of a version share one
    --timeout (they run in parallel), and the run's --deadline ends every handshake. Each
    run is bounded, so a probe that waits out one timeout per suite fails, not hangs.
    The time bounds leave room for a sanitized build on a loaded machine: waiting out
    one timeout per suite took 46 s."""

    def run_against(self, server, *args):
        """The run, its report and the hand-made ClientHellos it sent (not those of an
        earlier run against the same server: the report comparison's)."""
        with server as srv:
            url = "https://127.0.0.1:%d/v1" % srv.port
            run = harness.run_adrprobe(harness.check_args(url, ["--insecure"] + list(args)), timeout=40)
            since = time.monotonic() - run.duration
            hellos = [h for h in srv.hellos if h[2] >= since and set(h[1]) <= HAND_MADE_SUITES | {0x00FF}]
        self.assertFalse(run.timed_out, "the TLS phase did not end in time\n" + run.describe())
        return run, run.json(), hellos

    def test_one_timeout_for_all_hand_made_hellos(self):
        run, report, hand_made = self.run_against(
            ScriptedTLS(version=None, accept=HAND_MADE_SUITES, answer="stall"), "--timeout", "2", "--deadline", "5")
        self.assertLess(run.duration, 5 + 15, run.describe())
        tls = report["tls"]
        # One timeout (2 s) for the hand-made hellos of every version together, not one each (23 per
        # version): one each would have met the deadline (5 s), which is asserted not reached below.
        self.assertLess(tls["duration_ms"], 2 * 2000 + 3000, json.dumps(tls)[:3000])
        for version in (0x0301, 0x0302, 0x0303):
            times = [t for v, _, t in hand_made if v == version]
            self.assertTrue(times, "no hand-made ClientHello at 0x%04x" % version)
            # Sent together: one after another would be a timeout (2 s) apart.
            self.assertLess(max(times) - min(times), 2, "the hand-made ClientHellos at 0x%04x waited for each "
                            "other's timeout" % version)
        self.assertEqual(tls["accepted_protocols"], ["TLSv1", "TLSv1.1", "TLSv1.2"], json.dumps(tls)[:3000])
        v12 = next(p for p in tls["protocols"] if p["name"] == "TLSv1.2")
        self.assertFalse(v12["suites_complete"])
        self.assertNotIn("deadline_reached", tls)  # the deadline was not what stopped it
        # each chunk's first suite (3DES: phase out after NCSC 2.1), and the early stop said
        self.assertCheck(report, TS, "TS-3", "warn", contains=(
            "phase out: ECDHE-RSA-DES-CBC3-SHA (TLSv1, TLSv1.1, TLSv1.2)",
            "the enumeration of TLSv1, TLSv1.1, TLSv1.2 stopped early (a handshake got no answer in time)"))

    def test_the_deadline_ends_the_tls_phase(self):
        run, report, _ = self.run_against(
            ScriptedTLS(version=None, accept=HAND_MADE_SUITES, answer="stall"), "--timeout", "10", "--deadline", "3")
        self.assertLess(run.duration, 3 + 15, run.describe())
        tls = report["tls"]
        # Ended by the deadline (3 s), not by the hand-made hellos' timeout (10 s).
        self.assertLess(tls["duration_ms"], 3000 + 5000, json.dumps(tls)[:3000])
        self.assertIs(tls.get("deadline_reached"), True, json.dumps(tls)[:3000])
        v12 = next(p for p in tls["protocols"] if p["name"] == "TLSv1.2")
        self.assertEqual((v12["accepted"], v12["suites_complete"], v12.get("deadline_reached")), (True, False, True))
        self.assertIn("deadline of 3 s reached", report["notes"])
        # phase-out suites were found, worse ones may not have been: not judged, and why
        self.assertCheck(report, TS, "TS-3", "error", contains=(
            "deadline reached: the enumeration of TLSv1, TLSv1.1, TLSv1.2 did not finish",
            "phase out: ECDHE-RSA-DES-CBC3-SHA"))

    @requires_tls_tools
    def test_an_enumeration_the_deadline_cut_is_error_not_a_partial_pass(self):
        """OpenSSL's ClientHellos get a real TLS 1.2 server (good suites only), the
        hand-made ones silence until the deadline: what was found passes, but the
        suites and versions not known are `error` "deadline reached"."""
        cert, key = PKI.issue("deadline")
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(str(cert), str(key))
        ctx.minimum_version = ctx.maximum_version = ssl.TLSVersion.TLSv1_2
        ctx.set_ciphers("ECDHE+AESGCM")
        run, report, hand_made = self.run_against(
            ScriptedTLS(version=None, accept=HAND_MADE_SUITES, answer="silent", tls=ctx),
            "--timeout", "10", "--deadline", "4")
        self.assertLess(run.duration, 4 + 15, run.describe())
        # The TLS phase itself ends by the deadline, not by the 10 s timeout of a silent hello.
        self.assertLess(report["tls"]["duration_ms"], 4000 + 5000, json.dumps(report["tls"])[:3000])
        self.assertTrue(hand_made, "no hand-made ClientHello was sent")
        self.assertCheck(report, TS, "TS-3", "error", contains=(
            "deadline reached: the enumeration of TLSv1.2 did not finish; TLSv1, TLSv1.1 could not be probed",
            "every one good or sufficient"))
        self.assertCheck(report, TS, "TS-2", "error", contains="deadline reached before TLSv1, TLSv1.1 could be probed")
        tls = report["tls"]
        self.assertIs(tls["handshake"], True, json.dumps(tls)[:3000])
        self.assertEqual(tls["accepted_protocols"], ["TLSv1.2"])
        by_name = {p["name"]: p for p in tls["protocols"]}
        self.assertEqual(by_name["TLSv1.2"].get("deadline_reached"), True)
        self.assertTrue(by_name["TLSv1.2"]["suites"])
        for name in ("TLSv1", "TLSv1.1"):  # refused by OpenSSL, not answered by hand: not known
            self.assertEqual((by_name[name]["error"], by_name[name].get("deadline_reached")), ("deadline reached", True))


def sslscan_suites(port):
    """{version: {OpenSSL suite name}} that `sslscan --xml=-` found accepted on 127.0.0.1:port."""
    import xml.etree.ElementTree as ET
    # --timeout: its 3 s socket timeout cut handshakes short on a loaded machine (sslscan 2.0 has
    # no --connect-timeout).
    proc = subprocess.run(["sslscan", "--timeout=30", "--no-colour", "--no-heartbleed", "--no-renegotiation",
                           "--no-compression", "--no-fallback", "--no-check-certificate", "--no-groups", "--xml=-", "127.0.0.1:%d" % port],
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    root = ET.fromstring(proc.stdout.decode(errors="replace")[proc.stdout.decode(errors="replace").index("<"):])
    names = {"SSLv3": "SSLv3", "TLSv1.0": "TLSv1", "TLSv1.1": "TLSv1.1", "TLSv1.2": "TLSv1.2", "TLSv1.3": "TLSv1.3"}
    out = {}
    for c in root.iter("cipher"):
        if c.get("status") in ("accepted", "preferred"):
            out.setdefault(names.get(c.get("sslversion"), c.get("sslversion")), set()).add(c.get("cipher"))
    return out


# --------------------------------------------------------------------------
# security headers (TS-5, TS-6)
# --------------------------------------------------------------------------

@requires_tls_tools
class SecurityHeaders(TransportCase):
    MISSING = ("Cache-Control", "Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options")

    def test_missing_headers_warn_in_2_0_0(self):
        p = tls_probe("no_headers")
        self.assertCheck(p.report, TS, "TS-5", "warn", contains="Strict-Transport-Security")
        self.assertCheck(p.report, TS, "TS-6", "warn", contains=self.MISSING)
        self.assertEqual([c["verdict"] for c in checks(p.report, TS, "TS-6")].count("fail"), 0)
        self.assertChecks(p.report, TS, {"TS-1": "pass", "TS-2": "pass", "TS-7": "pass"})
        self.assertRule(p.report, TS, "warn")

    def test_missing_headers_fail_in_2_1_0(self):
        p = tls_probe("no_headers", edition="2.1.0")
        self.assertCheck(p.report, HEADERS21, "TS-5", "fail", contains="Strict-Transport-Security")
        self.assertCheck(p.report, HEADERS21, "TS-6", "fail", contains=self.MISSING)
        self.assertRule(p.report, HEADERS21, "fail")
        self.assertRule(p.report, TLS21, "pass")
        self.assertRule(p.report, CORS21, "pass")

    def test_missing_content_type(self):
        for edition, rid, verdict in (("2.0.0", TS, "warn"), ("2.1.0", HEADERS21, "fail")):
            with self.subTest(edition=edition):
                p = tls_probe("modern", hide=("Content-Type",), edition=edition)
                verdict_, message = self.assertCheck(p.report, rid, "TS-6", verdict, contains="Content-Type")
                self.assertNotIn("no-store", message)
                self.assertNotIn("nosniff", message)
                self.assertCheck(p.report, rid, "TS-5", "pass")

    def test_short_hsts_warns(self):
        p = tls_probe("short_hsts")
        self.assertCheck(p.report, TS, "TS-5", "warn", contains=("300", "31536000"))
        self.assertCheck(p.report, TS, "TS-6", "pass")

    def test_one_header_wrong(self):
        headers = dict(tls_fixture.SECURITY_HEADERS, **{"X-Frame-Options": "SAMEORIGIN"})
        p = tls_probe("modern", headers=headers)
        verdict, message = self.assertCheck(p.report, TS, "TS-6", "warn", contains="X-Frame-Options")
        for ok in ("Cache-Control", "X-Content-Type-Options", "Content-Security-Policy"):
            self.assertNotIn(ok, message.replace("CSP", ""), message)
        self.assertCheck(p.report, TS, "TS-5", "pass")


# --------------------------------------------------------------------------
# CORS (TS-7)
# --------------------------------------------------------------------------

@requires_tls_tools
class Cors(TransportCase):
    def origin_sent(self, p, path):
        sent = [q["headers"].get("Origin") for q in p.requests if q["path"] == path and q["headers"].get("Origin")]
        self.assertTrue(sent, "no request to %s with an Origin header reached the API" % path)
        return sent

    def test_echo_with_credentials_fails(self):
        for edition, rid in (("2.0.0", TS), ("2.1.0", CORS21)):
            with self.subTest(edition=edition):
                p = tls_probe("cors_echo", edition=edition)
                origins = self.origin_sent(p, "/v1/gebouwen")
                self.assertCheck(p.report, rid, "TS-7", "fail", contains=("/v1/gebouwen", origins[-1], "credentials"))
                self.assertRule(p.report, rid, "fail")
                # a random origin under .example
                self.assertRegex(origins[-1], r"^https://[A-Za-z0-9-]+\.example$")
        self.assertRule(p.report, TLS21, "pass")
        self.assertRule(p.report, HEADERS21, "pass")

    def test_echo_without_credentials_passes(self):
        p = tls_probe("cors_echo_plain")
        self.assertCheck(p.report, TS, "TS-7", "pass", contains="/v1/gebouwen")

    def test_star_passes_with_note(self):
        p = tls_probe("cors_star")
        self.assertCheck(p.report, TS, "TS-7", "pass", contains=("*", "open API"))

    def test_base_url_when_no_document(self):
        # probes.md: without a description document TS-7 probes the base URL
        p = tls_probe("cors_echo", profile={"openapi_json": "404"})
        self.assertCheck(p.report, "/core/publish-openapi", "PO-1", "fail")
        verdict, message = self.assertCheck(p.report, TS, "TS-7", "fail", contains="credentials")
        self.assertRegex(message, r"GET /v1\b(?!/)")
        self.origin_sent(p, "/v1")


# --------------------------------------------------------------------------
# plain http:// (no nginx needed)
# --------------------------------------------------------------------------

class PlainHttp(TransportCase):
    def test_http_base_fails_ts1(self):
        for edition, tls_rule, hdr_rule, missing in (("2.0.0", TS, TS, "warn"),
                                                     ("2.1.0", TLS21, HEADERS21, "fail")):
            with self.subTest(edition=edition):
                p = harness.probe(None, edition=edition)
                self.assertNoCrash(p)
                r = p.report
                self.assertCheck(r, tls_rule, "TS-1", "fail", contains="http")
                self.assertRule(r, tls_rule, "fail")
                self.assertFalse(r.get("tls"), "an http:// run has no TLS facts: %r" % r.get("tls"))
                # TS-5/6 judge the base URL response whatever its scheme
                self.assertCheck(r, hdr_rule, "TS-5", missing, contains="Strict-Transport-Security")
                self.assertCheck(r, hdr_rule, "TS-6", missing)
                self.assertEqual(p.rc, 1, p.describe())
                # an http:// base is not an untrusted certificate: the other rules run
                self.assertRule(r, "/core/version-header", "pass")


# --------------------------------------------------------------------------
# found in review: NCSC certificate rules, repeated headers, CORS edge cases,
# servers that never answer in TLS, exit statuses and option errors
# --------------------------------------------------------------------------

@requires_tls_tools
class Review(TransportCase):
    def test_rsa_1024_certificate_is_insufficient(self):
        # NCSC: RSA below 2048 bits is insufficient -> TS-4 fails (nginx needs SECLEVEL 0 to serve it)
        p = tls_probe("rsa", ciphers="ECDHE-RSA-AES256-GCM-SHA384:@SECLEVEL=0", cert_options={"key": "rsa:1024"},
                      *["--insecure"])
        self.assertEqual(p.tls["certificate"]["key"], "RSA 1024")
        self.assertCheck(p.report, TS, "TS-4", "fail", contains="RSA 1024")

    def test_repeated_security_headers_are_each_judged(self):
        headers = dict(tls_fixture.SECURITY_HEADERS, **{"X-Frame-Options": "DENY, DENY",
                                                         "X-Content-Type-Options": "nosniff, nosniff"})
        p = tls_probe("modern", headers=headers)
        self.assertCheck(p.report, TS, "TS-6", "pass")
        bad = dict(tls_fixture.SECURITY_HEADERS, **{"X-Frame-Options": "DENY, SAMEORIGIN"})
        p = tls_probe("modern", headers=bad)
        self.assertCheck(p.report, TS, "TS-6", "warn", contains="X-Frame-Options")

    def test_null_origin_with_credentials_fails(self):
        headers = dict(tls_fixture.SECURITY_HEADERS, **{"Access-Control-Allow-Origin": "null",
                                                         "Access-Control-Allow-Credentials": "true"})
        p = tls_probe("modern", headers=headers)
        self.assertCheck(p.report, TS, "TS-7", "fail", contains="null")

    def test_credentials_count_only_when_exactly_true(self):
        headers = dict(tls_fixture.SECURITY_HEADERS, **{"Access-Control-Allow-Origin": "*",
                                                         "Access-Control-Allow-Credentials": "TRUE"})
        p = tls_probe("modern", headers=headers)
        self.assertCheck(p.report, TS, "TS-7", "pass")


class SilentServer(TransportCase):
    """A server that accepts TCP but never answers in TLS: a transport problem (error), bounded by --timeout."""

    def test_no_tls_answer_is_error_not_fail(self):
        import socket
        import threading
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        port = listener.getsockname()[1]
        accepted = []
        stop = threading.Event()

        def accept_forever():
            listener.settimeout(0.2)
            while not stop.is_set():
                try:
                    conn, _ = listener.accept()
                    accepted.append(conn)  # hold it open, say nothing
                except OSError:
                    continue

        t = threading.Thread(target=accept_forever, daemon=True)
        t.start()
        try:
            run = harness.run_adrprobe(harness.check_args("https://127.0.0.1:%d/v1" % port, ["--timeout", "2"]),
                                       timeout=60)
        finally:
            stop.set()
            t.join(2)
            for c in accepted:
                c.close()
            listener.close()
        report = run.json()
        self.assertCheck(report, TS, "TS-1", "error", contains="no TLS answer")
        self.assertCheck(report, TS, "TS-2", "error")
        # No handshake at all: secure renegotiation is unknown (null), not "no".
        self.assertIs(report["tls"]["handshake"], False)
        self.assertIsNone(report["tls"]["secure_renegotiation"])
        self.assertLess(run.duration, 30, "the handshakes were not bounded by --timeout")


class ExitStatusAndOptions(TransportCase):
    def test_fail_on_never_is_0_even_with_failures_and_errors(self):
        p = harness.probe(None, "--fail-on", "never")  # http:// base: TS-1 fails
        self.assertCheck(p.report, TS, "TS-1", "fail")
        self.assertEqual(p.rc, 0, p.describe())

    def test_unloadable_ca_file_is_a_usage_error(self):
        with tempfile.NamedTemporaryFile("w", suffix=".pem") as f:
            f.write("this is not a certificate\n")
            f.flush()
            run = harness.run_adrprobe(["check", "https://127.0.0.1:9/v1", "--ca-file", f.name])
        self.assertEqual(run.rc, 2, run.describe())
        self.assertIn("--ca-file", run.stderr)


# --------------------------------------------------------------------------
# client certificates (mutual TLS)
# --------------------------------------------------------------------------

NEEDS_CERT = "the server requires a client certificate"
NOT_ACCEPTED = "the server did not accept the client certificate"
PROXY_VARS = ("https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "http_proxy", "no_proxy", "NO_PROXY")


def no_proxy_env(**variables):
    """An environment without any proxy variable, then `variables`."""
    env = {name: None for name in PROXY_VARS}
    env.update(variables)
    return env


def cert_args(pair):
    return ["--cert", str(pair[0]), "--key", str(pair[1])]


def mtls_probe(*args, verify="on", edition=None, fmt="json"):
    """nginx (modern) with ssl_verify_client `verify` against CLIENT_PKI's CA."""
    with NginxTLS("modern", pki=PKI, verify_client=verify, client_ca=str(CLIENT_PKI.ca_file), max_seconds=90) as srv:
        run = harness.run_adrprobe(harness.check_args(srv.base_url, ["--ca-file", srv.ca_file] + list(args), edition,
                                                      fmt=fmt), timeout=60, env=no_proxy_env())
        return TLSProbe(run, srv.requests(), srv.port, srv.errors())


class RequireClientCertServer(LoopbackServer):
    """A TLS server on 127.0.0.1 that ends the handshake without a client
    certificate from CLIENT_PKI (as Apache's SSLVerifyClient require, or Go's
    RequireAndVerifyClientCert): TLS 1.3 sends the alert certificate_required,
    TLS 1.2 handshake_failure. With one, every request gets 200 and a small
    JSON body."""

    def __init__(self, max_version=None):
        cert, key = PKI.issue("strict")
        self.ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.ctx.load_cert_chain(str(cert), str(key))
        self.ctx.load_verify_locations(str(CLIENT_PKI.ca_file))
        self.ctx.verify_mode = ssl.CERT_REQUIRED
        if max_version:
            self.ctx.maximum_version = max_version
        self.ca_file = PKI.ca_file
        self.handshakes = []  # "ok" or the server's error, per handshake

    def _serve(self, conn):
        conn.settimeout(10)
        try:
            tls = self.ctx.wrap_socket(conn, server_side=True)
        except (OSError, ssl.SSLError) as e:
            self.handshakes.append(str(e))
            conn.close()
            return
        self.handshakes.append("ok")
        answer_request(tls)


@requires_tls_tools
class MutualTLS(TransportCase):
    def assertNoSecret(self, run, pair=None):
        """Neither the certificate nor the key is ever printed."""
        pair = pair or CLIENT
        output = run.stdout + run.stderr
        self.assertNotIn("-----BEGIN", output)
        for path in pair:
            for line in Path(path).read_text().splitlines():
                if len(line) > 16 and not line.startswith("-----"):
                    self.assertNotIn(line, output, "a line of %s is in the output" % path)

    def test_with_the_client_certificate_the_run_passes(self):
        p = mtls_probe(*cert_args(CLIENT))
        r = p.report
        self.assertNoCrash(p.run)
        for cid in ("TS-1", "TS-2", "TS-3", "TS-4", "TS-5", "TS-6", "TS-7"):
            self.assertCheck(r, TS, cid, "pass")
        self.assertEqual(p.tls["client_certificate"], {"requested": True, "sent": True})
        base = [e for e in r["exchanges"] if e["method"] == "GET" and e["url"].endswith("/v1")]
        self.assertTrue(base and all(200 <= (e["status"] or 0) < 300 for e in base), json.dumps(base)[:1000])
        self.assertChecks(r, "/core/version-header", {"VH-1": "pass"})
        for rid in OTHER_TECHNICAL:  # judged, as without mutual TLS
            self.assertNotEqual(rule(r, rid)["verdict"], "error", self.context(r, rid))
        self.assertTrue(p.requests, "nothing reached the API through nginx")
        self.assertFalse([n for n in r["notes"] if "client certificate" in n], r["notes"])
        self.assertNoSecret(p.run)

    def test_without_it_the_report_says_so(self):
        p = mtls_probe()
        r = p.report
        why = NEEDS_CERT + " (400 No required SSL certificate was sent): give --cert and --key"
        self.assertEqual(r["notes"][0], why)
        # TS-1 is error (a server doing mutual TLS is not insecure); TS-2..4 are judged from the handshakes
        self.assertCheck(r, TS, "TS-1", "error", contains=(why, "the certificate verifies for 127.0.0.1"))
        self.assertChecks(r, TS, {"TS-2": "pass", "TS-3": "pass", "TS-4": "pass"})
        for cid in ("TS-5", "TS-6", "TS-7"):
            self.assertCheck(r, TS, cid, "error", contains=why)
        for rid in OTHER_TECHNICAL:
            with self.subTest(rule=rid):
                self.assertRule(r, rid, "error")
                for c in rule(r, rid)["checks"]:
                    self.assertEqual(c["message"], why)
        self.assertRule(r, TS, "error")
        self.assertEqual(p.tls["client_certificate"], {"requested": True, "sent": False})
        self.assertEqual(p.requests, [], "nginx passed requests without a client certificate")
        self.assertEqual(p.run.rc, 3, p.run.describe())

    def test_without_it_the_text_report_says_so_at_the_top(self):
        for quiet in ([], ["-q"]):
            with self.subTest(quiet=bool(quiet)):
                p = mtls_probe(*quiet, fmt="text")
                out = p.run.stdout
                note = " Note     " + NEEDS_CERT + " (400 No required SSL certificate was sent): give --cert and --key"
                self.assertIn(note, out, out[:2000])
                if not quiet:
                    self.assertLess(out.index(note), out.index(" Technical rules"), out[:2000])
                    self.assertIn("client certificate: asked for by the server; none given", out)

    def test_a_certificate_the_server_does_not_trust(self):
        p = mtls_probe(*cert_args(STRANGER))
        why = NOT_ACCEPTED + " (400 The SSL certificate error): check --cert and --key"
        self.assertEqual(p.report["notes"][0], why)
        self.assertCheck(p.report, TS, "TS-1", "error", contains=why)
        self.assertRule(p.report, "/core/semver", "error")
        self.assertEqual(p.requests, [])
        self.assertNoSecret(p.run, STRANGER)

    def test_optional_client_certificates_are_no_refusal(self):
        p = mtls_probe(verify="optional")
        self.assertCheck(p.report, TS, "TS-1", "pass")
        self.assertEqual(p.tls["client_certificate"], {"requested": True, "sent": False})
        self.assertFalse([n for n in p.report["notes"] if "client certificate" in n])
        self.assertTrue(p.requests)

    def test_edition_2_1_0(self):
        p = mtls_probe(edition="2.1.0")
        self.assertCheck(p.report, TLS21, "TS-1", "error", contains=NEEDS_CERT)
        self.assertRule(p.report, TLS21, "error")
        self.assertCheck(p.report, HEADERS21, "TS-5", "error", contains=NEEDS_CERT)


@requires_tls_tools
class HandshakeRefusal(TransportCase):
    """A server that refuses the handshake itself without a client certificate."""

    def run_against(self, server, *args):
        url = "https://127.0.0.1:%d/v1" % server.port
        return harness.run_adrprobe(harness.check_args(url, ["--ca-file", str(server.ca_file)] + list(args)),
                                    timeout=60, env=no_proxy_env())

    def test_tls_1_3_alert_certificate_required(self):
        with RequireClientCertServer() as srv:
            run = self.run_against(srv)
        r = run.json()
        why = NEEDS_CERT + " (TLS alert: certificate required): give --cert and --key"
        self.assertEqual(r["notes"][0], why)
        self.assertIs(r["tls"]["handshake"], False)
        self.assertEqual(r["tls"]["error"], why)
        self.assertEqual(r["tls"]["client_certificate"],
                         {"requested": True, "sent": False, "refused": "TLS alert: certificate required"})
        self.assertCheck(r, TS, "TS-1", "error", contains=(why, "TLSv1.3"))
        # the versions the server negotiated before asking count as accepted
        self.assertEqual(r["tls"]["accepted_protocols"], ["TLSv1.2", "TLSv1.3"])
        self.assertChecks(r, TS, {"TS-2": "pass", "TS-3": "pass", "TS-4": "pass"})
        self.assertRule(r, "/core/version-header", "error")
        # libcurl's transport errors that are this alert carry the same hint
        alerts = [e["error"] for e in r["exchanges"] if e["error"] and "alert" in e["error"]]
        for error in alerts:
            self.assertIn(why, error)
        self.assertEqual(run.rc, 3, run.describe())

    def test_tls_1_2_alert_handshake_failure(self):
        with RequireClientCertServer(max_version=ssl.TLSVersion.TLSv1_2) as srv:
            run = self.run_against(srv)
        r = run.json()
        why = NEEDS_CERT + " (TLS alert: handshake failure): give --cert and --key"
        self.assertEqual(r["notes"][0], why)
        self.assertCheck(r, TS, "TS-1", "error", contains=(why, "TLSv1.2"))
        self.assertEqual(r["tls"]["accepted_protocols"], ["TLSv1.2"])
        self.assertChecks(r, TS, {"TS-2": "pass", "TS-3": "pass", "TS-4": "pass"})

    def test_with_the_client_certificate(self):
        for max_version in (None, ssl.TLSVersion.TLSv1_2):
            with self.subTest(max_version=max_version):
                with RequireClientCertServer(max_version) as srv:
                    run = self.run_against(srv, *cert_args(CLIENT))
                    handshakes = list(srv.handshakes)
                r = run.json()
                self.assertCheck(r, TS, "TS-1", "pass")
                self.assertEqual(r["tls"]["client_certificate"], {"requested": True, "sent": True})
                base = [e for e in r["exchanges"] if e["method"] == "GET" and e["url"].endswith("/v1")]
                self.assertEqual(base[0]["status"], 200, json.dumps(base)[:1000])
                self.assertFalse([n for n in r["notes"] if "client certificate" in n], r["notes"])
                self.assertIn("ok", handshakes)

    def test_a_certificate_the_server_does_not_trust(self):
        with RequireClientCertServer() as srv:
            run = self.run_against(srv, *cert_args(STRANGER))
        r = run.json()
        self.assertCheck(r, TS, "TS-1", "error", contains=(NOT_ACCEPTED, "(TLS alert: unknown CA)",
                                                           "check --cert and --key"))
        self.assertEqual(r["tls"]["client_certificate"]["sent"], True)


@requires_tls_tools
class ClientCertOptions(TransportCase):
    """--cert/--key are checked before any request: exit 2, a clear message, no PEM text."""

    def usage(self, *args):
        run = harness.run_adrprobe(["check", "https://127.0.0.1:9/v1"] + [str(a) for a in args], timeout=30)
        self.assertEqual(run.rc, 2, run.describe())
        self.assertNotIn("-----BEGIN", run.stdout + run.stderr)
        return run.stderr

    def test_both_or_neither(self):
        self.assertIn("--cert needs --key", self.usage("--cert", CLIENT[0]))
        self.assertIn("--key needs --cert", self.usage("--key", CLIENT[1]))

    def test_unreadable_or_not_pem(self):
        self.assertIn("no such file", self.usage("--cert", "/nonexistent/client.pem", "--key", CLIENT[1]))
        with tempfile.NamedTemporaryFile("w", suffix=".pem") as f:
            f.write("not a certificate\n")
            f.flush()
            self.assertIn("not a PEM certificate", self.usage("--cert", f.name, "--key", CLIENT[1]))

    def test_key_of_another_certificate(self):
        err = self.usage("--cert", CLIENT[0], "--key", STRANGER[1])
        self.assertIn("does not belong to the certificate", err)
        for line in Path(STRANGER[1]).read_text().splitlines():
            if not line.startswith("-----"):
                self.assertNotIn(line, err)


# --------------------------------------------------------------------------
# proxies: the handshakes take the way libcurl takes
# --------------------------------------------------------------------------

def verdicts(report):
    return {(r["id"], c["id"]): c["verdict"] for r in report["rules"] for c in r.get("checks", [])}


@requires_tls_tools
class Proxies(TransportCase):
    @classmethod
    def setUpClass(cls):
        cls.srv = NginxTLS("modern", pki=PKI, max_seconds=240).start()

    @classmethod
    def tearDownClass(cls):
        cls.srv.stop()

    def run_with(self, env, *args, fmt="json"):
        a = harness.check_args(self.srv.base_url, ["--ca-file", self.srv.ca_file] + list(args), fmt=fmt)
        return harness.run_adrprobe(a, timeout=60, env=env)

    @property
    def target(self):
        return "127.0.0.1:%d" % self.srv.port

    def test_handshakes_go_through_the_proxy_with_the_same_verdicts(self):
        direct = self.run_with(no_proxy_env()).json()
        self.assertNotIn("proxy", direct["tls"])
        with ConnectProxy() as proxy:
            run = self.run_with(no_proxy_env(https_proxy=proxy.url))
            log = proxy.log()
        r = run.json()
        self.assertEqual(r["tls"]["proxy"], proxy.url)
        self.assertEqual(verdicts(r), verdicts(direct))
        self.assertEqual(r["tls"]["accepted_protocols"], direct["tls"]["accepted_protocols"])
        self.assertEqual(r["tls"]["cipher"], direct["tls"]["cipher"])
        # every connection went to the API through the proxy: the default
        # handshake, one per testable pinned version, and libcurl's own
        handshakes = 1 + sum(1 for p in r["tls"]["protocols"] if p["testable"])
        self.assertGreaterEqual(len(log), handshakes + 1, log)
        for entry in log:
            self.assertEqual((entry["method"], entry["target"], entry["status"]), ("CONNECT", self.target, 200))
            self.assertEqual(entry["headers"].get("Host"), self.target)

    def test_upper_case_and_all_proxy_variables(self):
        for name in ("HTTPS_PROXY", "ALL_PROXY"):
            with self.subTest(variable=name):
                with ConnectProxy() as proxy:
                    run = self.run_with(no_proxy_env(**{name: proxy.url}))
                    log = proxy.log()
                r = run.json()
                self.assertEqual(r["tls"]["proxy"], proxy.url)
                self.assertCheck(r, TS, "TS-1", "pass")
                self.assertTrue(log)

    def test_a_refusing_proxy_is_named_and_is_error(self):
        with ConnectProxy("deny") as proxy:
            run = self.run_with(no_proxy_env(https_proxy=proxy.url))
            text = self.run_with(no_proxy_env(https_proxy=proxy.url), fmt="text")
        r = run.json()
        why = "proxy %s refused CONNECT to %s: 403 Forbidden" % (proxy.url, self.target)
        for cid in ("TS-1", "TS-2", "TS-3", "TS-4"):
            verdict, message = self.assertCheck(r, TS, cid, "error")
            self.assertEqual(message, why)
        self.assertRule(r, TS, "error")
        # libcurl went through the proxy too (no bypass for 127.0.0.1 without no_proxy)
        base = [e for e in r["exchanges"] if e["method"] == "GET" and e["url"].endswith("/v1")]
        self.assertIn("403", base[0]["error"] or "", json.dumps(base[0]))
        self.assertEqual(run.rc, 3, run.describe())
        self.assertIn("via proxy " + proxy.url, text.stdout)
        self.assertIn(why, text.stdout)

    def test_an_unreachable_proxy_is_named(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        run = self.run_with(no_proxy_env(https_proxy="http://127.0.0.1:%d" % port))
        self.assertCheck(run.json(), TS, "TS-1", "error",
                         contains="cannot connect to proxy http://127.0.0.1:%d" % port)

    def test_no_proxy_sends_the_handshakes_direct(self):
        for variable, value in (("no_proxy", "127.0.0.1"), ("NO_PROXY", "localhost, 127.0.0.0/8"), ("no_proxy", "*")):
            with self.subTest(**{variable: value}):
                with ConnectProxy("deny") as proxy:
                    run = self.run_with(no_proxy_env(https_proxy=proxy.url, **{variable: value}))
                    log = proxy.log()
                r = run.json()
                self.assertEqual(log, [])
                self.assertNotIn("proxy", r["tls"])
                self.assertCheck(r, TS, "TS-1", "pass")
                self.assertRule(r, TS, "pass")

    def test_proxy_credentials_are_sent_and_never_shown(self):
        secret = "s3cret-Proxy-pw"
        with ConnectProxy(credentials=("prober", secret)) as proxy:
            url = "http://prober:%s@127.0.0.1:%d" % (secret, proxy.port)
            run = self.run_with(no_proxy_env(https_proxy=url))
            text = self.run_with(no_proxy_env(https_proxy=url), "-v", fmt="text")
            ok_log = proxy.log()
            wrong = self.run_with(no_proxy_env(https_proxy="http://prober:not-the-%s@127.0.0.1:%d" % (secret, proxy.port)))
        r = run.json()
        self.assertCheck(r, TS, "TS-1", "pass")
        self.assertEqual(r["tls"]["proxy"], proxy.url)
        self.assertTrue(ok_log)
        self.assertEqual({e["status"] for e in ok_log}, {200}, ok_log)
        self.assertCheck(wrong.json(), TS, "TS-1", "error",
                         contains=("refused CONNECT", "407 Proxy Authentication Required"))
        for out in (run, text, wrong):
            self.assertNotIn(secret, out.stdout + out.stderr)

    def test_a_socks_proxy_carries_the_handshakes_too(self):
        direct = self.run_with(no_proxy_env()).json()
        for remote_dns in (False, True):
            with self.subTest(remote_dns=remote_dns):
                with SocksProxy(remote_dns=remote_dns) as proxy:
                    run = self.run_with(no_proxy_env(ALL_PROXY=proxy.url))
                    log = proxy.log()
                r = run.json()
                self.assertEqual(r["tls"]["proxy"], proxy.url)
                self.assertEqual(verdicts(r), verdicts(direct))
                handshakes = 1 + sum(1 for p in r["tls"]["protocols"] if p["testable"])
                self.assertGreaterEqual(len(log), handshakes + 1, log)
                self.assertEqual({(e["target"], e["status"]) for e in log}, {(self.target, 0)}, log)

    def test_an_https_proxy_leaves_the_tls_checks_error_with_the_reason(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        run = self.run_with(no_proxy_env(https_proxy="https://127.0.0.1:%d" % port))
        r = run.json()
        for cid in ("TS-1", "TS-2", "TS-3", "TS-4"):
            self.assertCheck(r, TS, cid, "error",
                             contains=("cannot run through an https:// proxy (https://127.0.0.1:%d from https_proxy)"
                                       % port, "the HTTP checks do go through it"))
        self.assertEqual(r["tls"]["proxy"], "https://127.0.0.1:%d" % port)


# --------------------------------------------------------------------------
# connections: libcurl opens them for the handshakes too (--resolve, happy eyeballs)
# --------------------------------------------------------------------------

@requires_tls_tools
class Connections(TransportCase):
    @classmethod
    def setUpClass(cls):
        cls.srv = NginxTLS("modern", pki=PKI, max_seconds=240).start()

    @classmethod
    def tearDownClass(cls):
        cls.srv.stop()

    def run_on(self, host, *args):
        url = "https://%s:%d%s" % (host, self.srv.port, self.srv.fixture.fixture.base)
        a = harness.check_args(url, ["--ca-file", self.srv.ca_file] + list(args))
        return harness.run_adrprobe(a, timeout=90, env=no_proxy_env())

    def test_resolve_with_an_unroutable_first_address_judges_every_tls_check_fast(self):
        # 100::/64 is the IPv6 discard prefix: its address never answers. libcurl
        # races IPv4 after it (happy eyeballs), for the handshakes as for HTTP.
        direct_run = self.run_on("localhost")
        direct = direct_run.json()
        resolve = "localhost:%d:[100::1],127.0.0.1" % self.srv.port
        run = self.run_on("localhost", "--resolve", resolve)
        r = run.json()
        self.assertEqual(run.rc, direct_run.rc, run.describe())
        for cid in ("TS-1", "TS-2", "TS-3", "TS-4"):
            with self.subTest(check=cid):
                expected, _ = harness.check(direct, TS, cid)
                self.assertNotEqual(expected, "error")
                self.assertCheck(r, TS, cid, expected)
        self.assertCheck(r, TS, "TS-1", "pass")
        self.assertEqual(r["tls"]["accepted_protocols"], direct["tls"]["accepted_protocols"])
        # A handshake waiting on the first address takes 10 s (--timeout); the same enumeration
        # without it is the measure (a sanitized build on a loaded machine takes seconds).
        self.assertLess(r["tls"]["duration_ms"], direct["tls"]["duration_ms"] + 8000, r["tls"])
        base = [e for e in r["exchanges"] if e["method"] == "GET" and e["url"].endswith("/v1")]
        self.assertEqual(base[0].get("status"), 200, json.dumps(base[0]))

    def test_resolve_is_taken_by_the_handshakes_and_the_requests(self):
        # An address nothing listens on (127.0.0.2): the handshakes and the requests both go there.
        run = self.run_on("localhost", "--resolve", "localhost:%d:127.0.0.2" % self.srv.port, "--timeout", "3")
        r = run.json()
        self.assertCheck(r, TS, "TS-1", "error",
                         contains="cannot connect to localhost:%d: Connection refused" % self.srv.port)
        base = [e for e in r["exchanges"] if e["method"] == "GET" and e["url"].endswith("/v1")]
        self.assertIn("Connection refused", base[0].get("error") or "", json.dumps(base[0]))

    def test_a_resolve_entry_libcurl_cannot_read_is_a_usage_error(self):
        run = harness.run_adrprobe(["check", "https://localhost:9/v1", "--resolve", "localhost:443"])
        self.assertEqual(run.rc, 2, run.describe())
        self.assertIn("--resolve 'localhost:443'", run.stderr)


class FixturePort(unittest.TestCase):
    """The TLS front itself: a port another process answers on (it took the port between
    the free-port probe and nginx's bind) is not taken for nginx's."""

    def test_nginx_moves_off_a_port_another_process_answers_on(self):
        with socket.socket() as taker:
            taker.bind(("127.0.0.1", 0))
            taker.listen(1)
            taken = taker.getsockname()[1]
            offered = iter([taken])
            real = tls_fixture._free_port
            tls_fixture._free_port = lambda: next(offered, None) or real()
            self.addCleanup(setattr, tls_fixture, "_free_port", real)
            front = tls_fixture.NginxTLS("modern", max_seconds=120).start()
            self.addCleanup(front.stop)
            self.assertNotEqual(front.port, taken)
            self.assertIs(harness.session_listens(front.port, front.proc.pid), True)

if __name__ == "__main__":
    harness.main()
