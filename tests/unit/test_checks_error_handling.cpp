// EH-1, EH-2 and EI-1 (edition 2.2.0) on hand-made documents and responses,
// and the official linter's test cases that concern them.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "fake_run.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;
using oas::json;

namespace {


FakeRun run22() { return FakeRun(kBase, "2.2.0"); }

json problem_schema(std::initializer_list<const char*> members = {"status", "title", "detail"}) {
  json props = json::object();
  for (const char* m : members) props[m] = {{"type", "string"}};
  return {{"type", "object"}, {"properties", props}};
}
json content(const std::string& media, json schema) { return {{media, {{"schema", std::move(schema)}}}}; }
json response(json content) { return {{"description", "error"}, {"content", std::move(content)}}; }
json problem_response(json schema = problem_schema()) { return response(content("application/problem+json", std::move(schema))); }
// One GET /a with these responses.
json get_with(json responses) {
  return openapi_doc({{"/a", {{"get", {{"responses", std::move(responses)}}}}}});
}
CheckResult eh1(const json& doc) {
  FakeRun run = run22();
  run.document(doc);
  return run.judge("EH-1");
}
CheckResult ei1(const json& doc) {
  FakeRun run = run22();
  run.document(doc);
  return run.judge("EI-1");
}

std::size_t count_of(const std::string& s, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = s.find(needle); at != std::string::npos; at = s.find(needle, at + needle.size())) ++n;
  return n;
}

// The case's document; a missing file is a failed REQUIRE naming it (the data is in the repository).
json load_case(const std::string& name) {
  const auto path = linter_case(name);
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.is_open(), "linter test case missing: " << path.string());
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

}  // namespace

// ---------------------------------------------------------------------------
// EH-1

TEST_CASE("EH-1: problem+json with status, title and detail passes for 4xx, 5xx, ranges and default") {
  auto r = eh1(get_with({{"200", {{"description", "ok"}}},
                         {"404", problem_response()},
                         {"4XX", problem_response()},
                         {"500", problem_response()},
                         {"5XX", problem_response()},
                         {"default", problem_response()}}));
  expect(r, Verdict::pass, {"5 error responses of 1 operation"});
}

TEST_CASE("EH-1: problem+xml counts as a problem media type") {
  expect(eh1(get_with({{"404", response(content("application/problem+xml", problem_schema()))}})), Verdict::pass);
}

TEST_CASE("EH-1: nothing to judge passes and says so; no paths is skip; no document is the prerequisite") {
  expect(eh1(get_with({{"200", {{"description", "ok"}}}, {"301", {{"description", "moved"}}}})), Verdict::pass,
         {"no 4xx, 5xx or default responses documented"});
  expect(eh1(openapi_doc()), Verdict::pass, {"no 4xx, 5xx or default responses documented"});
  json doc = openapi_doc();
  doc.erase("paths");
  expect(eh1(doc), Verdict::skip, {"no paths in the document (see DO-3)"});
  doc["paths"] = json::array();
  expect(eh1(doc), Verdict::skip, {"no paths in the document (see DO-3)"});
  FakeRun none = run22();
  none.unpublished(404);
  auto r = none.judge("EH-1");
  CHECK(r.verdict == Verdict::fail);
  CHECK(r.message.rfind("prerequisite not met", 0) == 0);
}

TEST_CASE("EH-1: only 400-599, 4XX, 5XX and default are judged") {
  json bad = response(content("application/json", problem_schema()));
  expect(eh1(get_with({{"200", bad}, {"302", bad}, {"600", bad}, {"3XX", bad}, {"40", bad}, {"4X0", bad}})),
         Verdict::pass, {"no 4xx, 5xx or default responses documented"});
  expect(eh1(get_with({{"599", bad}})), Verdict::fail, {"GET /a 599"});
  expect(eh1(get_with({{"5XX", bad}})), Verdict::fail, {"GET /a 5XX"});
  expect(eh1(get_with({{"4xx", bad}})), Verdict::fail, {"GET /a 4xx"});
}

TEST_CASE("EH-1: no content, or empty content, warns: no error body documented") {
  expect(eh1(get_with({{"404", {{"description", "not found"}}}})), Verdict::warn,
         {"GET /a 404: no error body documented (/paths/~1a/get/responses/404)"});
  expect(eh1(get_with({{"404", {{"description", "not found"}, {"content", json::object()}}}})), Verdict::warn,
         {"no error body documented"});
}

TEST_CASE("EH-1: no problem media type fails for a status key, warns for default") {
  json doc = openapi_doc({{"/laatsteWijziging", {{"get", {{"responses", {
      {"400", response(content("application/hal+json", problem_schema()))}}}}}}}});
  auto r = eh1(doc);
  expect(r, Verdict::fail);
  CHECK(r.message ==
        "GET /laatsteWijziging 400: application/hal+json, no problem media type (/paths/~1laatsteWijziging/get/responses/400/content)");
  expect(eh1(get_with({{"default", response(content("application/json", problem_schema()))}})), Verdict::warn,
         {"GET /a default: application/json, no problem media type"});
  // every media type is named
  json two = response(content("application/json", problem_schema()));
  two["content"]["text/html"] = json::object();
  expect(eh1(get_with({{"500", two}})), Verdict::fail, {"application/json, text/html, no problem media type"});
}

TEST_CASE("EH-1: media types compare case-insensitively, parameters ignored") {
  expect(eh1(get_with({{"404", response(content("Application/Problem+JSON; charset=utf-8", problem_schema()))}})),
         Verdict::pass);
  expect(eh1(get_with({{"404", response(content("application/problem+xml ;charset=UTF-8", problem_schema()))}})),
         Verdict::pass);
  // a lookalike is not one
  expect(eh1(get_with({{"404", response(content("application/problem+json-seq", problem_schema()))}})), Verdict::fail,
         {"no problem media type"});
}

TEST_CASE("EH-1: a problem media type next to another one warns") {
  json r = problem_response();
  r["content"]["application/json"] = {{"schema", problem_schema()}};
  expect(eh1(get_with({{"404", r}})), Verdict::warn,
         {"GET /a 404: application/problem+json next to application/json (/paths/~1a/get/responses/404/content)"});
}

TEST_CASE("EH-1: a problem media type without schema warns") {
  json r = response({{"application/problem+json", json::object()}});
  expect(eh1(get_with({{"404", r}})), Verdict::warn,
         {"GET /a 404: application/problem+json without schema (/paths/~1a/get/responses/404/content/application~1problem+json)"});
}

TEST_CASE("EH-1: each missing member fails, named; warn for default; required is not demanded") {
  auto r = eh1(get_with({{"404", problem_response(problem_schema({"status", "title"}))}}));
  expect(r, Verdict::fail,
         {"GET /a 404: application/problem+json schema lacks detail (/paths/~1a/get/responses/404/content/application~1problem+json/schema)"});
  expect(eh1(get_with({{"404", problem_response(problem_schema({"type"}))}})), Verdict::fail,
         {"schema lacks status, title, detail"});
  expect(eh1(get_with({{"default", problem_response(problem_schema({"status"}))}})), Verdict::warn,
         {"GET /a default: application/problem+json schema lacks title, detail"});
  json extra = problem_schema({"status", "title", "detail", "extra"});
  extra["required"] = json::array({"status"});
  expect(eh1(get_with({{"404", problem_response(extra)}})), Verdict::pass);
}

TEST_CASE("EH-1: a schema that declares no properties warns: the members cannot be confirmed") {
  expect(eh1(get_with({{"404", problem_response(json::object())}})), Verdict::warn,
         {"schema declares no properties"});
  expect(eh1(get_with({{"404", problem_response({{"type", "object"}})}})), Verdict::warn,
         {"schema declares no properties"});
  expect(eh1(get_with({{"404", problem_response({{"type", "object"}, {"properties", json::object()}})}})),
         Verdict::warn, {"schema declares no properties"});
}

TEST_CASE("EH-1: members through $ref and allOf, recursively; a composed problem without detail fails") {
  json doc = get_with({{"404", problem_response({{"$ref", "#/components/schemas/Problem"}})},
                       {"400", problem_response({{"allOf", json::array({{{"$ref", "#/components/schemas/Base"}},
                                                                         {{"properties", {{"detail", json::object()}}}}})}})}});
  doc["components"] = {{"schemas", {{"Problem", {{"allOf", json::array({{{"$ref", "#/components/schemas/Base"}}})},
                                                 {"properties", {{"detail", json::object()}}}}},
                                    {"Base", {{"allOf", json::array({{{"$ref", "#/components/schemas/Status"}}})},
                                              {"properties", {{"title", json::object()}}}}},
                                    {"Status", {{"properties", {{"status", json::object()}}}}}}}};
  expect(eh1(doc), Verdict::pass);
  // The composition without detail: the finding names the $ref target.
  doc["components"]["schemas"]["Problem"].erase("properties");
  doc["paths"]["/a"]["get"]["responses"].erase("400");
  expect(eh1(doc), Verdict::fail,
         {"GET /a 404: application/problem+json schema lacks detail "
          "(/paths/~1a/get/responses/404/content/application~1problem+json/schema → #/components/schemas/Problem)"});
}

TEST_CASE("EH-1: under oneOf/anyOf each branch is taken together with the rest") {
  json both = {{"properties", {{"status", json::object()}, {"title", json::object()}}},
               {"oneOf", json::array({{{"properties", {{"detail", json::object()}}}},
                                      {{"$ref", "#/components/schemas/Detail"}}})}};
  json doc = get_with({{"404", problem_response(both)}});
  doc["components"] = {{"schemas", {{"Detail", {{"properties", {{"detail", json::object()}}}}}}}};
  expect(eh1(doc), Verdict::pass);
  // One branch lacks detail: that branch is named.
  json one = both;
  one["oneOf"][1] = {{"properties", {{"code", json::object()}}}};
  auto r = eh1(get_with({{"404", problem_response(one)}}));
  expect(r, Verdict::fail, {"schema lacks detail with oneOf branch /paths/~1a/get/responses/404/content/application~1problem+json/schema/oneOf/1"});
  CHECK(r.message.find("oneOf/0") == std::string::npos);
  // anyOf, a branch by $ref named by it
  json any = {{"properties", {{"status", json::object()}, {"title", json::object()}, {"detail", json::object()}}},
              {"anyOf", json::array({{{"$ref", "#/components/schemas/Empty"}}})}};
  json doc2 = get_with({{"404", problem_response(any)}});
  doc2["components"] = {{"schemas", {{"Empty", {{"type", "object"}}}}}};
  expect(eh1(doc2), Verdict::pass);
  json lacking = {{"properties", {{"status", json::object()}}},
                  {"anyOf", json::array({{{"$ref", "#/components/schemas/Title"}}, {{"$ref", "#/components/schemas/Detail"}}})}};
  json doc3 = get_with({{"404", problem_response(lacking)}});
  doc3["components"] = {{"schemas", {{"Title", {{"properties", {{"title", json::object()}}}}},
                                     {"Detail", {{"properties", {{"detail", json::object()}}}}}}}};
  auto r3 = eh1(doc3);
  expect(r3, Verdict::fail, {"schema lacks detail with anyOf branch #/components/schemas/Title",
                             "schema lacks title with anyOf branch #/components/schemas/Detail"});
}

TEST_CASE("EH-1: a shared component response is one finding with the number of operations using it") {
  json doc = openapi_doc({{"/a", {{"get", {{"responses", {{"404", {{"$ref", "#/components/responses/NotFound"}}}}}}},
                                  {"delete", {{"responses", {{"404", {{"$ref", "#/components/responses/NotFound"}}}}}}}}},
                          {"/b", {{"get", {{"responses", {{"404", {{"$ref", "#/components/responses/NotFound"}}},
                                                          {"410", {{"$ref", "#/components/responses/NotFound"}}}}}}}}}});
  doc["components"] = {{"responses", {{"NotFound", response(content("application/json", problem_schema()))},
                                      {"Unused", response(content("text/plain", json::object()))}}}};
  auto r = eh1(doc);
  expect(r, Verdict::fail);
  CHECK(r.message ==
        "GET /a 404 and 2 other operations: application/json, no problem media type "
        "(/paths/~1a/get/responses/404 → #/components/responses/NotFound/content)");
  // one operation using it twice names both keys
  json twice = get_with({{"404", {{"$ref", "#/components/responses/NotFound"}}}, {"410", {{"$ref", "#/components/responses/NotFound"}}}});
  twice["components"] = doc["components"];
  expect(eh1(twice), Verdict::fail, {"GET /a 404, 410: application/json, no problem media type"});
  // used by a 4xx and a default: the worst verdict
  json mixed = get_with({{"default", {{"$ref", "#/components/responses/NotFound"}}}, {"404", {{"$ref", "#/components/responses/NotFound"}}}});
  mixed["components"] = doc["components"];
  expect(eh1(mixed), Verdict::fail, {"GET /a default, 404"});
  // with another finding beside it: counted in findings and in responses
  doc["paths"]["/c"] = {{"get", {{"responses", {{"500", {{"description", "x"}}}}}}}};
  expect(eh1(doc), Verdict::fail, {"2 findings in 5 of 5 error responses: GET /a 404 and 2 other operations: ",
                                   "; GET /c 500: no error body documented"});
}

TEST_CASE("EH-1: a shared problem schema is one finding with the number of operations using it") {
  json ref = {{"$ref", "#/components/schemas/Problem"}};
  json doc = openapi_doc({{"/a", {{"get", {{"responses", {{"400", problem_response(ref)}, {"404", problem_response(ref)}}}}}}},
                          {"/b", {{"get", {{"responses", {{"404", response(content("application/problem+xml", ref))}}}}}}}});
  doc["components"] = {{"schemas", {{"Problem", problem_schema({"status", "title"})},
                                    {"Unused", problem_schema({"status"})}}}};
  auto r = eh1(doc);
  expect(r, Verdict::fail);
  CHECK(r.message ==
        "GET /a 400, 404 and 1 other operation: application/problem+json schema lacks detail "
        "(/paths/~1a/get/responses/400/content/application~1problem+json/schema → #/components/schemas/Problem)");
}

TEST_CASE("EH-1: OAS 3.1 $ref siblings count beside the target; OAS 3.0 ignores them") {
  json schema = {{"$ref", "#/components/schemas/Base"}, {"properties", {{"detail", json::object()}}}};
  json doc = get_with({{"404", problem_response(schema)}});
  doc["components"] = {{"schemas", {{"Base", problem_schema({"status", "title"})}}}};
  expect(eh1(doc), Verdict::fail, {"schema lacks detail", "→ #/components/schemas/Base"});
  doc["openapi"] = "3.1.0";
  expect(eh1(doc), Verdict::pass);
  doc["openapi"] = "3.2.0";
  expect(eh1(doc), Verdict::pass);
  // without "openapi": OAS 3.0 semantics
  doc.erase("openapi");
  expect(eh1(doc), Verdict::fail, {"schema lacks detail"});
}

TEST_CASE("EH-1: Swagger 2.0 reads produces (the operation's, else the root's) and the response schema") {
  json doc = json::parse(R"({
    "swagger": "2.0", "info": {"title": "t", "version": "1.0.0"},
    "produces": ["application/json"],
    "paths": {
      "/a": {"get": {"produces": ["application/problem+json"],
                     "responses": {"404": {"description": "x", "schema": {"$ref": "#/definitions/Problem"}}}}},
      "/b": {"get": {"responses": {"404": {"description": "x", "schema": {"$ref": "#/definitions/Problem"}},
                                   "500": {"description": "no body"}}}}},
    "definitions": {"Problem": {}}})");
  doc["definitions"]["Problem"] = problem_schema();
  auto r = eh1(doc);
  expect(r, Verdict::fail, {"GET /b 404: application/json, no problem media type (/produces)",
                            "GET /b 500: no error body documented (/paths/~1b/get/responses/500)"});
  CHECK(r.message.find("GET /a") == std::string::npos);
  doc["produces"] = json::array({"application/problem+json", "application/json"});
  expect(eh1(doc), Verdict::warn, {"GET /b 404: application/problem+json next to application/json (/produces)"});
  doc.erase("produces");
  expect(eh1(doc), Verdict::fail, {"GET /b 404: no produces, no problem media type"});
  doc["produces"] = json::array({"application/problem+json"});
  doc["definitions"]["Problem"] = problem_schema({"status", "title"});
  expect(eh1(doc), Verdict::fail, {"application/problem+json schema lacks detail", "→ #/definitions/Problem"});
}

TEST_CASE("EH-1: callbacks and webhooks are not judged; path items by $ref are") {
  json bad = response(content("application/json", problem_schema()));
  json doc = openapi_doc({{"/a", {{"post", {{"responses", {{"201", {{"description", "ok"}}}}},
                                            {"callbacks", {{"cb", {{"{$url}", {{"post", {{"responses", {{"500", bad}}}}}}}}}}}}}}}});
  doc["openapi"] = "3.1.0";
  doc["webhooks"] = {{"w", {{"post", {{"responses", {{"400", bad}}}}}}}};
  doc["components"] = {{"responses", {{"Bad", bad}}}, {"pathItems", {{"B", {{"get", {{"responses", {{"404", bad}}}}}}}}}};
  expect(eh1(doc), Verdict::pass, {"no 4xx, 5xx or default responses documented"});
  doc["paths"]["/b"] = {{"$ref", "#/components/pathItems/B"}};
  expect(eh1(doc), Verdict::fail, {"GET /b 404: application/json, no problem media type (/paths/~1b → #/components/pathItems/B/get/responses/404/content)"});
}

TEST_CASE("EH-1: an unresolvable $ref contributes nothing (DO-2 reports it); a cycle is followed once") {
  json doc = get_with({{"404", {{"$ref", "#/components/responses/Missing"}}},
                       {"400", problem_response({{"$ref", "#/components/schemas/Missing"}})},
                       {"500", problem_response({{"allOf", json::array({{{"$ref", "#/components/schemas/Loop"}}})}})}});
  doc["components"] = {{"schemas", {{"Loop", {{"properties", {{"status", json::object()}, {"title", json::object()}, {"detail", json::object()}}},
                                              {"allOf", json::array({{{"$ref", "#/components/schemas/Loop"}}})}}}}}};
  expect(eh1(doc), Verdict::pass, {"2 error responses of 1 operation"});
}

TEST_CASE("EH-1: allOf diamonds are walked within a budget; a schema shared by many responses is walked once") {
  // S0 → allOf [S1, S1] → ... → S39: 2^40 ways down without a budget.
  json schemas = json::object();
  for (int i = 0; i < 40; ++i) {
    json next = {{"$ref", fmt::format("#/components/schemas/S{}", i + 1)}};
    schemas[fmt::format("S{}", i)] = {{"allOf", json::array({next, next})}, {"properties", {{fmt::format("m{}", i), json::object()}}}};
  }
  schemas["S40"] = problem_schema();
  json top = {{"allOf", json::array({{{"$ref", "#/components/schemas/S0"}}})}, {"properties", problem_schema()["properties"]}};
  json responses = json::object();
  for (int s = 400; s < 500; ++s) responses[std::to_string(s)] = problem_response({{"$ref", "#/components/schemas/Top"}});
  schemas["Top"] = top;
  json doc = get_with(responses);
  doc["components"] = {{"schemas", schemas}};
  expect(eh1(doc), Verdict::pass, {"100 error responses"});
}

TEST_CASE("EH-1: a multi-file document names the file before the pointer") {
  FakeRun run = run22();
  json doc = get_with({{"404", problem_response({{"$ref", "common.json#/Problem"}})}});
  oas::FetchedDocument common;
  common.ok = true;
  common.value = oas::from_json({{"Problem", problem_schema({"status", "title"})}});
  run.document(doc, "", {{std::string(kBase) + "/common.json", common}});
  expect(run.judge("EH-1"), Verdict::fail, {"schema lacks detail", "→ common.json#/Problem"});
}

TEST_CASE("EH-1: the message lists the first 10 findings and 'and N more'; details list all") {
  json responses = json::object();
  for (int s = 400; s < 413; ++s) responses[std::to_string(s)] = response(content("application/json", problem_schema()));
  auto r = eh1(get_with(responses));
  expect(r, Verdict::fail, {"GET /a 409: ", "; and 3 more"});
  CHECK(r.message.rfind("13 findings in 13 of 13 error responses: GET /a 400: ", 0) == 0);
  CHECK(r.message.find("GET /a 410") == std::string::npos);
  CHECK(count_of(r.message, "no problem media type") == 10);
  CHECK(r.details.size() == 13);
  // failures lead, warnings follow
  responses["default"] = {{"description", "x"}};
  responses["300"] = {{"description", "x"}};
  json first = json::object();
  first["default"] = {{"description", "x"}};
  first.update(responses);
  auto r2 = eh1(get_with(first));
  CHECK(r2.message.rfind("14 findings in 14 of 14 error responses: GET /a 400: ", 0) == 0);
  CHECK(r2.details.back().find("warn: GET /a default") == 0);
}

// ---------------------------------------------------------------------------
// EH-2

namespace {
using Headers = std::map<std::string, std::string>;
Headers problem_json{{"content-type", "application/problem+json"}};
Headers problem_xml{{"content-type", "application/problem+xml"}};
std::string body(int status, const std::string& extra = "") {
  return fmt::format(R"({{"type":"about:blank","status":{},"title":"Not Found","detail":"no such thing"{}}})", status, extra);
}
std::string xml(const std::string& status, const std::string& children = "<title>t</title><detail>d</detail>") {
  return R"(<?xml version="1.0" encoding="UTF-8"?><problem xmlns="urn:ietf:rfc:7807"><status>)" + status +
         "</status>" + children + "</problem>";
}
CheckResult eh2_one(int status, Headers headers, std::string text, const std::string& method = "GET") {
  FakeRun run = run22();
  run.exchange(method, std::string(kBase) + "/gebouwen/", status, std::move(headers), std::move(text));
  return run.judge("EH-2");
}
}  // namespace

TEST_CASE("EH-2: nothing received is skip; only 502/503/504 are counted apart, listed, and skip") {
  FakeRun run = run22();
  expect(run.judge("EH-2"), Verdict::skip, {"no 4xx/5xx responses observed"});
  run.exchange("GET", std::string(kBase), 200, problem_json, "{}");
  run.exchange("GET", std::string(kBase) + "/x", 301);
  expect(run.judge("EH-2"), Verdict::skip, {"no 4xx/5xx responses observed"});
  int a = run.exchange("GET", std::string(kBase) + "/a", 502, {{"content-type", "text/html"}}, "<html/>");
  int b = run.exchange("TRACE", std::string(kBase) + "/b", 503);
  run.exchange("GET", std::string(kBase) + "/c", 504);
  auto r = run.judge("EH-2");
  expect(r, Verdict::skip, {"only 502/503/504 observed, counted apart", "GET /v1/a → 502", "TRACE /v1/b → 503", "GET /v1/c → 504"});
  CHECK(r.exchanges.size() == 3);
  CHECK(r.exchanges.front() == a);
  CHECK(r.exchanges[1] == b);
}

TEST_CASE("EH-2: a problem+json object with status, title and detail passes") {
  auto r = eh2_one(404, problem_json, body(404));
  expect(r, Verdict::pass, {"1 error response judged, 0 failing: all problem details"});
  CHECK(r.exchanges == std::vector<int>{1});
  expect(eh2_one(404, {{"content-type", "Application/Problem+JSON; charset=utf-8"}}, body(404)), Verdict::pass);
  expect(eh2_one(404, problem_json, R"({"status":404.0,"title":"t","detail":"d"})"), Verdict::pass);
  expect(eh2_one(404, problem_json, body(404, R"(,"instance":"/v1/x","extra":[1])")), Verdict::pass);
}

TEST_CASE("EH-2: the Content-Type must be a problem media type, also when the header is missing") {
  auto r = eh2_one(405, {{"content-type", "text/html; charset=utf-8"}}, "<html></html>", "TRACE");
  expect(r, Verdict::fail, {"TRACE /v1/gebouwen/ → 405, Content-Type text/html"});
  CHECK(r.exchanges == std::vector<int>{1});
  expect(eh2_one(404, {}, body(404)), Verdict::fail, {"GET /v1/gebouwen/ → 404, no Content-Type"});
  expect(eh2_one(404, {{"content-type", "application/json"}}, body(404)), Verdict::fail, {"Content-Type application/json"});
}

TEST_CASE("EH-2: an empty body fails") {
  expect(eh2_one(404, problem_json, ""), Verdict::fail, {"→ 404, empty body"});
  expect(eh2_one(404, {}, ""), Verdict::fail, {"→ 404, no Content-Type, empty body"});
}

TEST_CASE("EH-2: a body cut off at 8 KiB warns, its Content-Type still judged") {
  FakeRun run = run22();
  int id = run.exchange("GET", std::string(kBase) + "/a", 404, problem_json, std::string(8192, ' '));
  run.ev.exchanges[static_cast<std::size_t>(id - 1)].body_truncated = true;
  expect(run.judge("EH-2"), Verdict::warn, {"1 not judged (body over 8 KiB)", "GET /v1/a → 404, body over 8 KiB, not judged"});
  run.ev.exchanges[static_cast<std::size_t>(id - 1)].response_headers = {{"content-type", "text/html"}};
  expect(run.judge("EH-2"), Verdict::fail, {"GET /v1/a → 404, Content-Type text/html, body over 8 KiB, not judged"});
}

TEST_CASE("EH-2: +json members: status a number equal to the HTTP status, title and detail strings") {
  expect(eh2_one(404, problem_json, R"({"status":"404","title":"t","detail":"d"})"), Verdict::fail,
         {"status \"404\" is a string"});
  expect(eh2_one(404, problem_json, body(400)), Verdict::fail, {"→ 404, status 400, not 404"});
  expect(eh2_one(404, problem_json, R"({"status":true,"title":"t","detail":"d"})"), Verdict::fail,
         {"status true is not a number"});
  expect(eh2_one(404, problem_json, R"({"title":"t","detail":"d"})"), Verdict::fail, {"no status"});
  expect(eh2_one(404, problem_json, R"({"status":404,"title":"t"})"), Verdict::fail, {"→ 404, no detail"});
  expect(eh2_one(404, problem_json, R"({"status":404,"detail":"d"})"), Verdict::fail, {"no title"});
  expect(eh2_one(404, problem_json, R"({"status":404,"title":1,"detail":null})"), Verdict::fail,
         {"title is not a string, detail is not a string"});
  expect(eh2_one(404, problem_json, R"({"type":1,"status":404,"title":"t","detail":"d"})"), Verdict::fail,
         {"type is not a string"});
  expect(eh2_one(404, problem_json, body(404, R"(,"instance":{})")), Verdict::fail, {"instance is not a string"});
  expect(eh2_one(404, problem_json, "not json"), Verdict::fail, {"body is not JSON"});
  expect(eh2_one(404, problem_json, "[]"), Verdict::fail, {"body is not a JSON object"});
}

TEST_CASE("EH-2: +xml: root problem in urn:ietf:rfc:7807 with status (= HTTP status), title and detail") {
  expect(eh2_one(404, problem_xml, xml("404")), Verdict::pass);
  expect(eh2_one(404, problem_xml, xml(" 404 ")), Verdict::pass);
  // a prefix bound to the namespace
  expect(eh2_one(403, problem_xml,
                 R"(<p:problem xmlns:p="urn:ietf:rfc:7807"><p:status>403</p:status><p:title>t</p:title><p:detail>d</p:detail></p:problem>)"),
         Verdict::pass);
  expect(eh2_one(404, problem_xml, xml("400")), Verdict::fail, {"status 400, not 404"});
  expect(eh2_one(404, problem_xml, xml("vier")), Verdict::fail, {"status \"vier\" is not an integer"});
  expect(eh2_one(404, problem_xml, xml("404", "<title>t</title>")), Verdict::fail, {"no detail"});
  expect(eh2_one(404, problem_xml, R"(<problem xmlns="urn:ietf:rfc:7807"><title>t</title><detail>d</detail></problem>)"),
         Verdict::fail, {"no status"});
  expect(eh2_one(404, problem_xml, "<problem><status>404</status><title>t</title><detail>d</detail></problem>"),
         Verdict::fail, {"root element problem is not problem in urn:ietf:rfc:7807"});
  expect(eh2_one(404, problem_xml, R"(<error xmlns="urn:ietf:rfc:7807"/>)"), Verdict::fail,
         {"root element error in urn:ietf:rfc:7807 is not problem"});
  // children in another namespace do not count
  expect(eh2_one(404, problem_xml,
                 R"(<problem xmlns="urn:ietf:rfc:7807" xmlns:o="urn:other"><status>404</status><o:title>t</o:title><detail>d</detail></problem>)"),
         Verdict::fail, {"no title"});
  expect(eh2_one(404, problem_xml, "<problem xmlns=\"urn:ietf:rfc:7807\"><status>404</status>"), Verdict::fail,
         {"body is not well-formed XML"});
  expect(eh2_one(404, problem_xml, xml("404") + xml("404")), Verdict::fail, {"body is not well-formed XML"});
  expect(eh2_one(404, problem_xml, body(404)), Verdict::fail, {"body is not well-formed XML"});
}

TEST_CASE("EH-2: only responses under {base}, not to HEAD, not transport errors; 401/403/429 are judged") {
  FakeRun run = run22();
  run.exchange("HEAD", std::string(kBase) + "/a", 404);
  run.exchange("GET", "https://api.example.nl/v10/a", 404);
  run.exchange("GET", "https://api.example.nl/other", 404);
  run.exchange("GET", "http://api.example.nl/v1/a", 404);
  run.exchange("GET", "https://api.example.nl:8443/v1/a", 404);
  run.exchange("GET", "https://cdn.example.nl/v1/a", 404);
  http::Exchange broken;
  broken.id = static_cast<int>(run.ev.exchanges.size()) + 1;
  broken.method = "GET";
  broken.url = std::string(kBase) + "/b";
  broken.error = "Connection refused";
  run.ev.exchanges.push_back(broken);
  expect(run.judge("EH-2"), Verdict::skip, {"no 4xx/5xx responses observed"});
  run.exchange("GET", std::string(kBase), 401, {{"www-authenticate", "Bearer"}});
  run.exchange("GET", std::string(kBase) + "/openapi.json", 403);
  run.exchange("GET", "https://API.example.nl:443/v1/c", 429, problem_json, body(429));
  auto r = run.judge("EH-2");
  expect(r, Verdict::fail, {"3 error responses judged, 2 failing: ", "GET /v1 → 401, no Content-Type, empty body",
                            "GET /v1/openapi.json → 403"});
  CHECK(r.exchanges == std::vector<int>{8, 9});
}

TEST_CASE("EH-2: runs without a document: the failed openapi.json is judged") {
  FakeRun run = run22();
  run.unpublished(404);
  expect(run.judge("EH-1"), Verdict::fail, {"prerequisite not met"});
  expect(run.judge("EH-2"), Verdict::fail, {"GET /v1/openapi.json → 404, no Content-Type, empty body"});
}

TEST_CASE("EH-2: the message gives the counts and the first 10 failing; exchanges list them all") {
  FakeRun run = run22();
  for (int i = 0; i < 12; ++i) run.exchange("GET", fmt::format("{}/p{}", kBase, i), 404, {{"content-type", "text/html"}}, "<p/>");
  run.exchange("GET", std::string(kBase) + "/ok", 404, problem_json, body(404));
  run.exchange("GET", std::string(kBase) + "/down", 503);
  auto r = run.judge("EH-2");
  expect(r, Verdict::fail, {"13 error responses judged, 12 failing, 1 counted apart (GET /v1/down → 503): ",
                            "GET /v1/p0 → 404, Content-Type text/html", "GET /v1/p9 →", "; and 2 more"});
  CHECK(r.message.find("/p10 ") == std::string::npos);
  CHECK(r.message.find("/ok") == std::string::npos);
  CHECK(r.exchanges.size() == 13);  // the 12 failing and the one counted apart
  CHECK(r.details.size() == 12);
}

TEST_CASE("EH-2: the same request answered twice is one entry with how many") {
  FakeRun run = run22();
  run.exchange("GET", std::string(kBase) + "/openapi.yaml", 404, {{"content-type", "text/plain"}}, "nope");
  run.exchange("GET", std::string(kBase) + "/openapi.yaml", 404, {{"content-type", "text/plain"}}, "nope");
  auto r = run.judge("EH-2");
  expect(r, Verdict::fail, {"2 error responses judged, 2 failing: GET /v1/openapi.yaml → 404, Content-Type text/plain (×2)"});
  CHECK(r.exchanges == std::vector<int>{1, 2});
}

// ---------------------------------------------------------------------------
// EI-1

namespace {
json query(const std::string& name = "expand") { return {{"name", name}, {"in", "query"}, {"schema", {{"type", "string"}}}}; }
json operation_with(json parameters, json responses) { return {{"parameters", std::move(parameters)}, {"responses", std::move(responses)}}; }
json ok() { return {{"200", {{"description", "ok"}}}}; }
json with400() { return {{"200", {{"description", "ok"}}}, {"400", problem_response()}}; }
}  // namespace

TEST_CASE("EI-1: an operation with a query parameter documents 400 or 4XX, else fails") {
  expect(ei1(openapi_doc({{"/a", {{"get", operation_with(json::array({query()}), with400())}}}})), Verdict::pass,
         {"the 1 operation taking query parameters or a request body documents 400"});
  expect(ei1(openapi_doc({{"/a", {{"get", operation_with(json::array({query()}), {{"4XX", problem_response()}})}}}})), Verdict::pass);
  auto r = ei1(openapi_doc({{"/invalid-response-vereist", {{"get", operation_with(json::array({query()}), ok())}}}}));
  expect(r, Verdict::fail);
  CHECK(r.message == "GET /invalid-response-vereist (/paths/~1invalid-response-vereist/get/responses)");
  // default alone does not count; nor does another 4xx
  expect(ei1(openapi_doc({{"/a", {{"get", operation_with(json::array({query()}), {{"default", problem_response()}, {"404", problem_response()}})}}}})),
         Verdict::fail, {"GET /a (/paths/~1a/get/responses)"});
}

TEST_CASE("EI-1: nothing to judge passes and says so; no paths is skip; no document is the prerequisite") {
  json path_only = {{"name", "id"}, {"in", "path"}, {"required", true}};
  json header = {{"name", "X-Trace"}, {"in", "header"}};
  expect(ei1(openapi_doc({{"/a/{id}", {{"get", operation_with(json::array({path_only, header}), ok())}, {"delete", operation_with(json::array({path_only}), ok())}}}})),
         Verdict::pass, {"no operation takes query parameters or a request body"});
  json doc = openapi_doc();
  doc.erase("paths");
  expect(ei1(doc), Verdict::skip, {"no paths in the document (see DO-3)"});
  FakeRun none = run22();
  none.unreachable("Connection refused");
  auto r = none.judge("EI-1");
  CHECK(r.verdict == Verdict::error);
  CHECK(r.message.rfind("prerequisite not met", 0) == 0);
}

TEST_CASE("EI-1: a request body makes an operation take input, whatever the method") {
  json body = {{"content", {{"application/json", {{"schema", {{"type", "object"}}}}}}}};
  json post = {{"requestBody", body}, {"responses", ok()}};
  expect(ei1(openapi_doc({{"/a", {{"post", post}}}})), Verdict::fail, {"POST /a (/paths/~1a/post/responses)"});
  json ref_body = {{"requestBody", {{"$ref", "#/components/requestBodies/B"}}}, {"responses", with400()}};
  expect(ei1(openapi_doc({{"/a", {{"patch", ref_body}}}})), Verdict::pass);
}

TEST_CASE("EI-1: path-level and $ref query parameters count; OAS 3.2 querystring counts") {
  json doc = openapi_doc({{"/a", {{"parameters", json::array({query("pageSize")})}, {"get", {{"responses", ok()}}}}},
                          {"/b", {{"get", operation_with(json::array({{{"$ref", "#/components/parameters/Q"}}}), ok())}}},
                          {"/c", {{"get", operation_with(json::array({{{"name", "q"}, {"in", "querystring"}}}), ok())}}}});
  doc["components"] = {{"parameters", {{"Q", query("sort")}}}};
  doc["openapi"] = "3.2.0";
  auto r = ei1(doc);
  expect(r, Verdict::fail, {"3 of 3 operations taking input document no 400 or 4XX: ", "GET /a (", "GET /b (", "GET /c ("});
}

TEST_CASE("EI-1: Swagger 2.0 body and formData parameters count as a request body") {
  json doc = {{"swagger", "2.0"}, {"info", {{"title", "t"}, {"version", "1.0.0"}}},
              {"paths", {{"/a", {{"post", operation_with(json::array({{{"name", "b"}, {"in", "body"}, {"schema", {{"type", "object"}}}}}), ok())},
                                 {"put", operation_with(json::array({{{"name", "f"}, {"in", "formData"}, {"type", "string"}}}), {{"400", {{"description", "bad"}}}})},
                                 {"get", operation_with(json::array({{{"name", "h"}, {"in", "header"}, {"type", "string"}}}), ok())}}}}}};
  auto r = ei1(doc);
  CHECK(r.message == "POST /a (/paths/~1a/post/responses)");
  CHECK(r.message.find("PUT") == std::string::npos);
}

TEST_CASE("EI-1: an operation reached through a path item $ref names it") {
  json doc = openapi_doc({{"/a", {{"$ref", "#/components/pathItems/A"}}}});
  doc["openapi"] = "3.1.0";
  doc["components"] = {{"pathItems", {{"A", {{"get", operation_with(json::array({query()}), ok())}}}}}};
  expect(ei1(doc), Verdict::fail, {"GET /a (/paths/~1a → #/components/pathItems/A/get/responses)"});
}

// ---------------------------------------------------------------------------
// The official linter's test cases (probes.md, "The official linter's test cases")

TEST_CASE("linter cases: error-type, error-type-extra-field, error-type-missing-required, error-type-invalid-input") {
  {
    auto doc = load_case("error-type");
    expect(eh1(doc), Verdict::fail,
           {"GET /openapi.json 404: application/hal+json, no problem media type (/paths/~1openapi.json/get/responses/404/content)"});
    expect(ei1(doc), Verdict::pass);
  }
  {
    auto doc = load_case("error-type-extra-field");
    expect(eh1(doc), Verdict::pass);
    expect(ei1(doc), Verdict::pass);
  }
  {
    auto doc = load_case("error-type-missing-required");
    auto r = eh1(doc);
    expect(r, Verdict::fail, {"GET /openapi.json 404: application/problem+json schema lacks detail"});
    CHECK(r.message.find("status") == std::string::npos);
    CHECK(r.message.find("title") == std::string::npos);
  }
  {
    auto doc = load_case("error-type-invalid-input");
    expect(eh1(doc), Verdict::pass);
    auto r = ei1(doc);
    expect(r, Verdict::fail, {"3 of 3 operations",
                              "GET /invalid-response-vereist (/paths/~1invalid-response-vereist/get/responses)",
                              "PUT /invalid-response-vereist (/paths/~1invalid-response-vereist/put/responses)",
                              "POST /invalid-response-vereist (/paths/~1invalid-response-vereist/post/responses)"});
  }
}

TEST_CASE("linter case cor-api: EH-1 fails the same 23 responses; EI-1 passes") {
  auto doc = load_case("cor-api");
  auto r = eh1(doc);
  expect(r, Verdict::fail,
         {"GET /heartbeat 429: application/json, no problem media type (/paths/~1heartbeat/get/responses/429/content)",
          "GET /laatsteWijziging 400: application/hal+json, no problem media type (/paths/~1laatsteWijziging/get/responses/400/content)",
          "; and 13 more"});
  CHECK(r.message.rfind("23 findings in 23 of 23 error responses: GET /heartbeat 429: ", 0) == 0);
  CHECK(count_of(r.message, "no problem media type") == 10);
  REQUIRE(r.details.size() == 23);
  for (const auto& d : r.details) CHECK(d.rfind("fail: ", 0) == 0);
  CHECK(r.details.back() ==
        "fail: GET /organisaties/{oin} 503: application/hal+json, no problem media type (/paths/~1organisaties~1{oin}/get/responses/503/content)");
  expect(ei1(doc), Verdict::pass);
}

TEST_CASE("linter cases: no other case gives EH-1 or EI-1 anything but pass") {
  for (const char* name : {"baseline", "contact-missing", "contact-no-email", "contact-no-name", "contact-no-url", "date-time",
                           "openapi-versie-3-0-1", "openapi-versie-3-1-0", "openapi-versie-missing", "paths-kebab-incorrect",
                           "paths-kebab-slashes", "paths-kebab-variables", "paths-kebab-zoek-uitzondering",
                           "query-keys-camel-case", "semver-incorrect", "semver-patch", "semver-patch-incorrect",
                           "servers-empty", "servers-missing", "version-header-casing", "version-header-missing"}) {
    INFO(name);
    auto doc = load_case(name);
    CHECK(eh1(doc).verdict == Verdict::pass);
    CHECK(ei1(doc).verdict == Verdict::pass);
  }
}
