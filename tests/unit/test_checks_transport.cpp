// TS-1..TS-7 (transport security) on hand-made TLS facts and responses.
#include <fmt/format.h>

#include "fake_run.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;

namespace {


RequestSpec transport_base_get(const std::string& base = kBase) { return engine::probe_request("GET", base); }

tls::Certificate certificate(const std::string& subject, const std::string& issuer, long days_left = 200) {
  tls::Certificate c;
  c.subject = subject;
  c.issuer = issuer;
  c.not_after = "2030-01-01T00:00:00Z";
  c.days_left = days_left;
  c.key = "EC P-256";
  c.key_type = "EC";
  c.key_bits = 256;
  c.curve = "prime256v1";
  c.signature = "ecdsa-with-SHA256";
  return c;
}

tls::Protocol protocol(const std::string& name, bool accepted, bool testable = true) {
  tls::Protocol p;
  p.name = name;
  p.testable = testable;
  p.accepted = accepted;
  p.connected = testable;
  if (!accepted) p.error = "tlsv1 alert protocol version";
  return p;
}

// A well configured server: TLS 1.2 and 1.3, a good cipher and group, a trusted EC certificate.
tls::Facts good_tls() {
  tls::Facts t;
  t.host = "api.example.nl";
  t.port = 443;
  t.connected = true;
  t.handshake_ok = true;
  t.protocol = "TLSv1.3";
  t.cipher = "TLS_AES_256_GCM_SHA384";
  t.group = "x25519";
  t.trusted = true;
  t.chain = {certificate("CN=api.example.nl", "CN=Example CA"), certificate("CN=Example CA", "CN=Example Root", 2000)};
  t.protocols = {protocol("SSLv3", false), protocol("TLSv1", false), protocol("TLSv1.1", false),
                 protocol("TLSv1.2", true), protocol("TLSv1.3", true)};
  return t;
}

FakeRun tls_run(const tls::Facts& facts) {
  FakeRun run;
  run.ev.tls = facts;
  return run;
}

void accept(tls::Facts& t, const std::string& name, bool accepted) {
  for (auto& p : t.protocols)
    if (p.name == name) p.accepted = accepted;
}

// The security headers TS-6 asks for, all present.
std::map<std::string, std::string> secure_headers() {
  return {{"cache-control", "no-store"},
          {"content-security-policy", "frame-ancestors 'none'"},
          {"x-content-type-options", "nosniff"},
          {"x-frame-options", "DENY"},
          {"content-type", "application/json"}};
}

// TS-7's request: a GET with the run's Origin.
RequestSpec cors(const FakeRun& run, const std::string& url) {
  RequestSpec r = engine::probe_request("GET", url);
  r.extra_headers = {{"Origin", run.ev.origin}};
  return r;
}

}  // namespace

// ---- TS-1 -------------------------------------------------------------------

TEST_CASE("TS-1: https with a trusted certificate passes") {
  auto run = tls_run(good_tls());
  expect(run.judge("TS-1"), Verdict::pass,
         {"TLSv1.3 handshake with api.example.nl:443", "the certificate verifies for api.example.nl"});
}

TEST_CASE("TS-1: an http base URL fails") {
  FakeRun run("http://api.example.nl/v1");
  CHECK_FALSE(run.ev.https);
  expect(run.judge("TS-1"), Verdict::fail, {"the base URL is http://"});
}

TEST_CASE("TS-1: an untrusted certificate fails, also when --insecure lets the run go on") {
  tls::Facts t = good_tls();
  t.trusted = false;
  t.trust_error = "certificate has expired";
  auto run = tls_run(t);
  expect(run.judge("TS-1"), Verdict::fail, {"the certificate of api.example.nl:443 is not trusted: certificate has expired"});

  run.ev.settings.insecure = true;
  expect(run.judge("TS-1"), Verdict::fail, {"is not trusted", "(--insecure: the run went on)"});

  tls::Facts host = good_tls();
  host.trusted = false;
  host.trust_error = "Hostname mismatch";
  expect(tls_run(host).judge("TS-1"), Verdict::fail, {"Hostname mismatch"});
}

TEST_CASE("TS-1: a failed handshake fails") {
  tls::Facts t = good_tls();
  t.handshake_ok = false;
  t.error = "sslv3 alert handshake failure";
  expect(tls_run(t).judge("TS-1"), Verdict::fail, {"TLS handshake with api.example.nl:443 failed: sslv3 alert handshake failure"});
}

TEST_CASE("TS-1: no TLS answer (silent, or no connection) is error, not fail") {
  tls::Facts silent = good_tls();
  silent.handshake_ok = false;
  silent.silent = true;
  silent.error = "timed out waiting for ServerHello";
  expect(tls_run(silent).judge("TS-1"), Verdict::error, {"no TLS answer from api.example.nl:443: timed out"});

  tls::Facts refused;
  refused.host = "api.example.nl";
  refused.error = "Connection refused";
  expect(tls_run(refused).judge("TS-1"), Verdict::error, {"Connection refused"});

  FakeRun none;  // the handshakes did not run
  expect(none.judge("TS-1"), Verdict::error, {"did not run"});
}

TEST_CASE("TS-1: a server that requires a client certificate not given is error, not fail") {
  // refused in the handshake (TLS alert): what it negotiated is in the facts
  tls::Facts t = good_tls();
  t.handshake_ok = false;
  t.client_cert_requested = true;
  t.client_cert_refusal = "TLS alert: certificate required";
  t.error = "the server requires a client certificate (TLS alert: certificate required): give --cert and --key";
  expect(tls_run(t).judge("TS-1"), Verdict::error,
         {"the server requires a client certificate (TLS alert: certificate required): give --cert and --key",
          "TLSv1.3 with api.example.nl:443", "the certificate verifies for api.example.nl"});

  // handshake completed, refused over HTTP (nginx's 400): the engine's finding
  tls::Facts ok = good_tls();
  ok.client_cert_requested = true;
  auto run = tls_run(ok);
  run.ev.client_cert_stop = "the server requires a client certificate (400 No required SSL certificate was sent): give --cert and --key";
  expect(run.judge("TS-1"), Verdict::error, {"(400 No required SSL certificate was sent): give --cert and --key"});

  // asked for one but the API answered (optional client certificates): pass
  expect(tls_run(ok).judge("TS-1"), Verdict::pass);
}

TEST_CASE("TS-1: an untrusted certificate still fails when a client certificate is also wanted") {
  tls::Facts t = good_tls();
  t.handshake_ok = false;
  t.trusted = false;
  t.trust_error = "unable to get local issuer certificate";
  t.client_cert_requested = true;
  t.client_cert_refusal = "TLS alert: certificate required";
  t.error = "the server requires a client certificate (TLS alert: certificate required): give --cert and --key";
  expect(tls_run(t).judge("TS-1"), Verdict::fail,
         {"is not trusted: unable to get local issuer certificate", "also, the server requires a client certificate"});
}

TEST_CASE("TS-1..TS-4: a proxy that refuses the tunnel is error, in the proxy's words") {
  tls::Facts t;
  t.host = "api.example.nl";
  t.proxy = "http://proxy.example.nl:3128";
  t.proxy_failed = true;
  t.error = "proxy http://proxy.example.nl:3128 refused CONNECT to api.example.nl:443: 403 Forbidden";
  for (auto& p : t.protocols) p.connected = false;
  auto run = tls_run(t);
  for (const char* id : {"TS-1", "TS-2", "TS-3", "TS-4"}) {
    auto r = run.judge(id);
    INFO(id);
    CHECK(r.verdict == Verdict::error);
    CHECK(r.message == t.error);
  }
}

TEST_CASE("TS-3, TS-4: judged from a handshake refused only over the client certificate") {
  tls::Facts t = good_tls();
  t.handshake_ok = false;
  t.client_cert_requested = true;
  t.client_cert_refusal = "TLS alert: certificate required";
  t.error = "the server requires a client certificate (TLS alert: certificate required): give --cert and --key";
  auto run = tls_run(t);
  expect(run.judge("TS-3"), Verdict::pass, {"TLSv1.3 negotiated TLS_AES_256_GCM_SHA384: good", "key exchange x25519"});
  expect(run.judge("TS-4"), Verdict::pass, {"CN=api.example.nl"});
  expect(run.judge("TS-2"), Verdict::pass, {"accepts TLSv1.2, TLSv1.3"});
}

// ---- TS-2 -------------------------------------------------------------------

TEST_CASE("TS-2: TLS 1.2 and 1.3 only pass") {
  auto r = tls_run(good_tls()).judge("TS-2");
  expect(r, Verdict::pass, {"accepts TLSv1.2, TLSv1.3"});
}

TEST_CASE("TS-2: TLS 1.0 or 1.1 accepted warns (phase out)") {
  tls::Facts t = good_tls();
  accept(t, "TLSv1", true);
  accept(t, "TLSv1.1", true);
  expect(tls_run(t).judge("TS-2"), Verdict::warn,
         {"TLSv1 accepted (phase out)", "TLSv1.1 accepted (phase out)", "accepted: TLSv1, TLSv1.1, TLSv1.2, TLSv1.3"});
}

TEST_CASE("TS-2: SSL 3.0 accepted fails (insufficient)") {
  tls::Facts t = good_tls();
  accept(t, "SSLv3", true);
  expect(tls_run(t).judge("TS-2"), Verdict::fail, {"SSLv3 accepted (insufficient)"});
}

TEST_CASE("TS-2: neither TLS 1.2 nor 1.3 accepted fails") {
  tls::Facts t = good_tls();
  accept(t, "TLSv1.2", false);
  accept(t, "TLSv1.3", false);
  accept(t, "TLSv1", true);
  expect(tls_run(t).judge("TS-2"), Verdict::fail, {"neither TLS 1.2 nor TLS 1.3 is accepted", "TLSv1 accepted (phase out)"});

  tls::Facts only_13 = good_tls();  // TLS 1.3 alone is fine
  accept(only_13, "TLSv1.2", false);
  expect(tls_run(only_13).judge("TS-2"), Verdict::pass, {"accepts TLSv1.3"});
}

TEST_CASE("TS-2: a version this OpenSSL build cannot offer is noted, not judged") {
  tls::Facts t = good_tls();
  t.protocols[0] = protocol("SSLv3", false, false);
  auto r = tls_run(t).judge("TS-2");
  expect(r, Verdict::pass, {"accepts TLSv1.2, TLSv1.3", "(SSLv3 not testable with this OpenSSL build)"});
}

TEST_CASE("TS-2: http is skip; no TLS answer to any handshake is error") {
  FakeRun http("http://api.example.nl/v1");
  expect(http.judge("TS-2"), Verdict::skip, {"http://"});

  tls::Facts silent = good_tls();
  silent.handshake_ok = false;
  silent.error = "Connection timed out";
  for (auto& p : silent.protocols) p.accepted = false, p.silent = true;
  expect(tls_run(silent).judge("TS-2"), Verdict::error, {"no TLS answer from api.example.nl:443"});
}

TEST_CASE("TS-2: a version the run's deadline left unprobed is error, and no fail is claimed for it") {
  tls::Facts t = good_tls();
  auto cut = [](tls::Protocol& p) {
    p.accepted = false;
    p.error = "deadline reached";
    p.deadline_reached = true;
  };
  cut(t.protocols[1]);  // TLSv1
  expect(tls_run(t).judge("TS-2"), Verdict::error, {"deadline reached before TLSv1 could be probed", "accepted: TLSv1.2, TLSv1.3"});
  // TLS 1.2 and 1.3 unknown: "neither is accepted" is not known either
  accept(t, "TLSv1.3", false);
  cut(t.protocols[3]);  // TLSv1.2
  auto r = tls_run(t).judge("TS-2");
  expect(r, Verdict::error, {"deadline reached before TLSv1, TLSv1.2 could be probed"});
  CHECK(r.message.find("neither") == std::string::npos);
  // a version found insufficient fails whatever the deadline left unknown
  accept(t, "SSLv3", true);
  expect(tls_run(t).judge("TS-2"), Verdict::fail, {"SSLv3 accepted (insufficient)", "deadline reached before TLSv1, TLSv1.2"});
}

// ---- TS-3 -------------------------------------------------------------------

TEST_CASE("TS-3: good and sufficient cipher suites pass") {
  auto good = tls_run(good_tls()).judge("TS-3");
  expect(good, Verdict::pass, {"TLSv1.3 negotiated TLS_AES_256_GCM_SHA384: good", "key exchange x25519: good"});

  tls::Facts t = good_tls();
  t.protocol = "TLSv1.2";
  t.cipher = "ECDHE-RSA-AES128-SHA";
  t.group = "prime256v1";
  expect(tls_run(t).judge("TS-3"), Verdict::pass, {"ECDHE-RSA-AES128-SHA: sufficient"});
}

TEST_CASE("TS-3: a phase-out cipher warns, an insufficient one fails") {
  for (const char* cipher : {"AES128-GCM-SHA256", "DES-CBC3-SHA", "ECDHE-RSA-DES-CBC3-SHA"}) {
    CAPTURE(cipher);
    tls::Facts t = good_tls();
    t.protocol = "TLSv1.2";
    t.cipher = cipher;
    expect(tls_run(t).judge("TS-3"), Verdict::warn, {std::string(cipher) + ": phase out"});
  }
  for (const char* cipher : {"RC4-SHA", "NULL-SHA256", "EXP-RC4-MD5", "ADH-AES128-SHA", "SOMETHING-NEW"}) {
    CAPTURE(cipher);
    tls::Facts t = good_tls();
    t.protocol = "TLSv1.2";
    t.cipher = cipher;
    expect(tls_run(t).judge("TS-3"), Verdict::fail, {std::string(cipher) + ": insufficient"});
  }
}

TEST_CASE("TS-3: a key exchange group worse than the cipher counts") {
  tls::Facts t = good_tls();
  t.protocol = "TLSv1.2";
  t.cipher = "DHE-RSA-AES128-GCM-SHA256";  // sufficient
  t.group = "ffdhe2048";                   // phase out
  expect(tls_run(t).judge("TS-3"), Verdict::warn, {"DHE-RSA-AES128-GCM-SHA256: sufficient", "key exchange ffdhe2048: phase out"});

  t.group = "ffdhe1024";  // insufficient
  expect(tls_run(t).judge("TS-3"), Verdict::fail, {"key exchange ffdhe1024: insufficient"});

  t.group = "ffdhe3072";
  expect(tls_run(t).judge("TS-3"), Verdict::pass);
}

TEST_CASE("TS-3: when the default handshake failed, the fallback (pinned) cipher is judged") {
  tls::Facts t = good_tls();
  t.handshake_ok = false;
  t.error = "unsupported protocol";
  t.fallback_protocol = "TLSv1";
  t.fallback_cipher = "ECDHE-RSA-AES256-SHA";
  expect(tls_run(t).judge("TS-3"), Verdict::pass,
         {"TLSv1 negotiated ECDHE-RSA-AES256-SHA: sufficient", "(the default handshake failed: unsupported protocol)"});

  t.fallback_cipher = "AES256-SHA";
  expect(tls_run(t).judge("TS-3"), Verdict::warn, {"AES256-SHA: phase out"});

  t.fallback_cipher.clear();  // no pinned handshake either
  expect(tls_run(t).judge("TS-3"), Verdict::error, {"no TLS handshake with api.example.nl:443: unsupported protocol"});
}

// ---- TS-3: every accepted suite ---------------------------------------------

namespace {

tls::Suite ts3_suite(const std::string& name, const std::string& kx) { return tls::Suite{name, kx, "", ""}; }

FakeRun ts3_run(const tls::Facts& facts, const std::string& edition = "2.0.0") {
  FakeRun run("https://api.example.nl/v1", edition);
  run.ev.tls = facts;
  return run;
}

// good_tls() with its accepted suites enumerated: TLS 1.3 three suites, TLS 1.2 two ECDHE-GCM.
tls::Facts enumerated_tls() {
  tls::Facts t = good_tls();
  for (auto& p : t.protocols) {
    if (p.name == "TLSv1.3")
      p.suites = {ts3_suite("TLS_AES_256_GCM_SHA384", "x25519"), ts3_suite("TLS_CHACHA20_POLY1305_SHA256", "x25519"),
                  ts3_suite("TLS_AES_128_GCM_SHA256", "x25519")};
    if (p.name == "TLSv1.2")
      p.suites = {ts3_suite("ECDHE-ECDSA-AES256-GCM-SHA384", "x25519"), ts3_suite("ECDHE-ECDSA-AES128-GCM-SHA256", "x25519")};
  }
  return t;
}

tls::Protocol& version_of(tls::Facts& t, const std::string& name) {
  for (auto& p : t.protocols)
    if (p.name == name) return p;
  FAIL("no protocol " << name);
  return t.protocols.front();
}

}  // namespace

TEST_CASE("TS-3: every accepted suite good or sufficient passes, with the counts per version") {
  expect(ts3_run(enumerated_tls()).judge("TS-3"), Verdict::pass,
         {"TLSv1.3 negotiated TLS_AES_256_GCM_SHA384: good", "5 suites accepted (TLSv1.2 2, TLSv1.3 3)",
          "every one good or sufficient", "key exchange x25519"});
  // 2.2.0 (NCSC 2025-05): TLS_AES_128_GCM_SHA256 and ECDHE-GCM are sufficient: still pass.
  expect(ts3_run(enumerated_tls(), "2.2.0").judge("TS-3"), Verdict::pass, {"every one good or sufficient"});
}

TEST_CASE("TS-3: a server that prefers a good suite but still accepts 3DES or static RSA does not pass") {
  tls::Facts t = enumerated_tls();
  auto& v12 = version_of(t, "TLSv1.2");
  v12.suites.push_back(ts3_suite("AES128-SHA", ""));  // static RSA: no ephemeral key
  v12.suites.push_back(ts3_suite("DES-CBC3-SHA", ""));
  // 2.0.0 (NCSC 2.1): static RSA and 3DES are phase out
  expect(ts3_run(t).judge("TS-3"), Verdict::warn,
         {"TLSv1.3 negotiated TLS_AES_256_GCM_SHA384: good", "phase out: AES128-SHA (TLSv1.2), DES-CBC3-SHA (TLSv1.2)"});
  // 2.2.0 (NCSC 2025-05): both insufficient
  expect(ts3_run(t, "2.2.0").judge("TS-3"), Verdict::fail, {"insufficient: AES128-SHA (TLSv1.2), DES-CBC3-SHA (TLSv1.2)"});
}

TEST_CASE("TS-3: suites are judged for every accepted version, also when the default handshake failed") {
  tls::Facts t = good_tls();
  t.handshake_ok = false;
  t.error = "unsupported protocol";
  t.protocols = {protocol("TLSv1", true), protocol("TLSv1.2", false), protocol("TLSv1.3", false)};
  t.protocols[0].suites = {ts3_suite("ECDHE-RSA-AES256-SHA", "x25519"), ts3_suite("AES256-SHA", "")};
  expect(ts3_run(t).judge("TS-3"), Verdict::warn,
         {"the default handshake failed (unsupported protocol)", "2 suites accepted (TLSv1 2)", "phase out: AES256-SHA (TLSv1)"});
  // The same suite with two versions is named once, with both.
  t.protocols[1] = protocol("TLSv1.2", true);
  t.protocols[1].suites = {ts3_suite("AES256-SHA", "")};
  expect(ts3_run(t).judge("TS-3"), Verdict::warn, {"phase out: AES256-SHA (TLSv1, TLSv1.2)"});
}

TEST_CASE("TS-3: the key exchange chosen for a suite counts, per suite") {
  tls::Facts t = enumerated_tls();
  version_of(t, "TLSv1.2").suites.push_back(ts3_suite("DHE-RSA-AES128-GCM-SHA256", "ffdhe2048"));
  // 2.1: the suite is sufficient, ffdhe2048 phase out
  expect(ts3_run(t).judge("TS-3"), Verdict::warn,
         {"key exchange phase out: ffdhe2048 (TLSv1.2 DHE-RSA-AES128-GCM-SHA256)"});
  // DH parameters that are no RFC 7919 group: insufficient whatever their size
  version_of(t, "TLSv1.2").suites.back().kx = "modp_4096";
  expect(ts3_run(t).judge("TS-3"), Verdict::fail, {"key exchange insufficient: modp_4096"});
  version_of(t, "TLSv1.2").suites.back().kx = "DH-3072";
  expect(ts3_run(t, "2.2.0").judge("TS-3"), Verdict::fail,
         {"phase out: DHE-RSA-AES128-GCM-SHA256 (TLSv1.2)", "key exchange insufficient: DH-3072"});
  // 2025-05: ffdhe3072 and up phase out, a classic ECDHE curve sufficient, the hybrid group good
  version_of(t, "TLSv1.2").suites.back().kx = "ffdhe3072";
  expect(ts3_run(t, "2.2.0").judge("TS-3"), Verdict::warn, {"key exchange phase out: ffdhe3072"});
  version_of(t, "TLSv1.2").suites.pop_back();
  for (auto& s : version_of(t, "TLSv1.3").suites) s.kx = "X25519MLKEM768";
  expect(ts3_run(t, "2.2.0").judge("TS-3"), Verdict::pass, {"key exchange x25519, X25519MLKEM768 too"});
}

TEST_CASE("TS-3: many offending suites are cut with a count; an early stop and untestable suites are said") {
  tls::Facts t = enumerated_tls();
  auto& v12 = version_of(t, "TLSv1.2");
  for (int i = 0; i < 12; ++i) v12.suites.push_back(ts3_suite(fmt::format("WEAK-{}", i), ""));
  v12.suites_complete = false;
  t.offered = {"TLS_AES_256_GCM_SHA384", "ECDHE-ECDSA-AES256-GCM-SHA384"};
  auto r = ts3_run(t).judge("TS-3");
  expect(r, Verdict::fail,
         {"insufficient: WEAK-0 (TLSv1.2)", "WEAK-7 (TLSv1.2), and 4 more", "enumeration of TLSv1.2 stopped early",
          "not tested (this OpenSSL cannot offer them): "});
  CHECK(r.message.find("WEAK-8") == std::string::npos);
  CHECK(r.message.find("ECDHE-ECDSA-AES256-GCM-SHA384,") == std::string::npos);  // it was offered
}

TEST_CASE("TS-3: an enumeration the run's deadline cut is error, not a partial pass; a fail found stands") {
  tls::Facts t = enumerated_tls();
  auto& v12 = version_of(t, "TLSv1.2");
  v12.suites_complete = false;
  v12.deadline_reached = true;
  auto r = ts3_run(t).judge("TS-3");
  expect(r, Verdict::error,
         {"deadline reached: the enumeration of TLSv1.2 did not finish, more suites may be accepted; TLSv1.3 negotiated",
          "every one good or sufficient"});
  CHECK(r.message.find("stopped early") == std::string::npos);  // said once, as the deadline
  version_of(t, "TLSv1").deadline_reached = true;  // its pinned handshake cut: not known
  expect(ts3_run(t).judge("TS-3"), Verdict::error,
         {"deadline reached: the enumeration of TLSv1.2 did not finish; TLSv1 could not be probed"});
  // an insufficient suite found fails whatever else the server accepts; the deadline is said after it
  v12.suites.push_back(ts3_suite("RC4-SHA", ""));
  expect(ts3_run(t).judge("TS-3"), Verdict::fail, {"insufficient: RC4-SHA (TLSv1.2)", "(NCSC guidelines); deadline reached"});
}

TEST_CASE("TS-3: the negotiated suite alone is no pass when the deadline cut the versions' handshakes") {
  tls::Facts t = good_tls();  // no suites enumerated: the negotiated suite is judged
  expect(ts3_run(t).judge("TS-3"), Verdict::pass, {"TLSv1.3 negotiated TLS_AES_256_GCM_SHA384: good"});
  for (auto& p : t.protocols) p.accepted = false, p.deadline_reached = true, p.error = "deadline reached";
  expect(ts3_run(t).judge("TS-3"), Verdict::error,
         {"deadline reached: SSLv3, TLSv1, TLSv1.1, TLSv1.2, TLSv1.3 could not be probed", "negotiated TLS_AES_256_GCM_SHA384"});
}

TEST_CASE("TS-1, TS-3, TS-4: a default handshake the deadline cut is error, saying so") {
  tls::Facts t = good_tls();
  t.handshake_ok = false;
  t.connected = false;
  t.error = "deadline reached";
  t.deadline_reached = true;
  t.protocol.clear();
  t.cipher.clear();
  t.chain.clear();
  expect(tls_run(t).judge("TS-1"), Verdict::error, {"deadline reached"});
  expect(tls_run(t).judge("TS-3"), Verdict::error, {"deadline reached"});
  expect(tls_run(t).judge("TS-4"), Verdict::error, {"deadline reached"});
}

TEST_CASE("TS-3: http is skip") {
  FakeRun http("http://api.example.nl/v1");
  expect(http.judge("TS-3"), Verdict::skip, {"http://"});
}

// ---- TS-4 -------------------------------------------------------------------

TEST_CASE("TS-4: a certificate valid beyond 14 days passes, with its facts") {
  auto r = tls_run(good_tls()).judge("TS-4");
  expect(r, Verdict::pass,
         {"valid until 2030-01-01T00:00:00Z (200 days left)", "subject CN=api.example.nl", "issuer CN=Example CA",
          "EC P-256", "ecdsa-with-SHA256"});
}

TEST_CASE("TS-4: expiring within 14 days warns with the days left; expired warns") {
  tls::Facts soon = good_tls();
  soon.chain[0].days_left = 13;
  expect(tls_run(soon).judge("TS-4"), Verdict::warn, {"expires in 13 days (2030-01-01T00:00:00Z)", "subject CN=api.example.nl"});

  tls::Facts today = good_tls();
  today.chain[0].days_left = 0;
  expect(tls_run(today).judge("TS-4"), Verdict::warn, {"expires in 0 days"});

  tls::Facts expired = good_tls();
  expired.chain[0].days_left = -3;
  expect(tls_run(expired).judge("TS-4"), Verdict::warn, {"expired 3 days ago", "issuer CN=Example CA"});
}

TEST_CASE("TS-4: an RSA key below 2048 bits fails") {
  tls::Facts t = good_tls();
  t.chain[0].key = "RSA 1024";
  t.chain[0].key_type = "RSA";
  t.chain[0].key_bits = 1024;
  t.chain[0].signature = "sha256WithRSAEncryption";
  expect(tls_run(t).judge("TS-4"), Verdict::fail,
         {"insufficient after the NCSC guidelines", "CN=api.example.nl: RSA 1024 bits (below 2048)", "RSA 1024"});

  t.chain[0].key = "RSA 2048";
  t.chain[0].key_bits = 2048;
  expect(tls_run(t).judge("TS-4"), Verdict::pass);
}

TEST_CASE("TS-4 in 2.2.0 (NCSC 2025-05): RSA 2048-3071 bits, EC P-224 and SHA-224 are phase out") {
  tls::Facts t = good_tls();
  t.chain[0].key = "RSA 2048";
  t.chain[0].key_type = "RSA";
  t.chain[0].key_bits = 2048;
  t.chain[0].signature = "sha256WithRSAEncryption";
  expect(ts3_run(t, "2.2.0").judge("TS-4"), Verdict::warn,
         {"phase out after the NCSC guidelines: CN=api.example.nl: RSA 2048 bits (below 3072)", "valid until"});
  t.chain[0].key_bits = 3072;
  expect(ts3_run(t, "2.2.0").judge("TS-4"), Verdict::pass);
  t.chain[0].key_bits = 1024;
  expect(ts3_run(t, "2.2.0").judge("TS-4"), Verdict::fail, {"RSA 1024 bits (below 2048)"});

  tls::Facts ec = good_tls();
  ec.chain[0].curve = "secp224r1";
  expect(ts3_run(ec, "2.2.0").judge("TS-4"), Verdict::warn, {"EC key on secp224r1"});
  expect(ts3_run(ec).judge("TS-4"), Verdict::pass);  // 2.1 has no such band

  // A curve 2025-05 does not name is insufficient there (probes/ncsc-tls-2025-05.yaml);
  // the 2021 guidelines give it no band, so 2.1 does not judge it.
  ec.chain[0].curve = "secp256k1";
  expect(ts3_run(ec, "2.2.0").judge("TS-4"), Verdict::fail,
         {"insufficient after the NCSC guidelines", "EC key on secp256k1 (a curve the guidelines do not name)"});
  expect(ts3_run(ec).judge("TS-4"), Verdict::pass);
  for (const char* named : {"prime256v1", "secp384r1", "secp521r1", "brainpoolP256r1", "brainpoolP512r1"}) {
    ec.chain[0].curve = named;
    CAPTURE(named);
    expect(ts3_run(ec, "2.2.0").judge("TS-4"), Verdict::pass);
  }
  ec.chain[0].curve = "";  // explicit parameters of no named curve
  expect(ts3_run(ec, "2.2.0").judge("TS-4"), Verdict::fail, {"CN=api.example.nl: EC key on an unnamed curve"});
  expect(ts3_run(ec).judge("TS-4"), Verdict::pass);

  tls::Facts sha224 = good_tls();
  sha224.chain[1].signature = "ecdsa-with-SHA224";  // the intermediate
  expect(ts3_run(sha224, "2.2.0").judge("TS-4"), Verdict::warn, {"CN=Example CA: signed with ecdsa-with-SHA224"});
  sha224.chain[1].signature = "sha1WithRSAEncryption";  // insufficient wins, said once
  auto r = ts3_run(sha224, "2.2.0").judge("TS-4");
  expect(r, Verdict::fail, {"CN=Example CA: signed with sha1WithRSAEncryption"});
  CHECK(r.message.find("phase out") == std::string::npos);

  tls::Facts expiring = good_tls();
  expiring.chain[0].days_left = 3;
  expiring.chain[0].key_type = "RSA";
  expiring.chain[0].key_bits = 2048;
  expect(ts3_run(expiring, "2.2.0").judge("TS-4"), Verdict::warn, {"expires in 3 days", "phase out after the NCSC guidelines"});
}

TEST_CASE("TS-4: a SHA-1 or MD5 signature on the leaf or an intermediate fails; a root's self-signature does not count") {
  tls::Facts leaf = good_tls();
  leaf.chain[0].signature = "sha1WithRSAEncryption";
  expect(tls_run(leaf).judge("TS-4"), Verdict::fail, {"CN=api.example.nl: signed with sha1WithRSAEncryption"});

  tls::Facts intermediate = good_tls();
  intermediate.chain[1].signature = "md5WithRSAEncryption";
  expect(tls_run(intermediate).judge("TS-4"), Verdict::fail, {"CN=Example CA: signed with md5WithRSAEncryption"});

  tls::Facts root = good_tls();
  tls::Certificate self = certificate("CN=Example Root", "CN=Example Root", 5000);
  self.signature = "sha1WithRSAEncryption";
  root.chain.push_back(self);
  expect(tls_run(root).judge("TS-4"), Verdict::pass);
}

TEST_CASE("TS-4: no certificate is error; the pinned chain is judged when the default handshake failed; http is skip") {
  tls::Facts empty = good_tls();
  empty.chain.clear();
  expect(tls_run(empty).judge("TS-4"), Verdict::error, {"sent no certificate"});

  tls::Facts pinned = good_tls();
  pinned.handshake_ok = false;
  pinned.error = "unsupported protocol";
  pinned.chain[0].days_left = 5;
  expect(tls_run(pinned).judge("TS-4"), Verdict::warn, {"expires in 5 days"});

  FakeRun http("http://api.example.nl/v1");
  expect(http.judge("TS-4"), Verdict::skip, {"http://"});
}

// ---- TS-5 -------------------------------------------------------------------

TEST_CASE("TS-5: Strict-Transport-Security with max-age of at least a year passes") {
  for (const char* hsts : {"max-age=31536000", "max-age=63072000; includeSubDomains; preload", "includeSubDomains; Max-Age=\"31536000\""}) {
    CAPTURE(hsts);
    FakeRun run;
    int id = run.respond(transport_base_get(), 200, {{"strict-transport-security", hsts}});
    auto r = run.judge("TS-5");
    expect(r, Verdict::pass, {std::string("Strict-Transport-Security: ") + hsts});
    CHECK(r.exchanges == std::vector<int>{id});
  }
}

TEST_CASE("TS-5: a shorter max-age, none, or no header warns; with missing=fail it fails") {
  struct Case {
    std::map<std::string, std::string> headers;
    const char* says;
  };
  for (const auto& c : std::vector<Case>{{{{"strict-transport-security", "max-age=31535999"}}, "max-age=31535999 is less than a year"},
                                         {{{"strict-transport-security", "max-age=0"}}, "less than a year"},
                                         {{{"strict-transport-security", "includeSubDomains"}}, "has no max-age"},
                                         {{}, "GET /v1 → 200 without Strict-Transport-Security"}}) {
    CAPTURE(c.says);
    FakeRun run;
    int id = run.respond(transport_base_get(), 200, c.headers);
    auto r = run.judge("TS-5");
    expect(r, Verdict::warn, {c.says});
    CHECK(r.exchanges == std::vector<int>{id});
    expect(run.judge("TS-5", {{"missing", "fail"}}), Verdict::fail, {c.says});
  }
}

TEST_CASE("TS-5: an http base URL is judged like any other") {
  FakeRun run("http://api.example.nl/v1");
  run.respond(transport_base_get("http://api.example.nl/v1"), 200);
  expect(run.judge("TS-5"), Verdict::warn, {"without Strict-Transport-Security"});
}

TEST_CASE("TS-5: a transport error is error; a base GET that was not sent is error") {
  FakeRun down;
  down.fail(transport_base_get(), "Connection refused");
  expect(down.judge("TS-5"), Verdict::error, {"Connection refused"});
  FakeRun unsent;
  expect(unsent.judge("TS-5"), Verdict::error, {"was not sent"});
}

// ---- TS-6 -------------------------------------------------------------------

TEST_CASE("TS-6: all security headers present passes") {
  FakeRun run;
  int id = run.respond(transport_base_get(), 200, secure_headers());
  auto r = run.judge("TS-6");
  expect(r, Verdict::pass, {"Cache-Control no-store"});
  CHECK(r.exchanges == std::vector<int>{id});

  FakeRun variants;  // tokens among others, case-insensitive values, CSP among other directives
  auto h = secure_headers();
  h["cache-control"] = "no-cache, no-store, must-revalidate";
  h["content-security-policy"] = "default-src 'none'; frame-ancestors 'none'";
  h["x-frame-options"] = "deny";
  variants.respond(transport_base_get(), 200, h);
  expect(variants.judge("TS-6"), Verdict::pass);
}

TEST_CASE("TS-6: several missing headers cite the base URL response once") {
  FakeRun run;
  int id = run.respond(transport_base_get(), 200);
  auto r = run.judge("TS-6");
  expect(r, Verdict::warn, {"no Cache-Control: no-store", "no X-Frame-Options: DENY"});
  CHECK(r.exchanges == std::vector<int>{id});
}

TEST_CASE("TS-6: each missing header warns, named; with missing=fail it fails") {
  struct Case {
    const char* header;
    const char* says;
  };
  for (const auto& c : std::vector<Case>{{"cache-control", "no Cache-Control: no-store"},
                                         {"content-security-policy", "no Content-Security-Policy (frame-ancestors 'none')"},
                                         {"x-content-type-options", "no X-Content-Type-Options: nosniff"},
                                         {"x-frame-options", "no X-Frame-Options: DENY"},
                                         {"content-type", "no Content-Type"}}) {
    CAPTURE(c.header);
    FakeRun run;
    auto h = secure_headers();
    h.erase(c.header);
    int id = run.respond(transport_base_get(), 200, h);
    auto r = run.judge("TS-6");
    expect(r, Verdict::warn, {std::string("GET /v1 → 200: ") + c.says});
    CHECK(r.exchanges == std::vector<int>{id});
    expect(run.judge("TS-6", {{"missing", "fail"}}), Verdict::fail, {c.says});
  }
  FakeRun bare;
  bare.respond(transport_base_get(), 200);
  auto r = bare.judge("TS-6");
  expect(r, Verdict::warn, {"no Cache-Control", "no Content-Security-Policy", "no X-Content-Type-Options", "no X-Frame-Options",
                            "no Content-Type"});
}

TEST_CASE("TS-6: wrong values warn, naming the value") {
  struct Case {
    const char* header;
    const char* value;
    const char* says;
  };
  for (const auto& c : std::vector<Case>{{"cache-control", "no-cache", "Cache-Control: no-cache (no no-store)"},
                                         {"content-security-policy", "default-src 'none'", "Content-Security-Policy without frame-ancestors 'none'"},
                                         {"content-security-policy", "frame-ancestors 'self'", "without frame-ancestors 'none'"},
                                         {"x-content-type-options", "sniff", "X-Content-Type-Options: sniff (not nosniff)"},
                                         {"x-frame-options", "SAMEORIGIN", "X-Frame-Options: SAMEORIGIN (not DENY)"}}) {
    CAPTURE(c.value);
    FakeRun run;
    auto h = secure_headers();
    h[c.header] = c.value;
    run.respond(transport_base_get(), 200, h);
    expect(run.judge("TS-6"), Verdict::warn, {c.says});
  }
}

TEST_CASE("TS-6: every value of a repeated header is judged") {
  FakeRun same;
  auto h = secure_headers();
  h["x-frame-options"] = "DENY, DENY";
  h["x-content-type-options"] = "nosniff, nosniff";
  same.respond(transport_base_get(), 200, h);
  expect(same.judge("TS-6"), Verdict::pass);

  FakeRun mixed;
  h["x-frame-options"] = "DENY, SAMEORIGIN";
  mixed.respond(transport_base_get(), 200, h);
  expect(mixed.judge("TS-6"), Verdict::warn, {"X-Frame-Options: DENY, SAMEORIGIN (not DENY)"});

  FakeRun policies;  // two policies are both enforced: one with frame-ancestors 'none' suffices
  auto p = secure_headers();
  p["content-security-policy"] = "default-src 'self', frame-ancestors 'none'";
  policies.respond(transport_base_get(), 200, p);
  expect(policies.judge("TS-6"), Verdict::pass);
}

TEST_CASE("TS-6: an http base URL is judged; a transport error is error") {
  FakeRun http("http://api.example.nl/v1");
  http.respond(transport_base_get("http://api.example.nl/v1"), 200, secure_headers());
  expect(http.judge("TS-6"), Verdict::pass);

  FakeRun down;
  down.fail(transport_base_get(), "Connection refused");
  expect(down.judge("TS-6"), Verdict::error, {"Connection refused"});
}

// ---- TS-7 -------------------------------------------------------------------

TEST_CASE("TS-7: the request goes to the first probed documented path other than /openapi.json, with the run's Origin") {
  FakeRun run;
  run.ev.settings.headers = {{"Authorization", "Bearer secret"}};
  run.document(openapi_doc({{"/openapi.json", {{"get", oas::json::object()}}},
                            {"/gebouwen/{id}", {{"get", oas::json::object()}}},  // no value for id: not probed
                            {"/gebouwen", {{"get", oas::json::object()}}},
                            {"/adressen", {{"get", oas::json::object()}}}}));
  run.probe_paths();
  auto planned = run.plan("TS-7");
  REQUIRE(planned.size() == 1);
  CHECK(planned[0].method == "GET");
  CHECK(planned[0].url == kBase + "/gebouwen");
  CHECK(planned[0].headers == std::vector<http::Header>{{"Authorization", "Bearer secret"}, {"Origin", run.ev.origin}});
}

TEST_CASE("TS-7: the base URL when no documented path is probed") {
  FakeRun run;
  run.document(openapi_doc({{"/openapi.json", {{"get", oas::json::object()}}}}));
  run.probe_paths();
  auto planned = run.plan("TS-7");
  REQUIRE(planned.size() == 1);
  CHECK(planned[0].url == kBase);
  int id = run.respond(cors(run, kBase), 200);
  auto r = run.judge("TS-7");
  expect(r, Verdict::pass, {"GET /v1 with Origin"});
  CHECK(r.exchanges == std::vector<int>{id});
}

TEST_CASE("TS-7: the result names Access-Control-Allow-Origin and -Credentials as the headers it judged") {
  using Headers = std::vector<std::string>;
  const Headers judged{"access-control-allow-origin", "access-control-allow-credentials"};
  FakeRun echoed;
  echoed.respond(cors(echoed, kBase), 200,
                 {{"access-control-allow-origin", echoed.ev.origin}, {"access-control-allow-credentials", "true"}});
  auto r = echoed.judge("TS-7");
  CHECK(r.verdict == Verdict::fail);
  CHECK(r.judged_headers == judged);

  FakeRun none;  // neither header: the evidence line says so
  none.respond(cors(none, kBase), 200);
  auto n = none.judge("TS-7");
  CHECK(n.verdict == Verdict::pass);
  CHECK(n.judged_headers == judged);
}

TEST_CASE("TS-7: an echoed origin with credentials fails; without credentials it passes with a note") {
  FakeRun run;
  int id = run.respond(cors(run, kBase), 200,
                       {{"access-control-allow-origin", run.ev.origin}, {"access-control-allow-credentials", "true"}});
  auto r = run.judge("TS-7");
  expect(r, Verdict::fail, {"the origin is echoed with Access-Control-Allow-Credentials: true"});
  CHECK(r.exchanges == std::vector<int>{id});

  FakeRun plain;
  plain.respond(cors(plain, kBase), 200, {{"access-control-allow-origin", plain.ev.origin}});
  expect(plain.judge("TS-7"), Verdict::pass, {"any origin is echoed", "fine for open APIs only"});

  FakeRun loose;  // credentials count only when exactly "true"
  loose.respond(cors(loose, kBase), 200,
                {{"access-control-allow-origin", loose.ev.origin}, {"access-control-allow-credentials", "True"}});
  expect(loose.judge("TS-7"), Verdict::pass);
}

TEST_CASE("TS-7: null with credentials fails; '*' passes with a note; no header passes; a fixed origin passes") {
  FakeRun null;
  null.respond(cors(null, kBase), 200, {{"access-control-allow-origin", "null"}, {"access-control-allow-credentials", "true"}});
  expect(null.judge("TS-7"), Verdict::fail, {"Access-Control-Allow-Origin: null with credentials"});

  FakeRun star;
  star.respond(cors(star, kBase), 200, {{"access-control-allow-origin", "*"}, {"access-control-allow-credentials", "true"}});
  expect(star.judge("TS-7"), Verdict::pass, {"Access-Control-Allow-Origin: * (fine for open APIs only)"});

  FakeRun none;
  none.respond(cors(none, kBase), 200);
  expect(none.judge("TS-7"), Verdict::pass, {"no Access-Control-Allow-Origin: cross-origin access is not granted"});

  FakeRun fixed;
  fixed.respond(cors(fixed, kBase), 200, {{"access-control-allow-origin", "https://portal.example.nl"}});
  expect(fixed.judge("TS-7"), Verdict::pass, {"only https://portal.example.nl is allowed"});
}

TEST_CASE("TS-7: a transport error is error; judged on the documented path that was planned") {
  FakeRun down;
  down.fail(cors(down, kBase), "Connection refused");
  expect(down.judge("TS-7"), Verdict::error, {"Connection refused"});

  FakeRun run;
  run.document(openapi_doc({{"/gebouwen", {{"get", oas::json::object()}}}}));
  run.probe_paths();
  run.respond(cors(run, kBase), 200);  // the base URL is not the resource TS-7 judges here
  run.respond(cors(run, kBase + "/gebouwen"), 200,
              {{"access-control-allow-origin", run.ev.origin}, {"access-control-allow-credentials", "true"}});
  expect(run.judge("TS-7"), Verdict::fail, {"GET /v1/gebouwen with Origin"});
}
