// A throw-away CA and server certificate for `adrprobe demo` (HTTPS on 127.0.0.1).
#pragma once
#include <openssl/evp.h>
#include <openssl/x509.h>

#include <memory>
#include <string>

namespace adrprobe::demo {

struct KeyDeleter {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct CertDeleter {
  void operator()(X509* c) const { X509_free(c); }
};

struct Credentials {
  std::unique_ptr<EVP_PKEY, KeyDeleter> ca_key, key;
  std::unique_ptr<X509, CertDeleter> ca, cert;
  std::string ca_pem;  // the CA certificate, for the probing side (--ca-file)
};

// EC P-256 CA ("adrprobe demo CA") and a server certificate for 127.0.0.1 and
// localhost, valid for `days`, signed with SHA-256. Throws on OpenSSL failure.
Credentials make_credentials(int days = 90);

}  // namespace adrprobe::demo
