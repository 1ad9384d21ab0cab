// oas/equal: deep equality of loaded documents (PO-3).
#include <doctest/doctest.h>

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
