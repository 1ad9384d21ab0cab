#include "oas/parse.hpp"

#include <sys/stat.h>

#include <fmt/format.h>
#include <rapidjson/encodedstream.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "util/strings.hpp"

namespace adrprobe::oas {
namespace {

// What is checked on a text before parsing: its deepest bracket nesting
// outside strings, so no parser (nor a destructor) ever recurses that deep,
// and its longest stretch from the start of one scalar (a string, number or
// literal) to the next. nlohmann's lexer keeps the text it read since the
// last scalar began (for a message: brackets, commas and white space too) and
// a string or number whole, before anyone can look at either.
struct Shape {
  std::size_t depth = 0, longest_stretch = 0;
  // Something RapidJSON 1.1.0 reads otherwise than nlohmann (parse_json_document):
  // a number with an exponent (it checks the exponent alone against a double's
  // range, and 10e308 became -3.09e-308), a number of over 100 characters (it
  // checks the exponent, not where the point stands: 0.000...2 with 323 zeros
  // or more became 5e-324, then -9e307, then a read past a table's end), the
  // number -0 (unsigned there, signed here), or a UTF-16 surrogate escape (a
  // lone low one is taken).
  bool unlike_nlohmann = false;
};

// Whether every byte of text is ASCII (below 0x80), eight at a time.
bool all_ascii(std::string_view text) {
  std::size_t i = 0;
  std::uint64_t high = 0;
  for (; i + 8 <= text.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    high |= word;
  }
  for (; i < text.size(); ++i) high |= static_cast<unsigned char>(text[i]);
  return (high & 0x8080808080808080ULL) == 0;
}

Shape json_shape(std::string_view text) {
  Shape shape;
  std::size_t depth = 0, scalar_start = 0;
  bool in_string = false, escaped = false, in_scalar = false, in_number = false;
  auto scalar_starts = [&](std::size_t i) {
    shape.longest_stretch = std::max(shape.longest_stretch, i - scalar_start);
    scalar_start = i;
  };
  auto number_ends = [&](std::size_t end) {
    if (!in_number) return;
    std::string_view number = text.substr(scalar_start, end - scalar_start);
    // RapidJSON 1.1.0's exact reading of a double normalises a significand of
    // 0 (undefined behaviour, which the fuzzer found) for a zero written with
    // more than 16 characters (0.00000000000000000000) and for digits that
    // start with 18446744073709551615 then 5 or more (its rounding wraps
    // around): rare enough to go to the old parser with the rest, the first
    // by its length, the second among numbers of over 19 significant digits.
    // What RapidJSON reads is the run of number characters, whatever follows.
    auto digits_from = [&](std::size_t i) {
      while (i < number.size() && number[i] >= '0' && number[i] <= '9') ++i;
      return i;
    };
    std::size_t run = digits_from(!number.empty() && number[0] == '-' ? 1 : 0);  // -?[0-9]*
    if (run < number.size() && number[run] == '.') run = digits_from(run + 1);      // (.[0-9]*)?
    std::size_t significant = 0;
    for (char ch : number.substr(0, run))
      if ((ch >= '1' && ch <= '9') || (ch == '0' && significant > 0)) ++significant;
    bool long_zero = significant == 0 && run > 16;
    if (number.size() > 100 || number == "-0" || long_zero || significant > 19) shape.unlike_nlohmann = true;
  };
  const char* next_quote = nullptr;  // in a string: the next '"' (or the end) at or after where the scan stands
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
        if (c == 'u' && i + 1 < text.size() && (text[i + 1] == 'd' || text[i + 1] == 'D') && i + 2 < text.size() &&
            std::strchr("89abcdefABCDEF", text[i + 2]) && text[i + 2] != '\0')
          shape.unlike_nlohmann = true;
        continue;
      }
      // The next quote or backslash: nothing else in a string counts here
      // (memchr, not a byte at a time: strings are most of a description).
      // The next quote is kept until passed (an escaped one is passed as the
      // escape's character), so a string of many escapes is read once.
      const char* from = text.data() + i;
      const char* end = text.data() + text.size();
      if (!next_quote || next_quote < from) {
        next_quote = static_cast<const char*>(std::memchr(from, '"', static_cast<std::size_t>(end - from)));
        if (!next_quote) next_quote = end;
      }
      const char* stop = next_quote;
      if (const char* back = static_cast<const char*>(std::memchr(from, '\\', static_cast<std::size_t>(stop - from)))) stop = back;
      i = static_cast<std::size_t>(stop - text.data());
      if (stop == end) break;
      if (*stop == '\\') escaped = true;
      else in_string = false;
      continue;
    }
    switch (c) {
      case '"':
        if (in_scalar) number_ends(i);  // a number right before a quote: what it was, before the string starts
        in_scalar = in_number = false;
        scalar_starts(i);
        in_string = true;
        break;
      case '{':
      case '[':
        shape.depth = std::max(shape.depth, ++depth);
        break;
      case '}':
      case ']':
        if (depth > 0) --depth;
        break;
      case ',':
      case ':':
      case ' ':
      case '\t':
      case '\n':
      case '\r':
        break;
      default:  // a number or literal goes on to the next structural character or white space
        if (!in_scalar) {
          scalar_starts(i);
          in_number = c == '-' || (c >= '0' && c <= '9');
        }
        if (in_number && (c == 'e' || c == 'E')) shape.unlike_nlohmann = true;
        in_scalar = true;
        continue;
    }
    if (in_scalar) number_ends(i);
    in_scalar = in_number = false;
  }
  if (in_scalar) number_ends(text.size());
  shape.longest_stretch = std::max(shape.longest_stretch, text.size() - scalar_start);
  return shape;
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

// Gathers one object's members, then makes the object at once. Without
// ordered_json's own duplicate search, which looks at every key so far
// (quadratic: 100,000 keys took 8 s, a 32 MiB document hours): past a few keys
// an index finds repeats; a repeated key replaces the earlier value in its
// place, as operator[] does. And without growing the object itself: its
// members are pair<const string, json>, which a growing vector copies (the
// const key makes the move a copy that may throw), each value's whole subtree
// with it, at every doubling. Here the key is not const, so growing moves;
// finish() moves each member once into an object of exactly its size.
class ObjectBuilder {
 public:
  json& slot(std::string key) {
    if (index_.empty() && members_.size() < kLinear) {
      for (auto& kv : members_)
        if (kv.first == key) return kv.second;
    } else {
      if (index_.empty())
        for (std::size_t i = 0; i < members_.size(); ++i) index_.emplace(members_[i].first, i);
      if (auto it = index_.find(key); it != index_.end()) return members_[it->second].second;
      index_.emplace(key, members_.size());
    }
    members_.emplace_back(std::move(key), nullptr);
    return members_.back().second;
  }
  // The object; the builder is left empty.
  json finish() {
    json object = json::object();
    auto& items = object.get_ref<json::object_t&>();
    items.reserve(members_.size());
    for (auto& [key, value] : members_) items.emplace_back(std::move(key), std::move(value));
    members_ = {};
    index_ = {};
    return object;
  }

 private:
  static constexpr std::size_t kLinear = 16;
  std::vector<std::pair<std::string, json>> members_;
  std::unordered_map<std::string, std::size_t> index_;
};

// Builds the document from nlohmann's SAX events (its DOM builder would use
// operator[] for every key), without recursion.
class JsonBuilder {
 public:
  json root;
  std::string error;

  bool null() { return put(nullptr); }
  bool boolean(bool v) { return put(v); }
  bool number_integer(json::number_integer_t v) { return put(v); }
  bool number_unsigned(json::number_unsigned_t v) { return put(v); }
  bool number_float(json::number_float_t v, const std::string&) { return put(v); }
  bool string(std::string& v) { return put(std::move(v)); }
  bool binary(json::binary_t& v) { return put(json::binary(std::move(v))); }
  // A scalar made already (SieveBuilder's).
  bool value(json&& v) { return put(std::move(v)); }
  bool start_object(std::size_t) {
    json* v = place(json::object());
    stack_.push_back({v, std::make_unique<ObjectBuilder>(), nullptr});
    return true;
  }
  bool key(std::string& k) {
    stack_.back().pending = &stack_.back().keys->slot(std::move(k));
    return true;
  }
  bool end_object() {
    *stack_.back().value = stack_.back().keys->finish();
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) {
    stack_.push_back({place(json::array()), nullptr, nullptr});
    return true;
  }
  bool end_array() {
    // An array grows by doubling (its values move: no copy); kept at its size.
    stack_.back().value->get_ref<json::array_t&>().shrink_to_fit();
    stack_.pop_back();
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) {
    error = e.what();
    return false;
  }

 private:
  struct Open {
    json* value;                           // an open object or array (an object is made when it closes)
    std::unique_ptr<ObjectBuilder> keys;   // for an object: its members so far
    json* pending;                         // the slot of the object's last key
  };
  // Where a new value goes: the root, the end of the open array, or the slot of
  // the open object's last key. Only the innermost container grows, so the
  // pointers to the open ones stay valid.
  json* place(json&& v) {
    if (stack_.empty()) {
      root = std::move(v);
      return &root;
    }
    Open& top = stack_.back();
    if (top.value->is_array()) {
      top.value->push_back(std::move(v));
      return &top.value->back();
    }
    *top.pending = std::move(v);
    return top.pending;
  }
  bool put(json&& v) {
    place(std::move(v));
    return true;
  }
  std::vector<Open> stack_;
};

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
        arr.get_ref<json::array_t&>().reserve(node.size());  // at its size, as JSON's arrays are
        for (const auto& item : node) arr.push_back(convert(item, depth + 1));
        return arr;
      }
      case YAML::NodeType::Map: {
        ObjectBuilder keys;
        for (const auto& kv : node) {
          if (!kv.first.IsScalar()) throw std::runtime_error("a mapping key is not a scalar");
          std::string fixed;
          keys.slot(valid_utf8(kv.first.Scalar(), fixed)) = convert(kv.second, depth + 1);
        }
        return keys.finish();
      }
    }
    return nullptr;
  }
};

// JsonBuilder behind a Sieve: each value is routed as it starts; what is
// kept goes to the tree (or to the value being built apart), what is skipped
// is only counted through, what is taken apart is handed over when it closes.
class SieveBuilder {
 public:
  explicit SieveBuilder(const Sieve& sieve) : sieve_(sieve) {}
  JsonBuilder tree;
  std::string error;

  bool null() { return scalar(nullptr); }
  bool boolean(bool v) { return scalar(v); }
  bool number_integer(json::number_integer_t v) { return scalar(v); }
  bool number_unsigned(json::number_unsigned_t v) { return scalar(v); }
  bool number_float(json::number_float_t v, const std::string&) { return scalar(v); }
  bool string(std::string& v) { return scalar(std::move(v)); }
  bool binary(json::binary_t& v) { return scalar(json::binary(std::move(v))); }
  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool key(std::string& k) {
    // Given to a builder only when its value is kept: a skipped member leaves no key behind.
    if (skipping_ == 0) place_.back().key = std::move(k);
    return true;
  }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) {
    error = e.what();
    return false;
  }

 private:
  using Route = Sieve::Route;

  JsonBuilder& target() { return piece_ ? *piece_ : tree; }
  Route route(const json& start) {
    Route r = sieve_.route ? sieve_.route(place_, start) : Route::keep;
    return r == Route::apart && piece_ ? Route::keep : r;
  }
  // A kept value of an object goes under its key.
  void keyed() {
    if (place_.empty() || place_.back().in_array) return;
    std::string k = place_.back().key;
    target().key(k);
  }
  // The value at the innermost place is done: the next one is the next element or member.
  bool next() {
    if (!place_.empty()) ++place_.back().index;
    return true;
  }
  bool scalar(json&& v) {
    if (skipping_ > 0) return true;
    switch (route(v)) {
      case Route::skip:
        break;
      case Route::apart:
        sieve_.apart(place_, std::move(v));
        break;
      case Route::keep:
        keyed();
        target().value(std::move(v));
        break;
    }
    return next();
  }
  bool open(json&& start) {
    if (skipping_ > 0) {
      ++skipping_;
      return true;
    }
    bool array = start.is_array();
    Route r = route(start);
    if (r == Route::skip) {
      skipping_ = 1;
      return true;
    }
    if (r == Route::apart) {
      piece_.emplace();
      piece_at_ = place_.size();
    } else {
      keyed();
    }
    if (array) target().start_array(0);
    else target().start_object(0);
    place_.push_back(Sieve::Step{"", 0, array});
    return true;
  }
  bool close() {
    if (skipping_ > 0) {
      if (--skipping_ == 0) next();
      return true;
    }
    if (place_.back().in_array) target().end_array();
    else target().end_object();
    place_.pop_back();
    if (piece_ && place_.size() == piece_at_) {
      json value = std::move(piece_->root);
      piece_.reset();
      sieve_.apart(place_, std::move(value));
    }
    return next();
  }

  const Sieve& sieve_;
  Sieve::Path place_;                // of each open container kept or built apart: where its current value is
  std::size_t skipping_ = 0;         // open containers inside a skipped value
  std::optional<JsonBuilder> piece_;  // the value being built apart
  std::size_t piece_at_ = 0;         // the size of place_ where it started
};

// Size, nesting and (JSON) the longest stretch between scalars are checked on
// the raw text, before any parser runs.
std::string refuse(std::string_view text, const Limits& limits, const Shape& shape, const char* format) {
  if (text.size() > limits.max_document_bytes)
    return fmt::format("document is larger than {} bytes", limits.max_document_bytes);
  if (shape.depth > limits.max_depth) return fmt::format("{} nested deeper than {} levels", format, limits.max_depth);
  if (shape.longest_stretch > limits.max_stretch_bytes)
    return fmt::format("{} has more than {} bytes from one string, number or literal to the next", format,
                       limits.max_stretch_bytes);
  return "";
}

// nlohmann's SAX parse of `text` into `builder` (a JsonBuilder or SieveBuilder), after refuse().
template <typename Builder>
ParseResult parse_json_into(std::string_view text, const Limits& limits, Builder& builder, json& root) {
  ParseResult r;
  r.error = refuse(text, limits, text.size() > limits.max_document_bytes ? Shape{} : json_shape(text), "JSON");
  if (!r.error.empty()) return r;
  if (json::sax_parse(text.begin(), text.end(), &builder)) {
    r.value = std::move(root);
    r.ok = true;
  } else {
    std::string what = builder.error;
    if (auto pos = what.find("] "); pos != std::string::npos) what = what.substr(pos + 2);
    r.error = "invalid JSON: " + what;
  }
  return r;
}

}  // namespace

ParseResult parse_json(std::string_view text, const Limits& limits) {
  JsonBuilder builder;
  return parse_json_into(text, limits, builder, builder.root);
}

ParseResult parse_json(std::string_view text, const Limits& limits, const Sieve& sieve) {
  SieveBuilder builder(sieve);
  return parse_json_into(text, limits, builder, builder.tree.root);
}

ParseResult parse_yaml(std::string_view text, const Limits& limits) {
  ParseResult r;
  r.error = refuse(text, limits, {text.size() > limits.max_document_bytes ? 0 : yaml_flow_depth(text), 0}, "YAML");
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

namespace {

// Where a JSON text starts (after a byte order mark and white space), or
// npos when the text is not JSON but YAML.
std::size_t json_start(std::string_view text) {
  std::size_t i = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  return i < text.size() && (text[i] == '{' || text[i] == '[') ? i : std::string_view::npos;
}

// Reads a file of at most limits.max_document_bytes + 1 bytes.
std::optional<std::string> read_limited(const std::string& path, const Limits& limits) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text;
  // Sized for the file at once: growing by doubling would hold up to twice its size.
  std::error_code size_error;
  auto size = std::filesystem::file_size(path, size_error);
  if (!size_error) text.reserve(std::min<std::uintmax_t>(size, limits.max_document_bytes) + 1);
  read_within(in, limits.max_document_bytes, text);
  return text;
}

// A file read within the limit, then parsed (parse_file, parse_document_file).
template <class Result, class Parse>
Result parse_read_file(const std::string& path, const Limits& limits, Parse parse) {
  auto text = read_limited(path, limits);
  if (!text) {
    Result r;
    r.error = "cannot read " + path;
    return r;
  }
  return parse(*text, limits);
}

// Two members of one object with the same key?
bool has_repeats(const Value& object) {
  std::size_t n = object.MemberCount();
  if (n < 2) return false;
  auto members = object.MemberBegin();
  if (n <= 16) {
    for (std::size_t i = 1; i < n; ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (key_of(members[i]) == key_of(members[j])) return true;
    return false;
  }
  std::unordered_set<std::string_view> seen;
  seen.reserve(n);
  for (std::size_t i = 0; i < n; ++i)
    if (!seen.insert(key_of(members[i])).second) return true;
  return false;
}

// A repeated key's last value in its first place, the later members gone:
// what nlohmann's parser (operator[]) and parse_json's builder make of it.
void merge_repeats(Value& object) {
  std::unordered_map<std::string_view, std::size_t> first;
  std::vector<std::size_t> gone;
  auto members = object.MemberBegin();
  for (std::size_t i = 0; i < object.MemberCount(); ++i) {
    auto [slot, fresh] = first.try_emplace(key_of(members[i]), i);
    if (fresh) continue;
    members[slot->second].value = members[i].value;  // a move: the later member is left null
    gone.push_back(i);
  }
  for (auto i = gone.rbegin(); i != gone.rend(); ++i) object.EraseMember(object.MemberBegin() + static_cast<std::ptrdiff_t>(*i));
}

// RapidJSON keeps every member it reads; a document keeps one per key.
void keep_one_per_key(Value& root) {
  std::vector<Value*> open{&root};
  while (!open.empty()) {
    Value* v = open.back();
    open.pop_back();
    if (v->IsArray()) {
      for (auto& e : v->GetArray())
        if (is_structured(e)) open.push_back(&e);
    } else if (v->IsObject()) {
      if (has_repeats(*v)) merge_repeats(*v);
      for (auto& m : v->GetObject())
        if (is_structured(m.value)) open.push_back(&m.value);
    }
  }
}

// RapidJSON's document as the reader's handler, with each string longer
// than a value holds inline (13 bytes) kept once in the document's pool:
// every value with that text points at the one copy. A description document
// repeats its long strings: "#/components/responses/400" in every operation,
// "application/problem+json", the descriptions of shared parameters. DON's
// register repeated to 10,000 paths held 6.8 MB of strings; kept once, <1 MB.
// The set of texts lives only while the document is read.
class InterningHandler {
 public:
  explicit InterningHandler(rapidjson::Document& d) : d_(d) {}
  bool Null() { return d_.Null(); }
  bool Bool(bool b) { return d_.Bool(b); }
  bool Int(int i) { return d_.Int(i); }
  bool Uint(unsigned u) { return d_.Uint(u); }
  bool Int64(std::int64_t i) { return d_.Int64(i); }
  bool Uint64(std::uint64_t u) { return d_.Uint64(u); }
  bool Double(double x) { return d_.Double(x); }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool copy) { return d_.RawNumber(s, n, copy); }
  bool String(const char* s, rapidjson::SizeType n, bool) {
    if (n <= kInline) return d_.String(s, n, true);  // copied into the value itself
    std::string_view text = intern({s, n});
    return d_.String(text.data(), n, false);  // a reference to the one copy
  }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) { return String(s, n, copy); }
  bool StartObject() { return d_.StartObject(); }
  bool EndObject(rapidjson::SizeType members) { return d_.EndObject(members); }
  bool StartArray() { return d_.StartArray(); }
  bool EndArray(rapidjson::SizeType elements) { return d_.EndArray(elements); }

 private:
  // The longest string a value holds inline: RapidJSON's ShortString::MaxSize,
  // the value's size less its two bytes of flags and one of length (13 bytes
  // in the 16-byte value of x86-64's 48-bit pointers, 21 in a 24-byte one).
  static constexpr rapidjson::SizeType kInline = sizeof(rapidjson::Value) - 3;
  // The set is bounded: a document of distinct strings (a hostile one, or
  // one of long descriptions) would make it 40 bytes a string for nothing,
  // and a bucket of strings whose hashes collide on purpose would make each
  // lookup long. Past either bound a string is copied as RapidJSON copies it.
  // DON's register repeated to 10,000 paths has 28,380 distinct long strings.
  static constexpr std::size_t kMaxTexts = 1 << 16;
  static constexpr std::size_t kMaxBucket = 8;
  std::string_view intern(std::string_view s) {
    auto it = texts_.find(s);
    if (it != texts_.end()) return *it;
    auto* copy = static_cast<char*>(d_.GetAllocator().Malloc(s.size() + 1));
    std::memcpy(copy, s.data(), s.size());
    copy[s.size()] = '\0';  // as RapidJSON ends the strings it copies
    std::string_view text(copy, s.size());
    if (texts_.size() < kMaxTexts && texts_.bucket_size(texts_.bucket(text)) < kMaxBucket) texts_.insert(text);
    return text;
  }
  rapidjson::Document& d_;
  std::unordered_set<std::string_view> texts_;  // views of the pool's copies
};

DocResult from_parse(ParseResult&& parsed) {
  DocResult r;
  r.ok = parsed.ok;
  r.error = std::move(parsed.error);
  if (r.ok) r.doc = from_json(parsed.value);
  return r;
}

}  // namespace

ParseResult parse_any(std::string_view text, const Limits& limits) {
  std::size_t start = json_start(text);
  if (start != std::string_view::npos) return parse_json(text.substr(start), limits);
  return parse_yaml(text, limits);
}

DocResult parse_json_document(std::string_view text, const Limits& limits) {
  DocResult r;
  Shape shape = text.size() > limits.max_document_bytes ? Shape{} : json_shape(text);
  r.error = refuse(text, limits, shape, "JSON");
  if (!r.error.empty()) return r;
  // A text RapidJSON would read otherwise is read by parse_json: rare in
  // description documents. So is one that starts with a byte of a byte order
  // mark: RapidJSON's stream drops a first byte 0xEF, then 0xBB, then 0xBF,
  // each whether the one before was there or not ("\xBF 1" read as 1).
  bool bom_byte = !text.empty() && (text.front() == '\xEF' || text.front() == '\xBB' || text.front() == '\xBF');
  if (shape.unlike_nlohmann || bom_byte) return from_parse(parse_json(text, limits));
  // Room for the tree in one stretch (Doc::region): at most 8 bytes of tree
  // for each byte of text. A value is 16 bytes and takes 2 bytes of text at
  // the least ("1," in an array); a member is 32 and takes 6 ("\"a\":1,"); a
  // string copied takes its length and a NUL, aligned to 8, and is written
  // with its two quotes. Only what the tree uses costs memory.
  auto doc = std::make_shared<Doc>(8 * text.size() + 64 * 1024);
  // Iterative: no recursion (json_shape bounds the depth anyway); full
  // precision: doubles rounded as strtod, and so nlohmann, rounds them. Its
  // strings' UTF-8 is validated, unless the text is ASCII: valid throughout
  // (a word at a time, a few ms for 15 MB; the validation was a tenth of the parse).
  constexpr unsigned kFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseFullPrecisionFlag;
  bool ascii = all_ascii(text);
  bool parsed = false;
  auto read = [&](rapidjson::Document& tree) {
    rapidjson::MemoryStream bytes(text.data(), text.size());
    rapidjson::EncodedInputStream<rapidjson::UTF8<>, rapidjson::MemoryStream> in(bytes);
    InterningHandler handler(tree);
    rapidjson::Reader reader;
    parsed = !(ascii ? reader.Parse<kFlags>(in, handler)
                     : reader.Parse<kFlags | rapidjson::kParseValidateEncodingFlag>(in, handler))
                  .IsError();
    return parsed;
  };
  doc->tree().Populate(read);
  if (!parsed) return from_parse(parse_json(text, limits));
  keep_one_per_key(doc->tree());
  r.ok = true;
  r.doc = std::move(doc);
  return r;
}

DocResult parse_any_document(std::string_view text, const Limits& limits) {
  std::size_t start = json_start(text);
  if (start != std::string_view::npos) return parse_json_document(text.substr(start), limits);
  return from_parse(parse_yaml(text, limits));
}

void read_within(std::istream& in, std::size_t max_bytes, std::string& text) {
  // In chunks: one byte past the limit is enough to know the source is too
  // large, and a small one costs no more than its size.
  char chunk[64 * 1024];
  while (in && text.size() <= max_bytes) {
    std::size_t want = std::min(sizeof chunk, max_bytes + 1 - text.size());
    in.read(chunk, static_cast<std::streamsize>(want));
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
  }
}

std::optional<FileStamp> stamp_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileStamp{static_cast<std::uint64_t>(st.st_size), static_cast<std::uint64_t>(st.st_dev),
                   static_cast<std::uint64_t>(st.st_ino), static_cast<std::int64_t>(st.st_mtim.tv_sec),
                   static_cast<std::int64_t>(st.st_mtim.tv_nsec)};
}

DocResult parse_document_file(const std::string& path, const Limits& limits, FileStamp* stamp) {
  // Stamped before it is read: a change while it is read changes the stamp.
  if (stamp) *stamp = stamp_of(path).value_or(FileStamp{});
  return parse_read_file<DocResult>(path, limits, parse_any_document);
}

const char* type_name(const Value& v) {
  switch (v.GetType()) {
    case rapidjson::kNullType:
      return "null";
    case rapidjson::kFalseType:
    case rapidjson::kTrueType:
      return "boolean";
    case rapidjson::kObjectType:
      return "object";
    case rapidjson::kArrayType:
      return "array";
    case rapidjson::kStringType:
      return "string";
    case rapidjson::kNumberType:
      return "number";
  }
  return "null";
}

ParseResult parse_file(const std::string& path, const Limits& limits) {
  return parse_read_file<ParseResult>(path, limits, parse_any);
}

}  // namespace adrprobe::oas
