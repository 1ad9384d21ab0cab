// QK-1 on hand-made documents.
#include "fake_run.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;

namespace {

oas::json q(const std::string& name, oas::json extra = oas::json::object()) {
  oas::json p = {{"name", name}, {"in", "query"}, {"schema", {{"type", "string"}}}};
  p.update(extra);
  return p;
}

CheckResult qk1(oas::json doc) {
  FakeRun run("https://api.example.nl/v1", "2.2.0");
  run.document(std::move(doc));
  return run.judge("QK-1");
}

}  // namespace

TEST_CASE("QK-1: the official expression: lowerCamelCase, a leading $, runs of capitals") {
  oas::json params = oas::json::array();
  for (const char* n : {"lowerCamelCase", "$filter", "pageURL", "a1b2", "x"}) params.push_back(q(n));
  params.push_back({{"name", "X-Request-Id"}, {"in", "header"}});  // not a query key
  params.push_back({{"name", "id"}, {"in", "path"}});
  expect(qk1(openapi_doc({{"/r/{id}", {{"get", {{"parameters", params}}}}}})), Verdict::pass, {"5 query keys are camelCase"});
  expect(qk1(openapi_doc({{"/r", {{"get", oas::json::object()}}}})), Verdict::pass, {"no query keys documented"});
}

TEST_CASE("QK-1: kebab, snake, leading underscore, digit or capital, doubled underscore, $ inside and non-ASCII fail") {
  oas::json params = oas::json::array();
  for (const char* n : {"kebab-case", "_startMetUnderscore", "9startMetGetal", "snake_case", "UpperCamelCase",
                        "persoon__identificatie", "a$b", "caf\xc3\xa9"})
    params.push_back(q(n));
  auto r = qk1(openapi_doc({{"/resource", {{"get", {{"parameters", params}}}}}}));
  expect(r, Verdict::fail, {"'kebab-case': a hyphen", "(/paths/~1resource/get/parameters/0/name)", "'_startMetUnderscore'",
                            "'9startMetGetal': starts with a digit", "'snake_case'", "'UpperCamelCase'"});
  CHECK(r.details.size() == 8);
}

TEST_CASE("QK-1: path-level, $ref'd and apiKey-in-query keys; a shared parameter is one finding") {
  oas::json doc = openapi_doc({{"/a", {{"parameters", {q("path_level")}},
                                       {"get", {{"parameters", {{{"$ref", "#/components/parameters/Shared"}}}}}},
                                       {"post", {{"parameters", {{{"$ref", "#/components/parameters/Shared"}}}}}}}}});
  doc["components"] = {{"parameters", {{"Shared", q("page_size")}}},
                       {"securitySchemes", {{"key", {{"type", "apiKey"}, {"in", "query"}, {"name", "api_key"}}},
                                            {"hdr", {{"type", "apiKey"}, {"in", "header"}, {"name", "X_Key"}}}}}};
  auto r = qk1(doc);
  expect(r, Verdict::fail, {"'path_level'", "(/paths/~1a/parameters/0/name, used 2 times)",
                            "'page_size'", "/paths/~1a/get/parameters/0 → #/components/parameters/Shared/name",
                            "'api_key'", "/components/securitySchemes/key/name"});
  CHECK(r.details.size() == 3);
  CHECK(r.message.find("X_Key") == std::string::npos);
}

TEST_CASE("QK-1: serialisation: exploded form objects by their properties, deepObject by name and properties") {
  oas::json obj = {{"type", "object"}, {"properties", {{"pageSize", {{"type", "integer"}}}, {"sort_order", {{"type", "string"}}}}}};
  oas::json params = {q("Filter", {{"schema", obj}}),                                       // form, exploded: properties only
                      q("zoek_opdracht", {{"schema", obj}, {"style", "deepObject"}}),     // name and properties
                      q("plainObj", {{"schema", obj}, {"explode", false}}),               // name only
                      {{"name", "ignored_querystring"}, {"in", "querystring"}}};          // OAS 3.2: no key
  auto r = qk1(openapi_doc({{"/a", {{"get", {{"parameters", params}}}}}}));
  expect(r, Verdict::fail, {"'sort_order'", "'zoek_opdracht'"});
  CHECK(r.message.find("'Filter'") == std::string::npos);
  CHECK(r.message.find("plainObj") == std::string::npos);
  CHECK(r.message.find("querystring") == std::string::npos);
  CHECK(r.details.size() == 3);  // sort_order twice (two places), zoek_opdracht
}

TEST_CASE("QK-1: callbacks, webhooks and unused components are not judged; no paths is skip") {
  oas::json doc = openapi_doc({{"/a", {{"post", {{"callbacks", {{"cb", {{"{$url}", {{"post", {{"parameters", {q("cb_key")}}}}}}}}}}}}}}});
  doc["webhooks"] = {{"w", {{"post", {{"parameters", {q("wh_key")}}}}}}};
  doc["components"] = {{"parameters", {{"Unused", q("un_used")}}}};
  expect(qk1(doc), Verdict::pass);
  oas::json none = openapi_doc();
  none.erase("paths");
  expect(qk1(none), Verdict::skip, {"see DO-3"});
}

TEST_CASE("QK-1: a security scheme with a type or in that is not a string is no apiKey; OAS 3.1 object types") {
  oas::json schema = oas::json::parse(R"({"type": ["object", "null"], "properties": {"page_size": {"type": "integer"}}})");
  oas::json params = oas::json::array({q("f", {{"schema", schema}})});
  oas::json doc = openapi_doc({{"/a", {{"get", {{"parameters", params}}}}}});
  doc["components"] = {{"securitySchemes", {{"k", {{"type", 5}, {"in", "query"}, {"name", "X_Y"}}},
                                            {"l", {{"type", "apiKey"}, {"in", oas::json::array()}, {"name", "Z_Z"}}}}}};
  auto r = qk1(doc);
  expect(r, Verdict::fail, {"'page_size'"});
  CHECK(r.message.find("X_Y") == std::string::npos);
  CHECK(r.message.find("Z_Z") == std::string::npos);
}
