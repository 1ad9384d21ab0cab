// oas/equal: deep equality of two loaded documents (PO-3 compares the JSON
// and the YAML form). Input: a NUL b; each is loaded as JSON, as YAML and by
// content, and every pair is compared.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fuzz.hpp"
#include "oas/equal.hpp"
#include "oas/parse.hpp"
#include "oas/pointer.hpp"

using namespace adrprobe;
using namespace adrprobe::oas;

namespace {

std::vector<json> load(std::string_view text) {
  std::vector<json> out;
  for (auto* parse : {&parse_json, &parse_yaml, &parse_any}) {
    auto r = parse(text, Limits{});
    if (!r.ok) continue;
    fuzz::assert_dumps(r.value);
    out.push_back(std::move(r.value));
  }
  return out;
}

// Exact equality of two numbers, computed apart from equal.cpp: integers as
// 128-bit integers, a double only when it is an integer in range.
std::optional<__int128> exact_integer(const json& v) {
  if (v.is_number_unsigned()) return static_cast<__int128>(v.get<std::uint64_t>());
  if (v.is_number_integer()) return static_cast<__int128>(v.get<std::int64_t>());
  double d = v.get<double>();
  if (!std::isfinite(d) || std::trunc(d) != d || std::fabs(d) >= 1e38) return std::nullopt;
  return static_cast<__int128>(d);
}

bool numbers_equal(const json& a, const json& b) {
  if (a.is_number_float() && b.is_number_float()) return a.get<double>() == b.get<double>();
  auto x = exact_integer(a), y = exact_integer(b);
  return x && y && *x == *y;
}

void compare(const json& a, const json& b) {
  auto ab = first_difference(a, b);
  auto ba = first_difference(b, a);
  FUZZ_ASSERT(ab.has_value() == ba.has_value());
  if (ab) {
    // The pointer names a place in one of the two documents.
    auto tokens = pointer_tokens(*ab);
    FUZZ_ASSERT(tokens.has_value());
    FUZZ_ASSERT(lookup(a, *tokens) || lookup(b, *tokens));
  }
  if (a.is_number() && b.is_number()) FUZZ_ASSERT(!ab.has_value() == numbers_equal(a, b));
  if (a.is_number() != b.is_number()) FUZZ_ASSERT(ab.has_value());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto parts = fuzz::split_parts(fuzz::as_text(data, size), 2);
  auto as = load(fuzz::part(parts, 0));
  auto bs = load(fuzz::part(parts, 1));
  for (const auto& a : as) {
    FUZZ_ASSERT(!first_difference(a, a));
    for (const auto& b : bs) compare(a, b);
  }
  return 0;
}
