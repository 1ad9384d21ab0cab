// TLS facts by OpenSSL handshakes (on connections libcurl opens): accepted protocol
// versions, the negotiated cipher and group, and the certificate chain.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "tls/socket.hpp"

namespace adrprobe::tls {

struct Certificate {
  std::string subject;
  std::string issuer;
  std::vector<std::string> sans;  // DNS names and IP addresses
  std::string not_before;         // RFC 3339, UTC
  std::string not_after;
  long days_left = 0;             // whole days until not_after (negative: expired)
  std::string key;                // "EC P-256", "RSA 2048", "Ed25519"
  std::string key_type;           // "EC", "RSA", ...
  int key_bits = 0;
  std::string curve;              // EC keys: "prime256v1"
  std::string signature;          // "sha256WithRSAEncryption", "ecdsa-with-SHA256"
};

// One cipher suite a server accepted with a protocol version, found by its own
// handshakes (TS-3), and the ephemeral key exchange it chose for it when offered
// an ordinary client's groups.
struct Suite {
  std::string name;      // OpenSSL's name: "ECDHE-RSA-AES128-GCM-SHA256", "TLS_AES_256_GCM_SHA384"
  std::string kx;        // "x25519", "secp256r1", "ffdhe3072" (RFC 7919), "DH-2048" (other DH
                         // parameters: modp_* names the RFC 3526/2409 groups), "" when none (static RSA)
  // Filled by the engine from the edition's NCSC table (the tls folder knows no levels):
  std::string level;     // of the suite: good | sufficient | phase_out | insufficient
  std::string kx_level;  // of the key exchange ("" when kx is)
};

struct Protocol {
  std::string name;        // "TLSv1.2" (OpenSSL's names)
  bool testable = true;    // this OpenSSL build can offer it
  bool accepted = false;   // the server completed a handshake pinned to it (or negotiated it and
                           // then refused only the client certificate), or chose a suite of a
                           // hand-made ClientHello at it (raw_hello.hpp: no chain then)
  std::string cipher;      // the cipher negotiated in that handshake
  std::string error;       // why not accepted (one line)
  bool connected = false;  // a TCP connection was made (a refusal is then the server's answer)
  bool silent = false;     // connected, but no TLS answer: timed out or closed without an alert
  std::vector<Certificate> chain;  // what the server sent in that handshake
  // Every suite accepted with this version (when accepted), in this OpenSSL's
  // order of preference (strongest first).
  std::vector<Suite> suites;
  bool suites_complete = true;     // false: a handshake of the enumeration timed out or hit the cap
  // The run's deadline cut the pinned handshake (error: "deadline reached") or,
  // when accepted, the enumeration (suites_complete false): not known, not refused.
  bool deadline_reached = false;
};

struct Facts {
  std::string host;
  int port = 443;
  bool connected = false;      // a TCP connection was made (else: a transport problem)
  bool silent = false;         // connected, but no TLS answer (timeout, closed without an alert)
  bool handshake_ok = false;   // the default handshake (best the server offers)
  std::string error;           // why it failed
  std::string protocol;        // negotiated, e.g. "TLSv1.3"
  std::string cipher;          // e.g. "TLS_AES_256_GCM_SHA384"
  std::string group;           // key exchange group, e.g. "x25519"; finite-field DH as "ffdhe2048"
  bool trusted = false;        // chain verifies for host (system store + ca_file)
  std::string trust_error;     // e.g. "certificate has expired"
  std::vector<Certificate> chain;  // leaf first (from the default handshake, else the best pinned one)
  std::vector<Protocol> protocols; // SSLv3, TLSv1, TLSv1.1, TLSv1.2, TLSv1.3
  // The highest accepted pinned version, when the default handshake failed:
  // TS-3 judges its cipher (it was offered every cipher).
  std::string fallback_protocol, fallback_cipher;
  // Every suite name this OpenSSL build can offer (TLS 1.3 and older): what is
  // not in it was not tested.
  std::vector<std::string> offered;
  int handshakes = 0;             // how many the probe made in all
  // The run's deadline ended the probe before it finished: the default handshake
  // (error: "deadline reached") or a version's (Protocol::deadline_reached).
  bool deadline_reached = false;
  bool ocsp_stapled = false;
  bool compression = false;
  bool secure_renegotiation = false;  // what OpenSSL says of the default handshake; read it through renegotiation()
  double duration_ms = 0;
  // The handshakes went through the proxy libcurl takes (https_proxy, ...; a CONNECT tunnel or socks).
  std::string proxy;            // "http://proxy.example:3128", never with user or password; empty: direct
  bool proxy_failed = false;    // the proxy refused or could not be reached: `error` says so
  // Mutual TLS, from the default handshake.
  bool client_cert_requested = false;  // the server asked for a client certificate
  bool client_cert_sent = false;       // ... and got the one of --cert
  // The server negotiated a handshake and then refused it over the client
  // certificate (its alert, "TLS alert: certificate required"). The protocol,
  // cipher, trust and chain above are then what it had negotiated.
  std::string client_cert_refusal;

  // Secure renegotiation (RFC 5746) of the negotiated protocol; none on TLS 1.3,
  // which has no renegotiation, nor when the default handshake negotiated no
  // protocol at all (OpenSSL's "no" is then about no handshake): a yes or no
  // there would be a claim about nothing.
  std::optional<bool> renegotiation() const {
    if (protocol.empty() || protocol == "TLSv1.3") return std::nullopt;
    return secure_renegotiation;
  }
};

struct Settings {
  std::string ca_file;     // extra trusted CA bundle (PEM)
  double timeout_s = 10;   // per handshake; the hand-made ClientHellos of a version share one
  Clock::time_point deadline = Clock::time_point::max();  // the run's (--deadline): no handshake goes past it
  std::string cert_file, key_file;  // client certificate and key (PEM), offered when the server asks
  Route route;                      // how libcurl connects: --resolve, the proxy (tls/socket.hpp)
};

// Connects to host:port (SNI = host) for one default handshake and one per
// protocol version, all in parallel, on connections libcurl opens; then, for
// each accepted version, finds every accepted suite (TLS 1.3: one handshake
// per suite; older: shrinking lists, the server's choice removed each time,
// split in parallel chunks). Every handshake ends by the deadline; what it cut
// is said (deadline_reached). Never throws for network problems.
Facts probe(const std::string& host, int port, const Settings& settings);

}  // namespace adrprobe::tls
