#include "geo/geojson.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>

#include "util/strings.hpp"

namespace adrprobe::geo {

int position_depth(std::string_view type) {
  if (type == "Point") return 0;
  if (type == "MultiPoint" || type == "LineString") return 1;
  if (type == "MultiLineString" || type == "Polygon") return 2;
  if (type == "MultiPolygon") return 3;
  return -1;
}

bool is_geometry_type(std::string_view type) { return position_depth(type) >= 0 || type == "GeometryCollection"; }

namespace {

// What a value is expected to be where it stands.
enum class Role : unsigned char {
  any,              // not judged (properties, foreign members): only its JSON grammar
  collection,       // a FeatureCollection object
  features,         // its features array
  feature,          // a Feature object
  geometry,         // a geometry object
  geometry_or_null, // a Feature's geometry
  geometries,       // a GeometryCollection's geometries array
  coordinates,      // a coordinates array, or an array inside one
  properties,       // a Feature's properties: an object or null
  type,             // a "type" member of a judged object
  id,               // a Feature's id
};

// What one judged object (collection, feature, geometry) has seen of its members.
struct Members {
  Role role = Role::any;
  bool has_type = false, has_features = false, has_geometry = false, has_properties = false;
  bool has_coordinates = false, has_geometries = false;
  std::string type;  // its "type" value (at most 64 bytes kept), when a string
  // A geometry's coordinates: how deep its positions stand (-1: none seen),
  // and for a type not known yet, the first list of positions of each kind
  // (fewer than 2, fewer than 4, not closed) and the first empty array at
  // each depth, by pointer (empty: none).
  int position_depth = -1;
  std::string short2, short4, unclosed;
  std::size_t short2_n = 0, short4_n = 0;
  std::array<std::string, 4> empty_at;
};

// One open array or object.
struct Frame {
  bool array = false;
  bool fresh = true;      // nothing read inside yet
  Role role = Role::any;  // what this container is
  int members = -1;       // its Members (collection, feature, geometry), else -1
  int geometry = -1;      // coordinates: the Members of their geometry
  int depth = 0;          // coordinates: 0 for the coordinates array itself
  std::size_t index = 0;  // arrays: the element being read
  std::string_view key;   // objects: the member being read, as written (escapes not decoded)
  bool key_escaped = false;
  // Coordinates: what the array holds so far (0 nothing, 1 numbers, 2 arrays);
  // a position's numbers (the first 3, and how many); a list's first and last position.
  unsigned char holds = 0;
  bool holds_positions = false;
  std::size_t numbers = 0;
  std::array<double, 3> value{};
  std::array<double, 3> first{}, last{};
  std::size_t first_n = 0, last_n = 0;
};

// Server text in a message: cut short, control characters escaped.
std::string shown(std::string_view s) { return escape_control(truncate_utf8(s, 60)); }

const char* type_name(char c) {
  switch (c) {
    case '{': return "an object";
    case '[': return "an array";
    case '"': return "a string";
    case 't':
    case 'f': return "a boolean";
    case 'n': return "null";
    default: return "a number";
  }
}

const char* depth_name(int depth) {
  switch (depth) {
    case 0: return "a Point";
    case 1: return "a LineString or MultiPoint";
    case 2: return "a Polygon or MultiLineString";
    case 3: return "a MultiPolygon";
    default: return "no geometry";
  }
}

class Validator {
 public:
  Validator(std::string_view text, Expect expect, const ValidateOptions& options)
      : s_(text), options_(options), expect_(expect) {}

  Validation run() {
    frames_.reserve(32);
    skip_ws();
    if (pos_ >= s_.size()) return syntax("empty body"), std::move(out_);
    if (!value()) return std::move(out_);
    while (!frames_.empty())
      if (!step()) return std::move(out_);
    skip_ws();
    if (pos_ < s_.size()) syntax("text after the JSON value");
    return std::move(out_);
  }

 private:
  // ---- reading

  void skip_ws() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
      ++pos_;
    }
  }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }

  // Not JSON: the fault, whatever was found before (the text is not GeoJSON at all).
  bool syntax(const std::string& what) {
    out_.fault = Fault{truncate_utf8(pointer(frames_.size()), 200), fmt::format("not JSON: {} at byte {}", what, pos_), true};
    return false;
  }
  // A GeoJSON fault: the first is kept, reading goes on (envelopes of the features).
  void fault(std::string at, std::string what) {
    if (!out_.fault) out_.fault = Fault{truncate_utf8(at, 200), std::move(what), false};
  }

  // After the opening quote: to the closing one. escaped: the string holds a backslash.
  bool string(std::string_view& text, bool& escaped) {
    std::size_t start = ++pos_;
    escaped = false;
    for (;;) {
      // The common case: plain bytes up to the next quote or backslash.
      while (pos_ < s_.size()) {
        unsigned char c = static_cast<unsigned char>(s_[pos_]);
        if (c == '"' || c == '\\' || c < 0x20) break;
        ++pos_;
      }
      if (pos_ >= s_.size()) return syntax("unterminated string");
      char c = s_[pos_];
      if (c == '"') break;
      if (c != '\\') return syntax("control character in a string");
      escaped = true;
      if (pos_ + 1 >= s_.size()) return syntax("unterminated string");
      char e = s_[pos_ + 1];
      if (e == 'u') {
        unsigned cp = 0;
        if (!hex4(pos_ + 2, cp)) return syntax("bad \\u escape");
        pos_ += 6;
        if (cp >= 0xDC00 && cp <= 0xDFFF) return syntax("lone low surrogate");
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          unsigned low = 0;
          if (pos_ + 1 >= s_.size() || s_[pos_] != '\\' || s_[pos_ + 1] != 'u' || !hex4(pos_ + 2, low) ||
              low < 0xDC00 || low > 0xDFFF)
            return syntax("lone high surrogate");
          pos_ += 6;
        }
        continue;
      }
      if (!std::strchr("\"\\/bfnrt", e) || e == '\0') return syntax("bad escape");
      pos_ += 2;
    }
    text = s_.substr(start, pos_ - start);
    ++pos_;
    if (!is_valid_utf8(text)) return pos_ = start, syntax("invalid UTF-8 in a string");
    return true;
  }
  bool hex4(std::size_t at, unsigned& cp) const {
    if (at + 4 > s_.size()) return false;
    cp = 0;
    for (std::size_t i = at; i < at + 4; ++i) {
      int d = hex_digit(s_[i]);
      if (d < 0) return false;
      cp = cp * 16 + static_cast<unsigned>(d);
    }
    return true;
  }
  // The text of a string read with escapes, decoded (keys with escapes, type, id: rare and short).
  static std::string decode(std::string_view raw) {
    std::string out;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '\\') {
        out += raw[i];
        continue;
      }
      char e = raw[++i];
      switch (e) {
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          auto hex = [&](std::size_t at) {
            unsigned v = 0;
            for (std::size_t k = at; k < at + 4; ++k) v = v * 16 + static_cast<unsigned>(hex_digit(raw[k]));
            return v;
          };
          char32_t cp = hex(i + 1);
          i += 4;
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (hex(i + 3) - 0xDC00);
            i += 6;
          }
          append_utf8(out, cp);
          break;
        }
        default: out += e;
      }
    }
    return out;
  }

  // A number per RFC 8259's grammar; its value only when wanted (coordinates).
  bool number(bool want, double& v) {
    std::size_t start = pos_;
    auto digits = [&] {
      std::size_t from = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
      return pos_ > from;
    };
    if (peek() == '-') ++pos_;
    if (peek() == '0') ++pos_;
    else if (!digits()) return syntax("bad number");
    bool negative_exponent = false;
    if (peek() == '.') {
      ++pos_;
      if (!digits()) return syntax("bad number");
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') negative_exponent = s_[pos_++] == '-';
      if (!digits()) return syntax("bad number");
    }
    if (!want) return true;
    auto [end, ec] = std::from_chars(s_.data() + start, s_.data() + pos_, v);
    if (ec == std::errc::result_out_of_range) {
      // Too small is 0; too large (1e999, 400 digits) is beyond any double: infinite.
      v = negative_exponent ? 0.0 : HUGE_VAL;
    } else if (ec != std::errc{} || end != s_.data() + pos_) {
      return syntax("bad number");
    }
    return true;
  }

  bool literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return syntax("unexpected character");
    pos_ += word.size();
    return true;
  }

  // ---- where we are

  // The JSON pointer of the value being read inside frames_[0..depth).
  std::string pointer(std::size_t depth) const {
    std::string out;
    for (std::size_t i = 0; i < depth && i < frames_.size(); ++i) {
      const Frame& f = frames_[i];
      if (f.fresh) break;
      out += '/';
      if (f.array) out += std::to_string(f.index);
      else out += escape_token(f.key_escaped ? decode(f.key) : std::string(f.key));
    }
    return escape_control(out);
  }
  std::string here() const { return pointer(frames_.size()); }
  static std::string escape_token(const std::string& key) {
    std::string out;
    for (char c : key) {
      if (c == '~') out += "~0";
      else if (c == '/') out += "~1";
      else out += c;
    }
    return out;
  }
  bool key_is(const Frame& f, std::string_view name) const { return !f.key_escaped ? f.key == name : decode(f.key) == name; }

  // What the value about to be read is expected to be.
  Role child_role() const {
    if (frames_.empty()) {
      switch (expect_) {
        case Expect::feature_collection: return Role::collection;
        case Expect::feature: return Role::feature;
        case Expect::geometry: return Role::geometry;
      }
    }
    const Frame& f = frames_.back();
    if (f.array) {
      switch (f.role) {
        case Role::features: return Role::feature;
        case Role::geometries: return Role::geometry;
        case Role::coordinates: return Role::coordinates;
        default: return Role::any;
      }
    }
    switch (f.role) {
      case Role::collection:
        if (key_is(f, "type")) return Role::type;
        if (key_is(f, "features")) return Role::features;
        return Role::any;
      case Role::feature:
        if (key_is(f, "type")) return Role::type;
        if (key_is(f, "geometry")) return Role::geometry_or_null;
        if (key_is(f, "properties")) return Role::properties;
        if (key_is(f, "id")) return Role::id;
        return Role::any;
      case Role::geometry:
        if (key_is(f, "type")) return Role::type;
        if (key_is(f, "coordinates")) return Role::coordinates;
        if (key_is(f, "geometries")) return Role::geometries;
        return Role::any;
      default: return Role::any;
    }
  }
  // The Members of the object being read (frames_.back() is an object).
  Members* owner() { return frames_.empty() || frames_.back().members < 0 ? nullptr : &members_[static_cast<std::size_t>(frames_.back().members)]; }

  // ---- values

  // Reads one value: a scalar whole, or the opening of a container.
  bool value() {
    Role role = child_role();
    char c = peek();
    const char* is = type_name(c);
    // A member of a judged object: mark it seen.
    if (Members* m = owner(); m && !frames_.back().array) {
      if (role == Role::type) m->has_type = true;
      else if (role == Role::features) m->has_features = true;
      else if (role == Role::geometry_or_null) m->has_geometry = true;
      else if (role == Role::properties) m->has_properties = true;
      else if (role == Role::coordinates) m->has_coordinates = true;
      else if (role == Role::geometries) m->has_geometries = true;
    }
    // Coordinates: an array in an array of numbers, or the other way round.
    if (role == Role::coordinates && !frames_.empty() && frames_.back().array) {
      Frame& parent = frames_.back();
      unsigned char holds = c == '[' ? 2 : 1;
      if (c != '[' && !(c == '-' || (c >= '0' && c <= '9'))) {
        fault(here(), fmt::format("a coordinate is {}, not a number", is));
        return skip_value(Role::any);
      }
      // Positions stand at most 3 deep (a MultiPolygon's).
      if (c == '[' && parent.depth >= 3) {
        fault(here(), "coordinates nested deeper than a MultiPolygon's");
        return skip_value(Role::any);
      }
      if (parent.holds && parent.holds != holds) fault(here(), "coordinates mix numbers and arrays");
      parent.holds = holds;
    }
    switch (role) {
      case Role::collection:
      case Role::feature:
      case Role::geometry:
        if (c != '{') {
          fault(here(), fmt::format("{} is {}, not an object", role == Role::collection ? "a FeatureCollection"
                                                               : role == Role::feature ? "a Feature" : "a geometry", is));
          return skip_value(Role::any);
        }
        return open(role, true);
      case Role::geometry_or_null:
        if (c == 'n') return literal("null");
        if (c == '{') return open(Role::geometry, true);
        fault(here(), fmt::format("geometry is {}, not an object or null", is));
        return skip_value(Role::any);
      case Role::properties:
        if (c == 'n') return literal("null");
        if (c != '{') fault(here(), fmt::format("properties is {}, not an object or null", is));
        return skip_value(Role::any);
      case Role::features:
      case Role::geometries:
        if (c != '[') {
          fault(here(), fmt::format("{} is {}, not an array", role == Role::features ? "features" : "geometries", is));
          return skip_value(Role::any);
        }
        return open(role, false);
      case Role::coordinates:
        if (c == '[') return open(role, false);
        if (frames_.empty() || !frames_.back().array) {
          fault(here(), fmt::format("coordinates is {}, not an array", is));
          return skip_value(Role::any);
        }
        return coordinate();
      case Role::type: {
        if (c != '"') {
          fault(here(), fmt::format("type is {}, not a string", is));
          return skip_value(Role::any);
        }
        std::string_view raw;
        bool escaped = false;
        if (!string(raw, escaped)) return false;
        if (Members* m = owner()) m->type = truncate_utf8(escaped ? decode(raw) : std::string(raw), 64);
        return true;
      }
      case Role::id: {
        std::size_t start = pos_;
        if (c == '"') {
          std::string_view raw;
          bool escaped = false;
          if (!string(raw, escaped)) return false;
          feature_id_ = truncate_utf8(escaped ? decode(raw) : std::string(raw), 200);
          return true;
        }
        if (!skip_value(Role::any)) return false;
        if (c == '-' || (c >= '0' && c <= '9')) feature_id_ = std::string(s_.substr(start, std::min<std::size_t>(pos_ - start, 200)));
        else fault(here(), fmt::format("id is {}, not a string or number", is));
        return true;
      }
      case Role::any:
        return skip_value(Role::any);
    }
    return skip_value(Role::any);
  }

  // A scalar whole, or the opening of a container read as `role` (any).
  bool skip_value(Role role) {
    switch (peek()) {
      case '{': return open(role, true);
      case '[': return open(role, false);
      case '"': {
        std::string_view raw;
        bool escaped = false;
        return string(raw, escaped);
      }
      case 't': return literal("true");
      case 'f': return literal("false");
      case 'n': return literal("null");
      case '\0':
        if (pos_ >= s_.size()) return syntax("unexpected end");
        [[fallthrough]];
      default: {
        char c = peek();
        if (c == '-' || (c >= '0' && c <= '9')) {
          double ignored = 0;
          return number(false, ignored);
        }
        return syntax("unexpected character");
      }
    }
  }

  // A number inside a coordinates array.
  bool coordinate() {
    double v = 0;
    if (!number(true, v)) return false;
    Frame& f = frames_.back();
    if (!std::isfinite(v)) fault(here(), "a coordinate is not a finite number");
    if (f.numbers < 3) f.value[f.numbers] = v;
    ++f.numbers;
    return true;
  }

  bool open(Role role, bool object) {
    if (frames_.size() >= options_.max_depth)
      return syntax(fmt::format("nested deeper than {} levels", options_.max_depth));
    Frame f;
    f.array = !object;
    f.role = role;
    if (role == Role::collection || role == Role::feature || role == Role::geometry) {
      members_.emplace_back();
      members_.back().role = role;
      f.members = static_cast<int>(members_.size()) - 1;
      if (role == Role::feature) {
        feature_id_.clear();
        feature_env_ = Envelope{};
      }
    }
    if (role == Role::coordinates) {
      bool inner = !frames_.empty() && frames_.back().role == Role::coordinates && frames_.back().array;
      f.geometry = inner ? frames_.back().geometry : frames_.back().members;
      f.depth = inner ? frames_.back().depth + 1 : 0;
    }
    ++pos_;
    frames_.push_back(f);
    return true;
  }

  // One step inside the innermost container: a member, an element, or its end.
  bool step() {
    skip_ws();
    Frame& f = frames_.back();
    char c = peek();
    char close = f.array ? ']' : '}';
    if (f.fresh) {
      if (c == close) {
        ++pos_;
        return closed();
      }
      f.fresh = false;
    } else if (c == ',') {
      ++pos_;
      skip_ws();
      if (f.array) ++f.index;
    } else if (c == close) {
      ++pos_;
      return closed();
    } else {
      return syntax(pos_ >= s_.size() ? "unexpected end" : "expected ',' or a closing bracket");
    }
    if (!f.array) {
      if (peek() != '"') return syntax("expected a member name");
      if (!string(f.key, f.key_escaped)) return false;
      skip_ws();
      if (peek() != ':') return syntax("expected ':'");
      ++pos_;
      skip_ws();
    }
    if (pos_ >= s_.size()) return syntax("unexpected end");
    return value();
  }

  // The innermost container has ended: judge it, then pop it.
  bool closed() {
    Frame& f = frames_.back();
    if (f.role == Role::coordinates) end_coordinates(f);
    else if (f.members >= 0) end_object(members_[static_cast<std::size_t>(f.members)]);
    if (f.members >= 0) members_.pop_back();
    frames_.pop_back();
    return true;
  }

  // ---- judging

  Members& geometry_of(const Frame& f) { return members_[static_cast<std::size_t>(f.geometry)]; }

  void end_coordinates(Frame& f) {
    Members& g = geometry_of(f);
    std::size_t count = f.fresh ? 0 : f.index + 1;
    Frame* parent = frames_.size() >= 2 && frames_[frames_.size() - 2].role == Role::coordinates
                        ? &frames_[frames_.size() - 2] : nullptr;
    if (count == 0) {
      if (f.depth < 4 && g.empty_at[static_cast<std::size_t>(f.depth)].empty()) g.empty_at[static_cast<std::size_t>(f.depth)] = here_of_closing();
      if (!g.type.empty()) judge_empty(g);
      return;
    }
    if (f.holds == 1) {  // a position
      if (f.numbers < 2 || f.numbers > 3)
        fault(here_of_closing(), fmt::format("a position has 2 or 3 numbers, this one {}", f.numbers));
      if (g.position_depth < 0) g.position_depth = f.depth;
      else if (g.position_depth != f.depth) fault(here_of_closing(), "positions stand at different depths");
      if (f.numbers >= 2) {
        double x = f.value[0], y = f.value[1];
        if (options_.crs84 && std::isfinite(x) && std::isfinite(y)) {
          if (x < -180 || x > 180) fault(here_of_closing(), fmt::format("longitude {} outside [-180, 180] in CRS84", x));
          else if (y < -90 || y > 90) fault(here_of_closing(), fmt::format("latitude {} outside [-90, 90] in CRS84", y));
        }
        if (std::isfinite(x) && std::isfinite(y)) feature_env_.add(x, y), out_.envelope.add(x, y);
      }
      if (parent) {
        parent->holds_positions = true;
        std::size_t n = std::min<std::size_t>(f.numbers, 3);
        if (parent->index == 0) parent->first = f.value, parent->first_n = n;
        parent->last = f.value, parent->last_n = n;
      }
      return;
    }
    if (!f.holds_positions) return;
    // A list of positions: a LineString's, a ring.
    bool closed_ring = f.first_n == f.last_n && std::equal(f.first.begin(), f.first.begin() + static_cast<long>(f.first_n), f.last.begin());
    if (!g.type.empty()) {
      if (f.depth == position_depth(g.type) - 1) judge_list(g, count, closed_ring, [&] { return here_of_closing(); });
      return;
    }
    if (count < 2 && g.short2.empty()) g.short2 = here_of_closing(), g.short2_n = count;
    if (count < 4 && g.short4.empty()) g.short4 = here_of_closing(), g.short4_n = count;
    if (!closed_ring && g.unclosed.empty()) g.unclosed = here_of_closing();
  }
  // The pointer of the container being closed (frames_.back()).
  std::string here_of_closing() const { return pointer(frames_.size() - 1); }

  // A list of positions of a geometry whose type is known.
  template <typename Where>
  void judge_list(const Members& g, std::size_t count, bool closed_ring, Where where) {
    int depth = position_depth(g.type);
    if (depth == 1 && g.type == "LineString" && count < 2)
      fault(where(), fmt::format("a LineString has at least 2 positions, this one {}", count));
    else if (depth == 2 && g.type == "MultiLineString" && count < 2)
      fault(where(), fmt::format("a LineString has at least 2 positions, this one {}", count));
    else if ((g.type == "Polygon" || g.type == "MultiPolygon") && count < 4)
      fault(where(), fmt::format("a ring has at least 4 positions, this one {}", count));
    else if ((g.type == "Polygon" || g.type == "MultiPolygon") && !closed_ring)
      fault(where(), "a ring is not closed: its last position differs from its first");
  }
  // The empty arrays of a geometry's coordinates, once its type is known.
  void judge_empty(const Members& g) {
    int depth = position_depth(g.type);
    if (depth < 0) return;
    if (!g.empty_at[static_cast<std::size_t>(depth)].empty())
      fault(g.empty_at[static_cast<std::size_t>(depth)], "a position has 2 or 3 numbers, this one none");
    else if (depth >= 1 && !g.empty_at[static_cast<std::size_t>(depth - 1)].empty() && g.type != "MultiPoint")
      judge_list(g, 0, true, [&] { return g.empty_at[static_cast<std::size_t>(depth - 1)]; });
  }

  void end_object(Members& m) {
    std::string at = here_of_closing();
    const char* want = m.role == Role::collection ? "FeatureCollection" : m.role == Role::feature ? "Feature" : nullptr;
    if (!m.has_type) {
      fault(at, fmt::format("{} has no type member", want ? want : "a geometry"));
    } else if (want && m.type != want) {
      fault(at + "/type", fmt::format("type is '{}', not {}", shown(m.type), want));
    } else if (!want && !is_geometry_type(m.type)) {
      fault(at + "/type", fmt::format("'{}' is no GeoJSON geometry type", shown(m.type)));
    }
    switch (m.role) {
      case Role::collection:
        if (!m.has_features) fault(at, "a FeatureCollection has a features array, this one none");
        break;
      case Role::feature:
        if (!m.has_geometry) fault(at, "a Feature has a geometry member (a geometry or null), this one none");
        if (!m.has_properties) fault(at, "a Feature has a properties member (an object or null), this one none");
        ++out_.features;
        if (out_.kept.size() < options_.kept_features) out_.kept.push_back({feature_id_, feature_env_});
        break;
      case Role::geometry: end_geometry(m, at); break;
      default: break;
    }
  }

  void end_geometry(const Members& g, const std::string& at) {
    if (g.type == "GeometryCollection") {
      if (!g.has_geometries) fault(at, "a GeometryCollection has a geometries array, this one none");
      return;
    }
    int depth = position_depth(g.type);
    if (depth < 0) return;
    if (!g.has_coordinates) {
      fault(at, fmt::format("a {} has coordinates, this one none", g.type));
      return;
    }
    if (g.position_depth >= 0 && g.position_depth != depth) {
      fault(at + "/coordinates", fmt::format("coordinates nested as {}, not a {}", depth_name(g.position_depth), g.type));
      return;
    }
    judge_empty(g);
    // Lists seen before the type was known.
    bool lines = g.type == "LineString" || g.type == "MultiLineString";
    bool rings = g.type == "Polygon" || g.type == "MultiPolygon";
    if (lines && !g.short2.empty()) fault(g.short2, fmt::format("a LineString has at least 2 positions, this one {}", g.short2_n));
    if (rings && !g.short4.empty()) fault(g.short4, fmt::format("a ring has at least 4 positions, this one {}", g.short4_n));
    else if (rings && !g.unclosed.empty()) fault(g.unclosed, "a ring is not closed: its last position differs from its first");
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  const ValidateOptions& options_;
  Expect expect_;
  std::vector<Frame> frames_;
  std::vector<Members> members_;  // of the open judged objects, innermost last
  std::string feature_id_;        // of the Feature being read
  Envelope feature_env_;
  Validation out_;
};

}  // namespace

Validation validate_geojson(std::string_view text, Expect expect, const ValidateOptions& options) {
  return Validator(text, expect, options).run();
}

}  // namespace adrprobe::geo
