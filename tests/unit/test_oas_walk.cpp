// oas/walk: operations, effective parameters, and places for messages.
#include <doctest/doctest.h>

#include "oas/walk.hpp"

using namespace adrprobe;
using namespace adrprobe::oas;

namespace {

DocumentSet load(json doc, std::map<std::string, json> external = {}) {
  DocumentSet docs("https://api.example.nl/v1/openapi.json", std::move(doc));
  docs.resolve_all([&](const std::vector<std::string>& urls) {
    std::map<std::string, FetchedDocument> out;
    for (const auto& u : urls) {
      auto it = external.find(u);
      if (it != external.end()) out[u] = {true, from_json(it->second), "", false, {}, 0};
      else out[u].error = "not fetched";
    }
    return out;
  });
  return docs;
}

// The response of an operation for a status code, after $refs.
Node response(const Walker& w, const Operation& op, const std::string& code) {
  return w.member(w.member(op.op, "responses"), code);
}

}  // namespace

TEST_CASE("operations: every method, path items by $ref, OAS 3.2 query and additionalOperations, not callbacks") {
  auto docs = load(json::parse(R"({
    "openapi": "3.2.0",
    "paths": {
      "/a": {"get": {"responses": {}}, "post": {"callbacks": {"cb": {"{$url}": {"post": {}}}}}},
      "/b": {"$ref": "#/components/pathItems/B"},
      "/c": {"query": {}, "additionalOperations": {"COPY": {}}}
    },
    "webhooks": {"w": {"post": {}}},
    "components": {"pathItems": {"B": {"delete": {}}}}
  })"));
  Walker w(docs);
  auto ops = operations(w);
  std::vector<std::string> seen;
  for (const auto& o : ops) seen.push_back(o.upper_method() + " " + std::string(o.path));
  CHECK(seen == std::vector<std::string>{"GET /a", "POST /a", "DELETE /b", "QUERY /c", "COPY /c"});
  CHECK(w.show(ops[2].op.at) == "/components/pathItems/B/delete");
  CHECK(w.where(ops[2].op) == "/paths/~1b → #/components/pathItems/B/delete");
  CHECK(w.show(ops[0].op.at) == "/paths/~1a/get");
}

TEST_CASE("all_operations is made once per document set; find_operation finds one by path and method") {
  auto docs = load(json::parse(R"({
    "paths": {
      "/a": {"get": {"responses": {}}, "post": {}},
      "/b": {"$ref": "#/components/pathItems/B"},
      "/c": {"additionalOperations": {"get": {"x": 1}}, "get": {"x": 0}}
    },
    "components": {"pathItems": {"B": {"get": {"b": true}}}}
  })"));
  const auto& all = all_operations(docs);
  CHECK(&all == &all_operations(docs));
  REQUIRE(all.size() == 5);
  Walker w(docs);
  auto listed = operations(w);
  for (std::size_t i = 0; i < all.size(); ++i) {
    CHECK(all[i].path == listed[i].path);
    CHECK(all[i].method == listed[i].method);
    CHECK(all[i].op.value == listed[i].op.value);
  }
  CHECK(find_operation(docs, "/a", "post") == &all[1]);
  const Operation* b = find_operation(docs, "/b", "get");
  REQUIRE(b);
  CHECK(w.where(b->op) == "/paths/~1b → #/components/pathItems/B/get");
  // The first in document order: the get before additionalOperations' "get".
  const Operation* c = find_operation(docs, "/c", "get");
  REQUIRE(c);
  const Value* x = find(c->op.value, "x");
  REQUIRE(x);
  CHECK(to_json(*x) == 0);
  CHECK_FALSE(find_operation(docs, "/a", "put"));
  CHECK_FALSE(find_operation(docs, "/d", "get"));
}

TEST_CASE("effective parameters: an operation parameter replaces the path item's with the same name and in") {
  auto docs = load(json::parse(R"({
    "paths": {"/a": {
      "parameters": [{"name": "q", "in": "query", "description": "path"}, {"name": "id", "in": "header"},
                     {"$ref": "#/components/parameters/P"}],
      "get": {"parameters": [{"name": "q", "in": "query", "description": "op"}, {"name": "id", "in": "query"}]}}},
    "components": {"parameters": {"P": {"name": "pageSize", "in": "query"}}}
  })"));
  Walker w(docs);
  auto ops = operations(w);
  REQUIRE(ops.size() == 1);
  auto params = effective_parameters(w, ops[0]);
  REQUIRE(params.size() == 4);
  CHECK(params[0].name == "q");
  CHECK(string_member(params[0].node.value, "description") == "op");
  CHECK(params[1].in == "header");
  CHECK(params[2].name == "pageSize");
  CHECK(w.where(params[2].node) == "/paths/~1a/parameters/2 → #/components/parameters/P");
  CHECK(params[3].in == "query");
}

TEST_CASE("places in another file are shown relative to the root document") {
  auto docs = load(json::parse(R"({"paths": {"/a": {"get": {"responses": {"404": {"$ref": "common.json#/components/responses/E"}}}}}})"),
                   {{"https://api.example.nl/v1/common.json", json::parse(R"({"components": {"responses": {"E": {"description": "x"}}}})")}});
  Walker w(docs);
  auto ops = operations(w);
  REQUIRE(ops.size() == 1);
  Node r = response(w, ops[0], "404");
  REQUIRE(r.is_object());
  CHECK(w.show(r.at) == "common.json#/components/responses/E");
  CHECK(w.where(r) == "/paths/~1a/get/responses/404 → common.json#/components/responses/E");
  Node missing = w.member(ops[0].op, "nothing");
  CHECK_FALSE(missing);
}

TEST_CASE("a chain of $refs: the first one is where a node was reached from, for every node past it") {
  auto docs = load(json::parse(R"({"paths": {"/a": {"get": {"responses": {"200": {"$ref": "#/components/responses/A"}}}},
                                               "/b": {"get": {"responses": {"200": {"$ref": ""}}}}},
    "components": {"responses": {"A": {"$ref": "#/components/responses/B"},
                                 "B": {"description": "b", "content": {"application/json": {"schema": {"type": "object"}}}}}}})"));
  Walker w(docs);
  const auto& ops = all_operations(docs);
  REQUIRE(ops.size() == 2);
  Node r = response(w, ops[0], "200");
  CHECK(r.value == find(find(find(&docs.root(), "components"), "responses"), "B"));
  CHECK(w.show(r.at) == "/components/responses/B");
  CHECK(w.where(r) == "/paths/~1a/get/responses/200 → #/components/responses/B");
  CHECK(w.pointer(r) == "/components/responses/B");
  // Deeper nodes keep the first $ref, not the second.
  Node schema = w.child(w.child(w.child(r, "content"), "application/json"), "schema");
  REQUIRE(schema.is_object());
  CHECK(w.where(schema) == "/paths/~1a/get/responses/200 → #/components/responses/B/content/application~1json/schema");
  REQUIRE(schema.via);
  CHECK(schema.via == r.via);  // one, shared
  CHECK(schema.via->ref == "#/components/responses/A");
  // No $ref on the way: no via.
  CHECK_FALSE(ops[0].op.via);
  CHECK(w.where(ops[0].op) == "/paths/~1a/get");
  // "$ref": "" is followed (to the document's root), but names no place it was reached from.
  Node empty = response(w, ops[1], "200");
  CHECK_FALSE(empty.via);
  CHECK(w.where(empty) == w.show(empty.at));
}

TEST_CASE("a $ref that does not resolve or loops gives no value") {
  auto docs = load(json::parse(R"({"paths": {"/a": {"$ref": "#/nowhere"}, "/b": {"$ref": "#/paths/~1b"}}})"));
  Walker w(docs);
  CHECK(operations(w).empty());
  CHECK_FALSE(w.member(w.member(w.root(), "paths"), "/a"));
  CHECK(is_swagger2(from_json(json::parse(R"({"swagger": "2.0"})"))->root()));
  CHECK_FALSE(is_swagger2(from_json(json::parse(R"({"openapi": "3.0.0"})"))->root()));
}
