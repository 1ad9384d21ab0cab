#include "checks/base_url.hpp"
#include "fake_run.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;

TEST_CASE("GET {base}: one spec, planned once in phase 1, found by every check that reads it") {
  FakeRun run;
  auto spec = checks::base_get(run.ev.settings);
  CHECK(spec.url == "https://api.example.nl/v1");
  CHECK(spec.user_headers);
  CHECK(spec.max_redirects == 0);
  CHECK(checks::base_get_id(run.ev) == 0);  // not sent
  int id = run.respond(spec, 200, {{"api-version", "1.0.0"}});
  CHECK(checks::base_get_id(run.ev) == id);
  // VH-1, TS-5 and TS-6 plan it; the planner sends it once.
  engine::Planner planner(run.ev.settings);
  catalogue::CheckRef ref{"VH-1", {}};
  checks::PlanInput one{run.ev.settings, run.ev.origin, 1, run.ev.targets};
  std::vector<engine::Target> none;
  checks::PlanInput two{run.ev.settings, run.ev.origin, 2, none};
  checks::plan_base_get(planner, one, ref);
  checks::plan_base_get(planner, two, ref);  // nothing in phase 2
  ref.id = "TS-5";
  checks::plan_base_get(planner, one, ref);
  auto batch = planner.take();
  REQUIRE(batch.size() == 1);
  CHECK(batch[0].second.purpose == "VH-1,TS-5");
}
