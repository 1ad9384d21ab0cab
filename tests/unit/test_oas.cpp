#include <doctest/doctest.h>

#include <string>

#include "oas/equal.hpp"
#include "oas/parse.hpp"
#include "oas/paths.hpp"
#include "oas/pointer.hpp"
#include "oas/refs.hpp"

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

TEST_CASE("YAML loads with the core schema") {
  auto r = parse_yaml("a: 1\nb: 1.5\nc: '1'\nd: true\ne: ~\nf: 1.0.0\ng: [x, 2]\n");
  REQUIRE(r.ok);
  CHECK(r.value["a"].is_number_integer());
  CHECK(r.value["b"].is_number_float());
  CHECK(r.value["c"].is_string());
  CHECK(r.value["d"] == true);
  CHECK(r.value["e"].is_null());
  CHECK(r.value["f"] == "1.0.0");
  CHECK(r.value["g"][1] == 2);
}

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

TEST_CASE("hostile documents fail with a reason, not a crash") {
  std::string deep(100000, '[');
  auto r = parse_json(deep);
  CHECK_FALSE(r.ok);
  CHECK(r.error.find("deeper") != std::string::npos);
  std::string bomb = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n";
  const char* prev = "a";
  std::string names = "bcdefghij";
  for (char n : names) {
    bomb += std::string(1, n) + ": &" + n + " [";
    for (int i = 0; i < 9; ++i) bomb += std::string(i ? "," : "") + "*" + prev;
    bomb += "]\n";
    static std::string keep;
    keep = std::string(1, n);
    prev = keep.c_str();
  }
  auto y = parse_yaml(bomb);
  CHECK_FALSE(y.ok);
  CHECK(y.error.find("values") != std::string::npos);
  Limits small;
  small.max_document_bytes = 10;
  CHECK_FALSE(parse_json(R"({"a": "0123456789"})", small).ok);
  CHECK_FALSE(parse_json("{").ok);
  CHECK_FALSE(parse_yaml("a: [").ok);
}

TEST_CASE("$ref resolution: local, external, unresolved and cycles") {
  json root = json::parse(R"({
    "paths": {"/a": {"get": {"responses": {"200": {"$ref": "#/components/responses/ok"}}}},
              "/b": {"$ref": "paths.json#/b"}},
    "components": {"responses": {"ok": {"description": "ok"}},
                   "schemas": {"Node": {"properties": {"next": {"$ref": "#/components/schemas/Node"}}},
                               "Loop1": {"$ref": "#/components/schemas/Loop2"},
                               "Loop2": {"$ref": "#/components/schemas/Loop1"},
                               "Missing": {"$ref": "#/components/schemas/Nope"},
                               "Escaped": {"$ref": "#/paths/~1a"}}}
  })");
  DocumentSet docs("https://h/v1/openapi.json", root);
  int fetches = 0;
  auto fetch = [&](const std::vector<std::string>& urls) {
    std::map<std::string, FetchedDocument> out;
    for (const auto& u : urls) {
      ++fetches;
      if (u == "https://h/v1/paths.json") {
        out[u].ok = true;
        out[u].value = json::parse(R"({"b": {"get": {"$ref": "other.json#/op"}}, "unused": {"$ref": "#/nowhere"}})");
      } else {
        out[u].error = "GET " + u + " → 404";
      }
    }
    return out;
  };
  auto unresolved = docs.resolve_all(fetch);
  CHECK(fetches == 2);  // paths.json, then other.json from inside it
  std::vector<std::string> where;
  for (const auto& u : unresolved) where.push_back(u.where + " " + u.reason);
  INFO(where.size());
  REQUIRE(unresolved.size() == 4);  // Loop1, Loop2, Missing, other.json; "unused" is not reachable
  bool saw_missing = false, saw_cycle = false, saw_external = false;
  for (const auto& u : unresolved) {
    if (u.where == "#/components/schemas/Missing/$ref") saw_missing = true;
    if (u.reason == "circular $ref chain") saw_cycle = true;
    if (u.where == "https://h/v1/paths.json#/b/get/$ref") saw_external = u.reason.find("404") != std::string::npos;
  }
  CHECK(saw_missing);
  CHECK(saw_cycle);
  CHECK(saw_external);
  CHECK(docs.external_count() == 2);
}

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
