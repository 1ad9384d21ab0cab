#include "oas/lines.hpp"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cstdint>
#include <map>

#include "oas/pointer.hpp"
#include "util/strings.hpp"

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

// The wanted pointers as a tree of tokens: one node per distinct prefix.
struct Wanted {
  std::map<std::string, std::size_t> children;                 // token -> node
  std::vector<std::pair<std::size_t, std::size_t>> by_index;   // array index a token names -> node
  std::optional<int> line;
  bool found = false;  // the first member with this key (or the item) was met
};

// Lines of JSON text in one pass, without building a document: the line of a
// member's key, of an array item's first character; for a repeated key the
// first one, as the YAML path (yaml-cpp) answers. nullopt when the text is
// not strict JSON: the caller reads it as YAML then.
class JsonLines {
 public:
  JsonLines(std::string_view text, std::vector<Wanted>& tree) : t_(text), tree_(tree) {}

  bool run() {
    if (t_.substr(0, 3) == "\xEF\xBB\xBF") i_ = 3;
    std::vector<std::size_t> at{0};
    if (!value(at, 0)) return false;
    ws();
    return i_ == t_.size();
  }

 private:
  static constexpr std::size_t kMaxDepth = 512;

  void ws() {
    while (i_ < t_.size()) {
      char c = t_[i_];
      if (c == '\n') ++line_;
      else if (c != ' ' && c != '\t' && c != '\r') return;
      ++i_;
    }
  }
  bool hex4(std::uint32_t& v) {
    if (i_ + 4 > t_.size()) return false;
    v = 0;
    for (int k = 0; k < 4; ++k) {
      int d = hex_digit(t_[i_++]);
      if (d < 0) return false;
      v = v << 4 | static_cast<std::uint32_t>(d);
    }
    return true;
  }
  // A string at i_ (its opening quote); its value into out when out is given.
  bool string(std::string* out) {
    ++i_;
    while (i_ < t_.size()) {
      char c = t_[i_];
      if (c == '"') {
        ++i_;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') {
        std::size_t run = i_;
        while (i_ < t_.size() && t_[i_] != '"' && t_[i_] != '\\' && static_cast<unsigned char>(t_[i_]) >= 0x20) ++i_;
        if (out) out->append(t_.substr(run, i_ - run));
        continue;
      }
      if (++i_ >= t_.size()) return false;
      char e = t_[i_++];
      std::uint32_t cp = 0;
      switch (e) {
        case '"': cp = '"'; break;
        case '\\': cp = '\\'; break;
        case '/': cp = '/'; break;
        case 'b': cp = '\b'; break;
        case 'f': cp = '\f'; break;
        case 'n': cp = '\n'; break;
        case 'r': cp = '\r'; break;
        case 't': cp = '\t'; break;
        case 'u': {
          if (!hex4(cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00 && i_ + 1 < t_.size() && t_[i_] == '\\' && t_[i_ + 1] == 'u') {
            std::size_t back = i_;
            i_ += 2;
            std::uint32_t low = 0;
            if (hex4(low) && low >= 0xDC00 && low < 0xE000) cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            else i_ = back;
          }
          break;
        }
        default: return false;
      }
      if (out) append_utf8(*out, cp);
    }
    return false;
  }
  // true, false, null or a number: its characters.
  bool scalar() {
    std::size_t start = i_;
    while (i_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[i_])) || t_[i_] == '-' || t_[i_] == '+' || t_[i_] == '.')) ++i_;
    return i_ > start;
  }
  // A value at i_ (after whitespace); at: the wanted nodes it stands for.
  bool value(const std::vector<std::size_t>& at, std::size_t depth) {
    ws();
    if (i_ >= t_.size() || depth > kMaxDepth) return false;
    char c = t_[i_];
    if (c == '{') return object(at, depth);
    if (c == '[') return array(at, depth);
    if (c == '"') return string(nullptr);
    return scalar();
  }
  bool object(const std::vector<std::size_t>& at, std::size_t depth) {
    ++i_;
    ws();
    if (i_ < t_.size() && t_[i_] == '}') return ++i_, true;
    std::string key;
    std::vector<std::size_t> next;
    while (true) {
      ws();
      if (i_ >= t_.size() || t_[i_] != '"') return false;
      int key_line = line_;
      key.clear();
      if (!string(at.empty() ? nullptr : &key)) return false;
      next.clear();
      for (std::size_t w : at)
        if (auto it = tree_[w].children.find(key); it != tree_[w].children.end() && !tree_[it->second].found) {
          tree_[it->second].found = true;
          tree_[it->second].line = key_line + 1;
          next.push_back(it->second);
        }
      ws();
      if (i_ >= t_.size() || t_[i_] != ':') return false;
      ++i_;
      if (!value(next, depth + 1)) return false;
      ws();
      if (i_ < t_.size() && t_[i_] == ',') {
        ++i_;
        continue;
      }
      if (i_ < t_.size() && t_[i_] == '}') return ++i_, true;
      return false;
    }
  }
  bool array(const std::vector<std::size_t>& at, std::size_t depth) {
    ++i_;
    ws();
    if (i_ < t_.size() && t_[i_] == ']') return ++i_, true;
    std::vector<std::size_t> next;
    for (std::size_t index = 0;; ++index) {
      ws();
      next.clear();
      for (std::size_t w : at)
        for (const auto& [k, node] : tree_[w].by_index)
          if (k == index && !tree_[node].found) {
            tree_[node].found = true;
            tree_[node].line = line_ + 1;
            next.push_back(node);
          }
      if (!value(next, depth + 1)) return false;
      ws();
      if (i_ < t_.size() && t_[i_] == ',') {
        ++i_;
        continue;
      }
      if (i_ < t_.size() && t_[i_] == ']') return ++i_, true;
      return false;
    }
  }

  std::string_view t_;
  std::vector<Wanted>& tree_;
  std::size_t i_ = 0;
  int line_ = 0;  // 0-based, as yaml-cpp counts
};

bool is_json_text(std::string_view text) {
  std::size_t i = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  return i < text.size() && (text[i] == '{' || text[i] == '[');
}

// lines_of for JSON text; nullopt when it is not strict JSON.
std::optional<std::vector<std::optional<int>>> json_lines(std::string_view text, const std::vector<std::string>& pointers) {
  std::vector<Wanted> tree(1);
  std::vector<std::optional<std::size_t>> node_of(pointers.size());
  for (std::size_t p = 0; p < pointers.size(); ++p) {
    auto tokens = pointer_tokens(pointers[p]);
    if (!tokens) continue;
    std::size_t n = 0;
    for (const auto& token : *tokens) {
      auto [it, fresh] = tree[n].children.try_emplace(token, tree.size());
      if (fresh) {
        // As the YAML path reads an index: digits only, fewer than 10.
        bool digits = !token.empty() && token.size() < 10 && token.find_first_not_of("0123456789") == std::string::npos;
        if (digits) tree[n].by_index.emplace_back(std::stoul(token), tree.size());
        tree.emplace_back();
      }
      n = it->second;
    }
    node_of[p] = n;
  }
  JsonLines scan(text, tree);
  if (!scan.run()) return std::nullopt;
  std::vector<std::optional<int>> out(pointers.size());
  for (std::size_t p = 0; p < pointers.size(); ++p)
    if (node_of[p]) out[p] = *node_of[p] == 0 ? std::optional<int>(1) : tree[*node_of[p]].line;
  return out;
}

}  // namespace

std::vector<std::optional<int>> lines_of(std::string_view text, const std::vector<std::string>& pointers) {
  std::vector<std::optional<int>> out(pointers.size());
  if (pointers.empty()) return out;
  // JSON in one pass: reading a large JSON document as YAML takes many times its size.
  if (is_json_text(text))
    if (auto lines = json_lines(text, pointers)) return *lines;
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
