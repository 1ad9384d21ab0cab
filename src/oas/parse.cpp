#include "oas/parse.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>

#include "util/strings.hpp"

namespace adrprobe::oas {
namespace {

// Maximum bracket nesting outside strings: checked before parsing, so no
// parser (nor a destructor) ever recurses that deep.
std::size_t json_depth(std::string_view text) {
  std::size_t depth = 0, max_depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') max_depth = std::max(max_depth, ++depth);
    else if ((c == '}' || c == ']') && depth > 0) --depth;
  }
  return max_depth;
}

// Flow-style YAML ({...}, [...]) nests the same way; block style nests by
// indentation and yaml-cpp bounds it itself.
std::size_t yaml_flow_depth(std::string_view text) {
  std::size_t depth = 0, max_depth = 0;
  char quote = 0;
  for (char c : text) {
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    else if (c == '{' || c == '[') max_depth = std::max(max_depth, ++depth);
    else if ((c == '}' || c == ']') && depth > 0) --depth;
    else if (c == '\n') quote = 0;
  }
  return max_depth;
}

bool digits(std::string_view s, std::size_t from, std::size_t to, const char* set = "0123456789") {
  if (from >= to) return false;
  for (std::size_t i = from; i < to; ++i)
    if (!std::strchr(set, s[i])) return false;
  return true;
}

// [-+]?[0-9]+
bool is_int(std::string_view s) {
  std::size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  return digits(s, i, s.size());
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?  (YAML 1.2 core schema float)
bool is_float(std::string_view s) {
  std::size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  std::size_t e = s.find_first_of("eE", i);
  std::string_view mant = s.substr(i, e == std::string_view::npos ? std::string_view::npos : e - i);
  auto dot = mant.find('.');
  bool mant_ok = dot == std::string_view::npos ? digits(mant, 0, mant.size())
                                               : (dot == 0 ? digits(mant, 1, mant.size())
                                                           : digits(mant, 0, dot) && (dot + 1 == mant.size() || digits(mant, dot + 1, mant.size())));
  if (!mant_ok) return false;
  if (e == std::string_view::npos) return true;
  std::size_t j = e + 1;
  if (j < s.size() && (s[j] == '-' || s[j] == '+')) ++j;
  return digits(s, j, s.size());
}

// yaml-cpp passes bytes through unchecked; a loaded document is always valid
// UTF-8 (json::dump() throws on anything else): invalid sequences become U+FFFD.
const std::string& valid_utf8(const std::string& s, std::string& fixed) {
  if (is_valid_utf8(s)) return s;
  fixed = replace_invalid_utf8(s, "\xEF\xBF\xBD");
  return fixed;
}

json yaml_scalar(const YAML::Node& node) {
  std::string fixed;
  const std::string& s = valid_utf8(node.Scalar(), fixed);
  if (node.Tag() != "?") return s;  // quoted or explicitly tagged: a string
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  try {
    if (is_int(s)) {
      // As a JSON parser reads numbers: int64 when it fits, else uint64, else a double.
      std::string_view digits_only = s[0] == '+' ? std::string_view(s).substr(1) : std::string_view(s);
      const char* end = digits_only.data() + digits_only.size();
      std::int64_t i = 0;
      if (auto [p, ec] = std::from_chars(digits_only.data(), end, i); ec == std::errc() && p == end) return i;
      std::uint64_t u = 0;
      if (auto [p, ec] = std::from_chars(digits_only.data(), end, u); ec == std::errc() && p == end) return u;
      return std::stod(s);
    }
    if (s.size() > 2 && s[0] == '0' && s[1] == 'o' && digits(s, 2, s.size(), "01234567") && s.size() < 22)
      return std::stoll(s.substr(2), nullptr, 8);
    if (s.size() > 2 && s[0] == '0' && s[1] == 'x' && digits(s, 2, s.size(), "0123456789abcdefABCDEF") && s.size() < 18)
      return std::stoll(s.substr(2), nullptr, 16);
    if (is_float(s)) return std::stod(s);
  } catch (...) {
    return s;
  }
  if (s == ".inf" || s == ".Inf" || s == ".INF" || s == "+.inf") return "Infinity";  // JSON has no infinity
  if (s == "-.inf" || s == "-.Inf" || s == "-.INF") return "-Infinity";
  if (s == ".nan" || s == ".NaN" || s == ".NAN") return "NaN";
  return s;
}

struct Converter {
  const Limits& limits;
  std::size_t nodes = 0;

  json convert(const YAML::Node& node, std::size_t depth) {
    if (++nodes > limits.max_nodes)
      throw std::runtime_error(fmt::format("more than {} values (alias expansion?)", limits.max_nodes));
    if (depth > limits.max_depth)
      throw std::runtime_error(fmt::format("nested deeper than {} levels", limits.max_depth));
    switch (node.Type()) {
      case YAML::NodeType::Null:
      case YAML::NodeType::Undefined:
        return nullptr;
      case YAML::NodeType::Scalar:
        return yaml_scalar(node);
      case YAML::NodeType::Sequence: {
        json arr = json::array();
        for (const auto& item : node) arr.push_back(convert(item, depth + 1));
        return arr;
      }
      case YAML::NodeType::Map: {
        json obj = json::object();
        for (const auto& kv : node) {
          if (!kv.first.IsScalar()) throw std::runtime_error("a mapping key is not a scalar");
          std::string fixed;
          obj[valid_utf8(kv.first.Scalar(), fixed)] = convert(kv.second, depth + 1);
        }
        return obj;
      }
    }
    return nullptr;
  }
};

// Size and nesting are checked on the raw text, before any parser runs.
std::string refuse(std::string_view text, const Limits& limits, std::size_t depth, const char* format) {
  if (text.size() > limits.max_document_bytes)
    return fmt::format("document is larger than {} bytes", limits.max_document_bytes);
  if (depth > limits.max_depth) return fmt::format("{} nested deeper than {} levels", format, limits.max_depth);
  return "";
}

}  // namespace

ParseResult parse_json(std::string_view text, const Limits& limits) {
  ParseResult r;
  r.error = refuse(text, limits, text.size() > limits.max_document_bytes ? 0 : json_depth(text), "JSON");
  if (!r.error.empty()) return r;
  try {
    r.value = json::parse(text.begin(), text.end());
    r.ok = true;
  } catch (const json::exception& e) {
    std::string what = e.what();
    if (auto pos = what.find("] "); pos != std::string::npos) what = what.substr(pos + 2);
    r.error = "invalid JSON: " + what;
  }
  return r;
}

ParseResult parse_yaml(std::string_view text, const Limits& limits) {
  ParseResult r;
  r.error = refuse(text, limits, text.size() > limits.max_document_bytes ? 0 : yaml_flow_depth(text), "YAML");
  if (!r.error.empty()) return r;
  try {
    YAML::Node root = YAML::Load(std::string(text));
    Converter conv{limits};
    r.value = conv.convert(root, 0);
    r.ok = true;
  } catch (const YAML::Exception& e) {
    r.error = "invalid YAML: " + std::string(e.what());
  } catch (const std::exception& e) {
    r.error = "YAML rejected: " + std::string(e.what());
  }
  return r;
}

ParseResult parse_any(std::string_view text, const Limits& limits) {
  std::size_t i = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i < text.size() && (text[i] == '{' || text[i] == '[')) return parse_json(text.substr(i), limits);
  return parse_yaml(text, limits);
}

ParseResult parse_file(const std::string& path, const Limits& limits) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return ParseResult{false, {}, "cannot read " + path};
  std::string text;
  // One byte past the limit is enough to know the file is too large.
  text.resize(limits.max_document_bytes + 1);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return parse_any(text, limits);
}

}  // namespace adrprobe::oas
