// A server that wants a client certificate: found in the handshakes or in the
// exchanges (TLS alerts in libcurl's errors, nginx's 400 pages), said once.
#include "engine/client_cert.hpp"
#include "fake_run.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;

namespace {


http::Exchange answer(int status, std::string body = "") {
  http::Exchange e;
  e.id = 1;
  e.method = "GET";
  e.url = kBase;
  e.status = status;
  e.body = std::move(body);
  return e;
}

http::Exchange failure(const std::string& error) {
  http::Exchange e;
  e.id = 1;
  e.method = "GET";
  e.url = kBase;
  e.error = error;
  return e;
}

const char* kNginx400 =
    "<html>\r\n<head><title>400 No required SSL certificate was sent</title></head>\r\n<body>\r\n"
    "<center><h1>400 Bad Request</h1></center>\r\n<center>No required SSL certificate was sent</center>\r\n";
const char* kAlert =
    "OpenSSL SSL_read: OpenSSL/3.0.19: error:0A00045C:SSL routines::tlsv13 alert certificate required, errno 0";

}  // namespace

TEST_CASE("client certificate: nothing to say when nothing shows a refusal") {
  std::deque<http::Exchange> ex{answer(200, "{}"), answer(400, "{\"title\": \"bad\"}"), failure("Connection refused")};
  CHECK(engine::client_cert_refusal(std::nullopt, ex, false) == "");
  tls::Facts t;
  t.handshake_ok = true;
  t.client_cert_requested = true;  // optional client certificates: asked, and the API answered
  CHECK(engine::client_cert_refusal(t, ex, false) == "");
}

TEST_CASE("client certificate: the default handshake refused over it") {
  tls::Facts t;
  t.client_cert_requested = true;
  t.client_cert_refusal = "TLS alert: certificate required";
  CHECK(engine::client_cert_refusal(t, {}, false) ==
        "the server requires a client certificate (TLS alert: certificate required): give --cert and --key");
  t.client_cert_sent = true;
  t.client_cert_refusal = "TLS alert: unknown CA";
  CHECK(engine::client_cert_refusal(t, {}, true) ==
        "the server did not accept the client certificate (TLS alert: unknown CA): check --cert and --key");
}

TEST_CASE("client certificate: nginx's 400 pages") {
  std::deque<http::Exchange> ex{answer(400, kNginx400)};
  CHECK(engine::client_cert_refusal(std::nullopt, ex, false) ==
        "the server requires a client certificate (400 No required SSL certificate was sent): give --cert and --key");
  ex = {answer(400, "<center>The SSL certificate error</center>")};
  CHECK(engine::client_cert_refusal(std::nullopt, ex, true) ==
        "the server did not accept the client certificate (400 The SSL certificate error): check --cert and --key");
  ex = {answer(496)};
  CHECK(engine::client_cert_refusal(std::nullopt, ex, false).find("(496 SSL Certificate Required)") != std::string::npos);
  // not the API's answer (a redirect to another origin): not counted
  ex = {answer(400, kNginx400)};
  ex.front().to_api = false;
  CHECK(engine::client_cert_refusal(std::nullopt, ex, false) == "");
}

TEST_CASE("client certificate: a TLS alert in a transport error") {
  std::deque<http::Exchange> ex{failure(kAlert)};
  CHECK(engine::client_cert_refusal(std::nullopt, ex, false) ==
        "the server requires a client certificate (TLS alert: certificate required): give --cert and --key");
  ex = {failure("OpenSSL/3.0.19: error:0A000418:SSL routines::tlsv1 alert unknown ca")};
  CHECK(engine::client_cert_refusal(std::nullopt, ex, true).find("(TLS alert: unknown CA)") != std::string::npos);
  // handshake failure is about the client certificate only when the server asked for one not given
  ex = {failure("OpenSSL/3.0.19: error:0A000410:SSL routines::sslv3 alert handshake failure")};
  CHECK(engine::client_cert_refusal(std::nullopt, ex, false) == "");
  tls::Facts asked;
  asked.client_cert_requested = true;
  CHECK(engine::client_cert_refusal(asked, ex, false).find("(TLS alert: handshake failure)") != std::string::npos);
  ex = {failure("OpenSSL/3.0.19: error:0A00042E:SSL routines::tlsv1 alert protocol version")};
  CHECK(engine::client_cert_refusal(asked, ex, false) == "");
}

TEST_CASE("client certificate: transport errors that are its alerts get the hint") {
  std::deque<http::Exchange> ex{failure(kAlert), failure("Connection refused")};
  engine::explain_client_cert_errors(std::nullopt, ex, false);
  CHECK(*ex[0].error == std::string(kAlert) +
                           "; the server requires a client certificate (TLS alert: certificate required): give --cert and --key");
  CHECK(*ex[1].error == "Connection refused");
}
