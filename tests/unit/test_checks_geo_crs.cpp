// checks/geo_crs: GE-1..GE-7, the CRS list, storageCrs, Content-Crs and crs=,
// ETRS89/RD and ETRF2000, on the fake geospatial APIs of geo_fake.hpp.
#include "geo_fake.hpp"

TEST_CASE("GE-1: no crs array, an entry that is no URI; administrative /crss missing") {
  expect(GeoRun(with([](Behaviour& b) { b.crs.reset(); })).judge("GE-1"), Verdict::fail, {"GET /v1/collections: no crs array"});
  expect(GeoRun(with([](Behaviour& b) { b.crs = std::vector<std::string>{"EPSG:28992", kCrs84}; })).judge("GE-1"), Verdict::fail,
         {"crs entry 0 'EPSG:28992' is no http(s) URI"});
  expect(GeoRun(with([](Behaviour& b) { b.crs = std::vector<std::string>{}; })).judge("GE-1"), Verdict::fail, {"empty"});
  expect(GeoRun(with([](Behaviour& b) { b.crs.reset(); }, "administrative")).judge("GE-1"), Verdict::fail, {"GET /v1/crss → 404"});
  // The module not judged: skip (the engine says so too).
  FakeRun plain;
  expect(plain.judge("GE-1"), Verdict::skip, {"no geospatial resource found"});
}

TEST_CASE("GE-2: storageCrs missing or not listed; administrative skips") {
  expect(GeoRun(with([](Behaviour& b) { b.storage_crs = false; })).judge("GE-2"), Verdict::fail, {"collection 'punten' has no storageCrs"});
  expect(GeoRun(with([](Behaviour&) {}, "administrative")).judge("GE-2"), Verdict::skip, {"OGC API Features only"});
}

TEST_CASE("GE-3, GE-4, GE-5: Content-Crs missing, or CRS84 whatever is asked") {
  GeoRun missing(with([](Behaviour& b) { b.content_crs = "missing"; }));
  expect(missing.judge("GE-3"), Verdict::fail, {"GET /v1/collections/punten/items?limit=10: no Content-Crs"});
  expect(missing.judge("GE-4"), Verdict::fail, {"no Content-Crs"});
  expect(missing.judge("GE-5"), Verdict::fail, {"crs=http://www.opengis.net/def/crs/OGC/1.3/CRS84: no Content-Crs"});
  GeoRun crs84(with([](Behaviour& b) { b.content_crs = "crs84"; }));
  expect(crs84.judge("GE-3"), Verdict::pass);
  expect(crs84.judge("GE-4"), Verdict::fail, {"not the requested 'http://www.opengis.net/def/crs/EPSG/0/4258'"});
  expect(crs84.judge("GE-5"), Verdict::fail, {"Content-Crs '<http://www.opengis.net/def/crs/OGC/1.3/CRS84>'"});
  expect(GeoRun(with([](Behaviour& b) { b.unregistered_400 = false; })).judge("GE-5"), Verdict::warn, {"999999", "not 400"});
  // No list: CRS84 alone, and the unregistered one.
  GeoRun none(with([](Behaviour& b) { b.crs.reset(); }));
  expect(none.judge("GE-5"), Verdict::pass, {"no CRS list: CRS84 alone asked"});
  expect(GeoRun(with([](Behaviour& b) { b.content_crs = "missing"; }, "administrative")).judge("GE-3"), Verdict::fail,
         {"GET /v1/punten: no Content-Crs"});
}

TEST_CASE("GE-6, GE-7: which CRSs are listed") {
  expect(GeoRun(with([](Behaviour& b) { b.crs = std::vector<std::string>{kCrs84, "http://www.opengis.net/def/crs/EPSG/0/3857"}; }))
             .judge("GE-6"), Verdict::warn, {"no ETRS89 or RD"});
  expect(GeoRun(with([](Behaviour& b) { b.crs = std::vector<std::string>{kCrs84, kEtrs89, kRd}; })).judge("GE-7"), Verdict::warn,
         {"without ETRF2000 (EPSG:9067)"});
  expect(GeoRun(with([](Behaviour& b) { b.crs = std::vector<std::string>{kCrs84, kRd}; })).judge("GE-7"), Verdict::pass,
         {"no ensemble CRS listed"});
  GeoRun none(with([](Behaviour& b) { b.crs.reset(); }));
  for (const char* id : {"GE-6", "GE-7", "GE-9"}) expect(none.judge(id), Verdict::skip, {"no CRS list: see /geo/crs-list"});
}
