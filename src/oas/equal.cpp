#include "oas/equal.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

#include "oas/pointer.hpp"

namespace adrprobe::oas {
namespace {

// An integer and a double are equal only when the double is exactly that
// integer (no rounding of either side).
bool int_equals_double(std::int64_t i, double d) {
  if (!std::isfinite(d) || std::trunc(d) != d) return false;
  if (d < -9223372036854775808.0 || d >= 9223372036854775808.0) return false;  // outside int64
  return static_cast<std::int64_t>(d) == i;
}
bool uint_equals_double(std::uint64_t u, double d) {
  if (!std::isfinite(d) || std::trunc(d) != d) return false;
  if (d < 0 || d >= 18446744073709551616.0) return false;  // outside uint64
  return static_cast<std::uint64_t>(d) == u;
}

// A number's kind as nlohmann reads it: without fraction or exponent,
// unsigned when not negative, else signed; the rest float.
enum class Kind { unsigned_, signed_, float_ };
Kind kind(const Value& v) {
  if (v.IsDouble()) return Kind::float_;
  return v.IsUint64() ? Kind::unsigned_ : Kind::signed_;
}

// Numbers compare by exact value across unsigned, signed and float kinds
// (1 == 1.0; 18446744073709551615 != -1); a number never equals a string, a
// boolean or null.
bool same_number(const Value& a, const Value& b) {
  Kind ta = kind(a), tb = kind(b);
  if (ta == tb) {
    if (ta == Kind::unsigned_) return a.GetUint64() == b.GetUint64();
    if (ta == Kind::signed_) return a.GetInt64() == b.GetInt64();
    return a.GetDouble() == b.GetDouble();
  }
  if (ta == Kind::float_) return same_number(b, a);  // the float, if any, second
  double d = tb == Kind::float_ ? b.GetDouble() : 0;
  if (ta == Kind::unsigned_) {
    if (tb == Kind::float_) return uint_equals_double(a.GetUint64(), d);
    std::int64_t i = b.GetInt64();
    return i >= 0 && static_cast<std::uint64_t>(i) == a.GetUint64();
  }
  // a is a signed integer
  if (tb == Kind::float_) return int_equals_double(a.GetInt64(), d);
  return same_number(b, a);  // b unsigned
}

bool same_scalar(const Value& a, const Value& b) {
  if (a.IsNumber() || b.IsNumber()) return a.IsNumber() && b.IsNumber() && same_number(a, b);
  if (a.GetType() != b.GetType()) return false;
  return !a.IsString() || str(a) == str(b);
}

// Iterative depth-first walk in document order: documents may be deep, and
// the result is the first differing pointer as a reader of `a` meets it.
std::optional<std::string> walk(const Value& a, const Value& b) {
  struct Item {
    const Value* a;
    const Value* b;  // nullptr: the key is missing in b
    std::string pointer;
    bool extra_keys_check = false;  // after a's keys: does b have keys a lacks?
  };
  std::vector<Item> stack{{&a, &b, "", false}};
  while (!stack.empty()) {
    Item it = std::move(stack.back());
    stack.pop_back();
    if (!it.b) return it.pointer;
    const auto& x = *it.a;
    const auto& y = *it.b;
    if (it.extra_keys_check) {
      for (const auto& m : y.GetObject())
        if (!contains(x, key_of(m))) return it.pointer + "/" + escape_token(key_of(m));
      continue;
    }
    if (x.IsObject() && y.IsObject()) {
      stack.push_back({&x, &y, it.pointer, true});
      std::vector<Item> children;
      for (const auto& m : x.GetObject())
        children.push_back({&m.value, find(y, key_of(m)), it.pointer + "/" + escape_token(key_of(m)), false});
      stack.insert(stack.end(), std::make_move_iterator(children.rbegin()), std::make_move_iterator(children.rend()));
    } else if (x.IsArray() && y.IsArray()) {
      if (x.Size() != y.Size()) return it.pointer;
      for (auto i = x.Size(); i-- > 0;) stack.push_back({&x[i], &y[i], it.pointer + "/" + std::to_string(i), false});
    } else if (!same_scalar(x, y)) {
      return it.pointer;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> first_difference(const Value& a, const Value& b) { return walk(a, b); }

}  // namespace adrprobe::oas
