// oas/refs: $ref resolution (DO-2) and deref.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>

#include "oas/parse.hpp"
#include "oas/refs.hpp"

using namespace adrprobe::oas;

namespace {

// components.schemas s0 -> s1 -> ... -> s<n>, each a $ref to the next; s<n> is a schema.
// With loop, s<n> refers back to s0 instead.
json chain_document(int n, bool loop = false) {
  std::string text = R"({"openapi":"3.0.3","paths":{"/a":{"get":{"responses":{"200":{"description":"ok",)"
                     R"("content":{"application/json":{"schema":{"$ref":"#/components/schemas/s0"}}}}}}}},)"
                     R"("components":{"schemas":{)";
  for (int i = 0; i < n; ++i) text += "\"s" + std::to_string(i) + "\":{\"$ref\":\"#/components/schemas/s" + std::to_string(i + 1) + "\"},";
  text += "\"s" + std::to_string(n) + (loop ? "\":{\"$ref\":\"#/components/schemas/s0\"}" : "\":{\"type\":\"object\"}") + "}}}";
  auto r = parse_json(text);
  REQUIRE(r.ok);
  return std::move(r.value);
}

std::map<std::string, FetchedDocument> fetch_nothing(const std::vector<std::string>&) { return {}; }

}  // namespace

TEST_CASE("refs: a chain of 20000 $refs resolves, and deref follows it to the end") {
  const int n = 20000;
  DocumentSet docs("https://h/v1/openapi.json", chain_document(n));
  auto unresolved = docs.resolve_all(fetch_nothing);
  CHECK(unresolved.empty());
  const json& schemas = docs.root()["components"]["schemas"];
  Resolved r = docs.deref(docs.root_url(), schemas["s0"]);
  REQUIRE(r.node != nullptr);
  CHECK(r.node == &schemas["s" + std::to_string(n)]);
  CHECK((*r.node)["type"] == "object");
  Resolved mid = docs.deref(docs.root_url(), schemas["s12345"]);
  CHECK(mid.node == r.node);
}

TEST_CASE("refs: a long cycle is still detected, for every ref on it") {
  const int n = 5000;
  DocumentSet docs("https://h/v1/openapi.json", chain_document(n, true));
  auto unresolved = docs.resolve_all(fetch_nothing);
  // s0..s<n> and the response schema that points into the loop.
  REQUIRE(unresolved.size() == static_cast<std::size_t>(n) + 2);
  for (const auto& u : unresolved) {
    CHECK(u.reason == "circular $ref chain");
    CHECK_FALSE(u.transport_error);
  }
  const json& schemas = docs.root()["components"]["schemas"];
  CHECK(docs.deref(docs.root_url(), schemas["s17"]).reason == "circular $ref chain");
}

TEST_CASE("refs: a past deadline ends resolution at once with 'deadline reached'") {
  DocumentSet docs("https://h/v1/openapi.json", chain_document(2000));
  int fetched = 0;
  auto unresolved = docs.resolve_all(
      [&](const std::vector<std::string>& urls) {
        fetched += static_cast<int>(urls.size());
        return std::map<std::string, FetchedDocument>{};
      },
      std::chrono::steady_clock::now() - std::chrono::seconds(1));
  CHECK(fetched == 0);
  REQUIRE_FALSE(unresolved.empty());
  for (const auto& u : unresolved) {
    CHECK(u.reason == "deadline reached");
    CHECK(u.transport_error);  // error, not fail
  }
  // Every ref of the document is listed: none was resolved.
  CHECK(unresolved.size() == 2001);
}

TEST_CASE("refs: the deadline stops the fetching of external documents") {
  json root = json::parse(R"({"paths": {"/a": {"$ref": "a.json#/a"}}})");
  DocumentSet docs("https://h/v1/openapi.json", root);
  int calls = 0;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
  // Each document refers to a next one; the fetcher is slow: the deadline ends it.
  auto unresolved = docs.resolve_all(
      [&](const std::vector<std::string>& urls) {
        ++calls;
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        std::map<std::string, FetchedDocument> out;
        for (const auto& u : urls) {
          out[u].ok = true;
          out[u].value = json{{"a", {{"$ref", "n" + std::to_string(calls) + ".json#/a"}}}};
        }
        return out;
      },
      deadline);
  CHECK(calls <= 3);
  bool saw_deadline = false;
  for (const auto& u : unresolved) saw_deadline = saw_deadline || (u.reason == "deadline reached" && u.transport_error);
  CHECK(saw_deadline);
}

TEST_CASE("refs: a subtree reached by several refs is walked once, its refs listed once") {
  json root = json::parse(R"({"paths": {"/a": {"$ref": "ext.json#/a"}, "/b": {"$ref": "ext.json#/a/get"},
                               "/c": {"$ref": "ext.json"}}})");
  DocumentSet docs("https://h/v1/openapi.json", root);
  auto unresolved = docs.resolve_all([](const std::vector<std::string>& urls) {
    std::map<std::string, FetchedDocument> out;
    for (const auto& u : urls) {
      out[u].ok = true;
      out[u].value = json::parse(R"({"a": {"get": {"responses": {"200": {"$ref": "#/missing"}}}}})");
    }
    return out;
  });
  REQUIRE(unresolved.size() == 1);
  CHECK(unresolved[0].where == "https://h/v1/ext.json#/a/get/responses/200/$ref");
}
