// oas/value_set: sets of a document set's values, by address, and the
// stretch of address space a parsed tree is made in (Doc::region).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "oas/parse.hpp"
#include "oas/value_set.hpp"

using namespace adrprobe;
using namespace adrprobe::oas;

namespace {

// Every value below v, v included, in document order.
void every_value(const Value& v, std::vector<const Value*>& out) {
  out.push_back(&v);
  if (v.IsObject())
    for (const auto& m : v.GetObject()) every_value(m.value, out);
  else if (v.IsArray())
    for (const auto& e : v.GetArray()) every_value(e, out);
}

bool in(std::string_view region, const Value* v) {
  auto p = reinterpret_cast<const char*>(v);
  return !region.empty() && p >= region.data() && p < region.data() + region.size();
}

const char* const kText =
    R"({"paths": {"/a": {"get": {"responses": {"200": {"$ref": "#/components/responses/Ok"}}}}},
        "components": {"responses": {"Ok": {"description": "a description longer than thirteen bytes"}}},
        "list": [1, [2, [3, {}]], "x", null, true, 1.5, {"k": []}]})";

}  // namespace

TEST_CASE("value_set: a parsed tree is made in one stretch, which holds every value but the root") {
  auto r = parse_json_document(kText);
  REQUIRE(r.ok);
  std::string_view region = r.doc->region();
  REQUIRE_FALSE(region.empty());
  std::vector<const Value*> values;
  every_value(r.doc->root(), values);
  CHECK(values.size() > 20);
  CHECK_FALSE(in(region, values.front()));  // the root is the document itself
  for (std::size_t i = 1; i < values.size(); ++i) CHECK(in(region, values[i]));
  // Only what the tree used: a few hundred bytes, not the room kept for it.
  CHECK(region.size() < 2048);
  // A tree made otherwise (YAML's, a test's) has no stretch.
  CHECK(from_json(json::parse(R"({"a": 1})"))->region().empty());
}

TEST_CASE("value_set: insert, contains and erase, for values in a stretch and elsewhere") {
  auto parsed = parse_json_document(kText);
  REQUIRE(parsed.ok);
  DocumentSet docs("https://h/v1/openapi.json", parsed.doc);
  std::vector<const Value*> values;
  every_value(docs.root(), values);
  Value elsewhere;  // on the stack: the hash set's
  values.push_back(&elsewhere);

  ValueSet set(docs);
  for (const Value* v : values) CHECK_FALSE(set.contains(v));
  // Every other one: neighbours in the tree (a member's key and value are 16
  // bytes apart) are told apart.
  for (std::size_t i = 0; i < values.size(); i += 2) CHECK(set.insert(values[i]));
  for (std::size_t i = 0; i < values.size(); ++i) {
    INFO(i);
    CHECK(set.contains(values[i]) == (i % 2 == 0));
  }
  for (std::size_t i = 0; i < values.size(); i += 2) CHECK_FALSE(set.insert(values[i]));
  for (const Value* v : values) set.erase(v);
  for (const Value* v : values) CHECK_FALSE(set.contains(v));
  CHECK(set.insert(&elsewhere));
  CHECK(set.insert(values[3]));
  set.release();
  CHECK_FALSE(set.contains(&elsewhere));
  CHECK_FALSE(set.contains(values[3]));
}

TEST_CASE("value_set: the values of several documents, each in its own stretch") {
  auto root = parse_json_document(R"({"paths": {"/a": {"$ref": "ext.json#/a"}}})");
  REQUIRE(root.ok);
  DocumentSet docs("https://h/v1/openapi.json", root.doc);
  docs.resolve_all([](const std::vector<std::string>& urls) {
    std::map<std::string, FetchedDocument> out;
    for (const auto& u : urls) {
      auto ext = parse_json_document(R"({"a": {"get": {"responses": {"200": {"description": "x"}}}}})");
      out[u].ok = ext.ok;
      out[u].value = ext.doc;
    }
    return out;
  });
  REQUIRE(docs.regions().size() == 2);
  const Value* in_root = find(docs.root(), "paths");
  Resolved ext = docs.resolve_ref(docs.root_url(), "ext.json#/a/get");
  REQUIRE(ext.node);
  ValueSet set(docs);
  CHECK(set.insert(in_root));
  CHECK_FALSE(set.contains(ext.node));
  CHECK(set.insert(ext.node));
  CHECK(set.contains(in_root));
  CHECK(set.contains(ext.node));
  set.erase(in_root);
  CHECK_FALSE(set.contains(in_root));
  CHECK(set.contains(ext.node));
}
