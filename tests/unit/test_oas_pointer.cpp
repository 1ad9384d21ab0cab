// oas/pointer: JSON Pointer (RFC 6901) and lookups.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "oas/pointer.hpp"

using namespace adrprobe;
using namespace adrprobe::oas;

TEST_CASE("JSON pointer: escapes and lookups") {
  auto t = pointer_tokens("/paths/~1gebouwen~1{id}/get/~0x");
  REQUIRE(t);
  CHECK(*t == std::vector<std::string>{"paths", "/gebouwen/{id}", "get", "~x"});
  CHECK(make_pointer(*t) == "/paths/~1gebouwen~1{id}/get/~0x");
  CHECK_FALSE(pointer_tokens("paths"));
  CHECK_FALSE(pointer_tokens("/a~2"));
  auto f = fragment_tokens("/paths/~1a%20b");
  REQUIRE(f);
  CHECK(f->back() == "/a b");
  json doc = json::parse(R"({"a": [10, {"b": 2}]})");
  CHECK(*lookup(doc, {"a", "1", "b"}) == 2);
  CHECK(lookup(doc, {"a", "01"}) == nullptr);
  CHECK(lookup(doc, {"a", "5"}) == nullptr);
  CHECK(lookup(doc, {"x"}) == nullptr);
}
