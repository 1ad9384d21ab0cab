#include "cli/options.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::cli {

const std::vector<std::string>& known_formats() {
  static const std::vector<std::string> f{"text", "json", "junit", "html", "markdown", "sarif"};
  return f;
}

bool format_available(const std::string& format) { return format == "text" || format == "json"; }

http::Header parse_header(const std::string& text) {
  auto colon = text.find(':');
  if (colon == std::string::npos || colon == 0)
    throw UsageError("-H expects 'Name: value' (what was given is not shown: it may hold a secret)");
  std::string name = trim(text.substr(0, colon));
  for (unsigned char c : name)
    if (c <= 32 || c >= 127 || c == '(' || c == ')' || c == ',' || c == '/' || c == ';' || c == '@' || c == '"')
      throw UsageError("-H: the header name is not valid (a token without spaces or separators; the text is not shown)");
  std::string value = trim(text.substr(colon + 1));
  if (value.find_first_of("\r\n") != std::string::npos) throw UsageError("-H: a header value must be one line");
  return {name, value};
}

std::pair<std::string, std::string> parse_assignment(const std::string& text, const char* what) {
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) throw UsageError(fmt::format("{} expects NAME=VALUE, got '{}'", what, text));
  return {text.substr(0, eq), text.substr(eq + 1)};
}

std::string parse_base_url(const std::string& text) {
  std::string error;
  auto url = parse_url(text, &error);
  if (!url) throw UsageError(fmt::format("'{}' is not a valid base URL: {} (expected e.g. https://api.example.nl/v1)", text, error));
  if (url->scheme != "http" && url->scheme != "https")
    throw UsageError(fmt::format("'{}': the base URL must be http:// or https://, not {}://", text, url->scheme));
  if (!url->query.empty() || text.find('#') != std::string::npos)
    throw UsageError(fmt::format("'{}': a base URL has no query or fragment", text));
  return strip_trailing_slash(url->full);
}

report::FailOn parse_fail_on(const std::string& text) {
  if (text == "fail") return report::FailOn::fail;
  if (text == "warn") return report::FailOn::warn;
  if (text == "never") return report::FailOn::never;
  throw UsageError("--fail-on expects fail, warn or never");
}

}  // namespace adrprobe::cli
