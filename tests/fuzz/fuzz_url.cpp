// util/url: URLs from servers (servers[].url, Location, $ref targets).
// Input: a NUL b (a is the base, b the reference).
#include <cstdint>
#include <string>

#include "fuzz.hpp"
#include "util/url.hpp"

using namespace adrprobe;

namespace {

void check_parsed(const std::string& text) {
  std::string error;
  auto url = parse_url(text, &error);
  if (!url) {
    FUZZ_ASSERT(!error.empty());
    FUZZ_ASSERT(!same_origin(text, text));
    FUZZ_ASSERT(url_path(text) == text);  // unparsable: shown as given
    return;
  }
  FUZZ_ASSERT(!url->scheme.empty());
  if (url->scheme == "http" || url->scheme == "https") {
    FUZZ_ASSERT(!url->host.empty());
    FUZZ_ASSERT(!url->path.empty());
  }
  for (const auto& s : url->segments()) FUZZ_ASSERT(!s.empty());
  (void)url->origin();
  FUZZ_ASSERT(same_origin(text, text));
  (void)url_path(text);
  // The normalised form of an http(s) URL (a base URL is kept in that form)
  // parses again, to the same origin. libcurl writes "file:a/b" as
  // "file://a/b", which it does not read back; file URLs never use it.
  if (url->scheme != "http" && url->scheme != "https") return;
  auto again = parse_url(url->full);
  FUZZ_ASSERT(again.has_value());
  FUZZ_ASSERT(again->scheme == url->scheme && again->host == url->host && again->port == url->port);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto parts = fuzz::split_parts(fuzz::as_text(data, size), 2);
  std::string a(fuzz::part(parts, 0)), b(fuzz::part(parts, 1));
  check_parsed(a);
  check_parsed(b);
  FUZZ_ASSERT(same_origin(a, b) == same_origin(b, a));
  (void)resolve_url(a, b);
  std::string stripped = strip_trailing_slash(a);
  FUZZ_ASSERT(stripped.size() <= 1 || stripped.back() != '/');
  return 0;
}
