// Client certificates (mutual TLS): checking --cert/--key before a run, and
// the wording for a server that wants one.
#pragma once
#include <string>

namespace adrprobe::tls {

// "" when cert_file and key_file (PEM) can be used together: both readable,
// the certificate (chain) loads, the key is unencrypted and belongs to the
// certificate. Otherwise one line that names the option and the file, never
// their contents.
// An OpenSSL pem_password_cb that never asks for a passphrase on the
// terminal: an encrypted key is refused.
int no_passphrase(char*, int, int, void*);

std::string check_client_certificate(const std::string& cert_file, const std::string& key_file);

// TLS alerts (RFC 8446 6.2) a server sends about a client certificate: the
// missing one (certificate_required; handshake_failure in TLS 1.2 after it
// asked for one) or the one it got (bad_certificate, unknown_ca, ...).
bool is_client_cert_alert(int alert, bool cert_sent);
// The alert's name as in the RFC, spaced: "certificate required".
std::string alert_name(int alert);

// "the server requires a client certificate (TLS alert: certificate required): give --cert and --key",
// or, when one was sent: "the server did not accept the client certificate (...): check --cert and --key".
std::string client_cert_message(bool cert_sent, const std::string& evidence);

}  // namespace adrprobe::tls
