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

std::vector<DocPtr> load(std::string_view text) {
  std::vector<DocPtr> out;
  if (auto j = parse_json_document(text); j.ok) out.push_back(std::move(j.doc));
  if (auto y = parse_yaml(text); y.ok) out.push_back(from_json(y.value));
  if (auto any = parse_any_document(text); any.ok) out.push_back(std::move(any.doc));
  for (const auto& doc : out) fuzz::assert_dumps(doc->root());
  return out;
}

// Exact equality of two numbers, computed apart from equal.cpp: integers as
// 128-bit integers, a double only when it is an integer in range.
std::optional<__int128> exact_integer(const Value& v) {
  if (v.IsUint64()) return static_cast<__int128>(v.GetUint64());
  if (v.IsInt64()) return static_cast<__int128>(v.GetInt64());
  double d = v.GetDouble();
  if (!std::isfinite(d) || std::trunc(d) != d || std::fabs(d) >= 1e38) return std::nullopt;
  return static_cast<__int128>(d);
}

bool numbers_equal(const Value& a, const Value& b) {
  if (a.IsDouble() && b.IsDouble()) return a.GetDouble() == b.GetDouble();
  auto x = exact_integer(a), y = exact_integer(b);
  return x && y && *x == *y;
}

void compare(const Value& a, const Value& b) {
  auto ab = first_difference(a, b);
  auto ba = first_difference(b, a);
  FUZZ_ASSERT(ab.has_value() == ba.has_value());
  if (ab) {
    // The pointer names a place in one of the two documents.
    auto tokens = pointer_tokens(*ab);
    FUZZ_ASSERT(tokens.has_value());
    FUZZ_ASSERT(lookup(a, *tokens) || lookup(b, *tokens));
  }
  if (a.IsNumber() && b.IsNumber()) FUZZ_ASSERT(!ab.has_value() == numbers_equal(a, b));
  if (a.IsNumber() != b.IsNumber()) FUZZ_ASSERT(ab.has_value());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto parts = fuzz::split_parts(fuzz::as_text(data, size), 2);
  auto as = load(fuzz::part(parts, 0));
  auto bs = load(fuzz::part(parts, 1));
  for (const auto& a : as) {
    FUZZ_ASSERT(!first_difference(a->root(), a->root()));
    for (const auto& b : bs) compare(a->root(), b->root());
  }
  return 0;
}
