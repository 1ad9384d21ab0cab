// checks/geo: the Geospatial module's detector, a server right in every way,
// lint's judgements, the geometric-context hints, the recorded answers of QGIS
// Server and MapServer replayed, and the collections left out; the checks
// family by family are test_checks_geo_{crs,bbox,geojson}.cpp's.
#include "geo_fake.hpp"

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
