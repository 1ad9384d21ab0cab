#include "report/markdown_text.hpp"

#include "util/strings.hpp"

namespace adrprobe::report {

std::string markdown_text(std::string_view s) {
  static constexpr std::string_view joiner = "\u2060";
  std::string in = escape_control(s), out;
  out.reserve(in.size() + in.size() / 4);
  for (std::size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '@':
        out += "\\@";
        out += joiner;
        break;
      case ':':
        out += "\\:";
        if (i + 1 < in.size() && in[i + 1] == '/') out += joiner;
        break;
      case '.':
        if (i >= 3 && iequals(std::string_view(in).substr(i - 3, 3), "www")) out += joiner;
        out += c;
        break;
      case '\\': case '`': case '*': case '_': case '[': case ']': case '(': case ')': case '|': case '~':
      case '!': case '#': case '%': case '$': case '{': case '}':
        out += '\\';
        out += c;
        break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace adrprobe::report
