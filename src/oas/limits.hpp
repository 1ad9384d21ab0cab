// Named limits that keep a hostile or broken document from exhausting time or memory.
#pragma once
#include <cstddef>

namespace adrprobe::oas {

struct Limits {
  std::size_t max_document_bytes = 32 * 1024 * 1024;  // one fetched document
  std::size_t max_depth = 256;                         // nesting of objects/arrays
  std::size_t max_nodes = 2'000'000;                   // values after YAML alias expansion
  std::size_t max_external_documents = 200;            // distinct documents fetched for $refs
  // Bytes received for all external documents of one $ref closure together:
  // two documents at the size limit, far above real multi-file APIs (a few
  // MiB), while 200 documents at the size limit would be 6.4 GiB. Fetching
  // stops once it is reached; a document that crosses it is not used.
  std::size_t max_closure_bytes = 64 * 1024 * 1024;
  // The longest stretch of a JSON text from the start of one string, number
  // or literal to the start of the next (the value, then the brackets, commas
  // and white space after it), checked on the text before any parser runs:
  // the parser holds that much whole, twice, before anyone can look at it, so
  // a reader that keeps a text whole bounds what parsing it adds. (A
  // document's stretches are bounded by its size alone.)
  std::size_t max_stretch_bytes = static_cast<std::size_t>(-1);
};

}  // namespace adrprobe::oas
