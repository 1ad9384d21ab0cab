// Hand-made ClientHellos (TLS <= 1.2) and the reading of a server's first flight.
#include <doctest/doctest.h>
#include <openssl/ssl.h>

#include <string>

#include "tls/raw_hello.hpp"

using namespace adrprobe;

namespace {

std::string rh_u16(std::size_t v) { return {static_cast<char>(v >> 8), static_cast<char>(v & 0xff)}; }
std::string rh_u24(std::size_t v) { return static_cast<char>(v >> 16) + rh_u16(v & 0xffff); }

std::string rh_record(char type, const std::string& payload) { return type + rh_u16(0x0303) + rh_u16(payload.size()) + payload; }
std::string rh_message(char type, const std::string& body) { return type + rh_u24(body.size()) + body; }

std::string rh_server_hello(int version, std::uint16_t suite) {
  return rh_message(2, rh_u16(static_cast<std::size_t>(version)) + std::string(32, 'r') + std::string("\x00", 1) +
                           rh_u16(suite) + std::string("\x00", 1));
}

// A DHE ServerKeyExchange with prime p (then g and Ys, not read).
std::string rh_dh_ske(const std::string& p) { return rh_message(12, rh_u16(p.size()) + p + rh_u16(1) + "\x02" + rh_u16(1) + "\x05"); }

std::string rh_prime(std::size_t bytes, const std::string& after_ones) {
  std::string p(8, '\xff');
  p += after_ones;
  p += std::string(bytes - p.size() - 8, '\x42');
  return p + std::string(8, '\xff');
}

}  // namespace

TEST_CASE("raw ClientHello: one handshake record offering the suites, SNI and an ordinary client's groups") {
  std::string hello = tls::raw_client_hello(TLS1_2_VERSION, {0x000A, 0xC012}, "api.example.nl");
  REQUIRE(hello.size() > 60);
  CHECK(hello[0] == '\x16');
  CHECK(static_cast<std::size_t>(static_cast<unsigned char>(hello[3]) << 8 | static_cast<unsigned char>(hello[4])) ==
        hello.size() - 5);
  CHECK(hello[5] == '\x01');                     // client_hello
  CHECK(hello.substr(9, 2) == rh_u16(0x0303));   // client_version TLS 1.2
  CHECK(hello[43] == '\0');                      // no session id
  CHECK(hello.substr(44, 2) == rh_u16(6));       // two suites and the renegotiation SCSV
  CHECK(hello.substr(46, 6) == rh_u16(0x000A) + rh_u16(0xC012) + rh_u16(0x00FF));
  CHECK(hello.find("api.example.nl") != std::string::npos);
  CHECK(hello.find(rh_u16(0x000d)) != std::string::npos);  // signature_algorithms with TLS 1.2

  std::string old = tls::raw_client_hello(TLS1_VERSION, {0x000A}, "");
  CHECK(old.substr(9, 2) == rh_u16(0x0301));
  CHECK(old.find("api.example.nl") == std::string::npos);
}

TEST_CASE("raw answer: ServerHello, key exchange and ServerHelloDone, across records and in pieces") {
  std::string ecdhe_ske = rh_message(12, std::string("\x03", 1) + rh_u16(0x001d) + "\x20" + std::string(32, 'k'));
  std::string flight = rh_record(22, rh_server_hello(TLS1_2_VERSION, 0xC012) + rh_message(11, std::string(40, 'c'))) +
                       rh_record(22, ecdhe_ske + rh_message(14, ""));
  auto a = tls::parse_raw_answer(flight);
  CHECK(a.done);
  CHECK(a.hello);
  CHECK(a.version == TLS1_2_VERSION);
  CHECK(a.suite == 0xC012);
  CHECK(a.kx == "x25519");
  CHECK_FALSE(a.alert);

  auto part = tls::parse_raw_answer(flight.substr(0, flight.size() - 3));  // the last record not complete
  CHECK_FALSE(part.done);
  CHECK(part.hello);
}

TEST_CASE("raw answer: DH parameters named by their prime; static RSA has no key exchange") {
  auto dh = [](const std::string& p) {
    return tls::parse_raw_answer(rh_record(22, rh_server_hello(TLS1_VERSION, 0x0016) + rh_dh_ske(p) + rh_message(14, ""))).kx;
  };
  CHECK(dh(rh_prime(256, "\xad\xf8\x54\x58")) == "ffdhe2048");
  CHECK(dh(rh_prime(384, "\xad\xf8\x54\x58")) == "ffdhe3072");
  CHECK(dh(rh_prime(256, "\xc9\x0f\xda\xa2")) == "modp_2048");
  CHECK(dh(std::string("\x00", 1) + rh_prime(128, "\x12\x34\x56\x78")) == "DH-1024");
  CHECK(dh(std::string("\x7f") + std::string(127, '\x01')) == "DH-1023");

  auto rsa = tls::parse_raw_answer(rh_record(22, rh_server_hello(TLS1_2_VERSION, 0x000A) + rh_message(14, "")));
  CHECK(rsa.done);
  CHECK(rsa.suite == 0x000A);
  CHECK(rsa.kx.empty());
}

TEST_CASE("raw answer: an alert is a refusal; what is not TLS is said") {
  auto alert = tls::parse_raw_answer(rh_record(21, "\x02\x28"));
  CHECK(alert.done);
  CHECK(alert.alert);
  CHECK_FALSE(alert.hello);

  auto http = tls::parse_raw_answer("HTTP/1.1 400 Bad Request\r\n\r\n");
  CHECK(http.done);
  CHECK_FALSE(http.hello);
  CHECK(http.error == "not a TLS answer");

  CHECK_FALSE(tls::parse_raw_answer("").done);
}

TEST_CASE("raw suites: OpenSSL names, each once") {
  const auto& suites = tls::raw_suites();
  CHECK(suites.size() > 10);
  for (std::size_t i = 0; i < suites.size(); ++i)
    for (std::size_t j = i + 1; j < suites.size(); ++j) {
      CHECK(suites[i].id != suites[j].id);
      CHECK(std::string(suites[i].name) != suites[j].name);
    }
}
