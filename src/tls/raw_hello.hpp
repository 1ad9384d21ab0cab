// Hand-made TLS <= 1.2 ClientHellos for the suites this OpenSSL cannot offer
// (3DES, RC4, DES, EXPORT, IDEA, SEED: a build without weak ciphers has none of
// them), so that TS-3 still sees a server that accepts them, as testssl does
// with its own sockets. Only the server's first flight is read: its choice in
// the ServerHello and, from the ServerKeyExchange, the key exchange it chose.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace adrprobe::tls {

struct RawSuite {
  std::uint16_t id;  // IANA code point
  const char* name;  // OpenSSL's name (the last one OpenSSL gave it)
};

// The suites probed by hand when this OpenSSL cannot offer them.
const std::vector<RawSuite>& raw_suites();

// A ClientHello record offering suites at version (TLS1_VERSION .. TLS1_2_VERSION),
// with SNI for host (unless empty) and an ordinary client's groups.
std::string raw_client_hello(int version, const std::vector<std::uint16_t>& suites, const std::string& host);

// What the server's first flight said, parsed as far as it has come.
struct RawAnswer {
  bool done = false;     // enough read: ServerHelloDone, an alert, or something unreadable
  bool hello = false;    // a ServerHello was read
  int version = 0;       // its version
  std::uint16_t suite = 0;
  std::string kx;        // "x25519", "secp256r1", "ffdhe2048", "modp_2048", "DH-1024"; "" none seen
  bool alert = false;    // the server answered with an alert
  std::string error;     // not TLS, or malformed
};

// Parses bytes (everything the server sent so far).
RawAnswer parse_raw_answer(std::string_view bytes);

}  // namespace adrprobe::tls
