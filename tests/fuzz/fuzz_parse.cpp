// oas/parse: JSON and YAML documents from servers, within Limits. A loaded
// document is valid UTF-8 (dump() with the strict handler never throws) and
// equals itself and its own dump read back. Read through a sieve (values
// taken apart as they are parsed), it is the same document. Read as a
// description document (RapidJSON), it is what parse_json reads, or refused
// with parse_json's message. The lines of its values are the same read from
// the text whole or from a stream in chunks.
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "fuzz.hpp"
#include "oas/equal.hpp"
#include "oas/lines.hpp"
#include "oas/parse.hpp"
#include "oas/pointer.hpp"

using namespace adrprobe;
using namespace adrprobe::oas;

namespace {

// first_difference of two trees, compared as documents.
std::optional<std::string> difference(const json& a, const json& b) {
  DocPtr x = from_json(a), y = from_json(b);
  return first_difference(x->root(), y->root());
}

// A dump that never throws: what is compared, not whether it is UTF-8
// (assert_dumps says that).
std::string dumped(const json& v) { return v.dump(-1, ' ', false, json::error_handler_t::replace); }

void check(const ParseResult& r) {
  if (!r.ok) {
    FUZZ_ASSERT(!r.error.empty());
    return;
  }
  fuzz::assert_dumps(r.value);
  FUZZ_ASSERT(!difference(r.value, r.value));
  json copy = r.value;
  FUZZ_ASSERT(!difference(r.value, copy));
  // What adrprobe writes out (a dump), it reads back as the same document.
  auto again = parse_json(r.value.dump());
  FUZZ_ASSERT(again.ok);
  FUZZ_ASSERT(!difference(r.value, again.value));
  FUZZ_ASSERT(!difference(again.value, r.value));
}

// A description document is read as parse_json (parse_any) reads the text:
// both take it or both refuse it, with the same message, and the same tree.
void check_document(const DocResult& doc, const ParseResult& parsed) {
  FUZZ_ASSERT(doc.ok == parsed.ok);
  FUZZ_ASSERT(doc.error == parsed.error);
  if (!doc.ok) {
    FUZZ_ASSERT(!doc.doc);
    return;
  }
  FUZZ_ASSERT(doc.doc);
  fuzz::assert_dumps(doc.doc->root());
  FUZZ_ASSERT(dumped(to_json(doc.doc->root())) == dumped(parsed.value));
  FUZZ_ASSERT(dump(doc.doc->root()) == dumped(parsed.value));
  FUZZ_ASSERT(!first_difference(doc.doc->root(), doc.doc->root()));
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
  FUZZ_ASSERT(!difference(plain.value, kept.value));
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
  FUZZ_ASSERT(!difference(plain.value, whole));
}

// The lines of the root's members and of their first members or items, and
// of a few pointers that may not be there: from the text whole, and from a
// stream of it (read in chunks, YAML read whole within the limit).
void check_lines(std::string_view text, const ParseResult& parsed) {
  std::vector<std::string> pointers{"", "/0", "/a", "/paths", "/~1", "/0/0"};
  if (parsed.ok && parsed.value.is_object())
    for (const auto& [key, value] : parsed.value.items()) {
      std::string p = "/" + escape_token(key);
      pointers.push_back(p);
      if (value.is_object() && !value.empty()) pointers.push_back(p + "/" + escape_token(value.begin().key()));
      if (value.is_array() && !value.empty()) pointers.push_back(p + "/0");
      if (pointers.size() > 40) break;
    }
  auto whole = lines_of(text, pointers);
  std::istringstream in{std::string(text)};
  FUZZ_ASSERT(lines_of(in, text.size(), pointers) == whole);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text = fuzz::as_text(data, size);
  auto json_value = parse_json(text);
  check(json_value);
  check_document(parse_json_document(text), json_value);
  check_sieve(text);
  check(parse_yaml(text));
  auto any = parse_any(text);
  check(any);
  check_document(parse_any_document(text), any);
  check_lines(text, any);
  // Tight limits take the refusal paths.
  Limits tight;
  tight.max_depth = 4;
  tight.max_nodes = 32;
  tight.max_document_bytes = 256;
  auto any_tight = parse_any(text, tight);
  check(any_tight);
  check_document(parse_any_document(text, tight), any_tight);
  check_document(parse_json_document(text, tight), parse_json(text, tight));
  return 0;
}
