// oas/equal: deep equality of loaded documents (PO-3).
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "oas/equal.hpp"
#include "oas/parse.hpp"

using namespace adrprobe;
using namespace adrprobe::oas;

namespace {
// Documents as PO-3 reads them: JSON text by parse_json_document, YAML by
// parse_any_document.
DocPtr document(std::string_view text) {
  auto r = parse_any_document(text);
  REQUIRE_MESSAGE(r.ok, r.error);
  return r.doc;
}
std::optional<std::string> difference(const DocPtr& a, const DocPtr& b) {
  return first_difference(a->root(), b->root());
}
}  // namespace

TEST_CASE("YAML vs JSON equality: numbers by value, order ignored, types kept") {
  auto j = document(R"({"openapi":"3.0.3","x":{"n":1,"m":[1,2]},"v":"1"})");
  auto y = document("x:\n  m: [1, 2]\n  n: 1.0\nopenapi: 3.0.3\nv: '1'\n");
  CHECK_FALSE(difference(j, y).has_value());
  auto y2 = document("x:\n  m: [1, 2]\n  n: 1\nopenapi: 3.0.3\nv: 1\n");
  CHECK(difference(j, y2) == "/v");  // "1" is not 1
  auto y3 = document("x:\n  m: [1, 3]\n  n: 1\nopenapi: 3.0.3\nv: '1'\n");
  CHECK(difference(j, y3) == "/x/m/1");
  auto y4 = document("x:\n  m: [1, 2]\n  n: 1\nopenapi: 3.0.3\nv: '1'\nextra: 0\n");
  CHECK(difference(j, y4) == "/extra");
}

TEST_CASE("first difference is the first in document order") {
  auto a = document(R"({"a": {"b": 1, "c": 2}, "d": 3})");
  auto b = document(R"({"a": {"b": 9, "c": 2}})");
  CHECK(oas::first_difference(a->root(), b->root()) == "/a/b");
}

namespace {
// first_difference both ways round: equality must be symmetric.
bool same(const json& a, const json& b) {
  auto da = from_json(a), db = from_json(b);
  bool ab = !difference(da, db).has_value();
  bool ba = !difference(db, da).has_value();
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
  const char* json_text = R"({"max": 18446744073709551615, "min": -9223372036854775808, "big": 12345678901234567890})";
  auto j = parse_json(json_text);
  REQUIRE(j.ok);
  CHECK(j.value["max"].is_number_unsigned());
  auto jd = document(json_text);
  CHECK(find(jd->root(), "max")->IsUint64());
  CHECK_FALSE(find(jd->root(), "max")->IsInt64());
  const char* yaml_text = "max: 18446744073709551615\nmin: -9223372036854775808\nbig: 12345678901234567890\n";
  auto y = parse_yaml(yaml_text);
  REQUIRE(y.ok);
  CHECK(y.value["max"].is_number_unsigned());
  CHECK(y.value["min"].is_number_integer());
  auto yd = document(yaml_text);
  CHECK(find(yd->root(), "max")->IsUint64());
  CHECK(find(yd->root(), "min")->IsInt64());
  CHECK_FALSE(difference(jd, yd).has_value());
  auto minus_one = document("max: -1\nmin: -9223372036854775808\nbig: 12345678901234567890\n");
  CHECK(difference(jd, minus_one) == "/max");
  CHECK(difference(minus_one, jd) == "/max");
  auto as_float = document("max: 18446744073709551615.0\nmin: -9223372036854775808\nbig: 12345678901234567890\n");
  CHECK(difference(jd, as_float) == "/max");  // 2^64 after rounding
}
