// What a reader with a base64 decoder would find in text: used by the unit
// test and the fuzz target of report/redact to show that no secret survives
// in base64 form, whatever its alignment.
#pragma once
#include <algorithm>
#include <cstring>
#include <string>

namespace adrprobe::testing {

// Whether a run of base64 in text, in either alphabet (standard, URL-safe),
// decoded from any of the four starting offsets into the run, holds secret.
inline bool base64_holds(const std::string& text, const std::string& secret) {
  for (const char* alphabet : {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
                               "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"}) {
    auto value = [&](char c) -> int {
      const char* at = c ? std::strchr(alphabet, c) : nullptr;
      return at ? static_cast<int>(at - alphabet) : -1;
    };
    for (std::size_t i = 0; i < text.size();) {
      std::size_t j = i;
      while (j < text.size() && value(text[j]) >= 0) ++j;
      for (std::size_t start = i; start < std::min(i + 4, j); ++start) {
        std::string decoded;
        unsigned bits = 0, n = 0;
        for (std::size_t k = start; k < j; ++k) {
          bits = (bits << 6 | static_cast<unsigned>(value(text[k]))) & 0xFFFF;
          n += 6;
          if (n >= 8) {
            n -= 8;
            decoded += static_cast<char>((bits >> n) & 0xFF);
          }
        }
        if (decoded.find(secret) != std::string::npos) return true;
      }
      i = j + 1;
    }
  }
  return false;
}

}  // namespace adrprobe::testing
