// A module of the rules in a run: its detector (the "modules" stage), its
// checks planned like the edition's, the follow-up followup_rounds_seen, its rules judged
// after the edition's and the edition's rule for it; a fake registry and a
// fake module, against an API served in-process on 127.0.0.1.
#include <doctest/doctest.h>

#include "counting_api.hpp"
#include "engine/judge.hpp"
#include "engine/run.hpp"
#include "fake_run.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;

namespace {

// /collections lists two collections; each has items. The document
// documents /collections only when asked to (the detector's cue).
struct GeoApi : testing::CountingApi {
  explicit GeoApi(bool collections) : CountingApi(answer(collections)) {}
  static Handler answer(bool collections) {
    std::string paths = collections ? R"({"/collections":{"get":{"responses":{"200":{"description":"ok"}}}}})"
                                    : R"({"/gebouwen":{"get":{"responses":{"200":{"description":"ok"}}}}})";
    std::string doc = R"({"openapi":"3.0.3","info":{"title":"t","version":"1.0.0"},"servers":[{"url":"/v1"}],"paths":)" +
                      paths + "}";
    return [doc](const httplib::Request& req, httplib::Response& res) {
      if (req.path == "/v1/openapi.json") res.set_content(doc, "application/json");
      else if (req.path == "/v1/collections") res.set_content(R"({"collections":[{"id":"a"},{"id":"b"}]})", "application/json");
      else if (req.path.rfind("/v1/collections/", 0) == 0 || req.path == "/v1" || req.path == "/v1/gebouwen")
        res.set_content("{}", "application/json");
      else res.status = 404;
    };
  }
};

engine::Settings geo_settings(const std::string& base, const std::string& modules = "auto") {
  engine::Settings s = testing::quick_run(base);
  s.modules = modules;
  return s;
}

// The collection ids /collections listed, from the answer the run has so far.
std::vector<std::string> listed_ids(const engine::Evidence& ev) {
  std::vector<std::string> ids;
  const http::Exchange* e = ev.last(engine::probe_request("GET", ev.settings.base_url + "/collections"));
  if (!e || e->status != 200) return ids;
  auto j = oas::json::parse(e->body, nullptr, false);
  if (j.is_object() && j.contains("collections"))
    for (const auto& c : j["collections"]) ids.push_back(c.value("id", ""));
  return ids;
}

std::vector<int> followup_rounds_seen;  // the follow-up followup_rounds_seen GE-A was given, in order

// GE-A: /collections in phase 2, each collection in round 3, its items in
// round 4; later followup_rounds_seen plan the same requests again (nothing new).
void plan_collections(engine::Planner& p, const engine::PlanInput& in, const catalogue::CheckRef& ref) {
  if (in.phase == 2) p.add(engine::probe_request("GET", in.settings.base_url + "/collections"), ref.id);
}
void plan_more(engine::Planner& p, const engine::Evidence& ev, const catalogue::CheckRef& ref, int round) {
  followup_rounds_seen.push_back(round);
  for (const auto& id : listed_ids(ev)) {
    p.add(engine::probe_request("GET", ev.settings.base_url + "/collections/" + id), ref.id);
    if (round >= 4) p.add(engine::probe_request("GET", ev.settings.base_url + "/collections/" + id + "/items"), ref.id);
  }
}
CheckResult judge_collections(const engine::Evidence& ev, const catalogue::CheckRef& ref) {
  auto ids = listed_ids(ev);
  const http::Exchange* items = ev.last(engine::probe_request("GET", ev.settings.base_url + "/collections/b/items"));
  return {ref.id, ids.size() == 2 && items ? Verdict::pass : Verdict::fail, "collections", {}};
}
CheckResult judge_documented(const engine::Evidence&, const catalogue::CheckRef& ref) {
  return {ref.id, Verdict::warn, "not documented", {}};
}
CheckResult judge_static_fail(const engine::Evidence&, const catalogue::CheckRef& ref) {
  return {ref.id, Verdict::fail, "static finding", {}};
}
CheckResult judge_fake_pass(const engine::Evidence&, const catalogue::CheckRef& ref) { return {ref.id, Verdict::pass, "ok", {}}; }
std::vector<std::string> context_hints(const engine::Evidence&) { return {"a search of several types"}; }

const engine::Check ge_a{.id = "GE-A", .needs = engine::document | engine::requests, .title = "a", .sends = "s",
                         .passes = "p", .plan_run = plan_collections, .judge = judge_collections,
                         .plan_followup = plan_more, .judge_static = judge_documented};
const engine::Check ge_b{.id = "GE-B", .needs = engine::document, .title = "b", .sends = "s", .passes = "p",
                         .judge = judge_static_fail};
const engine::Check own_check{.id = "OWN-1", .needs = engine::document, .title = "o", .sends = "s", .passes = "p",
                        .judge = judge_fake_pass};

std::optional<engine::JudgedModule> detect_fake_geo(const engine::Evidence& ev) {
  const oas::Value* paths = ev.doc_paths();
  if (!paths || !oas::contains(*paths, "/collections")) return std::nullopt;
  return engine::JudgedModule{"", "judged: /collections in the document", "ogc"};
}

const engine::Registry& fake_registry() {
  static const engine::Registry r{{&own_check, &ge_a, &ge_b}, {{"context", context_hints, {}}}, nullptr, {{"geo", detect_fake_geo}}};
  return r;
}

catalogue::Rule fake_rule(std::string id, std::string kind, std::vector<std::string> checks, std::string level = "MUST") {
  catalogue::Rule r;
  r.id = std::move(id);
  r.kind = std::move(kind);
  r.level = std::move(level);
  for (auto& c : checks) r.checks.push_back({c, {}});
  if (r.kind == "functional") r.hints = {"context"};
  return r;
}

// An edition of two rules, /own (technical) and /core/geospatial (functional),
// carrying a module geo of three: GE-A's, GE-B's and a functional one.
catalogue::Edition fake_edition() {
  catalogue::Edition e;
  e.edition = "9";
  e.rules = {fake_rule("/own", "technical", {"OWN-1"}), fake_rule("/core/geospatial", "functional", {})};
  catalogue::Module m;
  m.id = "geo";
  m.title = "Geospatial";
  m.version = "1.0.2";
  m.required_by = m.rule = "/core/geospatial";
  m.absent = "no geospatial resource found";
  m.not_judged = "no geospatial content found";
  m.rules = {fake_rule("/geo/a", "technical", {"GE-A"}), fake_rule("/geo/b", "technical", {"GE-B"}, "SHOULD"),
             fake_rule("/geo/c", "functional", {})};
  e.modules = {m};
  return e;
}

const report::RuleResult& module_rule_of(const report::Report& rep, const std::string& id) {
  for (const auto& r : rep.rules)
    if (r.id == id) return r;
  FAIL("no rule " << id);
  return rep.rules.front();
}

}  // namespace

TEST_CASE("modules auto: the detector judges the module; its checks are planned, follow-up followup_rounds_seen until nothing is new") {
  GeoApi api(true);
  followup_rounds_seen.clear();
  auto edition = fake_edition();
  report::Report rep = engine::run_check(geo_settings(api.base()), edition, fake_registry());
  REQUIRE(rep.modules.size() == 1);
  CHECK(rep.modules[0].id == "geo");
  CHECK(rep.modules[0].version == "1.0.2");
  CHECK(rep.modules[0].reason == "judged: /collections in the document");
  CHECK(api.count("GET /v1/collections") == 1);    // phase 2
  CHECK(api.count("GET /v1/collections/a") == 1);  // round 3
  CHECK(api.count("GET /v1/collections/b/items") == 1);  // round 4
  CHECK(followup_rounds_seen == std::vector<int>{3, 4, 5});  // round 5 planned nothing new: the last
  // The module's rules after the edition's, each with its module.
  REQUIRE(rep.rules.size() == 5);
  CHECK(rep.rules[2].id == "/geo/a");
  CHECK(rep.rules[2].module == "geo");
  CHECK(rep.rules[0].module.empty());
  CHECK(module_rule_of(rep, "/geo/a").verdict == Verdict::pass);
  CHECK(module_rule_of(rep, "/geo/b").verdict == Verdict::fail);
  CHECK(module_rule_of(rep, "/geo/c").verdict == Verdict::manual);
  CHECK(module_rule_of(rep, "/geo/c").hints == std::vector<std::string>{"a search of several types"});
  // The edition's rule for the module: technical, the worst of the module's, naming what fails.
  const auto& geo = module_rule_of(rep, "/core/geospatial");
  CHECK(geo.kind == "technical");
  CHECK(geo.verdict == Verdict::fail);
  CHECK(geo.summary == "Geospatial module 1.0.2: fail: /geo/b");
  CHECK(geo.hints.empty());
  // Counted once: /own_check and /core/geospatial; not /geo/a, /geo/b one by one.
  CHECK(rep.score.applicable == 2);
  CHECK(rep.score.fail == 1);
  auto c = report::conclude(rep);
  CHECK(c.must_ids == std::vector<std::string>{"/core/geospatial"});
  CHECK(c.should_failed == 0);   // /geo/b is SHOULD, and not counted by itself
  CHECK(c.functional_pending == 0);  // /geo/c neither
}

TEST_CASE("modules none: nothing of the module is sent or listed; the edition's rule says why it was not judged") {
  GeoApi api(true);
  auto edition = fake_edition();
  report::Report rep = engine::run_check(geo_settings(api.base(), "none"), edition, fake_registry());
  CHECK(rep.modules.empty());
  CHECK(api.count("GET /v1/collections") == 0);
  CHECK(rep.rules.size() == 2);
  const auto& geo = module_rule_of(rep, "/core/geospatial");
  CHECK(geo.verdict == Verdict::manual);
  CHECK(geo.hints.back() == "the Geospatial module was not judged (--modules none)");
}

TEST_CASE("modules auto on an API without it: not judged, the hint says nothing was found") {
  GeoApi api(false);
  auto edition = fake_edition();
  report::Report rep = engine::run_check(geo_settings(api.base()), edition, fake_registry());
  CHECK(rep.modules.empty());
  CHECK(api.count("GET /v1/collections") == 0);
  const auto& geo = module_rule_of(rep, "/core/geospatial");
  CHECK(geo.kind == "functional");
  CHECK(geo.verdict == Verdict::manual);
  CHECK(geo.hints == std::vector<std::string>{"a search of several types", "no geospatial content found"});
}

TEST_CASE("modules geo forced on an API without it: every module rule skip, the functional one too; nothing sent") {
  GeoApi api(false);
  auto edition = fake_edition();
  report::Report rep = engine::run_check(geo_settings(api.base(), "geo"), edition, fake_registry());
  REQUIRE(rep.modules.size() == 1);
  CHECK(rep.modules[0].reason == "forced on with --modules geo: no geospatial content found");
  CHECK(api.count("GET /v1/collections") == 0);
  for (const char* id : {"/geo/a", "/geo/b", "/geo/c"}) {
    CAPTURE(id);
    CHECK(module_rule_of(rep, id).verdict == Verdict::skip);
    CHECK(module_rule_of(rep, id).summary == "no geospatial resource found");
  }
  CHECK(module_rule_of(rep, "/core/geospatial").verdict == Verdict::skip);
  CHECK(module_rule_of(rep, "/core/geospatial").summary == "Geospatial module 1.0.2: no geospatial resource found");
  CHECK(rep.score.applicable == 1);
}

TEST_CASE("lint: a module's static checks are judged, a live one by its judge_static; --rules selects by the edition's rule") {
  FakeRun run("");
  run.ev.settings.openapi = "/tmp/openapi.json";
  run.document(openapi_doc({{"/collections", {{"get", oas::json::object()}}}}), "file:///tmp/openapi.json");
  run.ev.modules = {{"geo", "judged: /collections in the document", "ogc"}};
  auto edition = fake_edition();
  auto rules = engine::judge(run.ev, edition, fake_registry(), engine::Mode::lint);
  REQUIRE(rules.size() == 5);
  CHECK(rules[2].checks.at(0).verdict == Verdict::warn);  // GE-A's judge_static
  CHECK(rules[2].checks.at(0).message == "not documented");
  CHECK(rules[3].checks.at(0).verdict == Verdict::fail);  // GE-B, static
  CHECK(rules[1].summary == "Geospatial module 1.0.2: fail: /geo/b; warn: /geo/a");
  // --rules /core/geospatial selects the module's rules with it; --rules /geo/b that rule alone.
  run.ev.settings.rules = {"/core/geospatial"};
  auto whole = engine::judge(run.ev, edition, fake_registry(), engine::Mode::lint);
  CHECK(whole[2].verdict == Verdict::warn);
  CHECK(whole[0].summary == "not selected");
  run.ev.settings.rules = {"/geo/b"};
  auto one = engine::judge(run.ev, edition, fake_registry(), engine::Mode::lint);
  CHECK(one[2].summary == "not selected");
  CHECK(one[3].verdict == Verdict::fail);
  CHECK(one[1].summary == "not selected");
}

TEST_CASE("follow-up rounds stop at --max-requests: none begins once the run has sent its share") {
  GeoApi api(true);
  auto edition = fake_edition();
  // Phase two's own run: how many requests the run sends before any follow-up.
  auto s = geo_settings(api.base(), "none");
  report::Report without = engine::run_check(s, edition, fake_registry());
  followup_rounds_seen.clear();
  s = geo_settings(api.base());
  // The module's /collections is one more request: then the run is at its cap.
  s.client.max_exchanges = without.exchanges.size() + 1;
  report::Report rep = engine::run_check(s, edition, fake_registry());
  CHECK(api.count("GET /v1/collections") == 1);
  CHECK(api.count("GET /v1/collections/a") == 0);
  CHECK(followup_rounds_seen.empty());
  CHECK(rep.exchanges.size() == s.client.max_exchanges);
}
