// VH-1..VH-4 (/core/version-header) on hand-made evidence.
#include "checks/findings.hpp"
#include "fake_run.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;

namespace {


RequestSpec header_base_get() { return engine::probe_request("GET", kBase); }

oas::json header_versioned(const std::string& version) {
  oas::json doc = openapi_doc();
  doc["info"]["version"] = version;
  return doc;
}

}  // namespace

// ---- VH-1 -------------------------------------------------------------------

TEST_CASE("VH-1, VH-2, VH-3: plan one GET {base}, redirects not followed") {
  FakeRun run;
  for (const char* id : {"VH-1", "VH-2", "VH-3"}) {
    CAPTURE(id);
    auto planned = run.plan(id);
    REQUIRE(planned.size() == 1);
    CHECK(planned[0].method == "GET");
    CHECK(planned[0].url == kBase);
    CHECK(planned[0].max_redirects == 0);
  }
  CHECK(run.plan("VH-4").empty());  // VH-4 reads what the run received anyway
}

TEST_CASE("VH-1: a 2xx with an API-Version header passes") {
  FakeRun run;
  int id = run.respond(header_base_get(), 200, {{"api-version", "1.0.0"}});
  auto r = run.judge("VH-1");
  expect(r, Verdict::pass, {"GET /v1 → 200, API-Version: 1.0.0"});
  CHECK(r.exchanges == std::vector<int>{id});
}

TEST_CASE("VH-1: a 3xx fails, naming the Location") {
  FakeRun run;
  int id = run.respond(header_base_get(), 301, {{"location", "https://api.example.nl/v1/"}, {"api-version", "1.0.0"}});
  auto r = run.judge("VH-1");
  expect(r, Verdict::fail, {"base URL redirects to https://api.example.nl/v1/ (301)"});
  CHECK(r.exchanges == std::vector<int>{id});

  FakeRun bare;
  bare.respond(header_base_get(), 307);
  expect(bare.judge("VH-1"), Verdict::fail, {"redirects to (no Location) (307)"});
}

TEST_CASE("VH-1: a 2xx without the header, or any other status, fails") {
  FakeRun missing;
  int id = missing.respond(header_base_get(), 200, {{"content-type", "application/json"}});
  auto r = missing.judge("VH-1");
  expect(r, Verdict::fail, {"GET /v1 → 200 without an API-Version header"});
  CHECK(r.exchanges == std::vector<int>{id});

  for (int status : {404, 401, 500}) {
    CAPTURE(status);
    FakeRun run;
    run.respond(header_base_get(), status, {{"api-version", "1.0.0"}});
    expect(run.judge("VH-1"), Verdict::fail, {"GET /v1 → " + std::to_string(status), "must succeed"});
  }
}

TEST_CASE("VH-1: a transport error is error; a request that was not sent is error") {
  FakeRun down;
  int id = down.fail(header_base_get(), "Connection refused");
  auto r = down.judge("VH-1");
  expect(r, Verdict::error, {"GET /v1: Connection refused"});
  CHECK(r.exchanges == std::vector<int>{id});

  FakeRun unsent;
  expect(unsent.judge("VH-1"), Verdict::error, {"was not sent"});
}

// ---- VH-2 -------------------------------------------------------------------

TEST_CASE("VH-2: an unprefixed MAJOR.MINOR.PATCH passes; v1.2.3 and 1.2 fail") {
  FakeRun run;
  int id = run.respond(header_base_get(), 200, {{"api-version", "1.2.3"}});
  auto r = run.judge("VH-2");
  expect(r, Verdict::pass, {"API-Version \"1.2.3\""});
  CHECK(r.exchanges == std::vector<int>{id});

  for (const char* value : {"v1.2.3", "1.2", "1", "01.2.3", "latest"}) {
    CAPTURE(value);
    FakeRun bad;
    bad.respond(header_base_get(), 200, {{"api-version", value}});
    expect(bad.judge("VH-2"), Verdict::fail, {std::string("API-Version \"") + value + "\" is not an unprefixed"});
  }
}

TEST_CASE("VH-2: a pre-release fails in edition 1.0 and passes from 2.0.0 on") {
  FakeRun old(kBase, "1.0");
  old.respond(header_base_get(), 200, {{"api-version", "1.2.3-rc.1"}});
  expect(old.judge("VH-2"), Verdict::fail, {"edition 1.0: no pre-release"});
  for (const char* edition : {"2.0.0", "2.1.0"}) {
    CAPTURE(edition);
    FakeRun run(kBase, edition);
    run.respond(header_base_get(), 200, {{"api-version", "1.2.3-rc.1"}});
    expect(run.judge("VH-2"), Verdict::pass);
  }
}

TEST_CASE("VH-2: no header is skip (VH-1 fails it); a transport error is error") {
  FakeRun none;
  none.respond(header_base_get(), 200);
  expect(none.judge("VH-2"), Verdict::skip, {"see VH-1"});

  FakeRun down;
  down.fail(header_base_get(), "Connection reset by peer");
  expect(down.judge("VH-2"), Verdict::error, {"Connection reset by peer"});
}

// ---- VH-3 -------------------------------------------------------------------

TEST_CASE("VH-3: the header equal to info.version passes; different warns") {
  FakeRun run;
  run.document(header_versioned("1.0.0"));
  int id = run.respond(header_base_get(), 200, {{"api-version", "1.0.0"}});
  auto r = run.judge("VH-3");
  expect(r, Verdict::pass, {"API-Version \"1.0.0\" equals info.version"});
  CHECK(r.exchanges == std::vector<int>{id});

  FakeRun differ;
  differ.document(header_versioned("1.0.0"));
  differ.respond(header_base_get(), 200, {{"api-version", "1.0.1"}});
  expect(differ.judge("VH-3"), Verdict::warn, {"API-Version \"1.0.1\" differs from info.version \"1.0.0\""});
}

TEST_CASE("VH-3: no header, or no document, is skip; a document without info.version warns") {
  FakeRun no_header;
  no_header.document(header_versioned("1.0.0"));
  no_header.respond(header_base_get(), 200);
  expect(no_header.judge("VH-3"), Verdict::skip, {"no API-Version header"});

  FakeRun no_document;  // PO-1 failed: version-header is judged on VH-1/2/4 alone
  no_document.unpublished(404);
  no_document.respond(header_base_get(), 200, {{"api-version", "1.0.0"}});
  expect(no_document.judge("VH-3"), Verdict::skip, {"no description document"});

  FakeRun no_version;
  oas::json doc = openapi_doc();
  doc["info"].erase("version");
  no_version.document(doc);
  no_version.respond(header_base_get(), 200, {{"api-version", "1.0.0"}});
  expect(no_version.judge("VH-3"), Verdict::warn, {"no info.version"});
}

// ---- VH-4 -------------------------------------------------------------------

TEST_CASE("VH-4: every other response with the header passes") {
  FakeRun run;
  run.respond(header_base_get(), 200, {{"api-version", "1.0.0"}});
  run.exchange("GET", kBase + "/gebouwen", 200, {{"api-version", "1.0.0"}});
  run.exchange("GET", kBase + "/", 404, {{"api-version", "1.0.0"}});
  expect(run.judge("VH-4"), Verdict::pass, {"all 2 other responses carry API-Version"});
}

TEST_CASE("VH-4: responses lacking the header warn, listed; intermediary statuses are counted apart") {
  FakeRun run;
  run.respond(header_base_get(), 200, {{"api-version", "1.0.0"}});
  run.exchange("GET", kBase + "/gebouwen", 200, {{"api-version", "1.0.0"}});
  int head = run.exchange("HEAD", kBase + "/gebouwen", 200);
  int slash = run.exchange("GET", kBase + "/gebouwen/", 404);  // trailing-slash probes count too
  for (int status : {401, 403, 429, 502, 503, 504}) run.exchange("GET", kBase + "/beveiligd", status);
  run.fail(engine::probe_request("GET", kBase + "/traag"), "Operation timed out");  // no response: not counted
  auto r = run.judge("VH-4");
  expect(r, Verdict::warn,
         {"2 of 3 other responses lack API-Version", "HEAD /v1/gebouwen → 200", "GET /v1/gebouwen/ → 404",
          "6 responses without it not counted: 401/403/429/502/503/504 may come from an intermediary"});
  CHECK(r.exchanges == std::vector<int>{head, slash});
}

TEST_CASE("VH-4: the base GET itself is left to VH-1") {
  FakeRun run;
  run.respond(header_base_get(), 200);  // lacks the header: VH-1's finding, not VH-4's
  int other = run.exchange("GET", kBase + "/gebouwen", 200);
  auto r = run.judge("VH-4");
  expect(r, Verdict::warn, {"1 of 1 other responses lack API-Version", "GET /v1/gebouwen → 200"});
  CHECK(r.message.find("GET /v1 → ") == std::string::npos);
  CHECK(r.exchanges == std::vector<int>{other});
}

TEST_CASE("VH-4: responses from outside the API (external $ref hosts) are not counted") {
  FakeRun run;
  run.respond(header_base_get(), 200, {{"api-version", "1.0.0"}});
  run.exchange("GET", kBase + "/gebouwen", 200, {{"api-version", "1.0.0"}});
  int external = run.exchange("GET", "https://schemas.example.org/common.yaml", 200);
  run.ev.exchanges[static_cast<std::size_t>(external - 1)].to_api = false;
  auto r = run.judge("VH-4");
  expect(r, Verdict::pass, {"all 1 other responses"});
  CHECK(r.exchanges.empty());
}

TEST_CASE("VH-4: the published openapi.json counts as a response from the API") {
  FakeRun run;
  run.publish(openapi_doc());  // served without API-Version
  run.respond(header_base_get(), 200, {{"api-version", "1.0.0"}});
  auto r = run.judge("VH-4");
  expect(r, Verdict::warn, {"GET /v1/openapi.json → 200"});
  CHECK(r.exchanges == std::vector<int>{1});
}

TEST_CASE("VH-4: nothing counted is skip, never a pass on zero") {
  FakeRun none;
  none.respond(header_base_get(), 200, {{"api-version", "1.0.0"}});
  expect(none.judge("VH-4"), Verdict::skip, {"no responses to judge"});

  FakeRun apart;
  apart.respond(header_base_get(), 200, {{"api-version", "1.0.0"}});
  apart.exchange("GET", kBase + "/gebouwen", 401);
  apart.exchange("GET", kBase + "/", 503);
  expect(apart.judge("VH-4"), Verdict::skip, {"no responses to judge"});
}

TEST_CASE("VH-4: a document fetched from outside {base} on the same host is not counted") {
  FakeRun run;
  run.respond(header_base_get(), 200, {{"api-version", "1.0.0"}});
  run.exchange("GET", kBase + "/gebouwen", 200, {{"api-version", "1.0.0"}});
  const std::string outside = "https://api.example.nl/schemas/common.yaml";
  int id = run.exchange("GET", outside, 200);
  run.ev.exchanges[static_cast<std::size_t>(id - 1)].to_api =
      engine::build_request(run.ev.settings, engine::document_request(outside)).to_api;  // as DO-2 fetches it
  expect(run.judge("VH-4"), Verdict::pass, {"all 1 other responses"});
}

TEST_CASE("VH-4: many lacking responses are cut between requests, counted whole, each listed once") {
  FakeRun run;
  run.respond(header_base_get(), 200, {{"api-version", "1.0.0"}});
  for (int i = 0; i < 50; ++i) run.exchange("GET", kBase + "/gebouwen/" + std::to_string(100000 + i) + "/", 404);
  run.exchange("GET", kBase + "/beveiligd", 401);
  auto r = run.judge("VH-4");
  expect(r, Verdict::warn, {"50 of 50 other responses lack API-Version: GET /v1/gebouwen/100000/ → 404; ", " more)",
                            "(1 response without it not counted"});
  CHECK(r.message.size() <= checks::Findings::kMessageBytes);
  CHECK(r.message.find("100000/ → 404", r.message.find("100000/ → 404") + 1) == std::string::npos);
  CHECK(r.exchanges.size() == 50);
}

TEST_CASE("VH-4: the planner marks only requests under {base} as the API's") {
  FakeRun run;
  const auto& s = run.ev.settings;
  CHECK(engine::build_request(s, engine::document_request(kBase + "/openapi.json")).to_api);
  CHECK(engine::build_request(s, engine::probe_request("GET", kBase)).to_api);
  CHECK_FALSE(engine::build_request(s, engine::document_request("https://api.example.nl/v10/x.json")).to_api);
  CHECK_FALSE(engine::build_request(s, engine::document_request("http://api.example.nl/v1/x.json")).to_api);
  CHECK_FALSE(engine::build_request(s, engine::document_request("https://schemas.example.org/v1/x.json")).to_api);
}

TEST_CASE("VH-4: requests that read the same (PO-1's and PO-2's GET of openapi.json) are listed once, counted") {
  FakeRun run;
  run.respond(header_base_get(), 200, {{"api-version", "1.0.0"}});
  int a = run.exchange("GET", kBase + "/openapi.json", 200);
  int b = run.exchange("GET", kBase + "/openapi.json", 200);  // with an Origin header
  auto r = run.judge("VH-4");
  expect(r, Verdict::warn, {"2 of 2 other responses lack API-Version: GET /v1/openapi.json → 200 (×2)"});
  CHECK(r.exchanges == std::vector<int>{a, b});
}

// ---- all four ---------------------------------------------------------------

TEST_CASE("VH-1..VH-4: each result names API-Version as the header it judged, for its evidence lines") {
  using Headers = std::vector<std::string>;
  FakeRun missing;
  missing.document(header_versioned("1.0.0"));
  missing.respond(header_base_get(), 200);  // no API-Version: VH-1 fails, VH-2 and VH-3 skip
  missing.exchange("GET", kBase + "/gebouwen", 200);
  for (const char* id : {"VH-1", "VH-2", "VH-3", "VH-4"}) {
    CAPTURE(id);
    CHECK(missing.judge(id).judged_headers == Headers{"api-version"});
  }
  CHECK(missing.judge("VH-1").verdict == Verdict::fail);
  CHECK(missing.judge("VH-4").verdict == Verdict::warn);

  FakeRun present;
  present.document(header_versioned("1.0.0"));
  present.respond(header_base_get(), 200, {{"api-version", "1.0.0"}});
  present.exchange("GET", kBase + "/gebouwen", 200, {{"api-version", "1.0.0"}});
  for (const char* id : {"VH-1", "VH-2", "VH-3", "VH-4"}) {
    CAPTURE(id);
    auto r = present.judge(id);
    CHECK(r.verdict == Verdict::pass);
    CHECK(r.judged_headers == Headers{"api-version"});
  }
}
