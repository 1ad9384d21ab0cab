// http/address: which addresses an external $ref may be fetched from (DO-2 SSRF guard).
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <cstring>
#include <string>

#include "http/address.hpp"

using namespace adrprobe::http;

namespace {
AddressKind kind(const char* literal) {
  auto k = classify(std::string_view(literal));
  REQUIRE_MESSAGE(k.has_value(), literal);
  return *k;
}
}  // namespace

TEST_CASE("address: public IPv4 and IPv6") {
  for (const char* a : {"1.1.1.1", "8.8.8.8", "93.184.216.34", "100.63.255.255", "100.128.0.0", "172.15.255.255",
                        "172.32.0.0", "192.167.255.255", "192.169.0.0", "198.17.255.255", "198.20.0.0", "223.255.255.255",
                        "169.253.255.255", "192.0.1.0", "11.0.0.0", "126.255.255.255", "128.0.0.0",
                        "2001:4860:4860::8888", "2606:4700:4700::1111", "2a00:1450:4001::1", "::ffff:8.8.8.8",
                        "64:ff9b::808:808", "2002:808:808::1", "2001:200::1", "3fff:1000::1", "2001:db9::1"}) {
    INFO(a);
    CHECK(kind(a) == AddressKind::public_address);
    CHECK(is_public(kind(a)));
  }
}

TEST_CASE("address: loopback, private, link-local, CGNAT") {
  CHECK(kind("127.0.0.1") == AddressKind::loopback);
  CHECK(kind("127.0.0.2") == AddressKind::loopback);
  CHECK(kind("127.255.255.255") == AddressKind::loopback);
  CHECK(kind("::1") == AddressKind::loopback);
  CHECK(kind("[::1]") == AddressKind::loopback);
  CHECK(kind("10.0.0.0") == AddressKind::private_use);
  CHECK(kind("10.255.255.255") == AddressKind::private_use);
  CHECK(kind("172.16.0.0") == AddressKind::private_use);
  CHECK(kind("172.31.255.255") == AddressKind::private_use);
  CHECK(kind("192.168.0.1") == AddressKind::private_use);
  CHECK(kind("192.168.255.255") == AddressKind::private_use);
  CHECK(kind("fc00::1") == AddressKind::private_use);
  CHECK(kind("fd00:ec2::254") == AddressKind::private_use);  // a cloud metadata service over IPv6
  CHECK(kind("fdff:ffff::1") == AddressKind::private_use);
  CHECK(kind("169.254.169.254") == AddressKind::link_local);  // cloud metadata
  CHECK(kind("169.254.0.0") == AddressKind::link_local);
  CHECK(kind("fe80::1") == AddressKind::link_local);
  CHECK(kind("febf:ffff::1") == AddressKind::link_local);
  CHECK(kind("100.64.0.0") == AddressKind::shared);
  CHECK(kind("100.127.255.255") == AddressKind::shared);
}

TEST_CASE("address: other special-purpose blocks") {
  CHECK(kind("0.0.0.0") == AddressKind::unspecified);
  CHECK(kind("0.1.2.3") == AddressKind::unspecified);
  CHECK(kind("::") == AddressKind::unspecified);
  CHECK(kind("224.0.0.1") == AddressKind::multicast);
  CHECK(kind("239.255.255.250") == AddressKind::multicast);
  CHECK(kind("ff02::1") == AddressKind::multicast);
  CHECK(kind("240.0.0.1") == AddressKind::reserved);
  CHECK(kind("255.255.255.255") == AddressKind::reserved);
  CHECK(kind("192.0.0.8") == AddressKind::reserved);
  CHECK(kind("192.88.99.1") == AddressKind::reserved);
  CHECK(kind("198.18.0.1") == AddressKind::benchmarking);
  CHECK(kind("198.19.255.255") == AddressKind::benchmarking);
  CHECK(kind("192.0.2.1") == AddressKind::documentation);
  CHECK(kind("198.51.100.7") == AddressKind::documentation);
  CHECK(kind("203.0.113.9") == AddressKind::documentation);
  CHECK(kind("2001:db8::1") == AddressKind::documentation);
  CHECK(kind("3fff::1") == AddressKind::documentation);
  CHECK(kind("3fff:0fff::1") == AddressKind::documentation);
  CHECK(kind("fec0::1") == AddressKind::reserved);  // site-local, deprecated
  CHECK(kind("100::1") == AddressKind::reserved);   // discard-only
  CHECK(kind("2001::1") == AddressKind::reserved);  // Teredo
  CHECK(kind("2001:1ff::1") == AddressKind::reserved);
  CHECK(kind("64:ff9b:1::1") == AddressKind::reserved);  // local-use NAT64
  CHECK(kind("4000::1") == AddressKind::reserved);       // outside 2000::/3
  CHECK(kind("::7f00:1") == AddressKind::reserved);      // IPv4-compatible, deprecated
}

TEST_CASE("address: IPv4 carried in IPv6 is judged by the IPv4 address") {
  CHECK(kind("::ffff:127.0.0.1") == AddressKind::loopback);
  CHECK(kind("::ffff:7f00:1") == AddressKind::loopback);
  CHECK(kind("::ffff:10.1.2.3") == AddressKind::private_use);
  CHECK(kind("::ffff:169.254.169.254") == AddressKind::link_local);
  CHECK(kind("::ffff:100.64.1.1") == AddressKind::shared);
  CHECK(kind("::ffff:0.0.0.0") == AddressKind::unspecified);
  CHECK(kind("64:ff9b::127.0.0.1") == AddressKind::loopback);
  CHECK(kind("64:ff9b::a9fe:a9fe") == AddressKind::link_local);
  CHECK(kind("2002:7f00:1::") == AddressKind::loopback);  // 6to4 of 127.0.0.1
  CHECK(kind("2002:c0a8:101::1") == AddressKind::private_use);
}

TEST_CASE("address: not an address, and socket addresses") {
  CHECK_FALSE(classify(std::string_view("example.nl")).has_value());
  CHECK_FALSE(classify(std::string_view("")).has_value());
  CHECK_FALSE(classify(std::string_view("127.1")).has_value());  // no shorthand forms
  CHECK_FALSE(classify(std::string_view("256.0.0.1")).has_value());

  sockaddr_in in{};
  in.sin_family = AF_INET;
  inet_pton(AF_INET, "169.254.169.254", &in.sin_addr);
  CHECK(classify(reinterpret_cast<const sockaddr*>(&in), sizeof in) == AddressKind::link_local);
  inet_pton(AF_INET, "8.8.4.4", &in.sin_addr);
  CHECK(classify(reinterpret_cast<const sockaddr*>(&in), sizeof in) == AddressKind::public_address);
  CHECK(classify(reinterpret_cast<const sockaddr*>(&in), 4) == AddressKind::other_family);  // too short

  sockaddr_in6 in6{};
  in6.sin6_family = AF_INET6;
  inet_pton(AF_INET6, "::ffff:192.168.1.1", &in6.sin6_addr);
  CHECK(classify(reinterpret_cast<const sockaddr*>(&in6), sizeof in6) == AddressKind::private_use);
  inet_pton(AF_INET6, "2a00:1450::1", &in6.sin6_addr);
  CHECK(classify(reinterpret_cast<const sockaddr*>(&in6), sizeof in6) == AddressKind::public_address);

  sockaddr_un un{};
  un.sun_family = AF_UNIX;
  CHECK(classify(reinterpret_cast<const sockaddr*>(&un), sizeof un) == AddressKind::other_family);
  CHECK(classify(nullptr, 0) == AddressKind::other_family);
  CHECK_FALSE(is_public(AddressKind::other_family));
  CHECK(std::string(to_string(AddressKind::link_local)) == "link-local");
}

TEST_CASE("address: every IPv4 /8 and the block edges") {
  // Walk the edges of each special block: the address before and after is public
  // unless it falls in a neighbouring block.
  struct Edge {
    const char* first;
    const char* last;
    const char* before;
    const char* after;
  };
  for (auto e : {Edge{"10.0.0.0", "10.255.255.255", "9.255.255.255", "11.0.0.0"},
                 Edge{"100.64.0.0", "100.127.255.255", "100.63.255.255", "100.128.0.0"},
                 Edge{"172.16.0.0", "172.31.255.255", "172.15.255.255", "172.32.0.0"},
                 Edge{"169.254.0.0", "169.254.255.255", "169.253.255.255", "169.255.0.0"},
                 Edge{"198.18.0.0", "198.19.255.255", "198.17.255.255", "198.20.0.0"},
                 Edge{"192.168.0.0", "192.168.255.255", "192.167.255.255", "192.169.0.0"}}) {
    INFO(e.first);
    CHECK_FALSE(is_public(kind(e.first)));
    CHECK_FALSE(is_public(kind(e.last)));
    CHECK(is_public(kind(e.before)));
    CHECK(is_public(kind(e.after)));
  }
  int public_slash8 = 0;
  for (std::uint32_t a = 0; a < 256; ++a) public_slash8 += is_public(classify_ipv4((a << 24) | 0x010101));
  // not 0, 10, 127 and 224..255
  CHECK(public_slash8 == 256 - 3 - 32);
}
