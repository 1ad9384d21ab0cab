#include "report/markdown_text.hpp"

#include <algorithm>

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

std::string markdown_code(std::string_view s) {
  std::string in = escape_control(s);
  if (in.empty()) return in;
  // The fence: one backtick more than the longest run in the text.
  std::size_t longest = 0, run = 0;
  for (char c : in) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string fence(longest + 1, '`');
  bool all_spaces = in.find_first_not_of(' ') == std::string::npos;
  auto edge = [](char c) { return c == '`' || c == ' '; };
  std::string pad = !all_spaces && (edge(in.front()) || edge(in.back())) ? " " : "";
  return fence + pad + in + pad + fence;
}

}  // namespace adrprobe::report
