// oas/equal: deep equality of loaded documents (PO-3).
#include <doctest/doctest.h>

#include <cstdint>

#include "oas/equal.hpp"
#include "oas/parse.hpp"

using namespace adrprobe;
using namespace adrprobe::oas;

TEST_CASE("YAML vs JSON equality: numbers by value, order ignored, types kept") {
  auto j = parse_json(R"({"openapi":"3.0.3","x":{"n":1,"m":[1,2]},"v":"1"})");
  auto y = parse_yaml("x:\n  m: [1, 2]\n  n: 1.0\nopenapi: 3.0.3\nv: '1'\n");
  REQUIRE(j.ok);
  REQUIRE(y.ok);
  CHECK_FALSE(first_difference(j.value, y.value).has_value());
  auto y2 = parse_yaml("x:\n  m: [1, 2]\n  n: 1\nopenapi: 3.0.3\nv: 1\n");
  REQUIRE(y2.ok);
  CHECK(first_difference(j.value, y2.value) == "/v");  // "1" is not 1
  auto y3 = parse_yaml("x:\n  m: [1, 3]\n  n: 1\nopenapi: 3.0.3\nv: '1'\n");
  CHECK(first_difference(j.value, y3.value) == "/x/m/1");
  auto y4 = parse_yaml("x:\n  m: [1, 2]\n  n: 1\nopenapi: 3.0.3\nv: '1'\nextra: 0\n");
  CHECK(first_difference(j.value, y4.value) == "/extra");
}

TEST_CASE("first difference is the first in document order") {
  auto a = oas::parse_json(R"({"a": {"b": 1, "c": 2}, "d": 3})").value;
  auto b = oas::parse_json(R"({"a": {"b": 9, "c": 2}})").value;
  CHECK(oas::first_difference(a, b) == "/a/b");
}

namespace {
// first_difference both ways round: equality must be symmetric.
bool same(const json& a, const json& b) {
  bool ab = !first_difference(a, b).has_value();
  bool ba = !first_difference(b, a).has_value();
  CHECK(ab == ba);
  return ab && ba;
}
}  // namespace

TEST_CASE("equality: numbers by exact value across unsigned, signed and float") {
  const std::uint64_t umax = 18446744073709551615ULL;
  const std::int64_t imin = INT64_MIN, imax = INT64_MAX;
  // nlohmann's == casts unsigned to signed: 2^64-1 "equals" -1. Not here.
  CHECK_FALSE(same(json(umax), json(-1)));
  CHECK_FALSE(same(json(std::uint64_t{9223372036854775808ULL}), json(imin)));
  CHECK(same(json(std::uint64_t{5}), json(std::int64_t{5})));
  CHECK(same(json(std::uint64_t{0}), json(std::int64_t{0})));
  CHECK(same(json(1), json(1.0)));
  CHECK(same(json(std::uint64_t{1}), json(1.0)));
  CHECK(same(json(0), json(-0.0)));
  CHECK(same(json(-3), json(-3.0)));
  CHECK_FALSE(same(json(1), json(1.5)));
  CHECK_FALSE(same(json(std::uint64_t{1}), json(-1.0)));
  // A double rounds 2^53+1 to 2^53: the integer and that double differ.
  CHECK_FALSE(same(json(std::int64_t{9007199254740993}), json(9007199254740992.0)));
  CHECK(same(json(std::int64_t{9007199254740992}), json(9007199254740992.0)));
  // 2^64-1 as a double is 2^64: not the same number.
  CHECK_FALSE(same(json(umax), json(18446744073709551615.0)));
  CHECK(same(json(std::uint64_t{9223372036854775808ULL}), json(9223372036854775808.0)));
  CHECK_FALSE(same(json(imax), json(9223372036854775808.0)));
  CHECK(same(json(imin), json(-9223372036854775808.0)));
  CHECK(same(json(0.5), json(0.5)));
  CHECK_FALSE(same(json(0.1), json(0.2)));
  // Strings, booleans and null never equal numbers.
  CHECK_FALSE(same(json("1"), json(1)));
  CHECK_FALSE(same(json("1"), json(std::uint64_t{1})));
  CHECK_FALSE(same(json("1.0"), json(1.0)));
  CHECK_FALSE(same(json(true), json(1)));
  CHECK_FALSE(same(json(false), json(0.0)));
  CHECK_FALSE(same(json(nullptr), json(0)));
  CHECK(same(json("x"), json("x")));
  CHECK(same(json(true), json(true)));
  CHECK(same(json(nullptr), json(nullptr)));
}

TEST_CASE("equality: PO-3 on large numbers, JSON against YAML") {
  auto j = parse_json(R"({"max": 18446744073709551615, "min": -9223372036854775808, "big": 12345678901234567890})");
  REQUIRE(j.ok);
  CHECK(j.value["max"].is_number_unsigned());
  auto y = parse_yaml("max: 18446744073709551615\nmin: -9223372036854775808\nbig: 12345678901234567890\n");
  REQUIRE(y.ok);
  CHECK(y.value["max"].is_number_unsigned());
  CHECK(y.value["min"].is_number_integer());
  CHECK_FALSE(first_difference(j.value, y.value).has_value());
  auto minus_one = parse_yaml("max: -1\nmin: -9223372036854775808\nbig: 12345678901234567890\n");
  REQUIRE(minus_one.ok);
  CHECK(first_difference(j.value, minus_one.value) == "/max");
  CHECK(first_difference(minus_one.value, j.value) == "/max");
  auto as_float = parse_yaml("max: 18446744073709551615.0\nmin: -9223372036854775808\nbig: 12345678901234567890\n");
  REQUIRE(as_float.ok);
  CHECK(first_difference(j.value, as_float.value) == "/max");  // 2^64 after rounding
}
