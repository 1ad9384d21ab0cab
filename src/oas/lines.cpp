#include "oas/lines.hpp"

#include <yaml-cpp/yaml.h>

#include "oas/pointer.hpp"

namespace adrprobe::oas {
namespace {

std::optional<int> line(const YAML::Mark& mark) {
  if (mark.is_null()) return std::nullopt;
  return mark.line + 1;
}

std::optional<int> find(const YAML::Node& root, const std::string& pointer) {
  auto tokens = pointer_tokens(pointer);
  if (!tokens) return std::nullopt;
  if (tokens->empty()) return 1;
  // reset(), never operator=: assigning a yaml-cpp node writes into the node it refers to.
  YAML::Node node = root;
  YAML::Mark mark;
  for (const auto& token : *tokens) {
    bool found = false;
    if (node.IsMap()) {
      for (auto it = node.begin(); it != node.end(); ++it) {
        // parse_yaml reads keys as strings: the token matches the key's text.
        if (it->first.IsScalar() && it->first.Scalar() == token) {
          mark = it->first.Mark();
          node.reset(it->second);
          found = true;
          break;
        }
      }
    } else if (node.IsSequence()) {
      std::size_t i = 0;
      bool digits = !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
      if (digits && token.size() < 10) i = std::stoul(token);
      if (digits && token.size() < 10 && i < node.size()) {
        const YAML::Node item = static_cast<const YAML::Node&>(node)[i];
        mark = item.Mark();
        node.reset(item);
        found = true;
      }
    }
    if (!found) return std::nullopt;
  }
  return line(mark);
}

}  // namespace

std::vector<std::optional<int>> lines_of(std::string_view text, const std::vector<std::string>& pointers) {
  std::vector<std::optional<int>> out(pointers.size());
  if (pointers.empty()) return out;
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const std::exception&) {
    return out;  // the document was read by another parser (JSON YAML cannot read): no lines
  }
  for (std::size_t i = 0; i < pointers.size(); ++i) {
    try {
      out[i] = find(root, pointers[i]);
    } catch (const std::exception&) {
      out[i] = std::nullopt;
    }
  }
  return out;
}

std::optional<int> line_of(std::string_view text, const std::string& pointer) {
  return lines_of(text, {pointer}).front();
}

}  // namespace adrprobe::oas
