// http/media_type: the media type of a Content-Type value.
#include <doctest/doctest.h>

#include "http/media_type.hpp"

using namespace adrprobe::http;

TEST_CASE("media types: parameters dropped, compared case-insensitively") {
  CHECK(media_type(" application/problem+json ; charset=utf-8") == "application/problem+json");
  CHECK(media_type("text/html") == "text/html");
  CHECK(is_json_media_type("application/hal+json"));
  CHECK(is_json_media_type("APPLICATION/JSON; charset=utf-8"));
  CHECK_FALSE(is_json_media_type("text/json"));
  CHECK_FALSE(is_json_media_type("application/+json"));
}
