// oas/parse: JSON and YAML documents from servers, within Limits. A loaded
// document is valid UTF-8 (dump() with the strict handler never throws) and
// equals itself and its own dump read back.
#include <cstdint>
#include <string>

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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text = fuzz::as_text(data, size);
  check(parse_json(text));
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
