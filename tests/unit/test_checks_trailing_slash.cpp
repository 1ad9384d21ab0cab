// NT-1 and NT-2 on hand-made evidence.
#include "engine/judge.hpp"
#include "fake_run.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;

TEST_CASE("NT-1: documented paths ending with '/' fail; '/' itself does not") {
  FakeRun run;
  run.document(openapi_doc({{"/", {{"get", oas::json::object()}}}, {"/gebouwen", {{"get", oas::json::object()}}}}));
  CHECK(run.judge("NT-1").verdict == Verdict::pass);
  FakeRun bad;
  bad.document(openapi_doc({{"/gebouwen/", {{"get", oas::json::object()}}}}));
  auto r = bad.judge("NT-1");
  CHECK(r.verdict == Verdict::fail);
  CHECK(r.message.find("/gebouwen/") != std::string::npos);
}

TEST_CASE("NT-1: no paths is skip (DO-3 judges it); no document is the prerequisite") {
  FakeRun run;
  oas::json doc = openapi_doc();
  doc.erase("paths");
  run.document(doc);
  CHECK(run.judge("NT-1").verdict == Verdict::skip);
  FakeRun none;
  none.unpublished(404);
  auto r = none.judge("NT-1");
  CHECK(r.verdict == Verdict::fail);
  CHECK(r.message.rfind("prerequisite not met", 0) == 0);
}

TEST_CASE("NT-2: plans GET {url}/ for the base URL and every probed path") {
  FakeRun run;
  run.document(openapi_doc({{"/gebouwen", {{"get", oas::json::object()}}}}));
  run.probe_paths();
  auto planned = run.plan("NT-2");
  REQUIRE(planned.size() == 2);
  CHECK(planned[0].url == "https://api.example.nl/v1/");
  CHECK(planned[1].url == "https://api.example.nl/v1/gebouwen/");
  CHECK(planned[1].max_redirects == 0);
}

TEST_CASE("NT-2: 404 passes; redirect, served, other status fail; 401/403 warn; transport error is error") {
  struct Case {
    int status;
    std::map<std::string, std::string> headers;
    Verdict verdict;
    const char* says;
  };
  for (const auto& c : std::vector<Case>{{404, {}, Verdict::pass, "answered 404"},
                                         {301, {{"location", "/v1/gebouwen"}}, Verdict::fail, "redirects to /v1/gebouwen (301)"},
                                         {308, {}, Verdict::fail, "(no Location)"},
                                         {200, {}, Verdict::fail, "served (200)"},
                                         {401, {}, Verdict::warn, "behind authentication"},
                                         {403, {}, Verdict::warn, "supply -H"},
                                         {500, {}, Verdict::fail, "500 (expected 404)"}}) {
    CAPTURE(c.status);
    FakeRun run;
    run.respond(engine::probe_request("GET", "https://api.example.nl/v1/"), c.status, c.headers);
    auto r = run.judge("NT-2");
    CHECK(r.verdict == c.verdict);
    CHECK(r.message.find(c.says) != std::string::npos);
    CHECK(r.exchanges == std::vector<int>{1});
  }
  FakeRun down;
  down.fail(engine::probe_request("GET", "https://api.example.nl/v1/"), "Connection refused");
  CHECK(down.judge("NT-2").verdict == Verdict::error);
}

TEST_CASE("NT-2: the worst finding leads; every URL is evidence") {
  FakeRun run;
  run.document(openapi_doc({{"/a", {{"get", oas::json::object()}}}, {"/b", {{"get", oas::json::object()}}}}));
  run.probe_paths();
  run.respond(engine::probe_request("GET", "https://api.example.nl/v1/"), 404);
  run.respond(engine::probe_request("GET", "https://api.example.nl/v1/a/"), 401);
  run.respond(engine::probe_request("GET", "https://api.example.nl/v1/b/"), 200);
  auto r = run.judge("NT-2");
  CHECK(r.verdict == Verdict::fail);
  CHECK(r.message.rfind("GET /v1/b/ served (200)", 0) == 0);
  CHECK(r.exchanges == std::vector<int>{3, 2});
}

TEST_CASE("NT-2: every documented path answering GET with 404 warns: is the base URL right?") {
  FakeRun run;
  run.document(openapi_doc({{"/a", {{"get", oas::json::object()}}}, {"/b", {{"get", oas::json::object()}}}}));
  run.probe_paths();
  for (const char* p : {"", "/a", "/b"}) run.respond(engine::probe_request("GET", std::string("https://api.example.nl/v1") + p + "/"), 404);
  run.respond(engine::probe_request("GET", "https://api.example.nl/v1"), 200);
  run.respond(engine::probe_request("GET", "https://api.example.nl/v1/a"), 404);
  run.respond(engine::probe_request("GET", "https://api.example.nl/v1/b"), 404);
  auto r = run.judge("NT-2");
  expect(r, Verdict::warn, {"every documented path answered 404 to GET: is the base URL right?"});
}

TEST_CASE("NT-2: with every documented path answering 404, a fail stays a fail; the base URL alone does not count") {
  FakeRun run;
  run.document(openapi_doc({{"/a", {{"get", oas::json::object()}}}}));
  run.probe_paths();
  run.respond(engine::probe_request("GET", "https://api.example.nl/v1/"), 404);
  run.respond(engine::probe_request("GET", "https://api.example.nl/v1/a/"), 200);
  run.respond(engine::probe_request("GET", "https://api.example.nl/v1/a"), 404);
  expect(run.judge("NT-2"), Verdict::fail, {"GET /v1/a/ served (200)"});

  FakeRun base_only;  // no documented path probed: nothing to say about the base URL
  base_only.respond(engine::probe_request("GET", "https://api.example.nl/v1/"), 404);
  base_only.respond(engine::probe_request("GET", "https://api.example.nl/v1"), 404);
  expect(base_only.judge("NT-2"), Verdict::pass, {"1 URL with a trailing slash answered 404"});

  FakeRun one_answers;  // one documented path answers: the base URL is right
  one_answers.document(openapi_doc({{"/a", {{"get", oas::json::object()}}}, {"/b", {{"get", oas::json::object()}}}}));
  one_answers.probe_paths();
  for (const char* p : {"", "/a", "/b"}) one_answers.respond(engine::probe_request("GET", std::string("https://api.example.nl/v1") + p + "/"), 404);
  one_answers.respond(engine::probe_request("GET", "https://api.example.nl/v1/a"), 404);
  one_answers.respond(engine::probe_request("GET", "https://api.example.nl/v1/b"), 200);
  expect(one_answers.judge("NT-2"), Verdict::pass);
}

TEST_CASE("NT-2: only paths with a GET are probed; a documented '/' is the base URL, listed once") {
  FakeRun run;
  run.document(openapi_doc({{"/", {{"get", oas::json::object()}}},
                            {"/zaken/_zoek", {{"post", oas::json::object()}}},
                            {"/zaken/{id}/_zoek", {{"post", oas::json::object()}}}}));
  run.probe_paths();
  auto planned = run.plan("NT-2");
  REQUIRE(planned.size() == 1);
  CHECK(planned[0].url == "https://api.example.nl/v1/");
  int id = run.respond(engine::probe_request("GET", "https://api.example.nl/v1/"), 301, {{"location", "/v1"}});
  auto r = run.judge("NT-2");
  expect(r, Verdict::fail, {"GET /v1/ redirects to /v1 (301)"});
  CHECK(r.message.find("(301); ") == std::string::npos);  // not twice
  CHECK(r.exchanges == std::vector<int>{id});

  // The POST-only path without a value is not listed under NT-2 (it has no GET), only under HM-2 and HM-3.
  const auto& edition = *catalogue::Catalogue::builtin().edition("2.0.0");
  auto rules = engine::judge(run.ev, edition, checks::registry(), engine::Mode::check);
  std::vector<std::string> listed_under;
  for (const auto& rule : rules)
    for (const auto& c : rule.checks)
      if (c.message.find("not probed: /zaken/{id}/_zoek") == 0) listed_under.push_back(c.id);
  CHECK(listed_under == std::vector<std::string>{"HM-2", "HM-3"});
}

TEST_CASE("NT-2 root: exempt (2.2.0): {base}/ and a documented '/' are not probed; the other paths as before") {
  FakeRun run("https://api.example.nl/v1", "2.2.0");
  run.document(openapi_doc({{"/", {{"get", oas::json::object()}}}, {"/gebouwen", {{"get", oas::json::object()}}}}));
  run.probe_paths();
  auto planned = run.plan("NT-2", {{"root", "exempt"}});
  REQUIRE(planned.size() == 1);
  CHECK(planned[0].url == "https://api.example.nl/v1/gebouwen/");
  // {base}/ served (correct in 2.2.0) is not judged; /gebouwen/ is.
  run.respond(engine::probe_request("GET", "https://api.example.nl/v1/gebouwen/"), 404);
  expect(run.judge("NT-2", {{"root", "exempt"}}), Verdict::pass, {"1 URL with a trailing slash answered 404"});
  run.respond(engine::probe_request("GET", "https://api.example.nl/v1/"), 200);
  expect(run.judge("NT-2", {{"root", "exempt"}}), Verdict::pass);
  expect(run.judge("NT-2"), Verdict::fail, {"GET /v1/ served (200)"});  // editions before 2.2.0
}

TEST_CASE("NT-2 root: exempt with nothing else to probe is skip") {
  FakeRun run("https://api.example.nl/v1", "2.2.0");
  run.document(openapi_doc({{"/", {{"get", oas::json::object()}}}, {"/zaken", {{"post", oas::json::object()}}}}));
  run.probe_paths();
  CHECK(run.plan("NT-2", {{"root", "exempt"}}).empty());
  expect(run.judge("NT-2", {{"root", "exempt"}}), Verdict::skip, {"root resource is exempt"});
}

TEST_CASE("NT-2 root: edition 2.2.0 sets it; earlier editions probe the root") {
  const auto& cat = catalogue::Catalogue::builtin();
  for (const char* e : {"1.0", "2.0.0", "2.1.0", "2.2.0"}) {
    CAPTURE(e);
    const catalogue::CheckRef* nt2 = nullptr;
    for (const auto& rule : cat.edition(e)->rules)
      for (const auto& ref : rule.checks)
        if (ref.id == "NT-2") nt2 = &ref;
    REQUIRE(nt2);
    bool exempt = nt2->params.count("root") && nt2->params.at("root") == "exempt";
    CHECK(exempt == (std::string(e) == "2.2.0"));
  }
}
