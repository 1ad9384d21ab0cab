#include "tls/client_cert.hpp"

#include <fmt/format.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>

namespace adrprobe::tls {

int no_passphrase(char*, int, int, void*) { return -1; }

namespace {

std::string unreadable(const char* option, const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return fmt::format("{} '{}': no such file", option, path);
  if (S_ISDIR(st.st_mode)) return fmt::format("{} '{}': is a directory", option, path);
  if (access(path.c_str(), R_OK) != 0) return fmt::format("{} '{}': not readable", option, path);
  return "";
}

}  // namespace

std::string check_client_certificate(const std::string& cert_file, const std::string& key_file) {
  if (cert_file.empty() && key_file.empty()) return "";
  if (key_file.empty()) return "--cert needs --key: give the client certificate's private key (PEM) as well";
  if (cert_file.empty()) return "--key needs --cert: give the client certificate (PEM) as well";
  if (auto why = unreadable("--cert", cert_file); !why.empty()) return why;
  if (auto why = unreadable("--key", key_file); !why.empty()) return why;
  std::unique_ptr<SSL_CTX, void (*)(SSL_CTX*)> ctx(SSL_CTX_new(TLS_client_method()), SSL_CTX_free);
  if (!ctx) return "cannot create an SSL context";
  // As the handshakes and libcurl load it: the certificate, then any intermediates.
  bool cert_ok = SSL_CTX_use_certificate_chain_file(ctx.get(), cert_file.c_str()) == 1;
  ERR_clear_error();
  if (!cert_ok) return fmt::format("--cert '{}': not a PEM certificate", cert_file);
  std::unique_ptr<BIO, void (*)(BIO*)> bio(BIO_new_file(key_file.c_str(), "r"), [](BIO* b) { BIO_free(b); });
  EVP_PKEY* key = bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, no_passphrase, nullptr) : nullptr;
  ERR_clear_error();
  if (!key)
    return fmt::format("--key '{}': not an unencrypted PEM private key (adrprobe takes no passphrase)", key_file);
  std::unique_ptr<EVP_PKEY, void (*)(EVP_PKEY*)> key_guard(key, EVP_PKEY_free);
  X509* cert = SSL_CTX_get0_certificate(ctx.get());
  bool match = cert && X509_check_private_key(cert, key) == 1;
  ERR_clear_error();
  if (!match) return fmt::format("--key '{}' does not belong to the certificate in --cert '{}'", key_file, cert_file);
  return "";
}

bool is_client_cert_alert(int alert, bool cert_sent) {
  switch (alert) {
    case 116:  // certificate_required (TLS 1.3)
    case 42:   // bad_certificate
    case 43:   // unsupported_certificate
    case 44:   // certificate_revoked
    case 45:   // certificate_expired
    case 46:   // certificate_unknown
    case 48:   // unknown_ca
    case 49:   // access_denied
      return true;
    case 40:  // handshake_failure: TLS 1.2 servers send it for a missing certificate
      return !cert_sent;
  }
  return false;
}

std::string alert_name(int alert) {
  switch (alert) {
    case 40: return "handshake failure";
    case 42: return "bad certificate";
    case 43: return "unsupported certificate";
    case 44: return "certificate revoked";
    case 45: return "certificate expired";
    case 46: return "certificate unknown";
    case 48: return "unknown CA";
    case 49: return "access denied";
    case 116: return "certificate required";
  }
  return SSL_alert_desc_string_long(alert);
}

std::string client_cert_message(bool cert_sent, const std::string& evidence) {
  if (cert_sent)
    return fmt::format("the server did not accept the client certificate ({}): check --cert and --key", evidence);
  return fmt::format("the server requires a client certificate ({}): give --cert and --key", evidence);
}

}  // namespace adrprobe::tls
