#include "oas/equal.hpp"

#include <vector>

#include "oas/pointer.hpp"

namespace adrprobe::oas {
namespace {

// json compares numbers by value across integer and float kinds
// (1 == 1.0) and never equates a string with a number.
bool same_scalar(const json& a, const json& b) { return a == b; }

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
