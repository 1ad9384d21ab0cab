// report/redact: -H values never appear in a report, whatever a server echoes:
// not in any string, not lower-cased in a response header name, not in a
// base64 run of any alignment or alphabet (values of 5 bytes or more, whose
// every alignment leaves Redactor::min_base64_part characters of their own).
// Nor in the escaped forms a server's JSON, URL and HTML libraries write:
// each ASCII value without '*' (a mask can complete one of those) is also
// written escaped between the texts, and that form must not survive.
// Input: secrets NUL text NUL text ...; the first part holds the -H values,
// one a line (trimmed, as -H reads them).
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "../base64_scan.hpp"
#include "fuzz.hpp"
#include "http/exchange.hpp"
#include "report/model.hpp"
#include "report/redact.hpp"
#include "util/strings.hpp"

using namespace adrprobe;
using namespace adrprobe::report;

namespace {

void assert_clean(const std::string& s, const std::vector<std::string>& secrets) {
  for (const auto& secret : secrets) {
    FUZZ_ASSERT(s.find(secret) == std::string::npos);
    if (secret.size() >= 5) FUZZ_ASSERT(!adrprobe::testing::base64_holds(s, secret));
  }
}

// The value as JSON (every character as \\uXXXX, upper or lower hex; or only
// '/' as "\\/", PHP's json_encode), a URL (%XX, a space as '+') and HTML
// (&#xHH; and &#DD;) write it. Only characters other than letters and digits
// are escaped, as the libraries do, except in the \\u form.
std::vector<std::string> escaped_forms(const std::string& v) {
  auto each = [&](auto&& escape) {
    std::string out;
    for (unsigned char c : v) out += std::isalnum(c) ? std::string(1, static_cast<char>(c)) : escape(c);
    return out;
  };
  std::string json_upper, json_lower;
  for (unsigned char c : v) {
    json_upper += fmt::format("\\u{:04X}", c);
    json_lower += fmt::format("\\u{:04x}", c);
  }
  return {json_upper,
          json_lower,
          each([](unsigned char c) { return c == '/' ? std::string("\\/") : c == '"' || c == '\\' ? std::string("\\") + static_cast<char>(c) : std::string(1, static_cast<char>(c)); }),
          each([](unsigned char c) { return fmt::format("%{:02X}", c); }),
          each([](unsigned char c) { return c == ' ' ? std::string("+") : fmt::format("%{:02x}", c); }),
          each([](unsigned char c) { return fmt::format("&#x{:X};", c); }),
          each([](unsigned char c) { return fmt::format("&#{};", c); })};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto parts = fuzz::split_parts(fuzz::as_text(data, size));
  std::vector<http::Header> headers;
  std::vector<std::string> secrets;  // those Redactor promises to find anywhere
  for (const auto& line : split(fuzz::part(parts, 0), '\n')) {
    std::string value = trim(line);
    if (value.find('\r') != std::string::npos) continue;  // -H refuses it
    headers.push_back({"X-Key-" + std::to_string(headers.size()), value});
    if (value.size() >= Redactor::min_substring) secrets.push_back(value);
  }
  Redactor redactor(headers);

  std::vector<std::string> texts;
  for (std::size_t i = 1; i < parts.size(); ++i) texts.emplace_back(parts[i]);
  for (const auto& t : texts) assert_clean(redactor.apply(t), secrets);
  for (const auto& secret : secrets) {
    bool ascii = std::all_of(secret.begin(), secret.end(), [](char c) { return c >= 0x20 && c < 0x7f && c != '*'; });
    if (!ascii) continue;
    std::string before = texts.empty() ? "" : texts[0], after = texts.size() < 2 ? "" : texts[1];
    for (const auto& form : escaped_forms(secret)) {
      std::string out = redactor.apply(before + " " + form + " " + after);
      FUZZ_ASSERT(out.find(form) == std::string::npos);
    }
  }

  // Every string of a report that can hold server text or a -H value.
  Report rep;
  auto text = [&](std::size_t i) { return texts.empty() ? std::string() : texts[i % texts.size()]; };
  rep.base_url = text(0);
  rep.openapi_url = text(1);
  rep.notes = {text(2)};
  RuleResult rule;
  rule.summary = text(3);
  rule.hints = {text(4)};
  rule.checks.push_back(CheckResult{"X-1", Verdict::fail, text(5), {1}});
  rule.checks.back().details = {text(10)};
  rule.checks.back().locations = {Location{text(11), 1, ""}};
  rep.rules.push_back(rule);
  http::Exchange e;
  e.url = text(6);
  std::vector<http::Header> sent(headers.begin(), headers.end());
  sent.push_back({"X-Other", text(7)});
  e.request_headers = http::SharedHeaders(std::move(sent));
  for (std::size_t i = 0; i < texts.size(); ++i) {
    e.response_headers["x-echo-" + std::to_string(i)] = texts[i];
    e.response_headers[to_lower(texts[i])] = std::to_string(i);  // a name, stored lower case
  }
  e.error = text(8);
  e.body = text(9);
  rep.exchanges.push_back(e);
  redactor.apply(rep);

  assert_clean(rep.base_url, secrets);
  assert_clean(*rep.openapi_url, secrets);
  for (const auto& n : rep.notes) assert_clean(n, secrets);
  for (const auto& r : rep.rules) {
    assert_clean(r.summary, secrets);
    for (const auto& h : r.hints) assert_clean(h, secrets);
    for (const auto& c : r.checks) {
      assert_clean(c.message, secrets);
      for (const auto& d : c.details) assert_clean(d, secrets);
      for (const auto& l : c.locations) assert_clean(l.pointer, secrets);
    }
  }
  for (const auto& x : rep.exchanges) {
    assert_clean(x.url, secrets);
    for (std::size_t i = 0; i < x.request_headers.size(); ++i) {
      assert_clean(x.request_headers[i].second, secrets);
      // A -H header itself is masked whole, however short its value.
      if (i < headers.size()) FUZZ_ASSERT(x.request_headers[i].second == Redactor::mask);
    }
    std::vector<std::string> lower;
    for (const auto& secret : secrets) lower.push_back(to_lower(secret));
    for (const auto& [name, value] : x.response_headers) {
      assert_clean(value, secrets);
      for (const auto& secret : lower) FUZZ_ASSERT(name.find(secret) == std::string::npos);
    }
    assert_clean(*x.error, secrets);
    assert_clean(x.body, secrets);
  }
  return 0;
}
