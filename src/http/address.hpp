// Which IP addresses count as public: the SSRF guard of the requests that go
// where a server or a document points (external $refs, the redirects of the
// description document: probes.md DO-2, PO-1). Pure functions; the client
// applies them to every address it is about to connect to
// (CURLOPT_OPENSOCKETFUNCTION).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

struct sockaddr;

namespace adrprobe::http {

enum class AddressKind {
  public_address,  // globally reachable unicast
  unspecified,     // 0.0.0.0/8 ("this network"), ::
  loopback,        // 127.0.0.0/8, ::1
  private_use,     // 10/8, 172.16/12, 192.168/16, fc00::/7
  link_local,      // 169.254/16 (cloud metadata), fe80::/10
  shared,          // 100.64/10 (carrier-grade NAT)
  multicast,       // 224/4, ff00::/8
  documentation,   // 192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32, 3fff::/20
  benchmarking,    // 198.18/15
  reserved,        // 240/4 and broadcast, 192.0.0/24, 192.88.99/24, IPv6 outside 2000::/3, 2001::/23, ...
  other_family,    // not IPv4 or IPv6 (a Unix socket, ...)
};

// a.b.c.d as a number (a is the high byte).
AddressKind classify_ipv4(std::uint32_t address);
// Network byte order. IPv4-mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::/96) and
// 6to4 (2002::/16) addresses are judged by the IPv4 address they carry.
AddressKind classify_ipv6(const std::array<std::uint8_t, 16>& address);
AddressKind classify(const sockaddr* address, std::size_t length);
// A textual IPv4 or IPv6 address ("10.0.0.1", "::ffff:127.0.0.1"); nullopt when it is not one.
std::optional<AddressKind> classify(std::string_view literal);

inline bool is_public(AddressKind kind) { return kind == AddressKind::public_address; }
const char* to_string(AddressKind kind);

}  // namespace adrprobe::http
