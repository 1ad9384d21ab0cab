// oas/pointer: JSON pointers and $ref fragments from documents.
// Input: pointer NUL document NUL choices (bytes that pick a path into the
// document).
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz.hpp"
#include "oas/pointer.hpp"
#include "oas/refs.hpp"
#include "util/strings.hpp"

using namespace adrprobe;
using namespace adrprobe::oas;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto parts = fuzz::split_parts(fuzz::as_text(data, size), 3);
  std::string pointer(fuzz::part(parts, 0));
  std::string_view choices = fuzz::part(parts, 2);

  // A well-formed pointer is exactly the pointer of its tokens.
  if (auto tokens = pointer_tokens(pointer)) {
    FUZZ_ASSERT(make_pointer(*tokens) == pointer);
    FUZZ_ASSERT(pointer_tokens(make_pointer(*tokens)) == tokens);
  }
  (void)fragment_tokens(pointer);
  // Any tokens survive make_pointer and the fragment form (percent-encoded).
  std::vector<std::string> made = split(pointer, '|');
  FUZZ_ASSERT(pointer_tokens(make_pointer(made)) == made);
  FUZZ_ASSERT(fragment_tokens(percent_encode(make_pointer(made))) == made);

  auto parsed = parse_any_document(fuzz::part(parts, 1));
  if (!parsed.ok) return 0;
  if (auto tokens = pointer_tokens(pointer)) (void)lookup(parsed.doc->root(), *tokens);

  // Walk down the document by the choice bytes: the pointer of each node
  // visited finds that very node, by lookup and by a $ref fragment.
  // (A document keeps one member per key, so a member's key finds that member.)
  DocumentSet docs(fuzz::Documents::root_url, parsed.doc);
  const Value* node = &docs.root();
  std::vector<std::string> tokens;
  for (unsigned char c : choices) {
    if (oas::size(*node) == 0) break;
    std::size_t i = c % oas::size(*node);
    if (node->IsObject()) {
      auto it = node->MemberBegin() + static_cast<std::ptrdiff_t>(i);
      tokens.emplace_back(key_of(*it));
      node = &it->value;
    } else {
      tokens.push_back(std::to_string(i));
      node = &(*node)[static_cast<rapidjson::SizeType>(i)];
    }
    FUZZ_ASSERT(lookup(docs.root(), tokens) == node);
    Resolved r = docs.resolve_ref(docs.root_url(), "#" + percent_encode(make_pointer(tokens)));
    FUZZ_ASSERT(r.node == node);
  }
  return 0;
}
