// util/strings: the UTF-8 validator and the escaping every piece of server
// text goes through before a terminal or a report sees it.
#include <cstdint>
#include <string>

#include "fuzz.hpp"
#include "util/strings.hpp"

using namespace adrprobe;

namespace {

// UTF-8 decoded apart from strings.cpp: code points, then the checks of
// RFC 3629 (shortest form, no surrogates, at most U+10FFFF).
bool reference_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    unsigned c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    std::uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (std::size_t k = 1; k < n; ++k) {
      unsigned b = static_cast<unsigned char>(s[i + k]);
      if ((b >> 6) != 0x2) return false;
      cp = (cp << 6) | (b & 0x3F);
    }
    static const std::uint32_t min_for_length[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_for_length[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view s = fuzz::as_text(data, size);
  bool valid = is_valid_utf8(s);
  FUZZ_ASSERT(valid == reference_utf8(s));

  std::string replaced = replace_invalid_utf8(s, "\xEF\xBF\xBD");
  FUZZ_ASSERT(is_valid_utf8(replaced));
  FUZZ_ASSERT(valid == (replaced == s));
  FUZZ_ASSERT(is_valid_utf8(sanitize_utf8(s)));

  // Escaped text is valid UTF-8 without C0, DEL, C1 controls or invisible characters.
  std::string escaped = escape_control(s);
  FUZZ_ASSERT(is_valid_utf8(escaped));
  for (std::size_t i = 0; i < escaped.size(); ++i) {
    unsigned c = static_cast<unsigned char>(escaped[i]);
    FUZZ_ASSERT(c >= 0x20 && c != 0x7F);
    if (c == 0xC2 && i + 1 < escaped.size()) FUZZ_ASSERT(static_cast<unsigned char>(escaped[i + 1]) >= 0xA0);
    FUZZ_ASSERT(invisible_character(std::string_view(escaped).substr(i)).second == 0);
  }

  std::size_t max = size ? data[0] : 0;
  std::string cut = truncate_utf8(s, max);
  if (s.size() <= max) FUZZ_ASSERT(cut == s);
  else FUZZ_ASSERT(cut.size() <= std::max<std::size_t>(max, 3));
  if (valid) FUZZ_ASSERT(is_valid_utf8(cut));

  FUZZ_ASSERT(percent_decode(percent_encode(s)) == s);
  return 0;
}
