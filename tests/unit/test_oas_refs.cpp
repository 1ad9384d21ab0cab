// oas/refs: $ref resolution (DO-2) and deref.
#include <doctest/doctest.h>

#include <atomic>

#include <chrono>
#include <map>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "oas/parse.hpp"
#include "oas/refs.hpp"

using namespace adrprobe;
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

// The member key of an object, which the test needs to be there.
const Value& at(const Value& object, std::string_view key) {
  const Value* v = find(object, key);
  REQUIRE(v != nullptr);
  return *v;
}

}  // namespace

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
        out[u].value = from_json(json::parse(R"({"b": {"get": {"$ref": "other.json#/op"}}, "unused": {"$ref": "#/nowhere"}})"));
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

TEST_CASE("refs: resolved() answers each $ref object resolve_all followed, by address, and nothing else") {
  // More $refs than a few, to several targets, some through a chain, one
  // unresolved: each is found again by its address (a sorted array after the walk).
  std::string text = R"({"paths":{)";
  for (int i = 0; i < 300; ++i)
    text += "\"/p" + std::to_string(i) + "\":{\"get\":{\"responses\":{\"200\":{\"$ref\":\"#/components/responses/r" +
            std::to_string(i % 7) + "\"}}}},";
  text += R"("/missing":{"$ref":"#/nowhere"}},"components":{"responses":{)";
  for (int i = 0; i < 6; ++i) text += "\"r" + std::to_string(i) + "\":{\"description\":\"r" + std::to_string(i) + "\"},";
  text += R"("r6":{"$ref":"#/components/responses/r0"}}}})";
  auto parsed = parse_json(text);
  REQUIRE(parsed.ok);
  DocumentSet docs("https://h/v1/openapi.json", parsed.value);
  auto unresolved = docs.resolve_all(fetch_nothing);
  CHECK(unresolved.size() == 1);
  const Value& root = docs.root();
  const Value& paths = at(root, "paths");
  const Value& responses = at(at(root, "components"), "responses");
  for (int i = 0; i < 300; ++i) {
    const Value& ref = at(at(at(at(paths, "/p" + std::to_string(i)), "get"), "responses"), "200");
    const Resolved* r = docs.resolved(ref);
    REQUIRE(r != nullptr);
    int target = i % 7 == 6 ? 0 : i % 7;  // r6 is a $ref to r0
    CHECK(r->node == &at(responses, "r" + std::to_string(target)));
    CHECK(r->pointer == "/components/responses/r" + std::to_string(target));
  }
  const Resolved* r6 = docs.resolved(at(responses, "r6"));
  REQUIRE(r6 != nullptr);
  CHECK(r6->node == &at(responses, "r0"));
  const Resolved* missing = docs.resolved(at(paths, "/missing"));
  REQUIRE(missing != nullptr);
  CHECK(missing->node == nullptr);
  // A value that is not a $ref object, and one of another tree.
  CHECK(docs.resolved(at(responses, "r0")) == nullptr);
  CHECK(docs.resolved(root) == nullptr);
  Value elsewhere;
  CHECK(docs.resolved(elsewhere) == nullptr);
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

TEST_CASE("refs: a chain of 20000 $refs resolves, and deref follows it to the end") {
  const int n = 20000;
  DocumentSet docs("https://h/v1/openapi.json", chain_document(n));
  auto unresolved = docs.resolve_all(fetch_nothing);
  CHECK(unresolved.empty());
  const Value& schemas = at(at(docs.root(), "components"), "schemas");
  Resolved r = docs.deref(docs.root_url(), at(schemas, "s0"));
  REQUIRE(r.node != nullptr);
  CHECK(r.node == &at(schemas, "s" + std::to_string(n)));
  CHECK(to_json(at(*r.node, "type")) == "object");
  Resolved mid = docs.deref(docs.root_url(), at(schemas, "s12345"));
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
  const Value& schemas = at(at(docs.root(), "components"), "schemas");
  CHECK(docs.deref(docs.root_url(), at(schemas, "s17")).reason == "circular $ref chain");
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
          out[u].value = from_json(json{{"a", {{"$ref", "n" + std::to_string(calls) + ".json#/a"}}}});
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
      out[u].value = from_json(json::parse(R"({"a": {"get": {"responses": {"200": {"$ref": "#/missing"}}}}})"));
    }
    return out;
  });
  REQUIRE(unresolved.size() == 1);
  CHECK(unresolved[0].where == "https://h/v1/ext.json#/a/get/responses/200/$ref");
}

TEST_CASE("refs: the place of a $ref that does not resolve, found again after the walk") {
  // An inner subtree walked before the one holding it; keys that escape; the
  // order of the list is the order of the walk.
  json root = json::parse(R"({"paths": {"/b": {"$ref": "ext.json#/a/get"}, "/a": {"$ref": "ext.json#/a"},
                               "/x~y": {"get": {"responses": {"200": {"$ref": "#/nowhere"}}}}},
                               "components": {"schemas": {"S": {"$ref": "#/none"}}}})");
  DocumentSet docs("https://h/v1/openapi.json", root);
  auto unresolved = docs.resolve_all([](const std::vector<std::string>& urls) {
    std::map<std::string, FetchedDocument> out;
    for (const auto& u : urls) {
      out[u].ok = true;
      out[u].value = from_json(json::parse(
          R"({"a": {"get": {"responses": {"200": {"$ref": "#/missing"}}}, "put": {"responses": {"201": {"$ref": "#/gone"}}}}})"));
    }
    return out;
  });
  std::vector<std::string> where;
  for (const auto& u : unresolved) where.push_back(u.where);
  CHECK(where == std::vector<std::string>{"#/paths/~1x~0y/get/responses/200/$ref", "#/components/schemas/S/$ref",
                                          "https://h/v1/ext.json#/a/get/responses/200/$ref",
                                          "https://h/v1/ext.json#/a/put/responses/201/$ref"});
}

TEST_CASE("refs: long chains are followed to their end, and long loops found") {
  // 40 $refs in a chain to a schema, and 40 in a loop: past the 16 a chain
  // is searched as it is, it is searched in a set too.
  json schemas = json::object();
  for (int i = 0; i < 40; ++i) {
    schemas["c" + std::to_string(i)] = {{"$ref", "#/components/schemas/c" + std::to_string(i + 1)}};
    schemas["l" + std::to_string(i)] = {{"$ref", "#/components/schemas/l" + std::to_string((i + 1) % 40)}};
  }
  schemas["c40"] = {{"type", "string"}};
  json root = {{"components", {{"schemas", schemas}}}};
  DocumentSet docs("https://h/v1/openapi.json", root);
  auto unresolved = docs.resolve_all([](const std::vector<std::string>&) { return std::map<std::string, FetchedDocument>{}; });
  REQUIRE(unresolved.size() == 40);  // each of the loop's $refs, none of the chain's
  for (const auto& u : unresolved) {
    INFO(u.where);
    CHECK(u.reason == "circular $ref chain");
    CHECK(u.where.find("/components/schemas/l") != std::string::npos);
  }
  const Value& c0 = *find(*find(*find(docs.root(), "components"), "schemas"), "c0");
  const Resolved* r = docs.resolved(c0);
  REQUIRE(r);
  REQUIRE(r->node);
  CHECK(r->pointer == "/components/schemas/c40");
  CHECK(str(*find(*r->node, "type")) == "string");
}

TEST_CASE("refs: a chain through a $ref followed before takes its result") {
  // D's chain goes through A, an earlier occurrence; B is reached first
  // inside A's chain, then as its own occurrence; E's loop goes through F.
  json root = json::parse(R"({"components": {"schemas": {
      "A": {"$ref": "#/components/schemas/B"}, "B": {"$ref": "#/components/schemas/C"}, "C": {"type": "object"},
      "D": {"$ref": "#/components/schemas/A"},
      "E": {"$ref": "#/components/schemas/F"}, "F": {"$ref": "#/components/schemas/E"},
      "G": {"$ref": "#/components/schemas/F"}}}})");
  DocumentSet docs("https://h/v1/openapi.json", root);
  auto unresolved = docs.resolve_all([](const std::vector<std::string>&) { return std::map<std::string, FetchedDocument>{}; });
  std::vector<std::string> where;
  for (const auto& u : unresolved) where.push_back(u.where + " " + u.reason);
  CHECK(where == std::vector<std::string>{"#/components/schemas/E/$ref circular $ref chain",
                                          "#/components/schemas/F/$ref circular $ref chain",
                                          "#/components/schemas/G/$ref circular $ref chain"});
  const Value& schemas = *find(*find(docs.root(), "components"), "schemas");
  for (const char* name : {"A", "B", "D"}) {
    INFO(name);
    const Resolved* r = docs.resolved(*find(schemas, name));
    REQUIRE(r);
    REQUIRE(r->node);
    CHECK(r->pointer == "/components/schemas/C");
  }
  CHECK(docs.resolved(*find(schemas, "C")) == nullptr);  // not a $ref
  for (const char* name : {"E", "F", "G"}) {
    INFO(name);
    const Resolved* r = docs.resolved(*find(schemas, name));
    REQUIRE(r);
    CHECK_FALSE(r->node);
    CHECK(r->reason == "circular $ref chain");
  }
}

TEST_CASE("refs: the $ref closure stops at its byte cap, and says so per ref") {
  // The root refers to five external documents; each is reported as 400 bytes.
  json root = json::parse(R"({"paths": {"/a": {"$ref": "a.json#/p"}, "/b": {"$ref": "b.json#/p"},
                               "/c": {"$ref": "c.json#/p"}, "/d": {"$ref": "d.json#/p"}, "/e": {"$ref": "e.json#/p"}}})");
  Limits limits;
  limits.max_document_bytes = 400;
  limits.max_closure_bytes = 1000;  // room for two documents of 400 bytes
  DocumentSet docs("https://h/v1/openapi.json", root, limits);
  std::vector<std::size_t> batches;
  auto unresolved = docs.resolve_all([&](const std::vector<std::string>& urls) {
    batches.push_back(urls.size());
    std::map<std::string, FetchedDocument> out;
    for (const auto& u : urls) {
      out[u].ok = true;
      out[u].value = from_json(json::parse(R"({"p": {"get": {}}})"));
      out[u].bytes = 400;
    }
    return out;
  });
  // Waves sized by the budget: 2 (800 bytes), then 1 (the 200 left can only take
  // one more document, which crosses the cap and is not used), then none.
  CHECK(batches == std::vector<std::size_t>{2, 1});
  REQUIRE(unresolved.size() == 3);
  for (const auto& u : unresolved) {
    INFO(u.where);
    CHECK(u.reason == "not fetched: the $ref closure exceeds 1000 bytes");
    CHECK_FALSE(u.transport_error);
  }
  CHECK(unresolved[0].ref == "c.json#/p");
  CHECK(unresolved[2].ref == "e.json#/p");
}

TEST_CASE("refs: documents within the byte cap all resolve, in one wave when they fit") {
  json root = json::parse(R"({"paths": {"/a": {"$ref": "a.json#/p"}, "/b": {"$ref": "b.json#/p"}}})");
  Limits limits;
  limits.max_document_bytes = 100;
  limits.max_closure_bytes = 1000;
  DocumentSet docs("https://h/v1/openapi.json", root, limits);
  std::vector<std::size_t> batches;
  auto unresolved = docs.resolve_all([&](const std::vector<std::string>& urls) {
    batches.push_back(urls.size());
    std::map<std::string, FetchedDocument> out;
    for (const auto& u : urls) {
      out[u].ok = true;
      out[u].value = from_json(json::parse(R"({"p": {"get": {}}})"));
      out[u].bytes = 90;
    }
    return out;
  });
  CHECK(unresolved.empty());
  CHECK(batches == std::vector<std::size_t>{2});
  CHECK(Limits{}.max_closure_bytes == 64u * 1024 * 1024);
}

namespace {
int derived_made = 0;
// A reader's view of a document set, made once (DocumentSet::derived).
struct CountedView {
  const Value* root;
  explicit CountedView(const DocumentSet& docs) : root(&docs.root()) { ++derived_made; }
};
struct ViewOfView {
  const CountedView* inner;
  explicit ViewOfView(const DocumentSet& docs) : inner(&docs.derived<CountedView>()) {}
};
}  // namespace

TEST_CASE("refs: derived views are made once per document set; a copy and resolve_all start without them") {
  derived_made = 0;
  DocumentSet docs("file:///a/openapi.json", chain_document(3));
  const CountedView& first = docs.derived<CountedView>();
  CHECK(&docs.derived<CountedView>() == &first);
  CHECK(derived_made == 1);
  CHECK(first.root == &docs.root());
  CHECK(docs.derived<ViewOfView>().inner == &first);  // one derived view made from another
  CHECK(derived_made == 1);

  DocumentSet copy = docs;
  CHECK(copy.derived<CountedView>().root == &copy.root());  // its own (the documents are shared, the views are not)
  CHECK(derived_made == 2);

  docs.resolve_all([](const std::vector<std::string>&) { return std::map<std::string, FetchedDocument>{}; });
  CHECK(docs.derived<CountedView>().root == &docs.root());  // made again: more documents may be loaded now
  CHECK(derived_made == 3);
}

namespace {
std::atomic<bool> slow_started{false}, quick_made{false};
// Made on one thread: waits (2 s at most) for Quick, made on another.
struct Slow {
  bool saw_quick = false;
  explicit Slow(const DocumentSet&) {
    slow_started = true;
    for (int i = 0; i < 2000 && !quick_made; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    saw_quick = quick_made;
  }
};
struct Quick {
  explicit Quick(const DocumentSet&) { quick_made = true; }
};
}  // namespace

TEST_CASE("refs: a derived type is made while another is being made (each type has its own lock)") {
  DocumentSet docs("https://h/v1/openapi.json", json::object());
  const Slow* slow = nullptr;
  std::thread maker([&] { slow = &docs.derived<Slow>(); });
  while (!slow_started) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const Quick& quick = docs.derived<Quick>();  // one lock for all types: waited for Slow, which waited 2 s
  maker.join();
  REQUIRE(slow);
  CHECK(slow->saw_quick);
  CHECK(&docs.derived<Quick>() == &quick);  // made once
  CHECK(&docs.derived<Slow>() == slow);
}
