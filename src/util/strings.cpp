#include "util/strings.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <system_error>
#include <type_traits>
#include <utility>
#include <fmt/format.h>

namespace adrprobe {

std::string to_lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::string to_upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::toupper(c); });
  return out;
}

std::string_view trim_view(std::string_view s) {
  auto is_space = [](unsigned char c) { return std::isspace(c) != 0; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string trim(std::string_view s) { return std::string(trim_view(s)); }

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    auto pos = s.find(sep, start);
    out.emplace_back(s.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
           return std::tolower(x) == std::tolower(y);
         });
}

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

std::string join(const std::vector<std::string>& items, std::string_view sep, std::size_t max_items) {
  std::string out;
  std::size_t shown = (max_items == 0) ? items.size() : std::min(max_items, items.size());
  for (std::size_t i = 0; i < shown; ++i) {
    if (i) out += sep;
    out += items[i];
  }
  if (shown < items.size()) out += fmt::format("{}… (+{} more)", sep, items.size() - shown);
  return out;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::string percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      int hi = hex_digit(s[i + 1]), lo = hex_digit(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

std::string percent_encode(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string base64_encode(std::string_view s) {
  static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((s.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < s.size(); i += 3) {
    unsigned n = static_cast<unsigned char>(s[i]) << 16;
    if (i + 1 < s.size()) n |= static_cast<unsigned char>(s[i + 1]) << 8;
    if (i + 2 < s.size()) n |= static_cast<unsigned char>(s[i + 2]);
    out += table[(n >> 18) & 63];
    out += table[(n >> 12) & 63];
    out += i + 1 < s.size() ? table[(n >> 6) & 63] : '=';
    out += i + 2 < s.size() ? table[n & 63] : '=';
  }
  return out;
}

std::optional<std::string> base64_decode(std::string_view s) {
  while (!s.empty() && s.back() == '=') s.remove_suffix(1);
  if (s.size() % 4 == 1) return std::nullopt;
  std::string out;
  out.reserve(s.size() * 3 / 4);
  unsigned bits = 0, n = 0;
  for (char c : s) {
    int v = c >= 'A' && c <= 'Z'   ? c - 'A'
            : c >= 'a' && c <= 'z' ? c - 'a' + 26
            : c >= '0' && c <= '9' ? c - '0' + 52
            : c == '+'             ? 62
            : c == '/'             ? 63
                                   : -1;
    if (v < 0) return std::nullopt;
    bits = bits << 6 | static_cast<unsigned>(v);
    if ((n += 6) >= 8) {
      n -= 8;
      out += static_cast<char>((bits >> n) & 0xff);
    }
  }
  return out;
}

std::string replace_all(std::string s, std::string_view needle, std::string_view with) {
  if (needle.empty()) return s;
  std::size_t pos = 0;
  while ((pos = s.find(needle, pos)) != std::string::npos) {
    s.replace(pos, needle.size(), with);
    pos += with.size();
  }
  return s;
}

namespace {

// The UTF-8 sequence at s[i]: {its length, true} when valid, else {the length
// of its maximal invalid subpart (at least 1), false}. Unicode Table 3-7.
std::pair<std::size_t, bool> utf8_step(std::string_view s, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned c = byte(i);
  if (c < 0x80) return {1, true};
  std::size_t trail = 0;
  unsigned lo = 0x80, hi = 0xBF;  // range of the first continuation byte
  if (c >= 0xC2 && c <= 0xDF) {
    trail = 1;
  } else if (c == 0xE0) {
    trail = 2, lo = 0xA0;  // no overlong forms
  } else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) {
    trail = 2;
  } else if (c == 0xED) {
    trail = 2, hi = 0x9F;  // no surrogates
  } else if (c == 0xF0) {
    trail = 3, lo = 0x90;  // no overlong forms
  } else if (c >= 0xF1 && c <= 0xF3) {
    trail = 3;
  } else if (c == 0xF4) {
    trail = 3, hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return {1, false};  // 80..C1 (continuation, overlong lead), F5..FF
  }
  for (std::size_t k = 1; k <= trail; ++k) {
    if (i + k >= s.size()) return {k, false};
    unsigned b = byte(i + k);
    if (b < lo || b > hi) return {k, false};
    lo = 0x80, hi = 0xBF;
  }
  return {trail + 1, true};
}

}  // namespace

bool is_valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    auto [len, ok] = utf8_step(s, i);
    if (!ok) return false;
    i += len;
  }
  return true;
}

std::string replace_invalid_utf8(std::string_view s, std::string_view replacement) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    auto [len, ok] = utf8_step(s, i);
    if (ok) out.append(s.substr(i, len));
    else out.append(replacement);
    i += len;
  }
  return out;
}

std::string sanitize_utf8(std::string_view s) { return replace_invalid_utf8(s, "?"); }

namespace {

// Unicode 15's Default_Ignorable_Code_Point ranges, and U+2028..U+2029, in order.
constexpr std::pair<char32_t, char32_t> kInvisible[] = {
    {0x00AD, 0x00AD}, {0x034F, 0x034F}, {0x061C, 0x061C}, {0x115F, 0x1160}, {0x17B4, 0x17B5},
    {0x180B, 0x180F}, {0x200B, 0x200F}, {0x2028, 0x202E}, {0x2060, 0x206F}, {0x3164, 0x3164},
    {0xFE00, 0xFE0F}, {0xFEFF, 0xFEFF}, {0xFFA0, 0xFFA0}, {0xFFF0, 0xFFF8}, {0x1BCA0, 0x1BCA3},
    {0x1D173, 0x1D17A}, {0xE0000, 0xE0FFF},
};

}  // namespace

std::pair<char32_t, std::size_t> invisible_character(std::string_view s) {
  // Every one is two bytes or more in UTF-8: ASCII, nearly all of a report, is none.
  if (s.empty() || static_cast<unsigned char>(s[0]) < 0xC2) return {0, 0};
  auto [len, ok] = utf8_step(s, 0);
  if (!ok) return {0, 0};
  char32_t c = static_cast<unsigned char>(s[0]) & (0x7Fu >> len);
  for (std::size_t k = 1; k < len; ++k) c = (c << 6) | (static_cast<unsigned char>(s[k]) & 0x3Fu);
  for (auto [first, last] : kInvisible)
    if (c <= last) return c >= first ? std::pair{c, len} : std::pair<char32_t, std::size_t>{0, 0};
  return {0, 0};
}

std::string escape_control(std::string_view s, Tabs tabs) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  auto escape = [&](std::string_view bytes) {
    for (unsigned char c : bytes) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  };
  for (std::size_t i = 0; i < s.size();) {
    auto [len, ok] = utf8_step(s, i);
    std::string_view seq = s.substr(i, len);
    unsigned c = static_cast<unsigned char>(s[i]);
    bool kept_tab = c == '\t' && tabs == Tabs::kept;
    bool control = ok && !kept_tab &&
                   (c < 0x20 || c == 0x7F || (c == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0) ||
                    invisible_character(seq).second != 0);
    if (!ok || control) escape(seq);
    else out.append(seq);
    i += len;
  }
  return out;
}

std::string truncate_utf8(std::string_view s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return std::string(s);
  std::size_t cut = max_bytes > 3 ? max_bytes - 3 : 0;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) >> 6) == 0x2) --cut;  // not inside a character
  return std::string(s.substr(0, cut)) + "...";
}

std::size_t utf8_columns(std::string_view s) {
  // Every byte but a continuation byte (10xxxxxx) begins a character.
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string pad_columns(std::string_view s, std::size_t columns) {
  std::string out(s);
  std::size_t have = utf8_columns(s);
  if (have < columns) out.append(columns - have, ' ');
  return out;
}
namespace {

template <class T>
std::string parse_decimal_as(std::string_view text, T& out) {
  constexpr bool whole = std::is_integral_v<T>;
  std::string shown = fmt::format("'{}{}'", escape_control(text.substr(0, 40)), text.size() > 40 ? "…" : "");
  std::string_view kind = whole ? "a whole number" : "a decimal number";
  // Only these characters: from_chars alone would take "inf" and "nan".
  if (text.empty() || text.find_first_not_of(whole ? "-0123456789" : "-0123456789.eE+") != std::string_view::npos)
    return fmt::format("{} is not {}", shown, kind);
  T value{};
  auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc::result_out_of_range) {
    if constexpr (whole)
      return fmt::format("{} is out of range (at {} {})", shown, text.front() == '-' ? "least" : "most",
                         text.front() == '-' ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max());
    else
      return fmt::format("{} is out of range", shown);
  }
  if (error != std::errc() || stop != text.data() + text.size()) return fmt::format("{} is not {}", shown, kind);
  out = value;
  return "";
}

}  // namespace

std::string parse_decimal(std::string_view text, int& out) { return parse_decimal_as(text, out); }
std::string parse_decimal(std::string_view text, long long& out) { return parse_decimal_as(text, out); }
std::string parse_decimal(std::string_view text, double& out) { return parse_decimal_as(text, out); }

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace adrprobe
