// oas/paths: which documented paths are probed, with which URL.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "oas/paths.hpp"
#include "oas/refs.hpp"

using namespace adrprobe;
using namespace adrprobe::oas;

TEST_CASE("path enumeration: parameters from --param, examples and schemas") {
  json root = json::parse(R"({
    "paths": {
      "/gebouwen": {"get": {}, "post": {}},
      "/gebouwen/{id}": {"parameters": [{"$ref": "#/components/parameters/id"}], "get": {}, "delete": {}},
      "/panden/{pid}": {"get": {"parameters": [{"name": "pid", "in": "path", "schema": {"enum": ["a b", "c"]}}]}},
      "/zaken/{zid}": {"get": {}},
      "/alleen-post": {"post": {}}
    },
    "components": {"parameters": {"id": {"name": "id", "in": "path", "examples": {"x": {"value": 42}}}}}
  })");
  DocumentSet docs("https://h/v1/openapi.json", root);
  auto plans = enumerate_paths(docs, {});
  REQUIRE(plans.size() == 5);
  CHECK(plans[0].concrete == "/gebouwen");
  CHECK(plans[0].methods == std::set<std::string>{"GET", "POST"});
  CHECK(plans[1].concrete == "/gebouwen/42");
  CHECK(plans[2].concrete == "/panden/a%20b");
  CHECK(plans[3].missing == std::vector<std::string>{"zid"});
  CHECK_FALSE(plans[3].probed());
  CHECK_FALSE(plans[4].has_get());
  auto with_param = enumerate_paths(docs, {{"zid", "7"}, {"id", "9"}});
  CHECK(with_param[3].concrete == "/zaken/7");
  CHECK(with_param[1].concrete == "/gebouwen/9");
}

TEST_CASE("a path item $ref that does not resolve is not probed (found by fuzz_paths)") {
  json root = json::parse(R"({"paths": {"/c": {"$ref": "#/nowhere"}, "/d": {"get": {}}}})");
  DocumentSet docs("https://h/v1/openapi.json", root);
  auto plans = enumerate_paths(docs, {});
  REQUIRE(plans.size() == 2);
  CHECK(plans[0].unresolved);
  CHECK(plans[0].missing.empty());
  CHECK_FALSE(plans[0].probed());
  CHECK(plans[1].probed());
}

TEST_CASE("long path templates do not exhaust the stack") {
  json root = {{"paths", {{"/x/{" + std::string(200000, 'a') + "}", {{"get", json::object()}}}}}};
  oas::DocumentSet docs("https://h/v1/openapi.json", root);
  auto plans = oas::enumerate_paths(docs, {});
  REQUIRE(plans.size() == 1);
  CHECK(plans[0].missing.size() == 1);
}

TEST_CASE("path enumeration: a path parameter's value may come from any operation; GET's wins") {
  json root = json::parse(R"({
    "paths": {
      "/zaken/{zid}/_zoek": {"post": {"parameters": [{"name": "zid", "in": "path", "example": "5"}]}},
      "/panden/{pid}": {
        "get": {"parameters": [{"name": "pid", "in": "path", "example": "g"}]},
        "delete": {"parameters": [{"name": "pid", "in": "path", "example": "d"}]}},
      "/items/{iid}": {
        "parameters": [{"name": "iid", "in": "path"}],
        "put": {"parameters": [{"name": "iid", "in": "path", "schema": {"default": "p"}}]}}
    }
  })");
  DocumentSet docs("https://h/v1/openapi.json", root);
  auto plans = enumerate_paths(docs, {});
  REQUIRE(plans.size() == 3);
  CHECK(plans[0].concrete == "/zaken/5/_zoek");
  CHECK(plans[0].probed());
  CHECK_FALSE(plans[0].has_get());
  CHECK(plans[1].concrete == "/panden/g");
  CHECK(plans[2].concrete == "/items/p");
}
