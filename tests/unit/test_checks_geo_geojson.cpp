// checks/geo_geojson: GE-11..GE-15, GeoJSON responses, embedded geometry and
// the request-side rules on the document, on the fake geospatial APIs of geo_fake.hpp.
#include "geo_fake.hpp"

TEST_CASE("GE-11: invalid GeoJSON named by its JSON pointer, the wrong media type") {
  expect(GeoRun(with([](Behaviour& b) { b.invalid = R"({"type":"Point","coordinates":[5.5,95]})"; })).judge("GE-11"), Verdict::fail,
         {"at /features/1/geometry/coordinates: latitude 95 outside [-90, 90] in CRS84"});
  expect(GeoRun(with([](Behaviour& b) { b.invalid = R"({"type":"LineString","coordinates":[[5.5,52.5]]})"; })).judge("GE-11"),
         Verdict::fail, {"a LineString has at least 2 positions"});
  expect(GeoRun(with([](Behaviour& b) { b.media = "application/json"; })).judge("GE-11"), Verdict::fail,
         {"Content-Type 'application/json', not application/geo+json"});
  expect(GeoRun(with([](Behaviour&) {}, "administrative")).judge("GE-11"), Verdict::skip, {"OGC API Features only"});
}

TEST_CASE("GE-12: embedded geometry of an administrative API") {
  GeoRun good(with([](Behaviour&) {}, "administrative"));
  expect(good.judge("GE-12"), Verdict::pass);
  expect(good.judge("GE-1"), Verdict::pass, {"/crss lists 4 CRSs"});
  expect(GeoRun(with([](Behaviour& b) { b.invalid = R"({"type":"Polygon","coordinates":[[[5,52],[6,52],[6,53],[5,53]]]})"; },
                     "administrative")).judge("GE-12"),
         Verdict::fail, {"at /_embedded/punten/1/geometrie/coordinates/0: a ring is not closed"});
  expect(GeoRun(with([](Behaviour& b) { b.invalid = R"({"type":"Point","coordinates":["5","52"]})"; }, "administrative")).judge("GE-12"),
         Verdict::fail, {"/_embedded/punten/1/geometrie/coordinates/0: a coordinate is a string"});
}


TEST_CASE("GE-13..GE-15: request bodies with geometry, on the document") {
  GeoRun ogc(Behaviour{}, false);
  for (const char* id : {"GE-13", "GE-15"}) expect(ogc.judge(id), Verdict::pass, {"no request carries geometry", "live part is not tested"});
  expect(ogc.judge("GE-14"), Verdict::skip, {"administrative APIs only"});
  FakeRun run("");
  json doc = admin_document({});
  doc["paths"]["/punten"]["post"] = json::parse(R"({"requestBody": {"content": {"application/json": {"schema": {
      "type": "object", "properties": {"geometrie": {"type": "string"}}}}}}, "responses": {"201": {"description": "made"}}})");
  doc["paths"]["/punten"]["put"] = json::parse(R"({"parameters": [{"name": "Content-Crs", "in": "header"}],
      "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Punt"}}}},
      "responses": {"200": {"description": "ok"}}})");
  run.document(doc);
  run.ev.modules.push_back(*checks::detect_geo(run.ev));
  expect(run.judge("GE-14"), Verdict::fail, {"POST /punten: geometry geometrie is no GeoJSON geometry schema", "live part is not tested"});
  expect(run.judge("GE-15"), Verdict::fail, {"POST /punten: no Content-Crs header parameter and no crs member"});
  expect(run.judge("GE-13"), Verdict::skip, {"OGC API Features only"});
}
