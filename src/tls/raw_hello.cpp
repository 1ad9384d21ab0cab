#include "tls/raw_hello.hpp"

#include <fmt/format.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>

#include <algorithm>

namespace adrprobe::tls {
namespace {

void put16(std::string& out, std::size_t v) {
  out += static_cast<char>((v >> 8) & 0xff);
  out += static_cast<char>(v & 0xff);
}

void put24(std::string& out, std::size_t v) {
  out += static_cast<char>((v >> 16) & 0xff);
  put16(out, v & 0xffff);
}

std::size_t get16(std::string_view b, std::size_t at) {
  return (static_cast<std::size_t>(static_cast<unsigned char>(b[at])) << 8) | static_cast<unsigned char>(b[at + 1]);
}

std::size_t get24(std::string_view b, std::size_t at) {
  return (static_cast<std::size_t>(static_cast<unsigned char>(b[at])) << 16) | get16(b, at + 1);
}

std::string extension(std::uint16_t type, const std::string& body) {
  std::string e;
  put16(e, type);
  put16(e, body.size());
  return e + body;
}

std::string raw_group_name(std::size_t id) {
  switch (id) {
    case 0x0017: return "secp256r1";
    case 0x0018: return "secp384r1";
    case 0x0019: return "secp521r1";
    case 0x001d: return "x25519";
    case 0x001e: return "x448";
    case 0x0015: return "secp224r1";
    case 0x001a: return "brainpoolP256r1";
    case 0x001b: return "brainpoolP384r1";
    case 0x001c: return "brainpoolP512r1";
  }
  return fmt::format("group-0x{:04x}", id);
}

// DH parameters by their prime: the RFC 7919 primes all begin, after 64 one
// bits, with the digits of e (AD F8 54 58 ...), the RFC 2409/3526 (MODP) ones
// with those of pi (C9 0F DA A2 ...); both end in 64 one bits.
std::string raw_dh_name(std::string_view p) {
  while (!p.empty() && p.front() == '\0') p.remove_prefix(1);
  std::size_t bits = p.size() * 8;
  if (!p.empty())
    for (unsigned char top = static_cast<unsigned char>(p.front()); !(top & 0x80); top <<= 1) --bits;
  auto ones = [](std::string_view s) { return std::all_of(s.begin(), s.end(), [](char c) { return c == '\xff'; }); };
  if (p.size() > 32 && ones(p.substr(0, 8)) && ones(p.substr(p.size() - 8))) {
    if (p.substr(8, 4) == std::string_view("\xad\xf8\x54\x58", 4)) return fmt::format("ffdhe{}", bits);
    if (p.substr(8, 4) == std::string_view("\xc9\x0f\xda\xa2", 4)) return fmt::format("modp_{}", bits);
  }
  return fmt::format("DH-{}", bits);
}

const char* raw_suite_name(std::uint16_t id) {
  for (const auto& s : raw_suites())
    if (s.id == id) return s.name;
  return nullptr;
}

// The key exchange of a ServerKeyExchange body for suite.
std::string raw_kx(std::string_view body, std::uint16_t suite) {
  const char* name = raw_suite_name(suite);
  std::string_view n = name ? name : "";
  if (n.find("ECDH") != std::string_view::npos) {
    if (body.size() >= 3 && static_cast<unsigned char>(body[0]) == 3) return raw_group_name(get16(body, 1));
    return "";
  }
  if (n.find("DH") != std::string_view::npos && body.size() >= 2) {
    std::size_t len = get16(body, 0);
    if (body.size() >= 2 + len) return raw_dh_name(body.substr(2, len));
  }
  return "";
}

}  // namespace

const std::vector<RawSuite>& raw_suites() {
  static const std::vector<RawSuite> suites{
      // 3DES
      {0xC012, "ECDHE-RSA-DES-CBC3-SHA"}, {0xC008, "ECDHE-ECDSA-DES-CBC3-SHA"}, {0x0016, "DHE-RSA-DES-CBC3-SHA"},
      {0x0013, "DHE-DSS-DES-CBC3-SHA"}, {0x000A, "DES-CBC3-SHA"}, {0xC017, "AECDH-DES-CBC3-SHA"},
      {0x001B, "ADH-DES-CBC3-SHA"},
      // RC4
      {0xC011, "ECDHE-RSA-RC4-SHA"}, {0xC007, "ECDHE-ECDSA-RC4-SHA"}, {0x0005, "RC4-SHA"}, {0x0004, "RC4-MD5"},
      {0xC016, "AECDH-RC4-SHA"}, {0x0018, "ADH-RC4-MD5"},
      // single DES, IDEA, SEED
      {0x0015, "EDH-RSA-DES-CBC-SHA"}, {0x0012, "EDH-DSS-DES-CBC-SHA"}, {0x0009, "DES-CBC-SHA"},
      {0x0007, "IDEA-CBC-SHA"}, {0x009A, "DHE-RSA-SEED-SHA"}, {0x0096, "SEED-SHA"},
      // EXPORT
      {0x0014, "EXP-EDH-RSA-DES-CBC-SHA"}, {0x0008, "EXP-DES-CBC-SHA"}, {0x0006, "EXP-RC2-CBC-MD5"},
      {0x0003, "EXP-RC4-MD5"},
  };
  return suites;
}

std::string raw_client_hello(int version, const std::vector<std::uint16_t>& suites, const std::string& host) {
  std::string body;
  put16(body, static_cast<std::size_t>(version));
  unsigned char random[32];
  if (RAND_bytes(random, sizeof random) != 1) std::fill(std::begin(random), std::end(random), 0x5a);
  body.append(reinterpret_cast<const char*>(random), sizeof random);
  body += '\0';  // no session id
  put16(body, 2 * (suites.size() + 1));
  for (auto id : suites) put16(body, id);
  put16(body, 0x00FF);  // TLS_EMPTY_RENEGOTIATION_INFO_SCSV
  body += '\x01';
  body += '\0';  // compression: null only
  std::string ext;
  if (!host.empty()) {
    std::string sni;
    put16(sni, host.size() + 3);
    sni += '\0';
    put16(sni, host.size());
    sni += host;
    ext += extension(0x0000, sni);
  }
  std::string groups;
  const std::uint16_t group_ids[] = {0x001d, 0x0017, 0x0018, 0x0019, 0x001e, 0x0100, 0x0101, 0x0102};
  put16(groups, 2 * std::size(group_ids));
  for (auto g : group_ids) put16(groups, g);
  ext += extension(0x000a, groups);
  ext += extension(0x000b, std::string("\x01\x00", 2));  // ec_point_formats: uncompressed
  std::string sigalgs;
  const std::uint16_t sig_ids[] = {0x0403, 0x0503, 0x0603, 0x0804, 0x0805, 0x0806, 0x0401, 0x0501, 0x0601, 0x0203, 0x0201};
  put16(sigalgs, 2 * std::size(sig_ids));
  for (auto s : sig_ids) put16(sigalgs, s);
  if (version >= TLS1_2_VERSION) ext += extension(0x000d, sigalgs);
  put16(body, ext.size());
  body += ext;

  std::string handshake;
  handshake += '\x01';  // client_hello
  put24(handshake, body.size());
  handshake += body;
  std::string record;
  record += '\x16';
  put16(record, TLS1_VERSION);  // record version 3.1, as clients send
  put16(record, handshake.size());
  return record + handshake;
}

RawAnswer parse_raw_answer(std::string_view bytes) {
  RawAnswer a;
  std::string handshake;  // the handshake bytes of the records so far
  std::size_t at = 0;
  while (bytes.size() - at >= 5) {
    auto type = static_cast<unsigned char>(bytes[at]);
    std::size_t len = get16(bytes, at + 3);
    if (static_cast<unsigned char>(bytes[at + 1]) != 3 || len > 18432) {
      a.error = "not a TLS answer";
      a.done = true;
      return a;
    }
    if (bytes.size() - at - 5 < len) break;  // the rest of the record has not come yet
    std::string_view payload = bytes.substr(at + 5, len);
    at += 5 + len;
    if (type == 21) {
      a.alert = true;
      a.done = true;
      return a;
    }
    if (type == 22) handshake.append(payload);
  }
  std::string_view hs = handshake;
  std::size_t pos = 0;
  while (hs.size() - pos >= 4) {
    auto type = static_cast<unsigned char>(hs[pos]);
    std::size_t len = get24(hs, pos + 1);
    if (hs.size() - pos - 4 < len) break;
    std::string_view body = hs.substr(pos + 4, len);
    pos += 4 + len;
    if (type == 2) {  // ServerHello
      if (body.size() < 35 || body.size() < std::size_t{37} + static_cast<unsigned char>(body[34])) {
        a.error = "malformed ServerHello";
        a.done = true;
        return a;
      }
      a.hello = true;
      a.version = static_cast<int>(get16(body, 0));
      a.suite = static_cast<std::uint16_t>(get16(body, 35 + static_cast<unsigned char>(body[34])));
    } else if (type == 12 && a.hello) {  // ServerKeyExchange
      a.kx = raw_kx(body, a.suite);
    } else if (type == 14) {  // ServerHelloDone
      a.done = true;
      return a;
    }
  }
  return a;
}

}  // namespace adrprobe::tls
