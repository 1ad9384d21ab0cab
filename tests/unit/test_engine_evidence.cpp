// Evidence: results by request key, and the wording checks share.
#include "fake_run.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;

TEST_CASE("evidence: a result is found by the key it was declared with, nothing else") {
  FakeRun run;
  auto get = engine::probe_request("GET", "https://api.example.nl/v1/a");
  run.respond(get, 200);
  CHECK(run.ev.result(get) != nullptr);
  CHECK(run.ev.last(get)->status == 200);
  auto with_origin = get;
  with_origin.extra_headers = {{"Origin", "https://o.example"}};
  CHECK(run.ev.result(with_origin) == nullptr);  // another request
  CHECK(run.ev.result(engine::probe_request("HEAD", "https://api.example.nl/v1/a")) == nullptr);
}

TEST_CASE("evidence: describe, transport errors and the missing-document prerequisite") {
  FakeRun run;
  int ok = run.respond(engine::probe_request("GET", "https://api.example.nl/v1/a/"), 404);
  int down = run.fail(engine::probe_request("GET", "https://api.example.nl/v1/b"), "Connection refused");
  CHECK(run.ev.describe(ok) == "GET /v1/a/ → 404");
  CHECK(run.ev.describe(down) == "GET /v1/b: Connection refused");
  CHECK_FALSE(run.ev.transport_error("X-1", ok));
  auto err = run.ev.transport_error("X-1", down);
  REQUIRE(err);
  CHECK(err->verdict == Verdict::error);
  CHECK(err->exchanges == std::vector<int>{down});
  run.ev.document.missing_reason = "GET /v1/openapi.json → 404";
  CHECK(run.ev.prerequisite("DO-1").verdict == Verdict::fail);
  run.ev.document.missing_is_error = true;
  CHECK(run.ev.prerequisite("DO-1").verdict == Verdict::error);
  CHECK(run.ev.prerequisite("DO-1").message == "prerequisite not met: GET /v1/openapi.json → 404");
}

TEST_CASE("evidence: the published document is what PO-3 compares with") {
  FakeRun run;
  run.publish(openapi_doc());
  REQUIRE(run.ev.published());
  CHECK((*run.ev.published())["openapi"] == "3.0.3");
  run.ev.document.published_other = oas::json{{"openapi", "3.1.0"}};  // --openapi gave another document
  CHECK((*run.ev.published())["openapi"] == "3.1.0");
  CHECK(engine::info_version(openapi_doc()) != nullptr);
  CHECK(engine::info_version(oas::json{{"info", {{"version", 1}}}}) == nullptr);
}
