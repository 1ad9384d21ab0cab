#include "oas/equal.hpp"

#include <vector>

#include "oas/pointer.hpp"

namespace adrprobe::oas {
namespace {

// json compares numbers by value across integer and float kinds
// (1 == 1.0) and never equates a string with a number.
bool same_scalar(const json& a, const json& b) { return a == b; }

// Iterative walk: documents may be deep, and the result is one pointer.
std::optional<std::string> walk(const json& a, const json& b) {
  struct Item {
    const json* a;
    const json* b;
    std::string pointer;
  };
  std::vector<Item> stack{{&a, &b, ""}};
  while (!stack.empty()) {
    Item it = std::move(stack.back());
    stack.pop_back();
    const auto& x = *it.a;
    const auto& y = *it.b;
    if (x.is_object() && y.is_object()) {
      std::vector<Item> children;
      for (auto kv = x.begin(); kv != x.end(); ++kv) {
        auto other = y.find(kv.key());
        if (other == y.end()) return it.pointer + "/" + escape_token(kv.key());
        children.push_back({&kv.value(), &*other, it.pointer + "/" + escape_token(kv.key())});
      }
      for (auto kv = y.begin(); kv != y.end(); ++kv)
        if (!x.contains(kv.key())) return it.pointer + "/" + escape_token(kv.key());
      // Reverse, so the first key (in sorted order) is compared first.
      stack.insert(stack.end(), children.rbegin(), children.rend());
    } else if (x.is_array() && y.is_array()) {
      if (x.size() != y.size()) return it.pointer;
      for (std::size_t i = x.size(); i-- > 0;) stack.push_back({&x[i], &y[i], it.pointer + "/" + std::to_string(i)});
    } else if (!same_scalar(x, y)) {
      return it.pointer;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> first_difference(const json& a, const json& b) { return walk(a, b); }

}  // namespace adrprobe::oas
