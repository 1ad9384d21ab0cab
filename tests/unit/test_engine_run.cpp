// Run: orchestration against an API served in-process on 127.0.0.1.
#include <doctest/doctest.h>

#include "checks/registry.hpp"
#include "counting_api.hpp"
#include "engine/run.hpp"

using namespace adrprobe;

namespace {
// Serves a document of one path, /gebouwen, and that path.
struct TinyApi : testing::CountingApi {
  TinyApi() : CountingApi(answer) {}
  static void answer(const httplib::Request& req, httplib::Response& res) {
    static const std::string doc = R"({"openapi":"3.0.3","info":{"title":"t","version":"1.0.0"},"servers":[{"url":"/v1"}],
                          "paths":{"/gebouwen":{"get":{"responses":{"200":{"description":"ok"}}}}}})";
    res.set_header("API-Version", "1.0.0");
    if (req.path == "/v1/openapi.json") res.set_content(doc, "application/json");
    else if (req.path == "/v1" || req.path == "/v1/gebouwen") res.set_content("{}", "application/json");
    else res.status = 404;
  }
};

engine::Settings settings_for(const std::string& base) { return testing::quick_run(base); }
}  // namespace

TEST_CASE("run_check: identical requests of different checks are sent once") {
  TinyApi api;
  const auto& edition = *catalogue::Catalogue::builtin().edition("2.0.0");
  report::Report rep = engine::run_check(settings_for(api.base()), edition, checks::registry());
  CHECK(api.count("GET /v1") == 1);                // VH-1, HM-1, TS-5, TS-6
  CHECK(api.count("GET /v1/openapi.json") == 2);   // PO-1 (and the document), PO-2 with an Origin
  CHECK(api.count("GET /v1/gebouwen") == 2);       // HM-1, TS-7 with an Origin
  CHECK(api.count("GET /v1/gebouwen/") == 1);      // NT-2
  CHECK(rep.paths_probed == 1);
  CHECK(rep.exchanges.size() == 11);  // openapi.json x2, openapi.yaml, base GET/HEAD/slash, path GET/HEAD/slash/TRACE, CORS
  for (const auto& e : rep.exchanges) CHECK(e.body.empty());  // bodies stay out of the report
  bool semver_pass = false;
  for (const auto& r : rep.rules) semver_pass = semver_pass || (r.id == "/core/semver" && r.verdict == report::Verdict::pass);
  CHECK(semver_pass);
}

TEST_CASE("run_check: an edition plans only its own checks (1.0 has no transport rule)") {
  TinyApi api;
  const auto& edition = *catalogue::Catalogue::builtin().edition("1.0");
  report::Report rep = engine::run_check(settings_for(api.base()), edition, checks::registry());
  CHECK_FALSE(rep.tls);
  CHECK(api.count("GET /v1/gebouwen") == 1);  // no TS-7 CORS probe
}

TEST_CASE("observer: told of every request and check, and of the finished target") {
  struct Counting : engine::Observer {
    int requests = 0, checks = 0, targets = 0;
    void request_done(const http::Exchange&, std::size_t, std::size_t) override { ++requests; }
    void check_done(const report::CheckResult&) override { ++checks; }
    void target_done(const report::Report&) override { ++targets; }
  } seen;
  TinyApi api;
  const auto& edition = *catalogue::Catalogue::builtin().edition("2.0.0");
  report::Report rep = engine::run_check(settings_for(api.base()), edition, checks::registry(), &seen);
  CHECK(seen.requests == static_cast<int>(rep.exchanges.size()));
  CHECK(seen.checks == 27);  // every check of 2.0.0
  CHECK(seen.targets == 1);
}

TEST_CASE("mark_down: a rule is the worst of its checks, at least error: a fail without an answer stays") {
  using report::Verdict;
  auto rule = [](std::string id, Verdict v, std::vector<CheckResult> checks) {
    report::RuleResult r;
    r.id = std::move(id);
    r.kind = "technical";
    r.verdict = v;
    r.summary = "as judged";
    r.checks = std::move(checks);
    return r;
  };
  report::Report rep;
  rep.unreachable = true;
  rep.rules = {rule("/core/transport-security", Verdict::fail,
                    {{"TS-1", Verdict::fail, "the base URL is http://: connections must use TLS (https://)"},
                     {"TS-5", Verdict::error, "GET /v1: Connection refused"}}),
               rule("/core/uri-version", Verdict::error,
                    {{"UV-1", Verdict::pass, "base path /v1 has major version segment v1"},
                     {"UV-2", Verdict::error, "prerequisite not met: GET /v1/openapi.json: Connection refused"}}),
               rule("/core/semver", Verdict::skip, {}), rule("/core/changelog", Verdict::manual, {})};
  rep.rules[2].summary = "not selected";
  rep.rules[3].kind = "functional";
  engine::mark_down(rep);
  CHECK(rep.rules[0].verdict == Verdict::fail);
  CHECK(rep.rules[0].summary == "as judged");
  CHECK(rep.rules[1].verdict == Verdict::error);
  CHECK(rep.rules[1].summary == "not judged: the target is down");
  CHECK(rep.rules[2].verdict == Verdict::skip);    // --rules: not selected, counted nowhere
  CHECK(rep.rules[3].verdict == Verdict::manual);  // functional
  CHECK(rep.score.fail == 1);
  CHECK(rep.score.error == 1);
  CHECK(rep.score.percent == std::optional<double>(0.0));
  // Every check could not run: every rule error, the score n/a.
  rep.rules[0].verdict = Verdict::error;
  engine::mark_down(rep);
  CHECK(rep.score.error == 2);
  CHECK_FALSE(rep.score.percent);
}
