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

// Numbers compare by exact value across unsigned, signed and float kinds
// (1 == 1.0; 18446744073709551615 != -1, which nlohmann's == casts to equal);
// a number never equals a string, a boolean or null.
bool same_number(const json& a, const json& b) {
  using V = json::value_t;
  V ta = a.type(), tb = b.type();
  if (ta == tb) {
    if (ta == V::number_unsigned) return a.get<std::uint64_t>() == b.get<std::uint64_t>();
    if (ta == V::number_integer) return a.get<std::int64_t>() == b.get<std::int64_t>();
    return a.get<double>() == b.get<double>();
  }
  if (ta == V::number_float) return same_number(b, a);  // the float, if any, second
  double d = tb == V::number_float ? b.get<double>() : 0;
  if (ta == V::number_unsigned) {
    if (tb == V::number_float) return uint_equals_double(a.get<std::uint64_t>(), d);
    std::int64_t i = b.get<std::int64_t>();
    return i >= 0 && static_cast<std::uint64_t>(i) == a.get<std::uint64_t>();
  }
  // a is a signed integer
  if (tb == V::number_float) return int_equals_double(a.get<std::int64_t>(), d);
  return same_number(b, a);  // b unsigned
}

bool same_scalar(const json& a, const json& b) {
  if (a.is_number() || b.is_number()) return a.is_number() && b.is_number() && same_number(a, b);
  return a == b;
}

// Iterative depth-first walk in document order: documents may be deep, and
// the result is the first differing pointer as a reader of `a` meets it.
std::optional<std::string> walk(const json& a, const json& b) {
  struct Item {
    const json* a;
    const json* b;  // nullptr: the key is missing in b
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
      for (auto kv = y.begin(); kv != y.end(); ++kv)
        if (!x.contains(kv.key())) return it.pointer + "/" + escape_token(kv.key());
      continue;
    }
    if (x.is_object() && y.is_object()) {
      stack.push_back({&x, &y, it.pointer, true});
      std::vector<Item> children;
      for (auto kv = x.begin(); kv != x.end(); ++kv) {
        auto other = y.find(kv.key());
        children.push_back({&kv.value(), other == y.end() ? nullptr : &*other, it.pointer + "/" + escape_token(kv.key()), false});
      }
      stack.insert(stack.end(), std::make_move_iterator(children.rbegin()), std::make_move_iterator(children.rend()));
    } else if (x.is_array() && y.is_array()) {
      if (x.size() != y.size()) return it.pointer;
      for (std::size_t i = x.size(); i-- > 0;) stack.push_back({&x[i], &y[i], it.pointer + "/" + std::to_string(i), false});
    } else if (!same_scalar(x, y)) {
      return it.pointer;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> first_difference(const json& a, const json& b) { return walk(a, b); }

}  // namespace adrprobe::oas
