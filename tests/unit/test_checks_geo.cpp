// The Geospatial module's checks GE-1..GE-15, its detector and the
// geometric-context hints, on hand-made evidence: a small OGC API Features
// server and an administrative API answer every request the checks plan,
// round after round, as the engine sends them (module-geo.md).
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>

#include "checks/geo.hpp"
#include "fake_run.hpp"
#include "geo/crs.hpp"
#include "util/strings.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;
using oas::json;

namespace {

const std::string kCrs84(geo::kCrs84);
const std::string kEtrs89 = "http://www.opengis.net/def/crs/EPSG/0/4258";
const std::string kEtrf2000 = "http://www.opengis.net/def/crs/EPSG/0/9067";
const std::string kRd = "http://www.opengis.net/def/crs/EPSG/0/28992";

// How the fake server behaves: right in every way by default.
struct Behaviour {
  std::string shape = "ogc";
  std::optional<std::vector<std::string>> crs{{kCrs84, kEtrs89, kEtrf2000, kRd}};
  std::string content_crs = "right";  // right | missing | crs84 (always CRS84)
  bool storage_crs = true;
  bool bbox_honoured = true;
  bool beyond_400 = true;
  bool unregistered_400 = true;
  bool axis_swapped = false;          // EPSG:4258's bbox read longitude first
  std::string invalid;                // the second feature's geometry instead of a valid one
  std::string media = "application/geo+json";
  bool filter = false;                // /conformance lists CQL2 spatial filtering
  bool bbox_documented = true;
  bool content_crs_documented = true;
};

// Three points: a south-west, b in the middle (inside the central quarter of the extent), c north-east.
struct Point {
  std::string id;
  double lon, lat;
};
const std::vector<Point> kPoints{{"a", 4.5, 51.5}, {"b", 5.5, 52.5}, {"c", 6.5, 53.5}};

std::map<std::string, std::string> query_of(const std::string& url) {
  std::map<std::string, std::string> out;
  auto q = url.find('?');
  if (q == std::string::npos) return out;
  for (const auto& kv : split(url.substr(q + 1), '&')) {
    auto eq = kv.find('=');
    out[kv.substr(0, eq)] = eq == std::string::npos ? "" : percent_decode(kv.substr(eq + 1));
  }
  return out;
}
std::string path_of(const std::string& url) {
  std::string p = url.substr(kBase.size());
  return p.substr(0, p.find('?'));
}

struct Answer {
  int status = 404;
  std::map<std::string, std::string> headers;
  std::string body;
};

class Server {
 public:
  explicit Server(Behaviour b) : b_(std::move(b)) {}

  Answer operator()(const std::string& url) const {
    std::string path = path_of(url);
    auto q = query_of(url);
    bool ogc = b_.shape == "ogc";
    if (ogc && path == "/collections") {
      json body{{"collections", json::array({collection()})}};
      if (b_.crs) body["crs"] = *b_.crs;
      return {200, {{"content-type", "application/json"}}, body.dump()};
    }
    if (ogc && path == "/collections/punten") return {200, {{"content-type", "application/json"}}, collection().dump()};
    if (ogc && path == "/conformance") {
      json c = json::array({"http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core"});
      if (b_.filter) {
        c.push_back("http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/filter");
        c.push_back("http://www.opengis.net/spec/cql2/1.0/conf/basic-spatial-functions");
      }
      return {200, {{"content-type", "application/json"}}, json{{"conformsTo", c}}.dump()};
    }
    if (ogc && path == "/collections/punten/queryables")
      return {200, {{"content-type", "application/schema+json"}},
              R"({"properties":{"geom":{"format":"geometry-point"},"naam":{"type":"string"}}})"};
    if (!ogc && path == "/crss") {
      if (!b_.crs) return {404, {}, ""};
      return {200, {{"content-type", "application/json"}}, json{{"crs", *b_.crs}}.dump()};
    }
    if ((ogc && path == "/collections/punten/items") || (!ogc && path == "/punten")) return items(q);
    if (ogc && path.rfind("/collections/punten/items/", 0) == 0) {
      std::string id = path.substr(26);
      for (std::size_t i = 0; i < kPoints.size(); ++i)
        if (kPoints[i].id == id) return {200, headers(q, ""), feature(i).dump()};
    }
    if (!ogc && path.rfind("/punten/", 0) == 0) return {200, headers(q, ""), member(0).dump()};
    return {404, {}, ""};
  }

 private:
  json collection() const {
    json c{{"id", "punten"}, {"extent", {{"spatial", {{"bbox", json::array({json::array({4, 51, 7, 54})})}}}}}};
    if (b_.crs) c["crs"] = json::array({"#/crs"});
    if (b_.storage_crs) c["storageCrs"] = kCrs84;
    return c;
  }
  json geometry(std::size_t i) const {
    if (i == 1 && !b_.invalid.empty()) return json::parse(b_.invalid);
    return {{"type", "Point"}, {"coordinates", {kPoints[i].lon, kPoints[i].lat}}};
  }
  json feature(std::size_t i) const {
    return {{"type", "Feature"}, {"id", kPoints[i].id}, {"geometry", geometry(i)}, {"properties", {{"naam", kPoints[i].id}}}};
  }
  json member(std::size_t i) const { return {{"identificatie", kPoints[i].id}, {"geometrie", geometry(i)}}; }
  std::map<std::string, std::string> headers(const std::map<std::string, std::string>& q, const std::string&) const {
    std::map<std::string, std::string> h{{"content-type", b_.shape == "ogc" ? b_.media : "application/json"}};
    auto crs = q.find("crs");
    if (b_.content_crs == "right") h["content-crs"] = "<" + (crs == q.end() ? kCrs84 : crs->second) + ">";
    else if (b_.content_crs == "crs84") h["content-crs"] = "<" + kCrs84 + ">";
    return h;
  }
  Answer items(const std::map<std::string, std::string>& q) const {
    for (const char* k : {"crs", "bbox-crs", "filter-crs"})
      if (auto it = q.find(k); it != q.end() && geo::epsg_code(it->second) == 999999 && b_.unregistered_400) return {400, {}, ""};
    std::vector<std::size_t> chosen;
    double box[4] = {-180, -90, 180, 90};
    if (auto it = q.find("bbox"); it != q.end() && b_.bbox_honoured) {
      auto parts = split(it->second, ',');
      for (std::size_t i = 0; i < 4 && i < parts.size(); ++i) box[i] = std::stod(parts[i]);
      auto bc = q.find("bbox-crs");
      if (bc != q.end() && geo::epsg_code(bc->second) == 4258 && !b_.axis_swapped) std::swap(box[0], box[1]), std::swap(box[2], box[3]);
      if ((box[1] > 90 || box[3] > 90) && b_.beyond_400) return {400, {}, ""};
    }
    for (std::size_t i = 0; i < kPoints.size(); ++i)
      if (kPoints[i].lon >= box[0] && kPoints[i].lon <= box[2] && kPoints[i].lat >= box[1] && kPoints[i].lat <= box[3])
        chosen.push_back(i);
    json list = json::array();
    for (auto i : chosen) list.push_back(b_.shape == "ogc" ? feature(i) : member(i));
    json body = b_.shape == "ogc" ? json{{"type", "FeatureCollection"}, {"features", list}}
                                  : json{{"_embedded", {{"punten", list}}}};
    return {200, headers(q, ""), body.dump()};
  }
  Behaviour b_;
};

json ogc_document(const Behaviour& b) {
  json doc = openapi_doc(json::parse(R"({"/collections": {"get": {"responses": {"200": {"description": "ok"}}}},
      "/collections/{collectionId}/items": {
        "parameters": [{"name": "collectionId", "in": "path", "required": true, "schema": {"type": "string"}, "example": "punten"}],
        "get": {"parameters": [], "responses": {"200": {"description": "ok",
          "content": {"application/geo+json": {"schema": {"type": "object"}}}}}}}})"));
  json& get = doc["paths"]["/collections/{collectionId}/items"]["get"];
  if (b.bbox_documented) get["parameters"].push_back(json::parse(R"({"name": "bbox", "in": "query", "schema": {"type": "string"}})"));
  if (b.content_crs_documented) get["responses"]["200"]["headers"] = json::parse(R"({"Content-Crs": {"schema": {"type": "string"}}})");
  if (b.filter) doc["paths"]["/conformance"] = json::parse(R"({"get": {"responses": {"200": {"description": "ok"}}}})");
  return doc;
}

json admin_document(const Behaviour& b) {
  json doc = openapi_doc(json::parse(R"({"/punten": {"get": {"parameters": [], "responses": {"200": {"description": "ok",
      "content": {"application/json": {"schema": {"type": "object", "properties": {"_embedded": {"type": "object",
        "properties": {"punten": {"type": "array", "items": {"$ref": "#/components/schemas/Punt"}}}}}}}}}}}}})"));
  json& get = doc["paths"]["/punten"]["get"];
  if (b.bbox_documented) get["parameters"].push_back(json::parse(R"({"name": "bbox", "in": "query", "schema": {"type": "string"}})"));
  if (b.content_crs_documented) get["responses"]["200"]["headers"] = json::parse(R"({"Content-Crs": {"schema": {"type": "string"}}})");
  doc["components"] = json::parse(R"({"schemas": {
      "Punt": {"type": "object", "properties": {"identificatie": {"type": "string"},
                                                "geometrie": {"$ref": "#/components/schemas/GeoJSONGeometry"}}},
      "GeoJSONGeometry": {"type": "object", "properties": {"type": {"type": "string", "enum": ["Point", "Polygon"]},
                                                           "coordinates": {"type": "array"}}}}})");
  return doc;
}

const std::vector<std::string> kGe{"GE-1", "GE-2", "GE-3", "GE-4", "GE-5", "GE-6", "GE-7", "GE-8",
                                   "GE-9", "GE-10", "GE-11", "GE-12", "GE-13", "GE-14", "GE-15"};

// A run of the module's checks against a fake server: phase 2, then
// follow-up rounds until one plans nothing new, as the engine sends them.
struct GeoRun : FakeRun {
  std::vector<std::string> sent;  // "GET <url>" in order

  // A run whose document and answers the caller gives (Replay).
  explicit GeoRun(const std::string& base) : FakeRun(base) {}
  explicit GeoRun(const Behaviour& b, bool live = true) : FakeRun(live ? kBase : "") {
    document(b.shape == "ogc" ? ogc_document(b) : admin_document(b));
    if (live) probe_paths();
    auto m = checks::detect_geo(ev);
    REQUIRE(m);
    CHECK(m->shape == b.shape);
    ev.modules.push_back(*m);
    if (live) serve(Server(b));
  }
  void serve(const std::function<Answer(const std::string&)>& answer) {
    engine::Planner planner(ev.settings);
    std::vector<engine::Target> documented(ev.targets.begin() + (ev.base() ? 1 : 0), ev.targets.end());
    checks::PlanInput two{ev.settings, ev.origin, 2, documented};
    for (const auto& id : kGe) {
      const checks::Check* c = checks::find_check(id);
      if (c->plan_run) c->plan_run(planner, two, {id, {}});
    }
    answer_all(planner, answer);
    for (int round = 3; round <= 8; ++round) {
      for (const auto& id : kGe) {
        const checks::Check* c = checks::find_check(id);
        if (c->plan_followup) c->plan_followup(planner, ev, {id, {}}, round);
      }
      if (!answer_all(planner, answer)) break;
    }
  }
  bool answer_all(engine::Planner& planner, const std::function<Answer(const std::string&)>& answer) {
    auto batch = planner.take();
    for (auto& [key, request] : batch) {
      Answer a = answer(request.url);
      int id = exchange(request.method, request.url, a.status, a.headers, a.body);
      ev.results[key].chain.push_back(id);
      sent.push_back(request.method + " " + request.url);
    }
    return !batch.empty();
  }
  CheckResult static_judge(const std::string& id) const {
    const checks::Check* c = checks::find_check(id);
    REQUIRE(bool(c->judge_static));
    return c->judge_static(ev, {id, {}});
  }
};

Behaviour with(std::function<void(Behaviour&)> change, std::string shape = "ogc") {
  Behaviour b;
  b.shape = shape;
  change(b);
  return b;
}

}  // namespace

TEST_CASE("detection: OGC, OGC under a repeated prefix, administrative, none") {
  FakeRun run;
  run.document(ogc_document({}));
  auto m = checks::detect_geo(run.ev);
  REQUIRE(m);
  CHECK(m->shape == "ogc");
  CHECK(m->reason == "judged: /collections and /collections/{collectionId}/items in the document and application/geo+json");
  run.document(openapi_doc(json::parse(R"({"/wfs3/collections": {}, "/wfs3/collections/gebouwen/items": {}})")));
  CHECK(checks::detect_geo(run.ev)->reason == "judged: /wfs3/collections and /wfs3/collections/gebouwen/items in the document");
  run.document(admin_document({}));
  m = checks::detect_geo(run.ev);
  REQUIRE(m);
  CHECK(m->shape == "administrative");
  CHECK(m->reason == "judged: GeoJSON geometry in the response of GET /punten");
  run.document(openapi_doc(json::parse(R"({"/zoek": {"get": {"parameters": [{"name": "bbox", "in": "query"}], "responses": {}}}})")));
  CHECK(checks::detect_geo(run.ev)->reason == "judged: bbox query parameter of GET /zoek");
  run.document(openapi_doc(json::parse(R"({"/collections": {}, "/gebouwen": {"get": {"responses": {}}}})")));
  CHECK_FALSE(checks::detect_geo(run.ev));
}

TEST_CASE("OGC: a server right in every way passes every check that applies") {
  GeoRun run(Behaviour{});
  for (const auto& id : kGe) {
    auto r = run.judge(id);
    std::set<std::string> skipped{"GE-10", "GE-12", "GE-14"};
    expect(r, skipped.count(id) ? Verdict::skip : Verdict::pass);
  }
  expect(run.judge("GE-12"), Verdict::skip, {"administrative APIs only"});
  expect(run.judge("GE-10"), Verdict::skip, {"no spatial filter offered"});
  expect(run.judge("GE-1"), Verdict::pass, {"/collections lists 4 CRSs", "not dereferenced"});
  // What was sent: /collections in phase 2, the collection and its items, a feature, the CRS and bbox requests.
  CHECK(run.sent.front() == "GET " + kBase + "/collections");
  auto has = [&](const std::string& s) { return std::find(run.sent.begin(), run.sent.end(), "GET " + kBase + s) != run.sent.end(); };
  CHECK(has("/collections/punten/items?limit=10"));
  CHECK(has("/collections/punten/items/a"));
  CHECK(has("/collections/punten/items?limit=10&crs=http%3A%2F%2Fwww.opengis.net%2Fdef%2Fcrs%2FEPSG%2F0%2F999999"));
  CHECK(has("/collections/punten/items?limit=10&bbox=4.75,51.75,6.25,53.25"));
  CHECK(has("/collections/punten/items?limit=10&bbox=0,91,1,92"));
  CHECK(has("/collections/punten/items?limit=10&bbox=51.75,4.75,53.25,6.25&bbox-crs=http%3A%2F%2Fwww.opengis.net%2Fdef%2Fcrs%2FEPSG%2F0%2F4258"));
}

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

TEST_CASE("lint: GE-4's documented Content-Crs, GE-8's documented bbox") {
  GeoRun good(Behaviour{}, false);
  expect(good.static_judge("GE-4"), Verdict::pass);
  expect(good.static_judge("GE-8"), Verdict::pass);
  GeoRun bare(with([](Behaviour& b) { b.bbox_documented = b.content_crs_documented = false; }), false);
  expect(bare.static_judge("GE-4"), Verdict::warn, {"Content-Crs not documented as a response header"});
  expect(bare.static_judge("GE-8"), Verdict::fail, {"GET /collections/{collectionId}/items: no bbox parameter documented"});
  GeoRun admin(with([](Behaviour& b) { b.bbox_documented = false; }, "administrative"), false);
  expect(admin.static_judge("GE-8"), Verdict::fail, {"GET /punten: no bbox parameter documented"});
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

TEST_CASE("geometric-context: a search returning members of several types") {
  FakeRun run("");
  json doc = admin_document({});
  doc["paths"]["/_zoek"] = json::parse(R"({"post": {"responses": {"200": {"description": "ok", "content": {"application/json":
      {"schema": {"type": "array", "items": {"oneOf": [{"$ref": "#/components/schemas/Punt"}, {"type": "object"}]}}}}}}}})");
  run.document(doc);
  auto hints = checks::geometric_context_hints(run.ev);
  REQUIRE(hints.size() == 1);
  CHECK(hints[0] == "POST /_zoek returns members of 2 types: say in each result which geometry it is (its geometric context)");
}

// ---------------------------------------------------------------------------
// What the real servers sent (tests/data/geo/<server>/, tests/data/geo/README.md):
// each planned request is answered by the recording of the same path whose
// query names the same parameters (limit aside), with the same CRSs and
// boxes; a request nobody recorded gets 404.

namespace {

struct Recording {
  std::string path, accept;
  std::map<std::string, std::string> query;
  Answer answer;
};

std::vector<Recording> recordings(const std::string& server, std::string& document) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(ADRPROBE_TEST_DATA) / "geo" / server;
  REQUIRE_MESSAGE(fs::is_directory(dir), "recordings missing: " << dir.string());
  std::vector<Recording> out;
  for (const auto& f : fs::directory_iterator(dir)) {
    if (f.path().extension() != ".json" || f.path().filename() == "index.json") continue;
    std::ifstream in(f.path());
    json r = json::parse(in);
    Recording rec;
    std::string full = r["request"]["path"].get<std::string>();
    rec.path = full.substr(0, full.find('?'));
    rec.accept = r["request"].value("accept", "");
    rec.query = query_of(full);
    rec.answer.status = r["status"].get<int>();
    for (auto it = r["headers"].begin(); it != r["headers"].end(); ++it) rec.answer.headers[to_lower(it.key())] = it->get<std::string>();
    rec.answer.body = r["body"].is_string() ? r["body"].get<std::string>() : r["body"].dump();
    if (f.path().filename() == "openapi.json") document = rec.answer.body;
    out.push_back(std::move(rec));
  }
  return out;
}

bool same_value(const std::string& name, const std::string& a, const std::string& b) {
  if (name == "crs" || name == "bbox-crs" || name == "filter-crs") return geo::same_crs(a, b);
  if (name == "bbox") {
    auto x = split(a, ','), y = split(b, ',');
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (std::abs(std::stod(x[i]) - std::stod(y[i])) > 1e-8) return false;
    return true;
  }
  return a == b;
}

// A run against a server's recordings; origin: how the recordings write it.
struct Replay : GeoRun {
  Replay(const std::string& server, const std::string& base_path) : GeoRun("http://127.0.0.1:8080" + base_path) {
    std::string text;
    auto recorded = recordings(server, text);
    REQUIRE(!text.empty());
    document(json::parse(text));
    probe_paths();
    auto m = checks::detect_geo(ev);
    REQUIRE(m);
    ev.modules.push_back(*m);
    const std::string origin = "http://127.0.0.1:8080";
    serve([&](const std::string& url) {
      std::string full = url.substr(origin.size());
      std::string path = full.substr(0, full.find('?'));
      auto q = query_of(full);
      q.erase("limit");
      for (const auto& r : recorded) {
        auto rq = r.query;
        rq.erase("limit");
        if (r.path != path || rq.size() != q.size()) continue;
        bool same = true;
        for (const auto& [k, v] : q) same = same && rq.count(k) && same_value(k, v, rq.at(k));
        // Items asked for as JSON and as GeoJSON: the checks ask for GeoJSON.
        if (same && (r.accept == "application/geo+json" || r.path.find("/items") == std::string::npos)) return r.answer;
      }
      return Answer{};
    });
  }
};

}  // namespace

TEST_CASE("QGIS Server 3.22, as recorded: a CRS list and crs= served, no Content-Crs, no storageCrs") {
  Replay qgis("qgis-server", "/wfs3");
  CHECK(qgis.ev.module("geo")->shape == "ogc");
  expect(qgis.judge("GE-1"), Verdict::pass, {"/collections lists 3 CRSs"});
  expect(qgis.judge("GE-2"), Verdict::fail, {"collection 'gebouwen' has no storageCrs"});
  expect(qgis.judge("GE-3"), Verdict::fail, {"GET /wfs3/collections/gebouwen/items?limit=10: no Content-Crs"});
  expect(qgis.judge("GE-4"), Verdict::fail, {"no Content-Crs"});
  expect(qgis.judge("GE-5"), Verdict::fail, {"no Content-Crs"});
  expect(qgis.judge("GE-6"), Verdict::pass);
  expect(qgis.judge("GE-7"), Verdict::warn, {"ETRS89 (EPSG:4258) without ETRF2000 (EPSG:9067)"});
  expect(qgis.judge("GE-8"), Verdict::warn, {"bbox=0,91,1,92 → 200"});
  expect(qgis.judge("GE-10"), Verdict::skip, {"no spatial filter offered"});
  expect(qgis.judge("GE-11"), Verdict::pass, {"items of 2 collections and 2 features"});
  expect(qgis.judge("GE-12"), Verdict::skip, {"administrative APIs only"});
}

TEST_CASE("MapServer 8.0, as recorded: no CRS list, application/json items, bbox honoured") {
  Replay mapserver("mapserver", "/cgi-bin/mapserv/geo/ogcapi");
  CHECK(mapserver.ev.module("geo")->shape == "ogc");
  expect(mapserver.judge("GE-1"), Verdict::fail, {"no crs array"});
  for (const char* id : {"GE-6", "GE-7", "GE-9"}) expect(mapserver.judge(id), Verdict::skip, {"no CRS list"});
  expect(mapserver.judge("GE-2"), Verdict::fail, {"has no storageCrs"});
  expect(mapserver.judge("GE-3"), Verdict::fail, {"no Content-Crs"});
  expect(mapserver.judge("GE-11"), Verdict::fail, {"Content-Type 'application/json", "not application/geo+json"});
}

TEST_CASE("at most 10 collections are probed; the others are named") {
  Behaviour b;
  GeoRun run(b, false);
  run.ev.settings.base_url = kBase;
  run.serve([&](const std::string& url) {
    if (path_of(url) != "/collections") return Server(b)(url);
    json list = json::array();
    for (int i = 1; i <= 50; ++i) list.push_back({{"id", "laag-" + std::to_string(i)}});
    return Answer{200, {{"content-type", "application/json"}}, json{{"collections", list}, {"crs", {kCrs84}}}.dump()};
  });
  std::set<std::string> probed;
  for (const auto& s : run.sent)
    if (auto at = s.find("/collections/"); at != std::string::npos) probed.insert(s.substr(at + 13, s.find_first_of("/?", at + 13) - at - 13));
  CHECK(probed.size() == 10);
  auto r = run.judge("GE-11");
  expect(r, Verdict::fail, {"40 more not probed (the first 10 are): laag-11, laag-12, laag-13, …, laag-50"});
  REQUIRE(r.details.size() == 1);
  CHECK(r.details[0].find("laag-49, laag-50") != std::string::npos);
}
