// A server that wants a client certificate the run did not give (or that
// refuses the one it gave) has not answered as the API: its refusals are not
// judged as the API's behaviour. This finds such a refusal, from the TLS
// handshakes and the HTTP exchanges, and words it once.
#pragma once
#include <deque>
#include <optional>
#include <string>

#include "http/exchange.hpp"
#include "tls/probe.hpp"

namespace adrprobe::engine {

// "the server requires a client certificate (400 No required SSL certificate
// was sent): give --cert and --key", or "" when nothing shows a refusal.
// Looked for: the default handshake refused over the client certificate; a
// transport error that is a TLS alert about it; nginx's answers to a missing
// or rejected one (400 "No required SSL certificate was sent" / "The SSL
// certificate error", 495, 496).
std::string client_cert_refusal(const std::optional<tls::Facts>& tls, const std::deque<http::Exchange>& exchanges,
                                bool cert_given);

// Appends that wording to each transport error that is a TLS alert about the
// client certificate.
void explain_client_cert_errors(const std::optional<tls::Facts>& tls, std::deque<http::Exchange>& exchanges,
                                bool cert_given);

}  // namespace adrprobe::engine
