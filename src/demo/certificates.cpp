#include "demo/certificates.hpp"

#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509v3.h>

#include <stdexcept>

namespace adrprobe::demo {
namespace {

void check(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("demo certificate: ") + what);
}

void add_ext(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
  check(ext != nullptr, "extension");
  X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
}

std::unique_ptr<X509, CertDeleter> make_cert(EVP_PKEY* key, const char* cn, X509* issuer, EVP_PKEY* issuer_key, int days) {
  std::unique_ptr<X509, CertDeleter> cert(X509_new());
  X509* x = cert.get();
  check(x != nullptr, "X509_new");
  X509_set_version(x, 2);
  unsigned char serial[16];
  RAND_bytes(serial, sizeof serial);
  serial[0] &= 0x7f;
  BIGNUM* bn = BN_bin2bn(serial, sizeof serial, nullptr);
  BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(x));
  BN_free(bn);
  X509_gmtime_adj(X509_getm_notBefore(x), -3600);
  X509_gmtime_adj(X509_getm_notAfter(x), static_cast<long>(days) * 86400);
  X509_set_pubkey(x, key);
  X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(cn), -1, -1, 0);
  X509* signer = issuer ? issuer : x;
  X509_set_issuer_name(x, X509_get_subject_name(signer));
  if (!issuer) {
    add_ext(x, x, NID_basic_constraints, "critical,CA:TRUE");
    add_ext(x, x, NID_key_usage, "critical,keyCertSign,cRLSign");
    add_ext(x, x, NID_subject_key_identifier, "hash");
  } else {
    add_ext(x, signer, NID_basic_constraints, "critical,CA:FALSE");
    add_ext(x, signer, NID_key_usage, "critical,digitalSignature");
    add_ext(x, signer, NID_ext_key_usage, "serverAuth");
    add_ext(x, signer, NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1,IP:::1");
    add_ext(x, signer, NID_authority_key_identifier, "keyid:always");
  }
  check(X509_sign(x, issuer_key ? issuer_key : key, EVP_sha256()) > 0, "sign");
  return cert;
}

}  // namespace

Credentials make_credentials(int days) {
  Credentials c;
  c.ca_key.reset(EVP_EC_gen("P-256"));
  c.key.reset(EVP_EC_gen("P-256"));
  check(c.ca_key && c.key, "key generation");
  c.ca = make_cert(c.ca_key.get(), "adrprobe demo CA", nullptr, nullptr, days);
  c.cert = make_cert(c.key.get(), "localhost", c.ca.get(), c.ca_key.get(), days);
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(bio, c.ca.get());
  char* data = nullptr;
  long len = BIO_get_mem_data(bio, &data);
  c.ca_pem.assign(data, static_cast<std::size_t>(len));
  BIO_free(bio);
  return c;
}

}  // namespace adrprobe::demo
