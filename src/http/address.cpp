#include "http/address.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstring>
#include <initializer_list>
#include <string>

namespace adrprobe::http {
namespace {

struct Block4 {
  std::uint32_t prefix;
  int bits;
  AddressKind kind;
};

constexpr std::uint32_t v4(unsigned a, unsigned b, unsigned c, unsigned d) { return (a << 24) | (b << 16) | (c << 8) | d; }

// IANA IPv4 Special-Purpose Address Registry, the blocks not globally reachable
// (and the deprecated 6to4 relay anycast block).
constexpr Block4 kSpecial4[] = {
    {v4(0, 0, 0, 0), 8, AddressKind::unspecified},
    {v4(10, 0, 0, 0), 8, AddressKind::private_use},
    {v4(100, 64, 0, 0), 10, AddressKind::shared},
    {v4(127, 0, 0, 0), 8, AddressKind::loopback},
    {v4(169, 254, 0, 0), 16, AddressKind::link_local},
    {v4(172, 16, 0, 0), 12, AddressKind::private_use},
    {v4(192, 0, 0, 0), 24, AddressKind::reserved},  // IETF protocol assignments
    {v4(192, 0, 2, 0), 24, AddressKind::documentation},
    {v4(192, 88, 99, 0), 24, AddressKind::reserved},  // 6to4 relay anycast (deprecated)
    {v4(192, 168, 0, 0), 16, AddressKind::private_use},
    {v4(198, 18, 0, 0), 15, AddressKind::benchmarking},
    {v4(198, 51, 100, 0), 24, AddressKind::documentation},
    {v4(203, 0, 113, 0), 24, AddressKind::documentation},
    {v4(224, 0, 0, 0), 4, AddressKind::multicast},
    {v4(240, 0, 0, 0), 4, AddressKind::reserved},  // and 255.255.255.255
};

bool in_block(std::uint32_t address, std::uint32_t prefix, int bits) {
  std::uint32_t mask = bits == 0 ? 0 : ~std::uint32_t{0} << (32 - bits);
  return (address & mask) == prefix;
}

std::uint32_t ipv4_at(const std::array<std::uint8_t, 16>& a, std::size_t at) {
  return (std::uint32_t{a[at]} << 24) | (std::uint32_t{a[at + 1]} << 16) | (std::uint32_t{a[at + 2]} << 8) | a[at + 3];
}

// The first `bytes` bytes of a equal those of prefix, and the next `bits` bits too.
bool starts(const std::array<std::uint8_t, 16>& a, std::initializer_list<std::uint8_t> prefix, int extra_bits = 0,
            std::uint8_t next = 0) {
  std::size_t i = 0;
  for (std::uint8_t p : prefix)
    if (a[i++] != p) return false;
  if (extra_bits == 0) return true;
  std::uint8_t mask = static_cast<std::uint8_t>(0xFF << (8 - extra_bits));
  return (a[i] & mask) == (next & mask);
}

}  // namespace

AddressKind classify_ipv4(std::uint32_t address) {
  for (const auto& b : kSpecial4)
    if (in_block(address, b.prefix, b.bits)) return b.kind;
  return AddressKind::public_address;
}

AddressKind classify_ipv6(const std::array<std::uint8_t, 16>& a) {
  static const std::array<std::uint8_t, 16> zero{};
  bool first_80_zero = std::memcmp(a.data(), zero.data(), 10) == 0;
  // ::ffff:a.b.c.d (IPv4-mapped): the IPv4 address is what gets connected to.
  if (first_80_zero && a[10] == 0xFF && a[11] == 0xFF) return classify_ipv4(ipv4_at(a, 12));
  if (first_80_zero && a[10] == 0 && a[11] == 0) {
    if (std::memcmp(a.data(), zero.data(), 15) == 0) {
      if (a[15] == 0) return AddressKind::unspecified;  // ::
      if (a[15] == 1) return AddressKind::loopback;     // ::1
    }
    return AddressKind::reserved;  // ::a.b.c.d (IPv4-compatible, deprecated)
  }
  // 64:ff9b::/96 (NAT64 well-known prefix): a gateway connects to the IPv4 address.
  if (starts(a, {0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0})) return classify_ipv4(ipv4_at(a, 12));
  if ((a[0] & 0xFE) == 0xFC) return AddressKind::private_use;                // fc00::/7 unique local
  if (a[0] == 0xFE && (a[1] & 0xC0) == 0x80) return AddressKind::link_local;  // fe80::/10
  if (a[0] == 0xFF) return AddressKind::multicast;                           // ff00::/8
  // Only 2000::/3 is global unicast; everything else (fec0::/10 site-local,
  // 100::/64 discard, 64:ff9b:1::/48 local NAT64, 5f00::/16 SRv6, ...) is not.
  if ((a[0] & 0xE0) != 0x20) return AddressKind::reserved;
  if (starts(a, {0x20, 0x01, 0x0D, 0xB8})) return AddressKind::documentation;  // 2001:db8::/32
  if (starts(a, {0x3F, 0xFF}, 4, 0x00)) return AddressKind::documentation;     // 3fff::/20
  if (starts(a, {0x20, 0x01}, 7, 0x00)) return AddressKind::reserved;          // 2001::/23 (Teredo, ORCHID, ...)
  if (starts(a, {0x20, 0x02})) return classify_ipv4(ipv4_at(a, 2));           // 2002::/16 6to4
  return AddressKind::public_address;
}

AddressKind classify(const sockaddr* address, std::size_t length) {
  if (!address) return AddressKind::other_family;
  if (address->sa_family == AF_INET && length >= sizeof(sockaddr_in)) {
    sockaddr_in in{};
    std::memcpy(&in, address, sizeof in);
    return classify_ipv4(ntohl(in.sin_addr.s_addr));
  }
  if (address->sa_family == AF_INET6 && length >= sizeof(sockaddr_in6)) {
    sockaddr_in6 in6{};
    std::memcpy(&in6, address, sizeof in6);
    std::array<std::uint8_t, 16> bytes{};
    std::memcpy(bytes.data(), &in6.sin6_addr, 16);
    return classify_ipv6(bytes);
  }
  return AddressKind::other_family;
}

std::optional<AddressKind> classify(std::string_view literal) {
  std::string text(literal);
  if (text.size() > 2 && text.front() == '[' && text.back() == ']') text = text.substr(1, text.size() - 2);
  in_addr v4addr{};
  if (inet_pton(AF_INET, text.c_str(), &v4addr) == 1) return classify_ipv4(ntohl(v4addr.s_addr));
  in6_addr v6addr{};
  if (inet_pton(AF_INET6, text.c_str(), &v6addr) == 1) {
    std::array<std::uint8_t, 16> bytes{};
    std::memcpy(bytes.data(), &v6addr, 16);
    return classify_ipv6(bytes);
  }
  return std::nullopt;
}

const char* to_string(AddressKind kind) {
  switch (kind) {
    case AddressKind::public_address: return "public";
    case AddressKind::unspecified: return "unspecified";
    case AddressKind::loopback: return "loopback";
    case AddressKind::private_use: return "private";
    case AddressKind::link_local: return "link-local";
    case AddressKind::shared: return "shared (CGNAT)";
    case AddressKind::multicast: return "multicast";
    case AddressKind::documentation: return "documentation";
    case AddressKind::benchmarking: return "benchmarking";
    case AddressKind::reserved: return "reserved";
    case AddressKind::other_family: return "not IP";
  }
  return "unknown";
}

}  // namespace adrprobe::http
