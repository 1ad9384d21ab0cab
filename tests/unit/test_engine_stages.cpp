// engine/stages: the stages run.cpp lists. What concerns the whole report
// first (leading_notes), the checks a run plans (planned_checks: the
// edition's, then a judged module's, in registry order) and the "modules"
// stage on hand-made evidence; whole runs are test_engine_modules.cpp's.
#include <doctest/doctest.h>

#include "checks/registry.hpp"
#include "engine/stages.hpp"
#include "fake_run.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;

TEST_CASE("leading notes: unreachable first, then a wrong base URL, then --max-requests' cut") {
  FakeRun run;
  CHECK(engine::leading_notes(run.ev, "", "").empty());
  run.respond(engine::probe_request("GET", run.ev.settings.base_url), 404);
  run.unpublished(404);
  auto notes = engine::leading_notes(run.ev, "", "--max-requests 10 cut the run");
  REQUIRE(notes.size() == 2);
  CHECK(notes[0].find("both answered 404: is the base URL right?") != std::string::npos);
  CHECK(notes[1] == "--max-requests 10 cut the run");
  // Unreachable says it all: no wrong-base-URL guess beside it.
  notes = engine::leading_notes(run.ev, "could not reach https://api.example.nl/v1: connection refused", "");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].rfind("could not reach", 0) == 0);
}

TEST_CASE("planned checks and the modules stage: a module's checks only once it is judged") {
  const auto* edition = catalogue::Catalogue::builtin().edition("2.2.0");
  REQUIRE(edition);
  FakeRun run("https://api.example.nl/v1", "2.2.0");
  auto has = [](const engine::PlannedChecks& checks, std::string_view id) {
    return std::any_of(checks.begin(), checks.end(), [&](const auto& c) { return c.first->id == id; });
  };
  run.ev.settings.modules = "auto";
  run.document(openapi_doc({{"/gebouwen", {{"get", {{"responses", {{"200", {{"description", "ok"}}}}}}}}}}));
  engine::judge_modules(run.ev, *edition, checks::registry());
  CHECK(run.ev.modules.empty());  // nothing geospatial in the document
  auto checks = engine::planned_checks(*edition, checks::registry(), run.ev);
  CHECK(has(checks, "NT-2"));
  CHECK_FALSE(has(checks, "GE-1"));

  run.ev.settings.modules = "geo";  // forced on an API without any: judged (every rule skip), nothing to send
  engine::judge_modules(run.ev, *edition, checks::registry());
  REQUIRE(run.ev.module("geo"));
  CHECK(run.ev.module("geo")->shape.empty());
  CHECK_FALSE(has(engine::planned_checks(*edition, checks::registry(), run.ev), "GE-1"));

  FakeRun ogc("https://api.example.nl/v1", "2.2.0");  // auto on an OGC API Features document: its checks planned
  oas::json get = {{"get", {{"responses", {{"200", {{"description", "ok"}}}}}}}};
  ogc.document(openapi_doc({{"/collections", get}, {"/collections/{collectionId}/items", get}}));
  engine::judge_modules(ogc.ev, *edition, checks::registry());
  REQUIRE(ogc.ev.module("geo"));
  CHECK(ogc.ev.module("geo")->shape == "ogc");
  checks = engine::planned_checks(*edition, checks::registry(), ogc.ev);
  CHECK(has(checks, "GE-1"));
  CHECK(has(checks, "NT-2"));
}
