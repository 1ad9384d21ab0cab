#include "oas/pointer.hpp"

#include "util/strings.hpp"

namespace adrprobe::oas {

std::optional<std::vector<std::string>> pointer_tokens(const std::string& pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  if (pointer.front() != '/') return std::nullopt;
  for (const auto& raw : split(std::string_view(pointer).substr(1), '/')) {
    std::string token;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '~') {
        token += raw[i];
        continue;
      }
      if (i + 1 >= raw.size()) return std::nullopt;
      char next = raw[++i];
      if (next == '0') token += '~';
      else if (next == '1') token += '/';
      else return std::nullopt;
    }
    tokens.push_back(std::move(token));
  }
  return tokens;
}

std::optional<std::vector<std::string>> fragment_tokens(const std::string& fragment) {
  return pointer_tokens(percent_decode(fragment));
}

std::string escape_token(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (char c : token) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

std::string make_pointer(const std::vector<std::string>& tokens) {
  std::string out;
  for (const auto& t : tokens) out += "/" + escape_token(t);
  return out;
}

namespace {

// An array index as a pointer token writes it ("0", "12"; not "01" or "-1").
std::optional<std::size_t> index_token(const std::string& t) {
  if (t.empty() || t.size() > 9 || t.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  if (t.size() > 1 && t[0] == '0') return std::nullopt;
  return std::stoul(t);
}

}  // namespace

const json* lookup(const json& doc, const std::vector<std::string>& tokens) {
  const json* node = &doc;
  for (const auto& t : tokens) {
    if (node->is_object()) {
      auto it = node->find(t);
      if (it == node->end()) return nullptr;
      node = &*it;
    } else if (node->is_array()) {
      auto idx = index_token(t);
      if (!idx || *idx >= node->size()) return nullptr;
      node = &(*node)[*idx];
    } else {
      return nullptr;
    }
  }
  return node;
}

const Value* lookup(const Value& doc, const std::vector<std::string>& tokens) {
  const Value* node = &doc;
  for (const auto& t : tokens) {
    if (node->IsObject()) {
      node = find(*node, t);
      if (!node) return nullptr;
    } else if (node->IsArray()) {
      auto idx = index_token(t);
      if (!idx || *idx >= node->Size()) return nullptr;
      node = &(*node)[static_cast<rapidjson::SizeType>(*idx)];
    } else {
      return nullptr;
    }
  }
  return node;
}

}  // namespace adrprobe::oas
