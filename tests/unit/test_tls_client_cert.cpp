// --cert/--key are checked before any request, and their contents never
// appear in a message; the wording for a server that wants a client certificate.
#include <doctest/doctest.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tls/client_cert.hpp"

using namespace adrprobe;

namespace {

struct TempDir {
  std::string path;
  TempDir() {
    char t[] = "/tmp/adrprobe-unit-XXXXXX";
    REQUIRE(mkdtemp(t));
    path = t;
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string operator/(const std::string& name) const { return path + "/" + name; }
};

EVP_PKEY* make_key() { return EVP_EC_gen("P-256"); }

X509* make_cert(EVP_PKEY* key, const char* cn) {
  X509* x = X509_new();
  X509_set_version(x, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
  X509_gmtime_adj(X509_getm_notBefore(x), 0);
  X509_gmtime_adj(X509_getm_notAfter(x), 86400);
  X509_set_pubkey(x, key);
  X509_NAME* name = X509_get_subject_name(x);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(cn), -1, -1, 0);
  X509_set_issuer_name(x, name);
  X509_sign(x, key, EVP_sha256());
  return x;
}

void write_cert(const std::string& path, X509* cert, const char* mode = "w") {
  FILE* f = std::fopen(path.c_str(), mode);
  REQUIRE(f);
  PEM_write_X509(f, cert);
  std::fclose(f);
}

void write_key(const std::string& path, EVP_PKEY* key, bool encrypted = false, const char* mode = "w") {
  FILE* f = std::fopen(path.c_str(), mode);
  REQUIRE(f);
  static unsigned char pass[] = "passphrase";
  PEM_write_PrivateKey(f, key, encrypted ? EVP_aes_256_cbc() : nullptr, encrypted ? pass : nullptr,
                       encrypted ? 10 : 0, nullptr, nullptr);
  std::fclose(f);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A message names files and options only: no PEM text, no line of the key.
void names_no_secret(const std::string& message, const std::string& key_file) {
  INFO(message);
  CHECK(message.find("BEGIN") == std::string::npos);
  std::istringstream lines(slurp(key_file));
  for (std::string line; std::getline(lines, line);)
    if (line.size() > 16 && line.find("-----") == std::string::npos) CHECK(message.find(line) == std::string::npos);
}

struct Pair {
  TempDir dir;
  std::string cert, key;
  EVP_PKEY* k = make_key();
  X509* c = make_cert(k, "adrprobe unit client");
  Pair() : cert(dir / "client.pem"), key(dir / "client.key") {
    write_cert(cert, c);
    write_key(key, k);
  }
  ~Pair() {
    X509_free(c);
    EVP_PKEY_free(k);
  }
};

}  // namespace

TEST_CASE("--cert and --key: a matching pair is fine; neither is fine") {
  Pair p;
  CHECK(tls::check_client_certificate(p.cert, p.key) == "");
  CHECK(tls::check_client_certificate("", "") == "");
}

TEST_CASE("--cert and --key go together") {
  Pair p;
  CHECK(tls::check_client_certificate(p.cert, "").rfind("--cert needs --key", 0) == 0);
  CHECK(tls::check_client_certificate("", p.key).rfind("--key needs --cert", 0) == 0);
}

TEST_CASE("--cert and --key: missing, unreadable or not PEM") {
  Pair p;
  CHECK(tls::check_client_certificate(p.dir / "nope.pem", p.key) == "--cert '" + (p.dir / "nope.pem") + "': no such file");
  CHECK(tls::check_client_certificate(p.cert, p.dir.path) == "--key '" + p.dir.path + "': is a directory");
  std::ofstream(p.dir / "junk.pem") << "this is not a certificate\n";
  CHECK(tls::check_client_certificate(p.dir / "junk.pem", p.key) ==
        "--cert '" + (p.dir / "junk.pem") + "': not a PEM certificate");
  // the certificate given as the key
  std::string msg = tls::check_client_certificate(p.cert, p.cert);
  CHECK(msg.find("--key '" + p.cert + "': not an unencrypted PEM private key") == 0);
}

TEST_CASE("--key: an encrypted key is refused without asking for a passphrase") {
  Pair p;
  write_key(p.key, p.k, true);
  std::string msg = tls::check_client_certificate(p.cert, p.key);
  CHECK(msg.find("not an unencrypted PEM private key (adrprobe takes no passphrase)") != std::string::npos);
  names_no_secret(msg, p.key);
}

TEST_CASE("--key that belongs to another certificate is refused; nothing secret is shown") {
  Pair p;
  EVP_PKEY* other = make_key();
  std::string other_key = p.dir / "other.key";
  write_key(other_key, other);
  EVP_PKEY_free(other);
  std::string msg = tls::check_client_certificate(p.cert, other_key);
  CHECK(msg == "--key '" + other_key + "' does not belong to the certificate in --cert '" + p.cert + "'");
  names_no_secret(msg, other_key);
}

TEST_CASE("one PEM file with the certificate and the key serves as both") {
  Pair p;
  std::string both = p.dir / "both.pem";
  write_cert(both, p.c);
  write_key(both, p.k, false, "a");
  CHECK(tls::check_client_certificate(both, both) == "");
}

TEST_CASE("alerts about a client certificate") {
  CHECK(tls::is_client_cert_alert(116, false));  // certificate_required
  CHECK(tls::is_client_cert_alert(48, true));    // unknown_ca
  CHECK(tls::is_client_cert_alert(42, true));    // bad_certificate
  CHECK(tls::is_client_cert_alert(40, false));   // handshake_failure, none sent (TLS 1.2)
  CHECK_FALSE(tls::is_client_cert_alert(40, true));
  CHECK_FALSE(tls::is_client_cert_alert(70, false));  // protocol_version
  CHECK(tls::alert_name(116) == "certificate required");
  CHECK(tls::alert_name(48) == "unknown CA");
}

TEST_CASE("the wording: give --cert and --key, or check them") {
  CHECK(tls::client_cert_message(false, "TLS alert: certificate required") ==
        "the server requires a client certificate (TLS alert: certificate required): give --cert and --key");
  CHECK(tls::client_cert_message(true, "400 The SSL certificate error") ==
        "the server did not accept the client certificate (400 The SSL certificate error): check --cert and --key");
}
