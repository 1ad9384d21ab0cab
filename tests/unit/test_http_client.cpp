// http/client: request helpers.
#include <doctest/doctest.h>

#include "http/client.hpp"

using namespace adrprobe;

TEST_CASE("safe methods") {
  CHECK(http::is_safe_method("TRACE"));
  CHECK_FALSE(http::is_safe_method("DELETE"));
}
