// checks/geo_bbox: GE-8..GE-10, bbox, bbox-crs and filter-crs, on the fake
// geospatial APIs of geo_fake.hpp.
#include "geo_fake.hpp"

TEST_CASE("GE-8: bbox ignored, latitudes beyond 90 served; administrative without a documented bbox") {
  GeoRun ignored(with([](Behaviour& b) { b.bbox_honoured = false; }));
  expect(ignored.judge("GE-8"), Verdict::fail, {"2 features wholly outside the box: 'a', 'c'"});
  expect(GeoRun(with([](Behaviour& b) { b.beyond_400 = false; })).judge("GE-8"), Verdict::warn, {"bbox=0,91,1,92 → 200"});
  GeoRun admin(with([](Behaviour&) {}, "administrative"));
  expect(admin.judge("GE-8"), Verdict::pass);
  GeoRun undocumented(with([](Behaviour& b) { b.bbox_documented = false; }, "administrative"));
  expect(undocumented.judge("GE-8"), Verdict::fail, {"no bbox parameter documented"});
  expect(undocumented.judge("GE-9"), Verdict::skip, {"no bbox parameter: see /geo/bbox-query-parameter"});
}

TEST_CASE("GE-9: EPSG:4258's axis order, one CRS only, an unregistered bbox-crs") {
  expect(GeoRun(with([](Behaviour& b) { b.axis_swapped = true; })).judge("GE-9"), Verdict::warn, {"axis order of bbox-crs not honoured?"});
  expect(GeoRun(with([](Behaviour& b) { b.crs = std::vector<std::string>{kCrs84}; })).judge("GE-9"), Verdict::skip, {"one CRS only"});
  expect(GeoRun(with([](Behaviour& b) { b.unregistered_400 = false; })).judge("GE-9"), Verdict::fail, {"not 400 for a bbox-crs"});
}

TEST_CASE("GE-10: judged when /conformance offers CQL2 spatial filtering") {
  GeoRun filter(with([](Behaviour& b) { b.filter = true; }));
  expect(filter.judge("GE-10"), Verdict::pass);
  auto has_geom = [&](const GeoRun& r) {
    for (const auto& s : r.sent)
      if (s.find("S_INTERSECTS%28geom%2CBBOX%284.75%2C51.75%2C6.25%2C53.25%29%29") != std::string::npos) return true;
    return false;
  };
  CHECK(has_geom(filter));  // the geometry property the queryables name
  expect(GeoRun(with([](Behaviour& b) { b.filter = true, b.unregistered_400 = false; })).judge("GE-10"), Verdict::fail,
         {"not 400 for a filter-crs"});
}
