#include "engine/client_cert.hpp"

#include <fmt/format.h>

#include <array>

#include "tls/client_cert.hpp"

namespace adrprobe::engine {
namespace {

// "...:SSL routines::tlsv13 alert certificate required, errno 0" -> "certificate required"
std::string alert_in(const std::string& error) {
  auto at = error.find(" alert ");
  if (at == std::string::npos) return "";
  std::string rest = error.substr(at + 7);
  auto end = rest.find_first_of(",(\n");
  rest = rest.substr(0, end);
  while (!rest.empty() && rest.back() == ' ') rest.pop_back();
  return rest;
}

// The alerts a server only sends about a client certificate; handshake
// failure only when the handshakes saw it ask for one that was not given.
bool about_client_cert(const std::string& alert, const std::optional<tls::Facts>& tls) {
  static const std::array<const char*, 8> names{"certificate required", "bad certificate", "unsupported certificate",
                                                "certificate revoked",  "certificate expired", "certificate unknown",
                                                "unknown ca",           "access denied"};
  for (const char* n : names)
    if (alert == n) return true;
  return alert == "handshake failure" && tls && tls->client_cert_requested && !tls->client_cert_sent;
}

std::string shown_alert(const std::string& alert) { return alert == "unknown ca" ? "unknown CA" : alert; }

// nginx's pages for a missing or rejected client certificate.
std::string nginx_refusal(const http::Exchange& e) {
  if (!e.status) return "";
  if (*e.status == 400 && e.body.find("No required SSL certificate was sent") != std::string::npos)
    return "400 No required SSL certificate was sent";
  if (*e.status == 400 && e.body.find("The SSL certificate error") != std::string::npos)
    return "400 The SSL certificate error";
  if (*e.status == 496) return "496 SSL Certificate Required";
  if (*e.status == 495) return "495 SSL Certificate Error";
  return "";
}

}  // namespace

std::string client_cert_refusal(const std::optional<tls::Facts>& tls, const std::deque<http::Exchange>& exchanges,
                                bool cert_given) {
  if (tls && !tls->client_cert_refusal.empty())
    return tls::client_cert_message(tls->client_cert_sent, tls->client_cert_refusal);
  for (const auto& e : exchanges) {
    if (!e.to_api) continue;
    if (e.error) {
      std::string alert = alert_in(*e.error);
      if (!alert.empty() && about_client_cert(alert, tls))
        return tls::client_cert_message(cert_given, "TLS alert: " + shown_alert(alert));
    } else if (auto why = nginx_refusal(e); !why.empty()) {
      return tls::client_cert_message(cert_given, why);
    }
  }
  return "";
}

void explain_client_cert_errors(const std::optional<tls::Facts>& tls, std::deque<http::Exchange>& exchanges,
                                bool cert_given) {
  for (auto& e : exchanges) {
    if (!e.error) continue;
    std::string alert = alert_in(*e.error);
    if (alert.empty() || !about_client_cert(alert, tls)) continue;
    *e.error += "; " + tls::client_cert_message(cert_given, "TLS alert: " + shown_alert(alert));
  }
}

}  // namespace adrprobe::engine
