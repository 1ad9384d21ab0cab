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

  auto parsed = parse_any(fuzz::part(parts, 1));
  if (!parsed.ok) return 0;
  const json& doc = parsed.value;
  if (auto tokens = pointer_tokens(pointer)) (void)lookup(doc, *tokens);

  // Walk down the document by the choice bytes: the pointer of each node
  // visited finds that very node, by lookup and by a $ref fragment.
  DocumentSet docs(fuzz::Documents::root_url, doc);
  const json* node = &docs.root();
  std::vector<std::string> tokens;
  for (unsigned char c : choices) {
    if (!node->is_structured() || node->empty()) break;
    std::size_t i = c % node->size();
    if (node->is_object()) {
      auto it = node->begin();
      std::advance(it, static_cast<long>(i));
      tokens.push_back(it.key());
      node = &it.value();
    } else {
      tokens.push_back(std::to_string(i));
      node = &(*node)[i];
    }
    FUZZ_ASSERT(lookup(docs.root(), tokens) == node);
    Resolved r = docs.resolve_ref(docs.root_url(), "#" + percent_encode(make_pointer(tokens)));
    FUZZ_ASSERT(r.node == node);
  }
  return 0;
}
