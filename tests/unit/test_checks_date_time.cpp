// DT-1..DT-5 (/core/date-time/format, /core/date-time/date-omit-time-portion) and the
// timezone hints, on hand-made documents and responses, and on the official
// linter's test cases date-time and cor-api.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "fake_run.hpp"
#include "oas/parse.hpp"
#include "oas/pointer.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;
using oas::json;

namespace {


std::vector<std::string> timezone_hints(const engine::Evidence& ev) {
  const checks::HintProducer* h = checks::find_hints("timezone");
  REQUIRE(h);
  return h->produce(ev);
}

// A 2.2.0 run over a document.
FakeRun run_over(const json& doc) {
  FakeRun run(kBase, "2.2.0");
  run.document(doc);
  return run;
}

json object(json properties) { return {{"type", "object"}, {"properties", std::move(properties)}}; }
json string_format(const std::string& format) { return {{"type", "string"}, {"format", format}}; }

// A document whose GET /items answers application/json with this schema (and components).
json response_doc(json schema, json components = json::object(), const std::string& path = "/items") {
  json doc = openapi_doc(
      {{path, {{"get", {{"responses", {{"200", {{"description", "OK"}, {"content", {{"application/json", {{"schema", std::move(schema)}}}}}}}}}}}}}});
  if (!components.empty()) doc["components"] = std::move(components);
  return doc;
}

// A document with the given properties in one response schema, at
// /paths/~1items/get/responses/200/content/application~1json/schema/properties.
json props_doc(json properties, json components = json::object()) {
  return response_doc(object(std::move(properties)), std::move(components));
}
const std::string kProps = "/paths/~1items/get/responses/200/content/application~1json/schema/properties";

bool contains(const std::vector<std::string>& v, const std::string& fragment) {
  return std::any_of(v.begin(), v.end(), [&](const std::string& s) { return s.find(fragment) != std::string::npos; });
}


}  // namespace

// ---- DT-1 -------------------------------------------------------------------

TEST_CASE("DT-1: date, date-time and time-local pass; nothing to judge passes saying so") {
  auto run = run_over(props_doc({{"a", string_format("date")}, {"b", string_format("date-time")},
                                 {"c", string_format("time-local")}, {"d", string_format("uuid")}}));
  expect(run.judge("DT-1"), Verdict::pass, {"3 date/time formats, all date, date-time or time-local"});

  auto none = run_over(props_doc({{"a", string_format("duration")}, {"b", string_format("time-offset")},
                                  {"c", string_format("uuid")}}));
  expect(none.judge("DT-1"), Verdict::pass, {"no date or time formats in the schemas"});
}

TEST_CASE("DT-1: date-time-local and time fail with the value and the pointer of its format") {
  auto run = run_over(props_doc({{"a", string_format("date-time-local")}, {"b", string_format("time")}}));
  auto r = run.judge("DT-1");
  expect(r, Verdict::fail,
         {"'date-time-local' (no offset) at " + kProps + "/a/format", "'time' (with offset; the table has time-local) at " + kProps + "/b/format"});
}

TEST_CASE("DT-1: other names and spellings of dates and times fail") {
  for (const char* f : {"http-date", "unixtime", "unix-time", "timestamp", "datetime", "date_time", "full-date", "full-time",
                        "partial-time", "local-date", "local-time", "local-date-time", "iso8601", "iso-8601", "Date",
                        "DATE-TIME", "Time-Local", "DateTime"}) {
    CAPTURE(std::string(f));
    auto run = run_over(props_doc({{"a", string_format(f)}}));
    expect(run.judge("DT-1"), Verdict::fail, {fmt::format("'{}'", f), kProps + "/a/format"});
  }
  auto run = run_over(props_doc({{"a", string_format("Date")}}));
  expect(run.judge("DT-1"), Verdict::fail, {"'Date' (the table writes date)"});
}

TEST_CASE("DT-1: every Schema Object in scope, header schemas and example values left out") {
  json bad = string_format("datetime");
  json op = {
      {"parameters", json::array({{{"name", "q"}, {"in", "query"}, {"schema", bad}},
                                  {{"name", "id"}, {"in", "path"}, {"content", {{"application/json", {{"schema", bad}}}}}},
                                  {{"name", "h"}, {"in", "header"}, {"schema", bad}},
                                  {{"name", "c"}, {"in", "cookie"}, {"schema", bad}}})},
      {"requestBody", {{"content", {{"application/json", {{"schema", {{"type", "array"}, {"items", bad}}}}}}}}},
      {"responses",
       {{"200",
         {{"description", "OK"},
          {"headers", {{"Last-Modified", {{"schema", bad}}}}},
          {"content",
           {{"application/json",
             {{"schema",
               {{"type", "object"},
                {"example", {{"format", "datetime"}}},
                {"default", {{"format", "datetime"}}},
                {"prefixItems", json::array({bad})},
                {"additionalProperties", bad},
                {"patternProperties", {{"^x", bad}}},
                {"allOf", json::array({bad})},
                {"oneOf", json::array({bad})},
                {"anyOf", json::array({bad})},
                {"not", bad},
                {"$defs", {{"d", bad}}}}},
              {"examples", {{"e", {{"value", {{"format", "datetime"}}}}}}}}}}}}}}},
      {"callbacks", {{"cb", {{"{$request.body#/url}", {{"post", {{"requestBody", {{"content", {{"application/json", {{"schema", bad}}}}}}}}}}}}}}}};
  json doc = openapi_doc({{"/items/{id}", {{"get", op}}}});
  doc["openapi"] = "3.1.0";
  doc["webhooks"] = {{"w", {{"post", {{"requestBody", {{"content", {{"application/json", {{"schema", bad}}}}}}}}}}}};
  doc["components"] = {{"schemas", {{"S", bad}}},
                       {"headers", {{"H", {{"schema", bad}}}}},
                       {"parameters", {{"P", {{"name", "p"}, {"in", "query"}, {"schema", bad}}}, {"HP", {{"name", "hp"}, {"in", "header"}, {"schema", bad}}}}},
                       {"requestBodies", {{"B", {{"content", {{"application/json", {{"schema", bad}}}}}}}}},
                       {"responses", {{"R", {{"description", "r"}, {"content", {{"application/json", {{"schema", bad}}}}}}}}}};
  auto run = run_over(doc);
  auto r = run.judge("DT-1");
  CHECK(r.verdict == Verdict::fail);
  std::vector<std::string> expected{
      "/paths/~1items~1{id}/get/parameters/0/schema/format",
      "/paths/~1items~1{id}/get/parameters/1/content/application~1json/schema/format",
      "/paths/~1items~1{id}/get/requestBody/content/application~1json/schema/items/format",
      "/content/application~1json/schema/prefixItems/0/format",
      "/content/application~1json/schema/additionalProperties/format",
      "/content/application~1json/schema/patternProperties/^x/format",
      "/content/application~1json/schema/allOf/0/format",
      "/content/application~1json/schema/oneOf/0/format",
      "/content/application~1json/schema/anyOf/0/format",
      "/content/application~1json/schema/not/format",
      "/content/application~1json/schema/$defs/d/format",
      "/get/callbacks/cb/{$request.body#~1url}/post/requestBody/content/application~1json/schema/format",
      "/webhooks/w/post/requestBody/content/application~1json/schema/format",
      "/components/schemas/S/format",
      "/components/parameters/P/schema/format",
      "/components/requestBodies/B/content/application~1json/schema/format",
      "/components/responses/R/content/application~1json/schema/format",
  };
  for (const auto& e : expected) {
    CAPTURE(e);
    CHECK(contains(r.details, e));
  }
  CHECK(r.details.size() == expected.size());  // no header, cookie, example or default
  CHECK_FALSE(contains(r.details, "header"));
  CHECK_FALSE(contains(r.details, "Last-Modified"));
  CHECK_FALSE(contains(r.details, "example"));
  // The message lists the first 10 and counts the rest.
  CHECK(r.message.find("; and ") != std::string::npos);
}

TEST_CASE("DT-1: a shared $ref target is reported once with its uses; one use names the $ref") {
  json components = {{"schemas", {{"Lokaal", string_format("date-time-local")}, {"Tijd", string_format("time")}}}};
  auto run = run_over(props_doc({{"a", {{"$ref", "#/components/schemas/Lokaal"}}},
                                 {"b", {{"$ref", "#/components/schemas/Lokaal"}}},
                                 {"c", {{"type", "array"}, {"items", {{"$ref", "#/components/schemas/Lokaal"}}}}},
                                 {"d", {{"$ref", "#/components/schemas/Tijd"}}}},
                                components));
  auto r = run.judge("DT-1");
  expect(r, Verdict::fail,
         {"'date-time-local' (no offset) at /components/schemas/Lokaal/format (3 $refs use #/components/schemas/Lokaal)",
          "'time' (with offset; the table has time-local) at " + kProps + "/d → #/components/schemas/Tijd/format"});
  CHECK(r.details.size() == 2);
}

TEST_CASE("DT-1: OAS 3.1 keywords beside a $ref count, and the target too") {
  json components = {{"schemas", {{"T", string_format("time")}}}};
  auto run = run_over(props_doc({{"a", {{"$ref", "#/components/schemas/T"}, {"format", "datetime"}}}}, components));
  auto r = run.judge("DT-1");
  expect(r, Verdict::fail, {"'datetime' at " + kProps + "/a/format", "'time'"});
  CHECK(r.details.size() == 2);
}

TEST_CASE("DT-1: a multi-file document names the file") {
  oas::FetchedDocument common;
  common.ok = true;
  common.value = oas::from_json({{"components", {{"schemas", {{"Moment", string_format("date-time-local")}}}}}});
  FakeRun run(kBase, "2.2.0");
  run.document(props_doc({{"a", {{"$ref", "common.json#/components/schemas/Moment"}}}}), "",
               {{kBase + "/common.json", common}});
  expect(run.judge("DT-1"), Verdict::fail, {kProps + "/a → common.json#/components/schemas/Moment/format"});
}

TEST_CASE("DT-1: Swagger 2.0 non-body parameters carry format themselves; schemas under definitions") {
  json doc = {{"swagger", "2.0"},
              {"info", {{"title", "t"}, {"version", "1.0.0"}}},
              {"paths",
               {{"/a",
                 {{"get",
                   {{"parameters", json::array({{{"name", "van"}, {"in", "query"}, {"type", "string"}, {"format", "date_time"}},
                                                {{"name", "h"}, {"in", "header"}, {"type", "string"}, {"format", "date_time"}},
                                                {{"name", "lijst"}, {"in", "query"}, {"type", "array"}, {"items", string_format("Date")}},
                                                {{"name", "body"}, {"in", "body"}, {"schema", string_format("unixtime")}}})},
                    {"responses", {{"200", {{"description", "OK"}, {"schema", string_format("timestamp")}}}}}}}}}}},
              {"definitions", {{"D", string_format("iso8601")}}}};
  auto r = run_over(doc).judge("DT-1");
  expect(r, Verdict::fail,
         {"'date_time' at /paths/~1a/get/parameters/0/format", "'Date' (the table writes date) at /paths/~1a/get/parameters/2/items/format",
          "'unixtime' at /paths/~1a/get/parameters/3/schema/format", "'timestamp' at /paths/~1a/get/responses/200/schema/format",
          "'iso8601' at /definitions/D/format"});
  CHECK(r.details.size() == 5);  // not the header parameter
}

TEST_CASE("DT-1..DT-4: no document is the prerequisite") {
  FakeRun run(kBase, "2.2.0");
  run.unpublished(404);
  for (const char* id : {"DT-1", "DT-2", "DT-3", "DT-4"}) expect(run.judge(id), Verdict::fail, {"prerequisite not met"});
}

TEST_CASE("DT-1..DT-4: what an unresolvable $ref would contribute is left out (DO-2 reports it)") {
  auto run = run_over(props_doc({{"a", {{"$ref", "#/components/schemas/Ontbreekt"}}},
                                 {"geboorteDatum", {{"$ref", "#/components/schemas/Ontbreekt"}}},
                                 {"b", string_format("date")}}));
  expect(run.judge("DT-1"), Verdict::pass, {"1 date/time format"});
  expect(run.judge("DT-2"), Verdict::pass);
  expect(run.judge("DT-3"), Verdict::pass, {"no date-named string fields"});
  expect(run.judge("DT-4"), Verdict::pass, {"no date-named string fields"});
}

// ---- DT-2 -------------------------------------------------------------------

TEST_CASE("DT-2: type string passes, OAS 3.1 [string, null] too") {
  auto run = run_over(props_doc({{"a", string_format("date")},
                                 {"b", {{"type", json::array({"string", "null"})}, {"format", "date-time"}}},
                                 {"c", {{"type", "string"}, {"nullable", true}, {"format", "time-local"}}}}));
  expect(run.judge("DT-2"), Verdict::pass, {"3 date, date-time and time-local formats with type string"});
  auto none = run_over(props_doc({{"a", {{"type", "integer"}, {"format", "unixtime"}}}}));
  expect(none.judge("DT-2"), Verdict::pass, {"no date, date-time or time-local formats in the schemas"});
}

TEST_CASE("DT-2: another type fails, no type warns") {
  auto run = run_over(props_doc({{"a", {{"type", "integer"}, {"format", "date"}}},
                                 {"b", {{"type", json::array({"string", "integer"})}, {"format", "date-time"}}},
                                 {"c", {{"type", json::array({"null"})}, {"format", "date"}}},
                                 {"d", {{"format", "time-local"}}}}));
  auto r = run.judge("DT-2");
  expect(r, Verdict::fail,
         {"date on type \"integer\" at " + kProps + "/a/type", "date-time on type [\"string\",\"integer\"] at " + kProps + "/b/type"});
  CHECK(contains(r.details, "fail: date on type [\"null\"] at " + kProps + "/c/type"));
  CHECK(contains(r.details, "warn: time-local without a type at " + kProps + "/d"));
  CHECK(r.details.size() == 4);

  auto fragment = run_over(props_doc({{"d", {{"allOf", json::array({{{"type", "string"}}, {{"format", "date"}}})}}}}));
  expect(fragment.judge("DT-2"), Verdict::warn, {"date without a type at " + kProps + "/d/allOf/1"});
}

TEST_CASE("DT-2: Swagger 2.0 parameters carry their type") {
  json doc = {{"swagger", "2.0"},
              {"info", {{"title", "t"}, {"version", "1.0.0"}}},
              {"paths", {{"/a", {{"get", {{"parameters", json::array({{{"name", "van"}, {"in", "query"}, {"type", "integer"}, {"format", "date"}}})},
                                         {"responses", {{"200", {{"description", "OK"}}}}}}}}}}}};
  expect(run_over(doc).judge("DT-2"), Verdict::fail, {"date on type \"integer\" at /paths/~1a/get/parameters/0/type"});
}

// ---- DT-3 -------------------------------------------------------------------

TEST_CASE("DT-3: strong date names without format fail, weak ones warn, time words are left out") {
  json p = json::object();
  for (const char* strong : {"date", "datum", "DATUM", "birthDate", "geboorteDatum", "expiration_date", "expiration_Date",
                             "missingFormatDate", "ISODate", "ingangs-datum", "x.date"})
    p[strong] = {{"type", "string"}};
  for (const char* weak : {"dateOfBirth", "date_created", "datumStatusGezet", "geboortedatum", "birthDateFrom"})
    p[weak] = {{"type", "string"}};
  for (const char* none : {"startDateTime", "datumTijd", "tijdstipRegistratie", "timestamp", "updated", "candidate",
                           "dateTime", "registratieTijdstipDatum", "Datumtijd"})
    p[none] = {{"type", "string"}};
  auto r = run_over(props_doc(p)).judge("DT-3");
  CHECK(r.verdict == Verdict::fail);
  auto has = [&](const std::string& verdict, const std::string& name) {
    return contains(r.details, verdict + ": " + kProps + "/" + oas::escape_token(name) + " has no format");
  };
  for (const char* strong : {"date", "datum", "DATUM", "birthDate", "geboorteDatum", "expiration_date", "expiration_Date",
                             "missingFormatDate", "ISODate", "ingangs-datum", "x.date"}) {
    CAPTURE(std::string(strong));
    CHECK(has("fail", strong));
  }
  for (const char* weak : {"dateOfBirth", "date_created", "datumStatusGezet", "geboortedatum", "birthDateFrom"}) {
    CAPTURE(std::string(weak));
    CHECK(has("warn", weak));
  }
  CHECK(r.details.size() == 16);  // none of the time-word names
  expect(r, Verdict::fail, {"date, datum, DATUM, birthDate", ": no format (" + kProps + ")"});
}

TEST_CASE("DT-3: a format passes; the missing format fails even with nullable") {
  auto run = run_over(props_doc({{"birthDate", string_format("date")}, {"peilDatum", {{"type", "string"}, {"format", "uuid"}}}}));
  expect(run.judge("DT-3"), Verdict::pass, {"2 date-named fields, each with a format"});
  auto nullable = run_over(props_doc({{"missingFormatDate", {{"nullable", true}}}}));
  expect(nullable.judge("DT-3"), Verdict::fail, {"missingFormatDate: no format"});
  auto weak = run_over(props_doc({{"dateOfBirth", {{"type", "string"}}}}));
  expect(weak.judge("DT-3"), Verdict::warn, {"dateOfBirth: no format"});
  auto nothing = run_over(props_doc({{"naam", {{"type", "string"}}}}));
  expect(nothing.judge("DT-3"), Verdict::pass, {"no date-named string fields"});
}

TEST_CASE("DT-3: only string-like fields, after $ref and allOf; arrays by their items") {
  json components = {{"schemas",
                      {{"Tekst", {{"type", "string"}}},
                       {"Onvolledig", object({{"jaar", {{"type", "integer"}}}})},
                       {"Datum", string_format("date")}}}};
  auto run = run_over(props_doc(
      {{"geboorteDatum", {{"$ref", "#/components/schemas/Onvolledig"}}},                      // object: not judged
       {"overlijdensDatum", object({{"jaar", {{"type", "integer"}}}})},                         // object
       {"startDatum", {{"type", "integer"}}},                                                  // integer
       {"eindDatum", {{"type", json::array({"string", "integer"})}}},                          // two types
       {"ingangsDatum", {{"allOf", json::array({{{"$ref", "#/components/schemas/Tekst"}}})}}}, // string: judged
       {"wijzigDatum", {{"type", "array"}, {"items", {{"type", "string"}}}}},                  // by items: judged
       {"peilDatum", {{"type", "array"}, {"items", {{"$ref", "#/components/schemas/Datum"}}}}},// items with format
       {"keuzeDatum", {{"oneOf", json::array({string_format("date"), {{"type", "null"}}})}}},  // oneOf format
       {"nulDatum", {{"type", json::array({"string", "null"})}}},                              // judged
       {"brokenDatum", {{"$ref", "#/components/schemas/Ontbreekt"}}}},                         // DO-2's
      components));
  auto r = run.judge("DT-3");
  expect(r, Verdict::fail, {"ingangsDatum, wijzigDatum, nulDatum: no format"});
  CHECK(r.details.size() == 3);
  for (const char* left_out : {"geboorteDatum", "overlijdensDatum", "startDatum", "eindDatum", "peilDatum", "keuzeDatum", "brokenDatum"}) {
    CAPTURE(std::string(left_out));
    CHECK_FALSE(contains(r.details, left_out));
  }
}

TEST_CASE("DT-3: effective query and path parameters are fields; header parameters are not") {
  json doc = openapi_doc(
      {{"/a/{datum}",
        {{"parameters", json::array({{{"name", "datum"}, {"in", "path"}, {"required", true}, {"schema", {{"type", "string"}}}}})},
         {"get", {{"parameters", json::array({{{"name", "geboortedatum"}, {"in", "query"}, {"schema", {{"type", "string"}}}},
                                              {{"name", "peildatum"}, {"in", "header"}, {"schema", {{"type", "string"}}}},
                                              {{"$ref", "#/components/parameters/Vanaf"}}})},
                  {"responses", {{"200", {{"description", "OK"}}}}}}},
         {"put", {{"parameters", json::array({{{"$ref", "#/components/parameters/Vanaf"}}})},
                  {"responses", {{"200", {{"description", "OK"}}}}}}}}}});
  doc["components"] = {{"parameters", {{"Vanaf", {{"name", "vanafDatum"}, {"in", "query"}, {"schema", {{"type", "string"}}}}}}}};
  auto r = run_over(doc).judge("DT-3");
  expect(r, Verdict::fail,
         {"path parameter datum: no format (/paths/~1a~1{datum}/parameters/0)", "query parameter geboortedatum: no format",
          "query parameter vanafDatum: no format (/components/parameters/Vanaf (2 $refs use it))"});
  CHECK(r.details.size() == 3);  // the shared parameter once, no header
}

TEST_CASE("DT-3: Swagger 2.0 query parameters and body properties") {
  json doc = {{"swagger", "2.0"},
              {"info", {{"title", "t"}, {"version", "1.0.0"}}},
              {"paths", {{"/a", {{"get", {{"parameters", json::array({{{"name", "birthDate"}, {"in", "query"}, {"type", "string"}},
                                                                      {{"name", "peilDatum"}, {"in", "query"}, {"type", "string"}, {"format", "date"}}})},
                                         {"responses", {{"200", {{"description", "OK"}, {"schema", {{"$ref", "#/definitions/D"}}}}}}}}}}}}},
              {"definitions", {{"D", object({{"einddatum", {{"type", "string"}}}})}}}};
  auto r = run_over(doc).judge("DT-3");
  expect(r, Verdict::fail, {"query parameter birthDate: no format", "einddatum: no format"});
  CHECK(r.details.size() == 2);
}

// ---- DT-4 -------------------------------------------------------------------

TEST_CASE("DT-4: date-time on a strong date name fails, on a weak one warns, date passes") {
  auto run = run_over(props_doc({{"birthDate", string_format("date-time")},
                                 {"geboorteDatum", string_format("date-time-local")},
                                 {"dateOfBirth", string_format("date-time")},
                                 {"peilDatum", string_format("date")},
                                 {"startDateTime", string_format("date-time")}}));
  auto r = run.judge("DT-4");
  expect(r, Verdict::fail, {"birthDate: date-time (" + kProps + ")", "geboorteDatum: date-time-local", "dateOfBirth: date-time"});
  CHECK(contains(r.details, "fail: " + kProps + "/birthDate: date-time"));
  CHECK(contains(r.details, "warn: " + kProps + "/dateOfBirth: date-time"));
  CHECK(r.details.size() == 3);

  auto weak = run_over(props_doc({{"date_created", string_format("date-time")}}));
  expect(weak.judge("DT-4"), Verdict::warn, {"date_created: date-time"});
  auto ok = run_over(props_doc({{"birthDate", string_format("date")}, {"tijdstip", string_format("date-time")}}));
  expect(ok.judge("DT-4"), Verdict::pass, {"1 date-named field, not date-time or date-time-local"});
  auto nothing = run_over(props_doc({{"naam", {{"type", "string"}}}}));
  expect(nothing.judge("DT-4"), Verdict::pass, {"no date-named string fields"});
}

TEST_CASE("DT-4: fields whose format comes through one $ref name the target once (cor-api)") {
  json local = {{"allOf", json::array({{{"$ref", "#/components/schemas/LocalDateTime"}}})}, {"type", "string"}};
  json components = {{"schemas",
                      {{"LocalDateTime", {{"format", "date-time"}, {"type", "string"}, {"example", "2022-03-10T12:15:50"}}},
                       {"OrganisatieResponse", object({{"naam", {{"type", "string"}}},
                                                       {"afgifteDatum", local},
                                                       {"laatstAangepastDatum", local},
                                                       {"intrekDatum", local}})},
                       {"LaatsteWijzigingsDatum", object({{"laatsteWijziging", local}})}}}};
  json doc = response_doc({{"$ref", "#/components/schemas/OrganisatieResponse"}}, components);
  auto r = run_over(doc).judge("DT-4");
  expect(r, Verdict::fail,
         {"afgifteDatum, laatstAangepastDatum, intrekDatum → #/components/schemas/LocalDateTime: date-time"});
  CHECK(r.details.size() == 3);
  CHECK_FALSE(contains(r.details, "laatsteWijziging"));
  // The one format is DT-1's and DT-2's business only once.
  expect(run_over(doc).judge("DT-1"), Verdict::pass, {"1 date/time format"});
}

TEST_CASE("DT-4: arrays by their items, composition and parameters included") {
  json doc = openapi_doc(
      {{"/a",
        {{"get", {{"parameters", json::array({{{"name", "vanafDatum"}, {"in", "query"}, {"schema", string_format("date-time")}}})},
                  {"responses", {{"200", {{"description", "OK"}, {"content", {{"application/json", {{"schema", object(
                      {{"wijzigDatum", {{"type", "array"}, {"items", string_format("date-time")}}},
                       {"keuzeDatum", {{"anyOf", json::array({{{"type", "null"}}, string_format("date-time-local")})}}}})}}}}}}}}}}}}}});
  auto r = run_over(doc).judge("DT-4");
  expect(r, Verdict::fail, {"query parameter vanafDatum: date-time", "keuzeDatum: date-time-local"});
  CHECK(contains(r.details, "fail: /paths/~1a/get/responses/200/content/application~1json/schema/properties/wijzigDatum: date-time"));
  CHECK(r.details.size() == 3);
}

TEST_CASE("DT-4: properties inside allOf, oneOf and anyOf members are fields too") {
  json schema = {{"allOf", json::array({object({{"ingangsDatum", string_format("date-time")}})})},
                 {"oneOf", json::array({object({{"eindDatum", string_format("date-time")}})})},
                 {"anyOf", json::array({object({{"peilDatum", string_format("date")}})})}};
  auto r = run_over(response_doc(schema)).judge("DT-4");
  const std::string at = "/paths/~1items/get/responses/200/content/application~1json/schema";
  expect(r, Verdict::fail, {"ingangsDatum: date-time (" + at + "/allOf/0/properties)", "eindDatum: date-time (" + at + "/oneOf/0/properties)"});
  CHECK(r.details.size() == 2);
}

// ---- the official linter's test cases ---------------------------------------

TEST_CASE("linter case date-time: DT-1 fails date-time-local and time, DT-3 missingFormatDate, DT-4 exactly seven fields") {
  auto path = linter_case("date-time");
  auto parsed = oas::parse_file(path.string());
  REQUIRE(parsed.ok);
  auto run = run_over(parsed.value);
  const std::string incorrect = "/paths/~1resources-with-time-incorrect/get/responses/200/content/application~1json/schema/properties";

  auto dt1 = run.judge("DT-1");
  expect(dt1, Verdict::fail, {"'date-time-local' (no offset) at " + incorrect + "/date-time-local/format",
                              "'time' (with offset; the table has time-local) at " + incorrect + "/timestamp/format"});
  CHECK(dt1.details.size() == 2);
  expect(run.judge("DT-2"), Verdict::pass);

  auto dt3 = run.judge("DT-3");
  expect(dt3, Verdict::fail, {"missingFormatDate: no format (" + incorrect + ")"});
  CHECK(dt3.details == std::vector<std::string>{"fail: " + incorrect + "/missingFormatDate has no format"});

  auto dt4 = run.judge("DT-4");
  expect(dt4, Verdict::fail,
         {"date, datum, geboorteDatum, birthDate, expiration_date, expiration_Date: date-time (" + incorrect + ")",
          "meerdereDatum → #/components/schemas/LocalDateTimeIncorrect: date-time"});
  std::vector<std::string> fields;
  const std::string prefix = "fail: " + incorrect + "/";
  for (const auto& d : dt4.details) {
    REQUIRE(d.rfind(prefix, 0) == 0);
    fields.push_back(d.substr(prefix.size(), d.find(':', prefix.size()) - prefix.size()));
  }
  CHECK(fields == std::vector<std::string>{"date", "datum", "geboorteDatum", "birthDate", "expiration_date",
                                           "expiration_Date", "meerdereDatum"});

  auto hints = timezone_hints(run.ev);
  REQUIRE(hints.size() == 2);
  CHECK(hints[0].find("'date-time-local' at " + incorrect + "/date-time-local/format") != std::string::npos);
  CHECK(hints[1].find("'time' at " + incorrect + "/timestamp/format") != std::string::npos);
}

TEST_CASE("linter case cor-api: DT-4 fails afgifteDatum, laatstAangepastDatum, intrekDatum → LocalDateTime; DT-1..3 pass") {
  auto path = linter_case("cor-api");
  auto parsed = oas::parse_file(path.string());
  REQUIRE(parsed.ok);
  auto run = run_over(parsed.value);
  for (const char* id : {"DT-1", "DT-2", "DT-3"}) expect(run.judge(id), Verdict::pass);
  auto dt4 = run.judge("DT-4");
  expect(dt4, Verdict::fail,
         {"afgifteDatum, laatstAangepastDatum, intrekDatum → #/components/schemas/LocalDateTime: date-time"});
  CHECK(dt4.details.size() == 3);
  CHECK(timezone_hints(run.ev).empty());
}

// ---- DT-5 -------------------------------------------------------------------

namespace {

// GET /organisaties: {organisaties: [Organisatie]}, Organisatie with a date,
// a date-time (through allOf) and a time-local.
json organisaties_doc(json responses = nullptr) {
  json components = {{"schemas",
                      {{"Organisatie", {{"type", "object"},
                                        {"allOf", json::array({object({{"afgifteDatum", string_format("date")}})})},
                                        {"properties", {{"laatstGewijzigd", {{"$ref", "#/components/schemas/Moment"}}},
                                                        {"openingstijd", string_format("time-local")},
                                                        {"keuze", {{"oneOf", json::array({string_format("date")})}}},
                                                        {"ander", {{"anyOf", json::array({string_format("date-time")})}}},
                                                        {"extra", {{"type", "object"}, {"additionalProperties", string_format("date")}}}}}}},
                       {"Moment", string_format("date-time")}}}};
  if (responses.is_null())
    responses = {{"200", {{"description", "OK"},
                          {"content", {{"application/json", {{"schema", object({{"organisaties", {{"type", "array"}, {"items", {{"$ref", "#/components/schemas/Organisatie"}}}}}})}}}}}}}};
  json doc = openapi_doc({{"/organisaties", {{"get", {{"responses", std::move(responses)}}}}}});
  doc["components"] = components;
  return doc;
}

const std::map<std::string, std::string> kJsonType{{"content-type", "application/json"}};

FakeRun dt5_run(const std::string& body, int status = 200, std::map<std::string, std::string> headers = kJsonType,
                json doc = organisaties_doc()) {
  FakeRun run(kBase, "2.2.0");
  run.document(doc);
  run.probe_paths();
  run.respond(engine::probe_request("GET", kBase + "/organisaties"), status, std::move(headers), body);
  return run;
}

std::string one(const std::string& member, const std::string& value) {
  return json{{"organisaties", json::array({{{member, value}}})}}.dump();
}

}  // namespace

TEST_CASE("DT-5: sends nothing of its own and lists the unprobed paths with a GET") {
  auto run = dt5_run(one("afgifteDatum", "2022-03-10"));
  CHECK(run.plan("DT-5").empty());
  CHECK(checks::find_check("DT-5")->per_path == checks::PerPath::with_get);
  // HM-1 plans the GET whose answer DT-5 reads, under the same key.
  auto hm1 = run.plan("HM-1");
  CHECK(std::any_of(hm1.begin(), hm1.end(), [](const http::Request& r) { return r.method == "GET" && r.url == kBase + "/organisaties"; }));
}

TEST_CASE("DT-5: values that match their grammar pass") {
  json body = {{"organisaties", json::array({{{"afgifteDatum", "2024-02-29"},
                                              {"laatstGewijzigd", "2022-03-10T12:15:50Z"},
                                              {"openingstijd", "08:30:00"}},
                                             {{"afgifteDatum", nullptr},
                                              {"laatstGewijzigd", "2022-03-10T12:15:50.123+00:00"},
                                              {"openingstijd", "23:59:60.5"},
                                              {"naam", "2022-13-45"}}})}};
  auto run = dt5_run(body.dump());
  auto r = run.judge("DT-5");
  expect(r, Verdict::pass, {"5 date/time values in 1 response, each matching its format"});
  CHECK(r.exchanges == std::vector<int>{1});
  CHECK(timezone_hints(run.ev).empty());
}

TEST_CASE("DT-5: a date-time without offset fails, in the message format of probes.md") {
  auto r = dt5_run(one("laatstGewijzigd", "2022-03-10T12:15:50")).judge("DT-5");
  expect(r, Verdict::fail, {"GET /v1/organisaties 200: /organisaties/0/laatstGewijzigd = \"2022-03-10T12:15:50\" (no offset)"});
  CHECK(r.exchanges == std::vector<int>{1});
}

TEST_CASE("DT-5: the date-time grammar") {
  struct Case {
    const char* value;
    Verdict verdict;
    const char* why;
  };
  for (const auto& c : std::vector<Case>{
           {"2022-03-10T12:15:50Z", Verdict::pass, ""},
           {"2022-03-10T12:15:50+02:00", Verdict::pass, ""},  // a timezone hint, not a finding
           {"2022-03-10T12:15:50-00:00", Verdict::fail, "(offset -00:00)"},
           {"2022-03-10t12:15:50Z", Verdict::fail, "(lowercase t)"},
           {"2022-03-10T12:15:50z", Verdict::fail, "(lowercase z)"},
           {"2022-03-10t12:15:50", Verdict::fail, "(lowercase t, no offset)"},
           {"2022-03-10 12:15:50Z", Verdict::fail, "(a space instead of T)"},
           {"2023-02-29T12:15:50Z", Verdict::fail, "(not a calendar date)"},
           {"1900-02-29T12:15:50Z", Verdict::fail, "(not a calendar date)"},
           {"2000-02-29T12:15:50Z", Verdict::pass, ""},
           {"2022-04-31T12:15:50Z", Verdict::fail, "(not a calendar date)"},
           {"2022-00-10T12:15:50Z", Verdict::fail, "(not a calendar date)"},
           {"2022-03-10T24:00:00Z", Verdict::fail, "(not a valid time)"},
           {"2022-03-10T12:15Z", Verdict::fail, "(no seconds)"},
           {"2022-03-10", Verdict::fail, "(no time)"},
           {"2022-03-10T12:15:50.Z", Verdict::fail, "(not an RFC 3339 date-time)"},
           {"2022-03-10T12:15:50+0200", Verdict::fail, "(not an RFC 3339 date-time)"},
           {"2022-03-10T12:15:50+24:00", Verdict::fail, "(not a valid offset)"},
           {"10-03-2022T12:15:50Z", Verdict::fail, "(not an RFC 3339 date-time)"},
           {"", Verdict::fail, "(not an RFC 3339 date-time)"},
           {"2022-03-10T12:15:50Z[Europe/Amsterdam]", Verdict::warn, "(RFC 9557 suffix [Europe/Amsterdam]: ISO 8601-1 has none)"},
           {"2022-03-10T12:15:50+01:00[!Europe/Amsterdam][u-ca=iso8601]", Verdict::warn, "RFC 9557 suffix"},
           {"2022-03-10T12:15:50[Europe/Amsterdam]", Verdict::fail, "(no offset, an RFC 9557 suffix)"},
           {"2022-03-10T12:15:50Z[]", Verdict::fail, "(not an RFC 3339 date-time)"},
           {"2022-03-10T12:15:50Z[Europe/Amsterdam", Verdict::fail, "(not an RFC 3339 date-time)"},
           {"2022-03-10T12:15:50Zjunk", Verdict::fail, "(not an RFC 3339 date-time)"},
       }) {
    CAPTURE(std::string(c.value));
    expect(dt5_run(one("laatstGewijzigd", c.value)).judge("DT-5"), c.verdict, {c.why});
  }
}

TEST_CASE("DT-5: the date and time-local grammars") {
  struct Case {
    const char* member;
    const char* value;
    Verdict verdict;
    const char* why;
  };
  for (const auto& c : std::vector<Case>{
           {"afgifteDatum", "2022-03-10", Verdict::pass, ""},
           {"afgifteDatum", "2024-02-29", Verdict::pass, ""},
           {"afgifteDatum", "2023-02-29", Verdict::fail, "(not a calendar date)"},
           {"afgifteDatum", "2022-12-32", Verdict::fail, "(not a calendar date)"},
           {"afgifteDatum", "2022-03-10T00:00:00Z", Verdict::fail, "(a time portion after the date)"},
           {"afgifteDatum", "2022-3-10", Verdict::fail, "(not YYYY-MM-DD)"},
           {"afgifteDatum", "10-03-2022", Verdict::fail, "(not YYYY-MM-DD)"},
           {"openingstijd", "08:30:00", Verdict::pass, ""},
           {"openingstijd", "08:30:00.250", Verdict::pass, ""},
           {"openingstijd", "08:30:00Z", Verdict::fail, "(an offset)"},
           {"openingstijd", "08:30:00+01:00", Verdict::fail, "(an offset)"},
           {"openingstijd", "08:30", Verdict::fail, "(no seconds)"},
           {"openingstijd", "25:00:00", Verdict::fail, "(not a valid time)"},
           {"openingstijd", "8:30:00", Verdict::fail, "(not HH:MM:SS)"},
       }) {
    CAPTURE(std::string(c.value));
    expect(dt5_run(one(c.member, c.value)).judge("DT-5"), c.verdict, {c.why});
  }
}

TEST_CASE("DT-5: long values are cut at 40 characters; a long string does not hurt the parser") {
  std::string v = "2022-03-10T12:15:50Z" + std::string(6000, 'x');
  auto r = dt5_run(one("laatstGewijzigd", v)).judge("DT-5");
  expect(r, Verdict::fail, {"= \"2022-03-10T12:15:50Zxxxxxxxxxxxxxxxxxxxx\"… (not an RFC 3339 date-time)"});
}

TEST_CASE("DT-5: oneOf, anyOf and additionalProperties are not walked; null and other types are skipped") {
  json body = {{"organisaties", json::array({{{"keuze", "gisteren"},
                                              {"extra", {{"x", "gisteren"}}},
                                              {"ander", "gisteren"},
                                              {"afgifteDatum", 20220310},
                                              {"laatstGewijzigd", nullptr}}})}};
  expect(dt5_run(body.dump()).judge("DT-5"), Verdict::skip,
         {"no date, date-time or time-local value in the JSON 2xx responses"});
}

TEST_CASE("DT-5: the response schema: exact status, else 2XX, else default; media type exact, else application/json") {
  json wrong = {{"content", {{"application/json", {{"schema", object({{"organisaties", {{"type", "array"}, {"items", object({{"afgifteDatum", string_format("time-local")}})}}}})}}}}}};
  json right = {{"content", {{"application/json", {{"schema", object({{"organisaties", {{"type", "array"}, {"items", object({{"afgifteDatum", string_format("date")}})}}}})}}}}}};
  json right_hal = {{"content", {{"application/hal+json", right["content"]["application/json"]}, {"application/json", wrong["content"]["application/json"]}}}};
  std::string body = one("afgifteDatum", "2022-03-10");
  // exact code beats 2XX and default
  expect(dt5_run(body, 200, kJsonType, organisaties_doc({{"200", right}, {"2XX", wrong}, {"default", wrong}})).judge("DT-5"), Verdict::pass);
  // 2XX beats default
  expect(dt5_run(body, 203, kJsonType, organisaties_doc({{"200", wrong}, {"2XX", right}, {"default", wrong}})).judge("DT-5"), Verdict::pass);
  expect(dt5_run(body, 203, kJsonType, organisaties_doc({{"200", wrong}, {"2xx", right}})).judge("DT-5"), Verdict::pass);
  // default last
  expect(dt5_run(body, 203, kJsonType, organisaties_doc({{"200", wrong}, {"default", right}})).judge("DT-5"), Verdict::pass);
  expect(dt5_run(body, 203, kJsonType, organisaties_doc({{"200", wrong}, {"default", wrong}})).judge("DT-5"), Verdict::fail);
  // the exact media type (parameters and case ignored), else application/json
  expect(dt5_run(body, 200, {{"content-type", "Application/HAL+JSON; charset=utf-8"}}, organisaties_doc({{"200", right_hal}})).judge("DT-5"),
         Verdict::pass);
  expect(dt5_run(body, 200, {{"content-type", "application/vnd.x+json"}}, organisaties_doc({{"200", right}})).judge("DT-5"),
         Verdict::pass);
  // no documented response for the status
  expect(dt5_run(body, 203, kJsonType, organisaties_doc({{"200", right}})).judge("DT-5"), Verdict::skip,
         {"1 response without a documented schema"});
}

TEST_CASE("DT-5: nothing judged is skip, saying why") {
  std::string body = one("afgifteDatum", "gisteren");
  expect(dt5_run(body, 200, {{"content-type", "text/html"}}).judge("DT-5"), Verdict::skip, {"1 2xx response not JSON"});
  expect(dt5_run(body, 200, {{"content-type", "application/problem+xml"}}).judge("DT-5"), Verdict::skip, {"not JSON"});
  expect(dt5_run(body, 200, {}).judge("DT-5"), Verdict::skip, {"not JSON"});
  expect(dt5_run(body, 404).judge("DT-5"), Verdict::skip, {"no 2xx response to the 1 GET of a documented path"});
  expect(dt5_run("{\"organisaties\": [", 200).judge("DT-5"), Verdict::skip, {"1 JSON body that does not parse"});

  auto truncated = dt5_run(body);
  truncated.ev.exchanges.back().body_truncated = true;
  expect(truncated.judge("DT-5"), Verdict::skip, {"1 body over the probe limit (8 KiB)"});

  FakeRun error(kBase, "2.2.0");
  error.document(organisaties_doc());
  error.probe_paths();
  error.fail(engine::probe_request("GET", kBase + "/organisaties"), "Connection refused");
  expect(error.judge("DT-5"), Verdict::skip, {"no 2xx response"});

  FakeRun unsent(kBase, "2.2.0");
  unsent.document(organisaties_doc());
  unsent.probe_paths();
  expect(unsent.judge("DT-5"), Verdict::skip, {"no GET of a documented path was sent"});

  FakeRun none(kBase, "2.2.0");
  none.unpublished(404);
  expect(none.judge("DT-5"), Verdict::skip, {"no description document"});
}

TEST_CASE("DT-5: the base URL is not judged, a documented path's GET is; a truncated body beside a judged one is named") {
  json doc = organisaties_doc();
  doc["paths"]["/gebouwen"] = doc["paths"]["/organisaties"];
  FakeRun run(kBase, "2.2.0");
  run.document(doc);
  run.probe_paths();
  run.respond(engine::probe_request("GET", kBase), 200, kJsonType, one("afgifteDatum", "gisteren"));
  int judged = run.respond(engine::probe_request("GET", kBase + "/organisaties"), 200, kJsonType, one("afgifteDatum", "2022-03-10"));
  run.respond(engine::probe_request("GET", kBase + "/gebouwen"), 200, kJsonType, one("afgifteDatum", "gisteren"));
  run.ev.exchanges.back().body_truncated = true;
  auto r = run.judge("DT-5");
  expect(r, Verdict::pass, {"1 date/time value in 1 response, matching its format; not judged: 1 body over the probe limit (8 KiB)"});
  CHECK(r.exchanges == std::vector<int>{judged});
}

TEST_CASE("DT-5: findings list the first 10 and count the rest; details has them all") {
  json list = json::array();
  for (int i = 0; i < 14; ++i) list.push_back({{"laatstGewijzigd", "2022-03-10T12:15:50"}});
  auto r = dt5_run(json{{"organisaties", list}}.dump()).judge("DT-5");
  expect(r, Verdict::fail, {"/organisaties/0/laatstGewijzigd", "; and 11 more"});
  CHECK(r.details.size() == 14);
}

TEST_CASE("DT-5: Swagger 2.0 response schemas") {
  json doc = {{"swagger", "2.0"},
              {"info", {{"title", "t"}, {"version", "1.0.0"}}},
              {"paths", {{"/organisaties", {{"get", {{"responses", {{"200", {{"description", "OK"}, {"schema", object({{"peilDatum", string_format("date")}})}}}}}}}}}}}};
  expect(dt5_run(json{{"peilDatum", "2022-02-30"}}.dump(), 200, kJsonType, doc).judge("DT-5"), Verdict::fail,
         {"GET /v1/organisaties 200: /peilDatum = \"2022-02-30\" (not a calendar date)"});
}

// ---- timezone hints ---------------------------------------------------------

TEST_CASE("timezone: DT-1's date-time-local and time formats and DT-5's non-UTC values are hints") {
  json doc = organisaties_doc();
  doc["components"]["schemas"]["Lokaal"] = string_format("date-time-local");
  doc["components"]["schemas"]["Tijd"] = string_format("time");
  doc["components"]["schemas"]["Ander"] = string_format("datetime");  // DT-1 fails it, but it is no timezone matter
  json body = {{"organisaties", json::array({{{"laatstGewijzigd", "2022-03-10T12:15:50+01:00"}},
                                             {{"laatstGewijzigd", "2022-03-10T13:15:50+01:00"}},
                                             {{"laatstGewijzigd", "2022-03-10T12:15:50Z"}},
                                             {{"laatstGewijzigd", "2022-03-10T12:15:50+00:00"}},
                                             {{"laatstGewijzigd", "2022-03-10T12:15:50-05:30"}}})}};
  auto run = dt5_run(body.dump(), 200, kJsonType, doc);
  expect(run.judge("DT-5"), Verdict::pass);
  auto hints = timezone_hints(run.ev);
  REQUIRE(hints.size() == 4);
  CHECK(hints[0].find("DT-1: format 'date-time-local' at /components/schemas/Lokaal/format") == 0);
  CHECK(hints[1].find("DT-1: format 'time' at /components/schemas/Tijd/format") == 0);
  CHECK(hints[2] == "DT-5: GET /v1/organisaties 200: 2 values, e.g. /organisaties/0/laatstGewijzigd = "
                    "\"2022-03-10T12:15:50+01:00\" has offset +01:00, not UTC; response datetimes SHOULD be UTC (exchange #1)");
  CHECK(hints[3].find("/organisaties/4/laatstGewijzigd = \"2022-03-10T12:15:50-05:30\" has offset -05:30") != std::string::npos);

  auto lint = run_over(props_doc({{"a", string_format("date-time")}}));
  CHECK(timezone_hints(lint.ev).empty());
}

TEST_CASE("DT-3: distinct fields behind one $ref into another file are one place each (pointer and target)") {
  // The Zaken API: ZaakZoek lives in another file and is reached through one $ref of the root.
  oas::FetchedDocument common;
  common.ok = true;
  common.value = oas::from_json({{"components",
                                 {{"schemas",
                                   {{"ZaakZoek", object({{"archiefactiedatum", {{"type", "string"}}},
                                                         {"startdatum", {{"type", "string"}}},
                                                         {"registratiedatum", {{"type", "string"}}}})}}}}}});
  FakeRun run(kBase, "2.2.0");
  run.document(props_doc({{"zoek", {{"$ref", "zrc.json#/components/schemas/ZaakZoek"}}}}), "",
               {{kBase + "/zrc.json", common}});
  auto r = run.judge("DT-3");
  CHECK(r.verdict == Verdict::warn);  // weak date names (no Datum word in camelCase)
  CHECK(r.details.size() == 3);
  REQUIRE(r.locations.size() == 3);  // one place per field, not one per $ref
  for (const auto& l : r.locations) CHECK(l.pointer == kProps + "/zoek");
  CHECK(r.locations[0].target == "zrc.json#/components/schemas/ZaakZoek/properties/archiefactiedatum");
  CHECK(r.locations[1].target == "zrc.json#/components/schemas/ZaakZoek/properties/startdatum");
  CHECK(r.locations[2].target == "zrc.json#/components/schemas/ZaakZoek/properties/registratiedatum");
}
