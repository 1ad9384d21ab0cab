// util/strings: string helpers.
#include <doctest/doctest.h>

#include "util/strings.hpp"

using namespace adrprobe;

TEST_CASE("strings: percent coding and joins") {
  CHECK(percent_decode("a%20b%7E") == "a b~");
  CHECK(percent_decode("100%") == "100%");
  CHECK(percent_decode("%zz") == "%zz");
  CHECK(percent_encode("a b/c") == "a%20b%2Fc");
  CHECK(join({"a", "b", "c"}, ", ", 2) == "a, b, … (+1 more)");
  CHECK(plural(1, "path", "paths") == "1 path");
  CHECK(plural(2, "path", "paths") == "2 paths");
}

TEST_CASE("utf-8: invalid bytes replaced, truncation at a character boundary") {
  CHECK(sanitize_utf8("ok\xff\xfe→") == "ok??→");
  CHECK(truncate_utf8("ab→cd", 6) == "ab...");
  CHECK(truncate_utf8("short", 10) == "short");
}
