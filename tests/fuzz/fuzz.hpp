// Shared by the libFuzzer targets of tests/fuzz/: splitting an input into
// parts, property checks that abort, and in-memory documents behind the
// oas::Fetcher interface (no network).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "oas/doc.hpp"
#include "oas/json.hpp"
#include "oas/parse.hpp"
#include "oas/refs.hpp"

namespace fuzz {

// A property that must hold for every input: print it and abort (libFuzzer
// records the input as a crash).
#define FUZZ_ASSERT(cond)                                                                   \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      std::fprintf(stderr, "%s:%d: property violated: %s\n", __FILE__, __LINE__, #cond);    \
      std::abort();                                                                         \
    }                                                                                       \
  } while (0)

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The parts of an input separated by NUL bytes (text never holds one), at
// most max_parts (the last part keeps any further NULs).
inline std::vector<std::string_view> split_parts(std::string_view input, std::size_t max_parts = 64) {
  std::vector<std::string_view> parts;
  while (parts.size() + 1 < max_parts) {
    auto nul = input.find('\0');
    if (nul == std::string_view::npos) break;
    parts.push_back(input.substr(0, nul));
    input.remove_prefix(nul + 1);
  }
  parts.push_back(input);
  return parts;
}

inline std::string_view part(const std::vector<std::string_view>& parts, std::size_t i) {
  return i < parts.size() ? parts[i] : std::string_view{};
}

// dump() with the default (strict) error handler throws on invalid UTF-8:
// a loaded document must never hold any.
inline void assert_dumps(const adrprobe::oas::json& value) {
  try {
    (void)value.dump();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dump() threw: %s\n", e.what());
    std::abort();
  }
}
// The same for a description document's value (oas::dump replaces what is
// not UTF-8, so it would not tell).
inline void assert_dumps(const adrprobe::oas::Value& value) { assert_dumps(adrprobe::oas::to_json(value)); }

// A set of documents the way the $ref targets see them. The input is
//   control NUL root NUL d1 NUL d2 ...
// The root document is at root_url; document k (1-based) answers any URL
// whose last path segment starts with "d<k>." (d1.json, d2.yaml#...). Other
// URLs fail, half of them as transport errors. The first control byte picks
// the deadline: below '0' (or none) no deadline, '0' already past, '1' and up
// that many hundred microseconds. The second, from '0' up, picks tight limits
// (a few documents of a few hundred bytes); below '0' (or none) the defaults.
struct Documents {
  static constexpr const char* root_url = "https://api.example.nl/v1/openapi.json";
  std::string_view control;
  std::string_view root;
  std::vector<std::string_view> external;
  std::size_t fetch_calls = 0;
  std::size_t fetched_urls = 0;   // over all calls
  std::size_t fetched_bytes = 0;  // received, as the client counts them

  explicit Documents(std::string_view input) {
    auto parts = split_parts(input);
    control = part(parts, 0);
    root = part(parts, 1);
    for (std::size_t i = 2; i < parts.size(); ++i) external.push_back(parts[i]);
  }

  // Microseconds until the deadline; -1: no deadline.
  long deadline_us() const {
    unsigned c = control.empty() ? 0 : static_cast<unsigned char>(control[0]);
    if (c < '0') return -1;
    return static_cast<long>(c - '0') * 100;
  }

  adrprobe::oas::Limits limits() const {
    adrprobe::oas::Limits l;
    unsigned c = control.size() > 1 ? static_cast<unsigned char>(control[1]) : 0;
    if (c < '0') return l;
    c -= '0';
    l.max_external_documents = 1 + (c & 3);
    l.max_document_bytes = std::size_t{64} << ((c >> 2) & 7);
    l.max_closure_bytes = std::size_t{128} << (c >> 5);
    l.max_depth = 8 + (c & 15);
    l.max_nodes = 64 + c;
    return l;
  }

  std::map<std::string, adrprobe::oas::FetchedDocument> fetch(const std::vector<std::string>& urls) {
    ++fetch_calls;
    fetched_urls += urls.size();
    adrprobe::oas::Limits l = limits();
    std::map<std::string, adrprobe::oas::FetchedDocument> out;
    for (const auto& url : urls) {
      auto& f = out[url];
      std::string_view last = url;
      if (auto slash = last.rfind('/'); slash != std::string_view::npos) last.remove_prefix(slash + 1);
      std::size_t k = 0, i = 1;
      if (!last.empty() && last[0] == 'd')
        while (i < last.size() && i < 6 && last[i] >= '0' && last[i] <= '9') k = k * 10 + static_cast<std::size_t>(last[i++] - '0');
      if (i > 1 && i < last.size() && last[i] == '.' && k >= 1 && k <= external.size()) {
        std::string_view text = external[k - 1];
        // The client stops reading a body at the document size limit.
        f.bytes = std::min(text.size(), l.max_document_bytes + 1);
        fetched_bytes += f.bytes;
        auto parsed = adrprobe::oas::parse_any_document(text.substr(0, f.bytes), l);
        if (parsed.ok) {
          f.ok = true;
          f.value = std::move(parsed.doc);
        } else {
          f.error = parsed.error;
        }
      } else {
        f.error = "GET " + url + " -> 404";
        f.transport_error = url.size() % 2 == 1;
      }
    }
    return out;
  }
};

}  // namespace fuzz
