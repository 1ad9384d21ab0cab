// Regression tests for behaviour found wrong in review.
#include <doctest/doctest.h>

#include "oas/equal.hpp"
#include "oas/parse.hpp"
#include "oas/paths.hpp"
#include "oas/refs.hpp"
#include "report/redact.hpp"
#include "report/formats.hpp"
#include "util/strings.hpp"

using namespace adrprobe;
using oas::json;

TEST_CASE("long scalars and path templates do not exhaust the stack") {
  std::string digits(200000, '7');
  auto y = oas::parse_yaml("v: " + digits + "\n");
  REQUIRE(y.ok);
  CHECK(!y.value["v"].is_null());  // too large for a double: kept as text, no crash
  json root = {{"paths", {{"/x/{" + std::string(200000, 'a') + "}", {{"get", json::object()}}}}}};
  oas::DocumentSet docs("https://h/v1/openapi.json", root);
  auto plans = oas::enumerate_paths(docs, {});
  REQUIRE(plans.size() == 1);
  CHECK(plans[0].missing.size() == 1);
  CHECK(oas::parse_yaml("v: 1.5e3\nw: .5\nx: 1.\ny: 1e\nz: 0x1F\n").value["y"] == "1e");
}

TEST_CASE("DO-2 walks the OAS structure: references in examples count, data does not") {
  json root = json::parse(R"({
    "paths": {"/a": {"get": {"parameters": [{"name": "p", "in": "query",
        "examples": {"een": {"$ref": "#/components/examples/Missing2"}}}],
      "responses": {"200": {"description": "ok", "content": {"application/json": {
        "schema": {"properties": {"example": {"$ref": "#/components/schemas/Missing1"},
                                  "x-id": {"$ref": "#/components/schemas/Missing4"}},
                   "default": {"$ref": "not-a-ref-just-data"}},
        "example": {"$ref": "also data"}}}}}}}},
    "components": {"examples": {"X": {"$ref": "#/components/examples/Missing3"},
                                "Y": {"value": {"$ref": "data again"}}},
                   "schemas": {"S": {"x-note": {"$ref": "#/nowhere"}, "enum": [{"$ref": "#/no"}]}}}
  })");
  oas::DocumentSet docs("https://h/v1/openapi.json", root);
  int fetched = 0;
  auto unresolved = docs.resolve_all([&](const std::vector<std::string>& urls) {
    fetched += static_cast<int>(urls.size());
    return std::map<std::string, oas::FetchedDocument>{};
  });
  std::vector<std::string> refs;
  for (const auto& u : unresolved) refs.push_back(u.ref);
  CHECK(fetched == 0);  // data is never fetched as a document
  CHECK(refs == std::vector<std::string>{"#/components/examples/Missing2", "#/components/schemas/Missing1",
                                         "#/components/schemas/Missing4", "#/components/examples/Missing3"});
}

TEST_CASE("first difference is the first in document order") {
  auto a = oas::parse_json(R"({"a": {"b": 1, "c": 2}, "d": 3})").value;
  auto b = oas::parse_json(R"({"a": {"b": 9, "c": 2}})").value;
  CHECK(oas::first_difference(a, b) == "/a/b");
}

TEST_CASE("redaction: a short value echoed whole is masked; lowercase percent-encoding too") {
  report::Report r;
  http::Exchange e;
  e.id = 1;
  e.url = "https://h/v1";
  e.response_headers = {{"x-echo-x-key", "ab1"}, {"x-echo-auth", "tok%2fen-value%2f1"}};
  r.exchanges.push_back(e);
  report::Redactor({{"X-Key", "ab1"}, {"Authorization", "tok/en-value/1"}}).apply(r);
  std::string out = report::render_json(r, {});
  CHECK(out.find("ab1") == std::string::npos);
  CHECK(out.find("tok") == std::string::npos);
}

TEST_CASE("utf-8: invalid bytes replaced, truncation at a character boundary") {
  CHECK(sanitize_utf8("ok\xff\xfe→") == "ok??→");
  CHECK(truncate_utf8("ab→cd", 6) == "ab...");
  CHECK(truncate_utf8("short", 10) == "short");
}
