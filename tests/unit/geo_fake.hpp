// A small OGC API Features server and an administrative API on hand-made
// evidence, answering every request the Geospatial module's checks plan,
// round after round, as the engine sends them (module-geo.md): the fake run
// of test_checks_geo*.cpp.
#pragma once
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
