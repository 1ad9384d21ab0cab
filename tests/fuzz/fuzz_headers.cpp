// http/allow and http/address: the Allow header, and which addresses count as
// public (the SSRF guard of external $ref fetching; addresses come from DNS
// answers a server's owner controls).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>

#include "fuzz.hpp"
#include "http/address.hpp"
#include "http/allow.hpp"
#include "util/strings.hpp"

using namespace adrprobe;
using namespace adrprobe::http;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(fuzz::as_text(data, size));

  for (const auto& method : parse_allow(text)) {
    FUZZ_ASSERT(!method.empty());
    FUZZ_ASSERT(method.find(',') == std::string::npos);
    FUZZ_ASSERT(method == trim(method));
    FUZZ_ASSERT(method == to_upper(method));
  }

  (void)classify(std::string_view(text));

  if (size >= 4) {
    std::uint32_t v4 = (std::uint32_t{data[0]} << 24) | (std::uint32_t{data[1]} << 16) | (std::uint32_t{data[2]} << 8) | data[3];
    AddressKind kind = classify_ipv4(v4);
    // The same address as a sockaddr, as text, IPv4-mapped and through NAT64.
    sockaddr_in in{};
    in.sin_family = AF_INET;
    in.sin_addr.s_addr = htonl(v4);
    FUZZ_ASSERT(classify(reinterpret_cast<const sockaddr*>(&in), sizeof in) == kind);
    char buf[INET6_ADDRSTRLEN];
    FUZZ_ASSERT(inet_ntop(AF_INET, &in.sin_addr, buf, sizeof buf));
    FUZZ_ASSERT(classify(std::string_view(buf)) == kind);
    std::array<std::uint8_t, 16> mapped{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, data[0], data[1], data[2], data[3]};
    FUZZ_ASSERT(classify_ipv6(mapped) == kind);
    std::array<std::uint8_t, 16> nat64{0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0, data[0], data[1], data[2], data[3]};
    FUZZ_ASSERT(classify_ipv6(nat64) == kind);
    // A truncated sockaddr is no address.
    FUZZ_ASSERT(classify(reinterpret_cast<const sockaddr*>(&in), sizeof in - 1) == AddressKind::other_family);
  }
  if (size >= 16) {
    std::array<std::uint8_t, 16> v6{};
    std::memcpy(v6.data(), data, 16);
    AddressKind kind = classify_ipv6(v6);
    sockaddr_in6 in6{};
    in6.sin6_family = AF_INET6;
    std::memcpy(&in6.sin6_addr, data, 16);
    FUZZ_ASSERT(classify(reinterpret_cast<const sockaddr*>(&in6), sizeof in6) == kind);
    char buf[INET6_ADDRSTRLEN];
    FUZZ_ASSERT(inet_ntop(AF_INET6, &in6.sin6_addr, buf, sizeof buf));
    FUZZ_ASSERT(classify(std::string_view(buf)) == kind);
    FUZZ_ASSERT(classify("[" + std::string(buf) + "]") == kind);
    FUZZ_ASSERT(to_string(kind) != nullptr);
  }
  return 0;
}
