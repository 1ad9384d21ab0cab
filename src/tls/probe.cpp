#include "tls/probe.hpp"

#include <arpa/inet.h>
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <future>
#include <memory>

#include "tls/client_cert.hpp"
#include "tls/raw_hello.hpp"
#include "tls/socket.hpp"

namespace adrprobe::tls {
namespace {

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

template <typename T, void (*F)(T*)>
struct Deleter {
  void operator()(T* p) const { F(p); }
};
using CtxPtr = std::unique_ptr<SSL_CTX, Deleter<SSL_CTX, SSL_CTX_free>>;
using SslPtr = std::unique_ptr<SSL, Deleter<SSL, SSL_free>>;

std::string openssl_error(const std::string& fallback) {
  unsigned long e = ERR_peek_last_error();
  ERR_clear_error();
  if (!e) return fallback;
  char buf[256];
  ERR_error_string_n(e, buf, sizeof buf);
  // "error:0A000102:SSL routines::unsupported protocol" -> the reason text
  std::string s = buf;
  auto pos = s.rfind(':');
  return pos == std::string::npos ? s : s.substr(pos + 1);
}

// probes.md: what has not run by the run's deadline is `error` with this reason.
constexpr const char* kDeadlineReached = "deadline reached";

bool deadline_passed(const Settings& s) { return Clock::now() >= s.deadline; }

// The end of a handshake begun now: its timeout, never after the run's deadline,
// nor after `until` (a budget handshakes share).
Clock::time_point handshake_deadline(const Settings& s, Clock::time_point until = Clock::time_point::max()) {
  return std::min({Clock::now() + std::chrono::milliseconds(static_cast<long>(s.timeout_s * 1000)), s.deadline, until});
}

// SSL_connect on a non-blocking socket within the deadline. *silent: no TLS
// answer at all (timed out, or closed without an alert).
bool handshake(SSL* ssl, int fd, Clock::time_point deadline, std::string* error, bool* silent) {
  while (true) {
    int r = SSL_connect(ssl);
    if (r == 1) return true;
    int e = SSL_get_error(ssl, r);
    if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
      pollfd p{fd, static_cast<short>(e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT), 0};
      if (poll(&p, 1, ms_left(deadline)) != 1) {
        *error = "handshake timed out";
        *silent = true;
        return false;
      }
      continue;
    }
    if ((e == SSL_ERROR_SYSCALL || e == SSL_ERROR_ZERO_RETURN) && ERR_peek_error() == 0) {
      *error = "connection closed during the handshake";
      *silent = true;
    } else {
      *error = openssl_error("handshake failed");
    }
    return false;
  }
}

std::string rfc3339(const ASN1_TIME* t) {
  std::tm tm{};
  if (!t || ASN1_TIME_to_tm(t, &tm) != 1) return "";
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", tm);
}

std::string name_of(const X509_NAME* name) {
  if (!name) return "";
  BIO* bio = BIO_new(BIO_s_mem());
  X509_NAME_print_ex(bio, name, 0, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB);
  char* data = nullptr;
  long len = BIO_get_mem_data(bio, &data);
  std::string s(data, static_cast<std::size_t>(len));
  BIO_free(bio);
  return s;
}

Certificate certificate_facts(X509* cert) {
  Certificate c;
  c.subject = name_of(X509_get_subject_name(cert));
  c.issuer = name_of(X509_get_issuer_name(cert));
  if (auto* names = static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr))) {
    for (int i = 0; i < sk_GENERAL_NAME_num(names); ++i) {
      const GENERAL_NAME* gn = sk_GENERAL_NAME_value(names, i);
      if (gn->type == GEN_DNS) {
        const auto* s = gn->d.dNSName;
        c.sans.emplace_back(reinterpret_cast<const char*>(ASN1_STRING_get0_data(s)), static_cast<std::size_t>(ASN1_STRING_length(s)));
      } else if (gn->type == GEN_IPADD) {
        const auto* s = gn->d.iPAddress;
        char buf[INET6_ADDRSTRLEN] = {0};
        int len = ASN1_STRING_length(s);
        if (len == 4 || len == 16) inet_ntop(len == 4 ? AF_INET : AF_INET6, ASN1_STRING_get0_data(s), buf, sizeof buf);
        c.sans.emplace_back(buf);
      }
    }
    GENERAL_NAMES_free(names);
  }
  c.not_before = rfc3339(X509_get0_notBefore(cert));
  c.not_after = rfc3339(X509_get0_notAfter(cert));
  int days = 0, secs = 0;
  if (ASN1_TIME_diff(&days, &secs, nullptr, X509_get0_notAfter(cert)) == 1) c.days_left = days;
  if (EVP_PKEY* key = X509_get0_pubkey(cert)) {
    c.key_bits = EVP_PKEY_get_bits(key);
    int id = EVP_PKEY_get_base_id(key);
    if (id == EVP_PKEY_EC) {
      char curve[64] = {0};
      std::size_t len = 0;
      EVP_PKEY_get_group_name(key, curve, sizeof curve, &len);
      c.curve = curve;
      c.key_type = "EC";
      std::string pretty = c.curve == "prime256v1" ? "P-256" : c.curve == "secp384r1" ? "P-384" : c.curve == "secp521r1" ? "P-521" : c.curve;
      c.key = "EC " + pretty;
    } else if (id == EVP_PKEY_RSA || id == EVP_PKEY_RSA_PSS) {
      c.key_type = "RSA";
      c.key = fmt::format("RSA {}", c.key_bits);
    } else {
      c.key_type = OBJ_nid2sn(id) ? OBJ_nid2sn(id) : "unknown";
      c.key = c.key_type;
    }
  }
  int sig = X509_get_signature_nid(cert);
  c.signature = OBJ_nid2ln(sig) ? OBJ_nid2ln(sig) : "unknown";
  return c;
}

const char* version_name(int v) {
  switch (v) {
    case SSL3_VERSION: return "SSLv3";
    case TLS1_VERSION: return "TLSv1";
    case TLS1_1_VERSION: return "TLSv1.1";
    case TLS1_2_VERSION: return "TLSv1.2";
    case TLS1_3_VERSION: return "TLSv1.3";
  }
  return "unknown";
}

std::vector<std::string> split_names(const std::string& list) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    auto end = list.find(':', start);
    if (end == std::string::npos) end = list.size();
    if (end > start) out.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ":") + n;
  return out;
}

bool is_ip_literal(const std::string& host) {
  unsigned char buf[16];
  return inet_pton(AF_INET, host.c_str(), buf) == 1 || inet_pton(AF_INET6, host.c_str(), buf) == 1;
}

constexpr const char* kAllCiphers = "ALL:COMPLEMENTOFALL:@SECLEVEL=0";
constexpr const char* kAllSuites =
    "TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256:TLS_AES_128_CCM_SHA256:"
    "TLS_AES_128_CCM_8_SHA256";

struct Session {
  CtxPtr ctx;
  SslPtr ssl;
  Fd fd;
  std::string error;
  bool ok = false;
  bool silent = false;          // no TLS answer: a transport problem, not the server's refusal
  std::string proxy;            // the proxy libcurl connected through; empty: direct
  bool proxy_failed = false;    // the proxy, not the server, stopped it
  bool cert_requested = false;  // the server sent a CertificateRequest
  bool cert_sent = false;       // ... and a client certificate was configured to answer it
  int alert = -1;               // the last alert the server sent
  std::string cert_refusal;     // the server refused the handshake over the client certificate
  bool deadline_reached = false;  // the run's deadline came first: no answer, and no time to wait for one
};

// SSL_set_cert_cb: a client calls it only when the server asks for a certificate.
int on_certificate_request(SSL*, void* arg) {
  static_cast<Session*>(arg)->cert_requested = true;
  return 1;
}

void on_info(const SSL* ssl, int where, int ret) {
  if (!(where & SSL_CB_READ_ALERT)) return;
  int alert = ret & 0xff;
  if (alert == SSL_AD_CLOSE_NOTIFY) return;
  if (auto* session = static_cast<Session*>(SSL_get_app_data(ssl))) session->alert = alert;
}

// After a failed handshake: was it the client certificate the server refused?
void classify_refusal(Session& s) {
  if (s.cert_requested && s.alert >= 0 && is_client_cert_alert(s.alert, s.cert_sent))
    s.cert_refusal = "TLS alert: " + alert_name(s.alert);
}

// TLS 1.3: a client finishes its handshake before the server has read the
// client certificate, and a server that refuses it says so with an alert right
// after. Waits briefly for that answer (twice the handshake's time, 500 ms to
// 3 s): an alert, or the connection closed, is a refusal; a record without one
// (a session ticket) or silence is taken as acceptance.
void await_client_cert_verdict(Session& s, Clock::time_point deadline, Clock::duration handshake_time) {
  using std::chrono::milliseconds;
  auto wait = std::clamp<Clock::duration>(2 * handshake_time, milliseconds(500), milliseconds(3000));
  auto until = std::min(deadline, Clock::now() + wait);
  SSL* ssl = s.ssl.get();
  pollfd p{s.fd.fd, POLLIN, 0};
  if (poll(&p, 1, ms_left(until)) != 1) return;
  char byte;
  int r = SSL_read(ssl, &byte, 1);
  if (r > 0) return;
  int e = SSL_get_error(ssl, r);
  if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) return;
  ERR_clear_error();
  classify_refusal(s);
  if (s.cert_refusal.empty() && s.alert < 0) s.cert_refusal = "the server closed the connection after the handshake";
  if (!s.cert_refusal.empty()) {
    s.ok = false;
    s.error = client_cert_message(s.cert_sent, s.cert_refusal);
  }
}

// A handshake that got no answer (or no connection) by the run's deadline was
// cut by it: neither refused nor timed out.
std::unique_ptr<Session> cut_by_deadline(const Settings& s, std::unique_ptr<Session> session) {
  if (deadline_passed(s) && !session->proxy_failed) {
    session->error = kDeadlineReached;
    session->deadline_reached = true;
  }
  return session;
}

// One handshake: pinned to version (0 = the default range), SNI always sent;
// on a connection libcurl opens; with the client certificate when given.
// What a pinned handshake offers; empty: every cipher (TLS <= 1.2) or suite (TLS 1.3) there is.
struct Offer {
  std::string ciphers;  // TLS <= 1.2, OpenSSL names joined by ':'
  std::string suites;   // TLS 1.3
};

std::unique_ptr<Session> connect_once(const std::string& host, int port, int version, const Settings& s, bool verify_setup,
                                      const Offer& offer = {}) {
  auto session = std::make_unique<Session>();
  auto started = Clock::now();
  auto deadline = handshake_deadline(s);
  session->ctx.reset(SSL_CTX_new(TLS_client_method()));
  SSL_CTX* ctx = session->ctx.get();
  if (!ctx) {
    session->error = openssl_error("cannot create an SSL context");
    return session;
  }
  if (version) {
    // Lowered security level so old versions and their ciphers can be offered at all.
    SSL_CTX_set_security_level(ctx, 0);
    std::string ciphers = offer.ciphers.empty() ? std::string(kAllCiphers) : offer.ciphers + ":@SECLEVEL=0";
    if (SSL_CTX_set_cipher_list(ctx, ciphers.c_str()) != 1 ||
        SSL_CTX_set_ciphersuites(ctx, offer.suites.empty() ? kAllSuites : offer.suites.c_str()) != 1) {
      session->error = openssl_error("cannot offer these cipher suites");
      return session;
    }
    if (!SSL_CTX_set_min_proto_version(ctx, version) || !SSL_CTX_set_max_proto_version(ctx, version)) {
      session->error = "not supported by this OpenSSL build";
      return session;
    }
  }
  if (verify_setup) {
    // Trust as libcurl does: a trusted intermediate is enough (partial chains).
    X509_VERIFY_PARAM_set_flags(SSL_CTX_get0_param(ctx), X509_V_FLAG_PARTIAL_CHAIN);
    SSL_CTX_set_default_verify_paths(ctx);
    if (!s.ca_file.empty()) SSL_CTX_load_verify_locations(ctx, s.ca_file.c_str(), nullptr);
  }
  if (!s.cert_file.empty()) {
    // Checked before the run (cli/settings.cpp); offered only when the server asks.
    SSL_CTX_set_default_passwd_cb(ctx, no_passphrase);
    if (SSL_CTX_use_certificate_chain_file(ctx, s.cert_file.c_str()) != 1 ||
        SSL_CTX_use_PrivateKey_file(ctx, s.key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
      session->error = openssl_error("cannot load the client certificate (--cert, --key)");
      return session;
    }
  }
  if (deadline_passed(s)) return cut_by_deadline(s, std::move(session));  // not begun
  Connection connection = open_connection(host, port, s.route, deadline);
  session->fd.fd = connection.fd;
  session->error = connection.error;
  session->proxy = connection.proxy;
  session->proxy_failed = connection.proxy_failed;
  if (session->fd.fd < 0) return cut_by_deadline(s, std::move(session));
  session->ssl.reset(SSL_new(ctx));
  SSL* ssl = session->ssl.get();
  SSL_set_app_data(ssl, session.get());
  SSL_set_info_callback(ssl, on_info);
  SSL_set_cert_cb(ssl, on_certificate_request, session.get());
  if (!is_ip_literal(host)) SSL_set_tlsext_host_name(ssl, host.c_str());
  if (verify_setup) {
    SSL_set_verify(ssl, SSL_VERIFY_NONE, nullptr);  // verify, but judge the result ourselves
    if (is_ip_literal(host)) X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host.c_str());
    else SSL_set1_host(ssl, host.c_str());
    SSL_set_tlsext_status_type(ssl, TLSEXT_STATUSTYPE_ocsp);
  }
  SSL_set_fd(ssl, session->fd.fd);
  session->ok = handshake(ssl, session->fd.fd, deadline, &session->error, &session->silent);
  session->cert_sent = session->cert_requested && !s.cert_file.empty();
  if (!session->ok) {
    classify_refusal(*session);
    if (!session->cert_refusal.empty()) {
      session->silent = false;
      session->error = client_cert_message(session->cert_sent, session->cert_refusal);
    }
  } else if (verify_setup && session->cert_requested && SSL_version(ssl) == TLS1_3_VERSION) {
    await_client_cert_verdict(*session, deadline, Clock::now() - started);
  }
  if (session->silent) return cut_by_deadline(s, std::move(session));
  return session;
}

// The handshake got as far as the server's choice of version, cipher and
// certificate: it succeeded, or the server refused only the client certificate.
bool negotiated(const Session& s) { return s.ssl && (s.ok || !s.cert_refusal.empty()); }

std::string cipher_of(SSL* ssl) {
  const SSL_CIPHER* c = SSL_get_current_cipher(ssl);
  return c ? SSL_CIPHER_get_name(c) : "";
}

// The ephemeral key exchange of a completed handshake: the ECDHE (or hybrid)
// group by name; finite-field DH as its named group when the parameters are one
// (ffdhe3072 from RFC 7919, modp_2048 from RFC 3526), else "DH-<bits>"; "" when
// there is none (static RSA, PSK).
std::string key_exchange(SSL* ssl) {
  int nid = SSL_get_negotiated_group(ssl);
  if (nid > 0) {
    const char* g = SSL_group_to_name(ssl, nid);
    if (g) return g;
    if (OBJ_nid2sn(nid)) return OBJ_nid2sn(nid);
  }
  EVP_PKEY* peer = nullptr;
  std::string kx;
  if (SSL_get_peer_tmp_key(ssl, &peer) == 1 && peer) {
    char name[64] = {0};
    std::size_t len = 0;
    bool named = EVP_PKEY_get_utf8_string_param(peer, "group", name, sizeof name, &len) == 1 && len > 0;
    if (EVP_PKEY_get_base_id(peer) == EVP_PKEY_DH) kx = named ? std::string(name) : fmt::format("DH-{}", EVP_PKEY_get_bits(peer));
    else if (named) kx = name;
    else if (OBJ_nid2sn(EVP_PKEY_get_base_id(peer))) kx = OBJ_nid2sn(EVP_PKEY_get_base_id(peer));
    EVP_PKEY_free(peer);
  }
  return kx;
}

// The suites this OpenSSL offers when pinned to version (TLS <= 1.2): what a
// ClientHello would carry (no PSK or SRP suites: they need keys the probe has not).
std::vector<std::string> offerable(int version) {
  std::vector<std::string> names;
  CtxPtr ctx(SSL_CTX_new(TLS_client_method()));
  if (!ctx) return names;
  SSL_CTX_set_security_level(ctx.get(), 0);
  SSL_CTX_set_cipher_list(ctx.get(), kAllCiphers);
  if (!SSL_CTX_set_min_proto_version(ctx.get(), version) || !SSL_CTX_set_max_proto_version(ctx.get(), version)) return names;
  SslPtr ssl(SSL_new(ctx.get()));
  if (!ssl) return names;
  STACK_OF(SSL_CIPHER)* list = SSL_get1_supported_ciphers(ssl.get());
  for (int i = 0; list && i < sk_SSL_CIPHER_num(list); ++i) {
    const SSL_CIPHER* c = sk_SSL_CIPHER_value(list, i);
    if (std::string_view(SSL_CIPHER_get_version(c)) != "TLSv1.3") names.emplace_back(SSL_CIPHER_get_name(c));
  }
  sk_SSL_CIPHER_free(list);
  return names;
}

std::vector<std::string> tls13_suites() { return split_names(kAllSuites); }

// The outcome of one enumeration handshake.
struct Pick {
  bool accepted = false;  // the server chose a suite at this version
  bool silent = false;    // no TLS answer: the enumeration cannot go on
  bool deadline_reached = false;  // the run's deadline cut it
  std::string cipher, kx;
};

Pick offer_once(const std::string& host, int port, int version, const Settings& s, const Offer& offer) {
  Pick pick;
  auto session = connect_once(host, port, version, s, false, offer);
  pick.silent = session->fd.fd < 0 || session->silent;
  pick.deadline_reached = session->deadline_reached;
  if (negotiated(*session) && SSL_version(session->ssl.get()) == version) {
    pick.accepted = true;
    pick.cipher = cipher_of(session->ssl.get());
    pick.kx = key_exchange(session->ssl.get());
    if (session->ok) SSL_shutdown(session->ssl.get());
  }
  return pick;
}

// TLS <= 1.2, one chunk of the suites: offer them all, take away what the
// server chose, again until it refuses (as sslscan and testssl do). A chunk's
// answers do not depend on what another chunk offers, so chunks run in parallel.
struct ChunkResult {
  std::vector<Suite> suites;
  bool complete = true;
  bool deadline_reached = false;  // the run's deadline stopped it
  int handshakes = 0;
};

// Shrinks `left` (suites of type T, named by name(T)) with offer(left), one
// handshake each, none begun after `until`.
template <typename T, typename Offer, typename Name>
ChunkResult shrink_by(std::vector<T> left, const Settings& s, Clock::time_point until, Offer offer, Name name) {
  ChunkResult r;
  while (!left.empty()) {
    if (Clock::now() >= until) {  // no time left for another handshake
      r.complete = false;
      r.deadline_reached = deadline_passed(s);
      return r;
    }
    Pick pick = offer(left);
    ++r.handshakes;
    if (!pick.accepted) {
      r.complete = !pick.silent;
      r.deadline_reached = pick.deadline_reached;
      return r;
    }
    auto it = std::find_if(left.begin(), left.end(), [&](const T& x) { return pick.cipher == name(x); });
    if (it == left.end()) {  // chose a suite not offered: cannot narrow further
      r.complete = false;
      return r;
    }
    left.erase(it);
    r.suites.push_back({pick.cipher, pick.kx, "", ""});
  }
  return r;
}

// The suites OpenSSL offers: each handshake has its own timeout; none is begun after the run's deadline.
ChunkResult shrink(const std::string& host, int port, int version, const Settings& s, std::vector<std::string> left) {
  return shrink_by(
      std::move(left), s, s.deadline,
      [&](const std::vector<std::string>& names) { return offer_once(host, port, version, s, Offer{join_names(names), ""}); },
      [](const std::string& name) -> const std::string& { return name; });
}

// Writes all of data to the non-blocking socket fd by the deadline.
bool send_hello(int fd, const std::string& data, Clock::time_point deadline) {
  std::size_t sent = 0;
  while (sent < data.size()) {
    ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EINTR) return false;
    pollfd p{fd, POLLOUT, 0};
    if (poll(&p, 1, ms_left(deadline)) != 1) return false;
  }
  return true;
}

// One hand-made ClientHello (raw_hello.hpp) offering ids at version, answered by `until`:
// what the server chose.
Pick raw_offer_once(const std::string& host, int port, int version, const Settings& s, const std::vector<std::uint16_t>& ids,
                    Clock::time_point until) {
  Pick pick;
  auto deadline = handshake_deadline(s, until);
  Fd fd;
  fd.fd = open_connection(host, port, s.route, deadline).fd;  // through the proxy as every handshake
  if (fd.fd < 0 || !send_hello(fd.fd, raw_client_hello(version, ids, is_ip_literal(host) ? "" : host), deadline)) {
    pick.silent = true;
    pick.deadline_reached = deadline_passed(s);
    return pick;
  }
  std::string got;
  RawAnswer answer;
  while (true) {
    pollfd p{fd.fd, POLLIN, 0};
    if (poll(&p, 1, ms_left(deadline)) != 1) {
      pick.silent = !answer.hello;  // timed out: no answer
      pick.deadline_reached = deadline_passed(s);
      break;
    }
    char buf[16384];
    ssize_t n = read(fd.fd, buf, sizeof buf);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n <= 0) break;  // closed: a refusal unless a ServerHello came
    got.append(buf, static_cast<std::size_t>(n));
    answer = parse_raw_answer(got);
    if (answer.done || got.size() > 262144) break;
  }
  answer = parse_raw_answer(got);
  if (answer.hello && answer.version == version) {
    pick.accepted = true;
    auto it = std::find_if(raw_suites().begin(), raw_suites().end(), [&](const RawSuite& r) { return r.id == answer.suite; });
    pick.cipher = it != raw_suites().end() ? it->name : fmt::format("0x{:04X}", answer.suite);
    pick.kx = answer.kx;
  }
  return pick;
}

// The suites this OpenSSL cannot offer, by hand-made ClientHellos: shrinking as shrink() does.
ChunkResult raw_shrink(const std::string& host, int port, int version, const Settings& s, std::vector<RawSuite> left,
                       Clock::time_point until) {
  return shrink_by(
      std::move(left), s, until,
      [&](const std::vector<RawSuite>& suites) {
        std::vector<std::uint16_t> ids;
        for (const auto& x : suites) ids.push_back(x.id);
        return raw_offer_once(host, port, version, s, ids, until);
      },
      [](const RawSuite& x) { return std::string_view(x.name); });
}

// The raw suites this OpenSSL cannot offer at version.
std::vector<RawSuite> raw_only(const std::vector<std::string>& offered) {
  std::vector<RawSuite> out;
  for (const auto& r : raw_suites())
    if (std::find(offered.begin(), offered.end(), r.name) == offered.end()) out.push_back(r);
  return out;
}

// Suites dealt into the chunks that are shrunk in parallel.
template <typename T>
std::vector<std::vector<T>> chunks_of(const std::vector<T>& all) {
  constexpr std::size_t kChunks = 3;
  std::vector<std::vector<T>> chunks(kChunks);
  for (std::size_t i = 0; i < all.size(); ++i) chunks[i % kChunks].push_back(all[i]);
  std::erase_if(chunks, [](const std::vector<T>& c) { return c.empty(); });
  return chunks;
}

using Runs = std::vector<std::future<ChunkResult>>;

// Starts the hand-made ClientHellos of version in parallel chunks, as OpenSSL's.
// They share one timeout: a server that answers each with a ServerHello and then
// nothing costs one timeout for them all, not one per suite.
void start_raw(const std::string& host, int port, int version, const Settings& s, const std::vector<RawSuite>& raw,
               Runs& runs) {
  auto until = handshake_deadline(s);
  for (auto& chunk : chunks_of(raw))
    runs.push_back(std::async(std::launch::async, raw_shrink, host, port, version, s, std::move(chunk), until));
}

// The chunks' results together, in the order they were started.
ChunkResult gather(Runs& runs) {
  ChunkResult all;
  for (auto& run : runs) {
    ChunkResult r = run.get();
    all.handshakes += r.handshakes;
    all.complete = all.complete && r.complete;
    all.deadline_reached = all.deadline_reached || r.deadline_reached;
    all.suites.insert(all.suites.end(), r.suites.begin(), r.suites.end());
  }
  return all;
}

// Every accepted suite of an accepted version; first: the suite of the pinned
// handshake that offered everything (already known).
void enumerate_suites(const std::string& host, int port, int version, const Settings& s, Protocol& p,
                      const std::string& first_kx, int* handshakes) {
  if (version == TLS1_3_VERSION) {
    std::vector<std::future<Pick>> picks;
    std::vector<std::string> names = tls13_suites();
    for (const auto& name : names)
      picks.push_back(name == p.cipher ? std::future<Pick>{}
                                       : std::async(std::launch::async, offer_once, host, port, version, s, Offer{"", name}));
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names[i] == p.cipher) {
        p.suites.push_back({p.cipher, first_kx, "", ""});
        continue;
      }
      Pick pick = picks[i].get();
      ++*handshakes;
      if (pick.silent) p.suites_complete = false;
      p.deadline_reached = p.deadline_reached || pick.deadline_reached;
      if (pick.accepted && pick.cipher == names[i]) p.suites.push_back({pick.cipher, pick.kx, "", ""});
    }
    return;
  }
  std::vector<std::string> all = offerable(version);
  std::vector<std::string> order = all;
  all.erase(std::remove(all.begin(), all.end(), p.cipher), all.end());
  Runs runs;
  for (auto& chunk : chunks_of(all))
    runs.push_back(std::async(std::launch::async, shrink, host, port, version, s, std::move(chunk)));
  if (version >= TLS1_VERSION)
    if (auto raw = raw_only(order); !raw.empty()) start_raw(host, port, version, s, raw, runs);
  ChunkResult r = gather(runs);
  *handshakes += r.handshakes;
  p.suites_complete = r.complete;
  p.deadline_reached = r.deadline_reached;
  std::vector<Suite> found{{p.cipher, first_kx, "", ""}};
  found.insert(found.end(), r.suites.begin(), r.suites.end());
  // In this OpenSSL's order of preference (strongest first).
  auto rank = [&](const Suite& x) { return std::find(order.begin(), order.end(), x.name) - order.begin(); };
  std::stable_sort(found.begin(), found.end(), [&](const Suite& a, const Suite& b) { return rank(a) < rank(b); });
  for (auto& suite : found) p.suites.push_back(std::move(suite));
}

Protocol probe_version(const std::string& host, int port, int version, const Settings& s, int* handshakes) {
  Protocol p;
  p.name = version_name(version);
#ifdef OPENSSL_NO_SSL3
  if (version == SSL3_VERSION) {
    p.testable = false;
    p.error = "not testable: this OpenSSL build has no SSL 3.0";
    return p;
  }
#endif
  auto session = connect_once(host, port, version, s, false);
  ++*handshakes;
  p.connected = session->fd.fd >= 0;
  p.silent = session->silent;
  p.deadline_reached = session->deadline_reached;
  if (session->error == "not supported by this OpenSSL build" ||
      (session->error.find("no protocols available") != std::string::npos)) {
    p.testable = false;
    p.error = "not testable: this OpenSSL build cannot offer " + p.name;
    return p;
  }
  if (negotiated(*session) && SSL_version(session->ssl.get()) == version) {
    // A refusal of the client certificate comes after the server chose this
    // version: for the protocol question, that is an accepted version.
    p.accepted = true;
    p.cipher = cipher_of(session->ssl.get());
    std::string kx = key_exchange(session->ssl.get());
    if (STACK_OF(X509)* chain = SSL_get_peer_cert_chain(session->ssl.get()))
      for (int i = 0; i < sk_X509_num(chain); ++i) p.chain.push_back(certificate_facts(sk_X509_value(chain, i)));
    if (session->ok) SSL_shutdown(session->ssl.get());
    session.reset();
    enumerate_suites(host, port, version, s, p, kx, handshakes);
  } else {
    p.error = session->error.empty() ? "refused" : session->error;
    // Refused everything this OpenSSL offers: perhaps it takes only what OpenSSL
    // cannot offer (a 3DES-only server). Asked by hand-made ClientHellos.
    bool answered = p.connected && !p.silent;
    if (answered && version >= TLS1_VERSION && version <= TLS1_2_VERSION)
      if (auto raw = raw_only(offerable(version)); !raw.empty()) {
        Runs runs;
        start_raw(host, port, version, s, raw, runs);
        ChunkResult r = gather(runs);
        *handshakes += r.handshakes;
        p.deadline_reached = r.deadline_reached;
        if (!r.suites.empty()) {
          p.accepted = true;
          p.error.clear();
          p.cipher = r.suites.front().name;
          p.suites = std::move(r.suites);
          p.suites_complete = r.complete;
        } else if (r.deadline_reached) {  // neither refused nor accepted
          p.error = kDeadlineReached;
        }
      }
  }
  return p;
}

}  // namespace

Facts probe(const std::string& host, int port, const Settings& settings) {
  auto start = Clock::now();
  Facts f;
  f.host = host;
  f.port = port;
  std::vector<std::future<Protocol>> versions;
  const int kVersions[] = {SSL3_VERSION, TLS1_VERSION, TLS1_1_VERSION, TLS1_2_VERSION, TLS1_3_VERSION};
  int counts[5] = {0, 0, 0, 0, 0};
  for (int i = 0; i < 5; ++i)
    versions.push_back(std::async(std::launch::async, probe_version, host, port, kVersions[i], settings, &counts[i]));

  auto session = connect_once(host, port, 0, settings, true);
  f.connected = session->fd.fd >= 0;
  f.silent = session->silent;
  f.proxy = session->proxy;
  f.proxy_failed = session->proxy_failed;
  f.handshake_ok = session->ok;
  f.error = session->error;
  f.deadline_reached = session->deadline_reached;
  f.client_cert_requested = session->cert_requested;
  f.client_cert_sent = session->cert_sent;
  f.client_cert_refusal = session->cert_refusal;
  if (negotiated(*session)) {
    SSL* ssl = session->ssl.get();
    f.protocol = SSL_get_version(ssl);
    f.cipher = cipher_of(ssl);
    f.group = key_exchange(ssl);
    long vr = SSL_get_verify_result(ssl);
    f.trusted = vr == X509_V_OK;
    if (!f.trusted) f.trust_error = X509_verify_cert_error_string(vr);
    if (STACK_OF(X509)* chain = SSL_get_peer_cert_chain(ssl))
      for (int i = 0; i < sk_X509_num(chain); ++i) f.chain.push_back(certificate_facts(sk_X509_value(chain, i)));
    const unsigned char* ocsp = nullptr;
    f.ocsp_stapled = SSL_get_tlsext_status_ocsp_resp(ssl, &ocsp) > 0;
    f.compression = SSL_get_current_compression(ssl) != nullptr;
    f.secure_renegotiation = SSL_get_secure_renegotiation_support(ssl) == 1;
    if (session->ok) SSL_shutdown(ssl);
  }
  f.handshakes = 1;
  for (auto& v : versions) {
    f.protocols.push_back(v.get());
    f.deadline_reached = f.deadline_reached || f.protocols.back().deadline_reached;
  }
  for (int c : counts) f.handshakes += c;
  for (const auto& name : tls13_suites()) f.offered.push_back(name);
  for (int v : {SSL3_VERSION, TLS1_VERSION, TLS1_1_VERSION, TLS1_2_VERSION})
    for (auto& name : offerable(v))
      if (std::find(f.offered.begin(), f.offered.end(), name) == f.offered.end()) f.offered.push_back(std::move(name));
  for (const auto& r : raw_suites())  // by hand-made ClientHellos where OpenSSL cannot
    if (std::find(f.offered.begin(), f.offered.end(), r.name) == f.offered.end()) f.offered.emplace_back(r.name);
  if (!f.handshake_ok) {
    for (auto it = f.protocols.rbegin(); it != f.protocols.rend(); ++it)
      if (it->accepted) {
        f.fallback_protocol = it->name;
        f.fallback_cipher = it->cipher;
        if (f.chain.empty()) f.chain = it->chain;
        break;
      }
  }
  f.duration_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return f;
}

}  // namespace adrprobe::tls
