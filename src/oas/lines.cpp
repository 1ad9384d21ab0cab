#include "oas/lines.hpp"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <istream>
#include <map>

#include "oas/parse.hpp"
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

// JSON text as JsonLines reads it: a whole text in memory, or a stream read
// in chunks of 64 KiB (a large file is not held whole to find a few lines).
class Source {
 public:
  explicit Source(std::string_view whole) : buf_(whole) {}
  explicit Source(std::istream& in) : in_(&in), own_(kChunk, '\0') { buf_ = std::string_view(own_.data(), 0); }

  // Whether n more bytes are there from the current position.
  bool more(std::size_t n = 1) { return pos_ + n <= buf_.size() || refill(n); }
  // The byte k after the current position (after more(k + 1)).
  char peek(std::size_t k = 0) const { return buf_[pos_ + k]; }
  void skip(std::size_t n = 1) { pos_ += n; }
  // What is read and not yet skipped.
  std::string_view window() const { return buf_.substr(pos_); }
  // Whether the text ends here (nothing but what was skipped).
  bool at_end() { return !more(); }

 private:
  static constexpr std::size_t kChunk = 64 * 1024;

  bool refill(std::size_t n) {
    if (!in_ || !*in_) return false;
    std::size_t kept = buf_.size() - pos_;
    std::memmove(own_.data(), own_.data() + pos_, kept);
    pos_ = 0;
    std::size_t filled = kept;
    while (filled < n || filled == kept) {
      if (filled == own_.size()) own_.resize(own_.size() * 2);
      in_->read(own_.data() + filled, static_cast<std::streamsize>(own_.size() - filled));
      auto got = static_cast<std::size_t>(in_->gcount());
      filled += got;
      if (got == 0 || !*in_) break;
    }
    buf_ = std::string_view(own_.data(), filled);
    return n <= filled;
  }

  std::string_view buf_;
  std::size_t pos_ = 0;
  std::istream* in_ = nullptr;
  std::string own_;
};

// Lines of JSON text in one pass, without building a document: the line of a
// member's key, of an array item's first character; for a repeated key the
// first one, as the YAML path (yaml-cpp) answers. nullopt when the text is
// not strict JSON: the caller reads it as YAML then.
class JsonLines {
 public:
  JsonLines(Source& text, std::vector<Wanted>& tree) : t_(text), tree_(tree) {}

  bool run() {
    if (t_.more(3) && t_.window().substr(0, 3) == "\xEF\xBB\xBF") t_.skip(3);
    std::vector<std::size_t> at{0};
    if (!value(at, 0)) return false;
    ws();
    return t_.at_end();
  }

 private:
  static constexpr std::size_t kMaxDepth = 512;

  void ws() {
    while (t_.more()) {
      char c = t_.peek();
      if (c == '\n') ++line_;
      else if (c != ' ' && c != '\t' && c != '\r') return;
      t_.skip();
    }
  }
  // Four hex digits at k bytes from here, not skipped.
  bool hex4_at(std::size_t k, std::uint32_t& v) {
    if (!t_.more(k + 4)) return false;
    v = 0;
    for (std::size_t d = 0; d < 4; ++d) {
      int x = hex_digit(t_.peek(k + d));
      if (x < 0) return false;
      v = v << 4 | static_cast<std::uint32_t>(x);
    }
    return true;
  }
  // A string here (its opening quote); its value into out when out is given.
  bool string(std::string* out) {
    t_.skip();
    while (t_.more()) {
      char c = t_.peek();
      if (c == '"') {
        t_.skip();
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') {
        std::string_view w = t_.window();
        std::size_t run = 0;
        while (run < w.size() && w[run] != '"' && w[run] != '\\' && static_cast<unsigned char>(w[run]) >= 0x20) ++run;
        if (out) out->append(w.substr(0, run));
        t_.skip(run);
        continue;
      }
      t_.skip();
      if (!t_.more()) return false;
      char e = t_.peek();
      t_.skip();
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
          if (!hex4_at(0, cp)) return false;
          t_.skip(4);
          std::uint32_t low = 0;
          // A high surrogate and a low one escaped after it: one code point.
          if (cp >= 0xD800 && cp < 0xDC00 && t_.more(2) && t_.peek() == '\\' && t_.peek(1) == 'u' &&
              hex4_at(2, low) && low >= 0xDC00 && low < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            t_.skip(6);
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
    bool any = false;
    while (t_.more()) {
      char c = t_.peek();
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '+' && c != '.') break;
      t_.skip();
      any = true;
    }
    return any;
  }
  // A value here (after whitespace); at: the wanted nodes it stands for.
  bool value(const std::vector<std::size_t>& at, std::size_t depth) {
    ws();
    if (!t_.more() || depth > kMaxDepth) return false;
    char c = t_.peek();
    if (c == '{') return object(at, depth);
    if (c == '[') return array(at, depth);
    if (c == '"') return string(nullptr);
    return scalar();
  }
  // The next byte, when it is c: skipped.
  bool take(char c) {
    if (!t_.more() || t_.peek() != c) return false;
    t_.skip();
    return true;
  }
  bool object(const std::vector<std::size_t>& at, std::size_t depth) {
    t_.skip();
    ws();
    if (take('}')) return true;
    std::string key;
    std::vector<std::size_t> next;
    while (true) {
      ws();
      if (!t_.more() || t_.peek() != '"') return false;
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
      if (!take(':')) return false;
      if (!value(next, depth + 1)) return false;
      ws();
      if (take(',')) continue;
      return take('}');
    }
  }
  bool array(const std::vector<std::size_t>& at, std::size_t depth) {
    t_.skip();
    ws();
    if (take(']')) return true;
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
      if (take(',')) continue;
      return take(']');
    }
  }

  Source& t_;
  std::vector<Wanted>& tree_;
  int line_ = 0;  // 0-based, as yaml-cpp counts
};

// Whether the text is JSON: a byte order mark, white space, then { or [
// (looked at ahead, nothing skipped).
bool starts_json(Source& text) {
  std::size_t k = text.more(3) && text.window().substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (text.more(k + 1) && std::isspace(static_cast<unsigned char>(text.peek(k)))) ++k;
  return text.more(k + 1) && (text.peek(k) == '{' || text.peek(k) == '[');
}

// lines_of for JSON text; nullopt when it is not strict JSON.
std::optional<std::vector<std::optional<int>>> json_lines(Source& text, const std::vector<std::string>& pointers) {
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

std::vector<std::optional<int>> yaml_lines(std::string_view text, const std::vector<std::string>& pointers) {
  std::vector<std::optional<int>> out(pointers.size());
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

}  // namespace

std::vector<std::optional<int>> lines_of(std::string_view text, const std::vector<std::string>& pointers) {
  if (pointers.empty()) return {};
  // JSON in one pass: reading a large JSON document as YAML takes many times its size.
  Source source(text);
  if (starts_json(source))
    if (auto lines = json_lines(source, pointers)) return *lines;
  return yaml_lines(text, pointers);
}

std::vector<std::optional<int>> lines_of(std::istream& in, std::size_t max_bytes, const std::vector<std::string>& pointers) {
  std::vector<std::optional<int>> none(pointers.size());
  if (pointers.empty()) return {};
  {
    Source source(in);
    if (starts_json(source))
      if (auto lines = json_lines(source, pointers)) return *lines;
  }
  in.clear();
  in.seekg(0);
  if (!in) return none;
  // YAML (or JSON only YAML reads): yaml-cpp reads it whole.
  std::string text;
  read_within(in, max_bytes, text);
  if (text.size() > max_bytes) return none;
  return yaml_lines(text, pointers);
}

std::optional<int> line_of(std::string_view text, const std::string& pointer) {
  return lines_of(text, {pointer}).front();
}

}  // namespace adrprobe::oas
