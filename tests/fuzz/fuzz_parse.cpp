// oas/parse: JSON and YAML documents from servers, within Limits. A loaded
// document is valid UTF-8 (dump() with the strict handler never throws) and
// equals itself and its own dump read back. Read through a sieve (values
// taken apart as they are parsed), it is the same document.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fuzz.hpp"
#include "oas/equal.hpp"
#include "oas/parse.hpp"
#include "oas/pointer.hpp"

using namespace adrprobe;
using namespace adrprobe::oas;

namespace {

void check(const ParseResult& r) {
  if (!r.ok) {
    FUZZ_ASSERT(!r.error.empty());
    return;
  }
  fuzz::assert_dumps(r.value);
  FUZZ_ASSERT(!first_difference(r.value, r.value));
  json copy = r.value;
  FUZZ_ASSERT(!first_difference(r.value, copy));
  // What adrprobe writes out (a dump), it reads back as the same document.
  auto again = parse_json(r.value.dump());
  FUZZ_ASSERT(again.ok);
  FUZZ_ASSERT(!first_difference(r.value, again.value));
  FUZZ_ASSERT(!first_difference(again.value, r.value));
}

// Through a sieve, the same document: kept whole when every value is kept,
// and, with each value of the root taken apart, those values in their order
// around an empty root.
void check_sieve(std::string_view text) {
  auto plain = parse_json(text);
  auto kept = parse_json(text, {}, Sieve{});
  FUZZ_ASSERT(kept.ok == plain.ok);
  FUZZ_ASSERT(kept.error == plain.error);
  if (!plain.ok) return;
  FUZZ_ASSERT(!first_difference(plain.value, kept.value));
  std::vector<std::pair<std::string, json>> parts;
  Sieve sieve;
  sieve.route = [](const Sieve::Path& place, const json&) {
    return place.size() == 1 ? Sieve::Route::apart : Sieve::Route::keep;
  };
  sieve.apart = [&](const Sieve::Path& place, json&& value) { parts.emplace_back(place.back().key, std::move(value)); };
  auto shell = parse_json(text, {}, sieve);
  FUZZ_ASSERT(shell.ok);
  json whole = shell.value;
  if (plain.value.is_array()) {
    FUZZ_ASSERT(shell.value.empty());
    for (auto& [key, value] : parts) whole.push_back(std::move(value));
  } else if (plain.value.is_object()) {
    FUZZ_ASSERT(shell.value.empty());
    for (auto& [key, value] : parts) whole[key] = std::move(value);  // a repeated key replaces, in its place
  } else {
    FUZZ_ASSERT(parts.empty());
  }
  FUZZ_ASSERT(!first_difference(plain.value, whole));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text = fuzz::as_text(data, size);
  check(parse_json(text));
  check_sieve(text);
  check(parse_yaml(text));
  check(parse_any(text));
  // Tight limits take the refusal paths.
  Limits tight;
  tight.max_depth = 4;
  tight.max_nodes = 32;
  tight.max_document_bytes = 256;
  check(parse_any(text, tight));
  return 0;
}
