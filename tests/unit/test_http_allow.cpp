// http/allow: the Allow response header.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "http/allow.hpp"

using namespace adrprobe;

TEST_CASE("Allow header parsing") {
  auto a = http::parse_allow("GET, head,OPTIONS ,, ");
  CHECK(a == std::set<std::string>{"GET", "HEAD", "OPTIONS"});
  CHECK(http::parse_allow("").empty());
}
