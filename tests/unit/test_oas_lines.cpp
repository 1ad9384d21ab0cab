// Line numbers of JSON pointers, in YAML and in JSON text.
#include <doctest/doctest.h>

#include "oas/lines.hpp"

using namespace adrprobe;

TEST_CASE("lines: YAML members, items, escaped tokens") {
  std::string yaml =
      "openapi: 3.0.3\n"        // 1
      "info:\n"                 // 2
      "  title: x\n"            // 3
      "  version: '1'\n"        // 4
      "servers:\n"              // 5
      "  - url: /v1\n"          // 6
      "  - url: /v2\n"          // 7
      "paths:\n"                // 8
      "  /fooBar:\n"            // 9
      "    get: {}\n"           // 10
      "  /a~b:\n"               // 11
      "    get: {}\n";          // 12
  auto lines = oas::lines_of(yaml, {"", "/openapi", "/info/version", "/servers/1/url", "/servers/1", "/paths/~1fooBar",
                                    "/paths/~1fooBar/get", "/paths/~1a~0b", "/nope", "/servers/9", "bad"});
  CHECK(lines[0] == 1);
  CHECK(lines[1] == 1);
  CHECK(lines[2] == 4);
  CHECK(lines[3] == 7);
  CHECK(lines[4] == 7);
  CHECK(lines[5] == 9);
  CHECK(lines[6] == 10);
  CHECK(lines[7] == 11);
  CHECK_FALSE(lines[8]);
  CHECK_FALSE(lines[9]);
  CHECK_FALSE(lines[10]);
}

TEST_CASE("lines: JSON is YAML") {
  std::string json = "{\n  \"openapi\": \"3.1.0\",\n  \"paths\": {\n    \"/a/\": {}\n  }\n}\n";
  CHECK(oas::line_of(json, "/paths/~1a~1") == 4);
  CHECK(oas::line_of(json, "/openapi") == 2);
  CHECK_FALSE(oas::line_of("{ not: [ closed", "/not"));
  CHECK_FALSE(oas::line_of("", "/a"));
}
