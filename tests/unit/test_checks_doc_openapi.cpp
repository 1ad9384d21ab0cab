// DO-1, DO-2, DO-3 (/core/doc-openapi) and CT-1 (/core/doc-openapi-contact) on hand-made documents.
#include <algorithm>

#include "checks/findings.hpp"
#include "fake_run.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;

namespace {

oas::json with(oas::json doc, const std::string& key, oas::json value) {
  doc[key] = std::move(value);
  return doc;
}

// A document whose /gebouwen GET answers with the schema at `ref`.
oas::json referring(const std::string& ref, oas::json schemas) {
  oas::json response{{"description", "ok"},
                     {"content", {{"application/json", {{"schema", {{"$ref", ref}}}}}}}};
  oas::json doc = openapi_doc({{"/gebouwen", {{"get", {{"responses", {{"200", response}}}}}}}});
  doc["components"] = {{"schemas", std::move(schemas)}};
  return doc;
}

const std::string kRefPointer = "/paths/~1gebouwen/get/responses/200/content/application~1json/schema/$ref";

}  // namespace

// ---- DO-1 -------------------------------------------------------------------

TEST_CASE("DO-1: openapi 3.0.x, 3.1.x and 3.2.x pass") {
  for (const char* v : {"3.0.0", "3.0.3", "3.1.0", "3.1.1", "3.2.0"}) {
    CAPTURE(v);
    FakeRun run;
    run.document(with(openapi_doc(), "openapi", v));
    expect(run.judge("DO-1"), Verdict::pass, {std::string("openapi: \"") + v + "\""});
  }
}

TEST_CASE("DO-1: swagger 2.0 fails") {
  FakeRun run;
  oas::json doc = openapi_doc();
  doc.erase("openapi");
  doc["swagger"] = "2.0";
  run.document(doc);
  expect(run.judge("DO-1"), Verdict::fail, {"swagger: \"2.0\"", "not OpenAPI 3 or later"});
}

TEST_CASE("DO-1: a missing or non-string openapi fails") {
  FakeRun missing;
  oas::json doc = openapi_doc();
  doc.erase("openapi");
  missing.document(doc);
  expect(missing.judge("DO-1"), Verdict::fail, {"no 'openapi' field"});

  FakeRun number;
  number.document(with(openapi_doc(), "openapi", 3.1));
  expect(number.judge("DO-1"), Verdict::fail, {"is not a string"});
}

TEST_CASE("DO-1: not MAJOR.MINOR.PATCH, or a major below 3, fails") {
  for (const char* v : {"3.1", "3", "v3.0.0", "3.0.3-rc1", "03.0.0", "3.0.x", ""}) {
    CAPTURE(v);
    FakeRun run;
    run.document(with(openapi_doc(), "openapi", v));
    expect(run.judge("DO-1"), Verdict::fail, {"is not MAJOR.MINOR.PATCH"});
  }
  FakeRun two;
  two.document(with(openapi_doc(), "openapi", "2.0.0"));
  expect(two.judge("DO-1"), Verdict::fail, {"OpenAPI 3 or later is required"});
}

TEST_CASE("DO-1: without a document the prerequisite fails") {
  FakeRun run;
  run.unpublished(404);
  auto r = run.judge("DO-1");
  expect(r, Verdict::fail, {"prerequisite not met: GET /v1/openapi.json → 404"});
}

// ---- DO-2 -------------------------------------------------------------------

TEST_CASE("DO-2: every local $ref resolves, with ~0, ~1 and percent decoding") {
  FakeRun run;
  oas::json schemas{{"Gebouw", {{"type", "object"}, {"properties", {{"adres", {{"$ref", "#/components/schemas/a~1b"}}},
                                                                    {"tilde", {{"$ref", "#/components/schemas/c~0d"}}},
                                                                    {"plek", {{"$ref", "#/components/schemas/Pl%C3%A4tze"}}}}}}},
                    {"a/b", {{"type", "string"}}},
                    {"c~d", {{"type", "string"}}},
                    {"Pl\xC3\xA4tze", {{"type", "string"}}}};
  run.document(referring("#/components/schemas/Gebouw", schemas));
  auto r = run.judge("DO-2");
  expect(r, Verdict::pass, {"every $ref resolves", "0 documents"});
}

TEST_CASE("DO-2: an unresolved local $ref fails, listing the pointer where it stands") {
  FakeRun run;
  run.document(referring("#/components/schemas/Ontbreekt", {{"Gebouw", {{"type", "object"}}}}));
  auto r = run.judge("DO-2");
  expect(r, Verdict::fail, {"1 $ref not resolved", kRefPointer, "'#/components/schemas/Ontbreekt'"});
}

TEST_CASE("DO-2: external documents resolve relative to the document URL") {
  FakeRun run;
  oas::FetchedDocument common;
  common.ok = true;
  common.value = oas::from_json({{"components", {{"schemas", {{"Gebouw", {{"type", "object"}}}}}}}});
  common.exchanges = {7};
  run.document(referring("common.json#/components/schemas/Gebouw", oas::json::object()), "",
               {{"https://api.example.nl/v1/common.json", common}});
  auto r = run.judge("DO-2");
  expect(r, Verdict::pass, {"every $ref resolves", "1 document"});
  CHECK(r.exchanges == std::vector<int>{7});
}

TEST_CASE("DO-2: a pointer that misses in an external document fails") {
  FakeRun run;
  oas::FetchedDocument common;
  common.ok = true;
  common.value = oas::from_json({{"components", {{"schemas", oas::json::object()}}}});
  run.document(referring("common.json#/components/schemas/Gebouw", oas::json::object()), "",
               {{"https://api.example.nl/v1/common.json", common}});
  expect(run.judge("DO-2"), Verdict::fail, {kRefPointer, "'common.json#/components/schemas/Gebouw'"});
}

TEST_CASE("DO-2: refs unresolved only for transport reasons are error; with a real miss it is fail") {
  oas::FetchedDocument down;
  down.error = "GET https://schemas.example.org/common.json: Connection refused";
  down.transport_error = true;
  down.exchanges = {3};

  FakeRun run;
  run.document(referring("https://schemas.example.org/common.json#/Gebouw", oas::json::object()), "",
               {{"https://schemas.example.org/common.json", down}});
  auto r = run.judge("DO-2");
  expect(r, Verdict::error, {"1 $ref not resolved", "Connection refused"});
  CHECK(r.exchanges == std::vector<int>{3});

  FakeRun mixed;
  oas::json doc = referring("https://schemas.example.org/common.json#/Gebouw",
                            {{"Adres", {{"$ref", "#/components/schemas/Ontbreekt"}}}});
  mixed.document(doc, "", {{"https://schemas.example.org/common.json", down}});
  auto m = mixed.judge("DO-2");
  expect(m, Verdict::fail, {"2 $refs not resolved", "Connection refused", "/components/schemas/Adres/$ref"});
}

TEST_CASE("DO-2: unresolved refs are grouped by target document and cause; details list every one") {
  oas::FetchedDocument ok;
  ok.ok = true;
  ok.value = oas::from_json({{"Adres", {{"type", "object"}}}});
  ok.exchanges = {7};
  oas::FetchedDocument gone;
  gone.error = "GET https://schemas.example.org/gone.json → 404";
  gone.exchanges = {8};
  oas::FetchedDocument down;
  down.error = "GET https://other.example.org/down.json: Connection refused";
  down.transport_error = true;
  down.exchanges = {9};
  oas::json props = oas::json::object();
  for (int i = 0; i < 60; ++i) props["g" + std::to_string(i)] = {{"$ref", "https://schemas.example.org/gone.json#/S" + std::to_string(i)}};
  for (int i = 0; i < 30; ++i) props["d" + std::to_string(i)] = {{"$ref", "https://other.example.org/down.json#/D"}};
  props["adres"] = {{"$ref", "https://schemas.example.org/ok.json#/Adres"}};
  FakeRun run;
  run.document(referring("#/components/schemas/Gebouw", {{"Gebouw", {{"type", "object"}, {"properties", props}}}}), "",
               {{"https://schemas.example.org/ok.json", ok},
                {"https://schemas.example.org/gone.json", gone},
                {"https://other.example.org/down.json", down}});
  auto r = run.judge("DO-2");
  expect(r, Verdict::fail,
         {"90 $refs not resolved (2 causes): GET https://schemas.example.org/gone.json → 404 (60 $refs, the first at "
          "#/components/schemas/Gebouw/properties/g0/$ref); GET https://other.example.org/down.json: Connection refused "
          "(30 $refs, the first at #/components/schemas/Gebouw/properties/d0/$ref)"});
  CHECK(r.message.size() <= checks::Findings::kMessageBytes);
  CHECK(r.details.size() == 90);
  CHECK(std::count_if(r.details.begin(), r.details.end(), [](const std::string& d) {
          return d.find("→ 'https://schemas.example.org/gone.json#/S") != std::string::npos;
        }) == 60);
  CHECK(r.exchanges == std::vector<int>{8, 9});  // the failing fetches, not ok.json's
}

TEST_CASE("DO-2: without a document the prerequisite fails") {
  FakeRun run;
  run.unpublished(500);
  expect(run.judge("DO-2"), Verdict::fail, {"prerequisite not met"});
}

// ---- DO-3 -------------------------------------------------------------------

TEST_CASE("DO-3: paths with at least one path pass") {
  FakeRun run;
  run.document(openapi_doc({{"/gebouwen", {{"get", oas::json::object()}}}, {"/adressen", {{"get", oas::json::object()}}}}));
  expect(run.judge("DO-3"), Verdict::pass, {"2 paths documented"});
}

TEST_CASE("DO-3: missing paths fail, empty paths warn, non-object paths fail") {
  FakeRun missing;
  oas::json doc = openapi_doc();
  doc.erase("paths");
  missing.document(doc);
  expect(missing.judge("DO-3"), Verdict::fail, {"no 'paths'"});

  FakeRun empty;
  empty.document(openapi_doc());
  expect(empty.judge("DO-3"), Verdict::warn, {"'paths' is empty"});

  for (const oas::json& paths : {oas::json::array({"/gebouwen"}), oas::json("/gebouwen"), oas::json(nullptr)}) {
    CAPTURE(paths.dump());
    FakeRun run;
    run.document(with(openapi_doc(), "paths", paths));
    expect(run.judge("DO-3"), Verdict::fail, {"'paths' is not an object"});
  }
}

TEST_CASE("DO-3: a path key that does not begin with '/' fails, named") {
  FakeRun run;
  run.document(openapi_doc({{"/gebouwen", {{"get", oas::json::object()}}}, {"adressen", {{"get", oas::json::object()}}}}));
  auto r = run.judge("DO-3");
  expect(r, Verdict::fail, {"paths must begin with '/'", "'adressen'"});
  CHECK(r.message.find("'/gebouwen'") == std::string::npos);
}

// ---- CT-1 -------------------------------------------------------------------

TEST_CASE("CT-1: info.contact with name, url and email passes") {
  FakeRun run("https://api.example.nl/v1", "2.1.0");
  run.document(openapi_doc());
  expect(run.judge("CT-1"), Verdict::pass, {"info.contact: n <a@x.example>, https://x.example"});
}

TEST_CASE("CT-1: each missing or empty field fails, named") {
  for (const char* field : {"name", "url", "email"}) {
    CAPTURE(field);
    FakeRun run("https://api.example.nl/v1", "2.1.0");
    oas::json doc = openapi_doc();
    doc["info"]["contact"].erase(field);
    run.document(doc);
    expect(run.judge("CT-1"), Verdict::fail, {std::string("info.contact lacks ") + field});

    FakeRun blank("https://api.example.nl/v1", "2.1.0");
    oas::json empty = openapi_doc();
    empty["info"]["contact"][field] = "";
    blank.document(empty);
    expect(blank.judge("CT-1"), Verdict::fail, {std::string("lacks ") + field});
  }
  FakeRun two("https://api.example.nl/v1", "2.1.0");
  oas::json doc = openapi_doc();
  doc["info"]["contact"] = {{"name", "n"}, {"url", 5}};
  two.document(doc);
  expect(two.judge("CT-1"), Verdict::fail, {"info.contact lacks url, email"});
}

TEST_CASE("CT-1: no info.contact, or one that is not an object, fails") {
  FakeRun none("https://api.example.nl/v1", "2.1.0");
  oas::json doc = openapi_doc();
  doc["info"].erase("contact");
  none.document(doc);
  expect(none.judge("CT-1"), Verdict::fail, {"no info.contact"});

  FakeRun text("https://api.example.nl/v1", "2.1.0");
  oas::json str = openapi_doc();
  str["info"]["contact"] = "api@example.nl";
  text.document(str);
  expect(text.judge("CT-1"), Verdict::fail, {"no info.contact"});

  FakeRun missing("https://api.example.nl/v1", "2.1.0");
  missing.unpublished(404);
  expect(missing.judge("CT-1"), Verdict::fail, {"prerequisite not met"});
}
