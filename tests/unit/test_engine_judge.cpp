// Judge: rules × checks → verdicts, on hand-made evidence.
#include "engine/judge.hpp"
#include "fake_run.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;

namespace {
const report::RuleResult& rule_of(const std::vector<report::RuleResult>& rules, const std::string& id) {
  for (const auto& r : rules)
    if (r.id == id) return r;
  FAIL("no rule " << id);
  return rules.front();
}
}  // namespace

TEST_CASE("lint: live checks are skip 'needs a live API'; static ones are judged") {
  FakeRun run("");
  run.ev.settings.openapi = "/tmp/openapi.json";
  run.document(openapi_doc({{"/gebouwen/", {{"get", oas::json::object()}}}}), "file:///tmp/openapi.json");
  const auto& edition = *catalogue::Catalogue::builtin().edition("2.0.0");
  auto rules = engine::judge(run.ev, edition, checks::registry(), engine::Mode::lint);
  const auto& publish = rule_of(rules, "/core/publish-openapi");
  CHECK(publish.verdict == Verdict::skip);
  CHECK(publish.summary == "needs a live API");
  const auto& slash = rule_of(rules, "/core/no-trailing-slash");
  CHECK(slash.verdict == Verdict::fail);  // NT-1
  REQUIRE(slash.checks.size() == 2);
  CHECK(slash.checks[1].message == "needs a live API");
  CHECK(rule_of(rules, "/core/naming-resources").verdict == Verdict::manual);
  // uri-version: UV-1 reads the base URL (skip); UV-2/UV-3 read the servers: "/v1" has v1, info.version 1.0.0.
  CHECK(rule_of(rules, "/core/uri-version").verdict == Verdict::pass);
  // No servers means "/": no v<major> (probes.md, lint).
  FakeRun bare("");
  oas::json doc = openapi_doc();
  doc.erase("servers");
  bare.document(doc, "file:///tmp/openapi.json");
  auto rules2 = engine::judge(bare.ev, edition, checks::registry(), engine::Mode::lint);
  const auto& uv = rule_of(rules2, "/core/uri-version");
  CHECK(uv.verdict == Verdict::fail);
  CHECK(uv.checks[1].id == "UV-2");
  CHECK(uv.checks[1].verdict == Verdict::fail);
}

TEST_CASE("an untrusted certificate: only the handshake checks are judged, the rest is error") {
  FakeRun run;
  run.ev.untrusted_stop = true;
  run.ev.tls.emplace();
  run.ev.tls->handshake_ok = true;
  run.ev.tls->connected = true;
  run.ev.tls->trust_error = "self-signed certificate";
  const auto& edition = *catalogue::Catalogue::builtin().edition("2.0.0");
  auto rules = engine::judge(run.ev, edition, checks::registry(), engine::Mode::check);
  const auto& ts = rule_of(rules, "/core/transport-security");
  CHECK(ts.checks[0].id == "TS-1");
  CHECK(ts.checks[0].verdict == Verdict::fail);
  CHECK(ts.checks[4].id == "TS-5");
  CHECK(ts.checks[4].verdict == Verdict::error);
  CHECK(rule_of(rules, "/core/semver").verdict == Verdict::error);
}

TEST_CASE("a server that wants a client certificate: handshake checks judged, the rest is error with the hint") {
  FakeRun run;
  const std::string why = "the server requires a client certificate (400 No required SSL certificate was sent): give --cert and --key";
  run.ev.client_cert_stop = why;
  run.ev.not_probed = {engine::NotProbed("/gebouwen/{id}: no value for id (give --param id=VALUE)")};
  run.ev.tls.emplace();
  run.ev.tls->handshake_ok = true;
  run.ev.tls->connected = true;
  run.ev.tls->trusted = true;
  run.ev.tls->client_cert_requested = true;
  const auto& edition = *catalogue::Catalogue::builtin().edition("2.0.0");
  auto rules = engine::judge(run.ev, edition, checks::registry(), engine::Mode::check);
  const auto& ts = rule_of(rules, "/core/transport-security");
  CHECK(ts.checks[0].id == "TS-1");
  CHECK(ts.checks[0].verdict == Verdict::error);  // not fail: mutual TLS is not insecurity
  CHECK(ts.checks[0].message.find(why) == 0);
  CHECK(ts.checks[4].id == "TS-5");
  CHECK(ts.checks[4].verdict == Verdict::error);
  CHECK(ts.checks[4].message == why);
  const auto& semver = rule_of(rules, "/core/semver");
  CHECK(semver.verdict == Verdict::error);
  CHECK(semver.checks[0].message == why);
  for (const auto& c : rule_of(rules, "/core/no-trailing-slash").checks) CHECK(c.verdict == Verdict::error);  // no "not probed" list
}

TEST_CASE("per-path checks list the documented paths that could not be probed") {
  FakeRun run;
  run.ev.not_probed = {{"/gebouwen/{id}: no value for id (give --param id=VALUE)", true}};
  run.respond(engine::probe_request("GET", "https://api.example.nl/v1/"), 404);
  const auto& edition = *catalogue::Catalogue::builtin().edition("2.0.0");
  auto rules = engine::judge(run.ev, edition, checks::registry(), engine::Mode::check);
  const auto& slash = rule_of(rules, "/core/no-trailing-slash");
  bool listed = false;
  for (const auto& c : slash.checks) listed = listed || (c.id == "NT-2" && c.verdict == Verdict::skip &&
                                                         c.message.find("not probed: /gebouwen/{id}") == 0);
  CHECK(listed);
}

TEST_CASE("rule summary: why a rule passes, or its worst finding") {
  report::RuleResult r;
  r.verdict = Verdict::pass;
  r.checks = {{"A-1", Verdict::pass, "", {}}, {"A-2", Verdict::skip, "", {}}};
  CHECK(engine::rule_summary(r) == "1 of 2 checks pass (A-1), the others do not apply");
  r.verdict = Verdict::fail;
  r.checks = {{"A-1", Verdict::pass, "", {}}, {"A-2", Verdict::fail, "broken", {}}};
  CHECK(engine::rule_summary(r) == "A-2: broken");
}

namespace {
// A check the engine knows only through the Registry it is given.
CheckResult fake_judge(const engine::Evidence& ev, const catalogue::CheckRef& ref) {
  return {ref.id, ref.params.count("strict") ? Verdict::fail : Verdict::pass, "judged " + ev.settings.base_url, {}};
}
std::vector<std::string> fake_hints(const engine::Evidence&) { return {"hint one", "hint two"}; }
const engine::Check fake_static{"FAKE-1", engine::document, "fake", "nothing", "always", engine::PerPath::none, {}, nullptr,
                                nullptr, fake_judge};
// It declares the response header it judges: the engine puts it on the result (for its evidence lines).
const engine::Check fake_live{"FAKE-2", engine::requests, "fake", "nothing", "always", engine::PerPath::none, {}, nullptr,
                              nullptr, fake_judge, {"x-judged"}};
}  // namespace

TEST_CASE("judge runs the checks and hint producers of the registry it is given") {
  engine::Registry registry{{&fake_static, &fake_live}, {{"fake-hints", fake_hints, {}}}};
  catalogue::Edition edition;
  edition.edition = "test";
  catalogue::Rule technical;
  technical.id = "/t";
  technical.kind = "technical";
  technical.checks = {{"FAKE-1", {}}, {"FAKE-2", {{"strict", "yes"}}}};
  catalogue::Rule functional;
  functional.id = "/f";
  functional.kind = "functional";
  functional.hints = {"fake-hints"};
  edition.rules = {technical, functional};
  FakeRun run;
  auto rules = engine::judge(run.ev, edition, registry, engine::Mode::check);
  REQUIRE(rules.size() == 2);
  REQUIRE(rules[0].checks.size() == 2);
  CHECK(rules[0].checks[0].verdict == Verdict::pass);
  CHECK(rules[0].checks[0].message == "judged " + run.ev.settings.base_url);
  CHECK(rules[0].checks[1].verdict == Verdict::fail);  // its edition parameter reached it
  CHECK(rules[0].checks[0].judged_headers.empty());
  CHECK(rules[0].checks[1].judged_headers == std::vector<std::string>{"x-judged"});
  CHECK(rules[0].verdict == Verdict::fail);
  CHECK(rules[1].verdict == Verdict::manual);
  CHECK(rules[1].hints == std::vector<std::string>{"hint one", "hint two"});
  // lint judges only the check that needs the document alone.
  auto lint = engine::judge(run.ev, edition, registry, engine::Mode::lint);
  CHECK(lint[0].checks[0].verdict == Verdict::pass);
  CHECK(lint[0].checks[1].verdict == Verdict::skip);
  // A check id the registry lacks is a logic error, never a silent skip.
  engine::Registry empty;
  CHECK_THROWS_AS(engine::judge(run.ev, edition, empty, engine::Mode::check), std::logic_error);
}

TEST_CASE("--rules: the rules not selected are skip 'not selected', with no checks; the selected are judged") {
  FakeRun run("");
  run.ev.settings.openapi = "/tmp/openapi.json";
  run.ev.settings.rules = {"/core/no-trailing-slash", "/core/naming-resources"};
  run.document(openapi_doc({{"/gebouwen/", {{"get", oas::json::object()}}}}), "file:///tmp/openapi.json");
  const auto& edition = *catalogue::Catalogue::builtin().edition("2.0.0");
  auto rules = engine::judge(run.ev, edition, checks::registry(), engine::Mode::lint);
  CHECK(rules.size() == edition.rules.size());  // every rule is listed
  CHECK(rule_of(rules, "/core/no-trailing-slash").verdict == Verdict::fail);
  CHECK(rule_of(rules, "/core/naming-resources").verdict == Verdict::manual);
  const auto& semver = rule_of(rules, "/core/semver");
  CHECK(semver.verdict == Verdict::skip);
  CHECK(semver.summary == "not selected");
  CHECK(semver.checks.empty());
  const auto& other = rule_of(rules, "/core/resource-operations");
  CHECK(other.verdict == Verdict::skip);
  CHECK(other.summary == "not selected");
  auto score = report::compute_score(rules);
  CHECK(score.applicable == 1);  // only the selected technical rule
}

namespace {
// Every field of a judgement, one line each (what the report shows of it).
std::string describe(const std::vector<report::RuleResult>& rules) {
  std::string out;
  for (const auto& r : rules) {
    out += r.id + " " + to_string(r.verdict) + " " + r.summary + "\n";
    for (const auto& h : r.hints) out += "  hint " + h + "\n";
    for (const auto& c : r.checks) {
      out += "  " + c.id + " " + to_string(c.verdict) + " " + c.message + " #";
      for (int id : c.exchanges) out += " " + std::to_string(id);
      for (const auto& l : c.locations) out += " @" + l.pointer + l.target;
      if (c.fix) out += " fix " + c.fix->stack + ":" + c.fix->text;
      out += "\n";
    }
  }
  return out;
}

// A run of 2.2.0 over 60 documented paths, every request of every check
// answered: some 200, some 404 with a stack trace, some 405 with an Allow
// field sent on two lines in a header block the records share, and a document
// whose schemas sit behind $refs into an object of 20 (an indexed lookup).
FakeRun wide_run() {
  FakeRun run(kBase, "2.2.0");
  oas::json schemas = oas::json::object();
  for (int i = 0; i < 20; ++i)
    schemas["Gebouw" + std::to_string(i)] = {
        {"type", "object"},
        {"properties", {{"bouwjaar", {{"type", "string"}, {"format", i % 2 ? "date" : "date-time"}}},
                        {"geometrie", {{"type", "object"}}}}}};
  oas::json paths = oas::json::object();
  for (int i = 0; i < 60; ++i) {
    oas::json ok = {{"description", "OK"},
                    {"content",
                     {{"application/json", {{"schema", {{"$ref", "#/components/schemas/Gebouw" + std::to_string(i % 20)}}}}}}}};
    paths[(i % 7 ? "/gebouwen" : "/Gebouwen_") + std::to_string(i) + (i % 11 ? "" : "/")] = {
        {"get", {{"responses", {{"200", ok}}}}}, {"options", {{"responses", {{"200", {{"description", "OK"}}}}}}}};
  }
  oas::json doc = openapi_doc(paths);
  doc["components"] = {{"schemas", schemas}};
  run.publish(doc);
  run.probe_paths();

  engine::Planner planner(run.ev.settings);
  std::vector<engine::Target> documented(run.ev.targets.begin() + 1, run.ev.targets.end());
  std::vector<engine::Target> base_only(run.ev.targets.begin(), run.ev.targets.begin() + 1);
  for (const auto* c : checks::registry().checks) {
    catalogue::CheckRef ref{std::string(c->id), {}};
    if (c->plan_run) c->plan_run(planner, checks::PlanInput{run.ev.settings, run.ev.origin, 1, base_only}, ref);
    for (const auto& t : run.ev.targets)
      if (c->plan_target) c->plan_target(planner, run.ev.settings, t, ref);
    if (c->plan_run) c->plan_run(planner, checks::PlanInput{run.ev.settings, run.ev.origin, 2, documented}, ref);
  }
  http::HeaderLines refused{{"allow", "GET"}, {"allow", "HEAD"}, {"server", "nginx/1.25.3"},
                            {"content-type", "application/problem+json"}};
  int i = 0;
  for (auto& [key, request] : planner.take()) {
    if (run.ev.results.count(key)) continue;  // the published document, already answered
    int status = std::array{200, 404, 405, 200, 301}[static_cast<std::size_t>(i++ % 5)];
    int id = run.exchange(request.method, request.url, status, {{"content-type", "application/json"}, {"api-version", "1.0.0"}},
                          status == 404 ? "java.lang.NullPointerException\n\tat nl.example.Api.get(Api.java:42)" : "{}");
    if (status == 405) run.ev.exchanges.back().response_headers = refused;  // one block, shared
    run.ev.results[key].chain.push_back(id);
  }
  return run;
}
}  // namespace

TEST_CASE("judging on several threads gives what one thread gives, in the same order") {
  const auto& edition = *catalogue::Catalogue::builtin().edition("2.2.0");
  // Several threads first: run alone (-tc), the checks' regexes are then compiled
  // by the judging threads at once, as in a long run (ThreadSanitizer's case).
  FakeRun first = wide_run();
  first.ev.settings.judges = 4;
  const std::string four = describe(engine::judge(first.ev, edition, checks::registry(), engine::Mode::check));
  FakeRun run = wide_run();
  run.ev.settings.judges = 1;
  const std::string one = describe(engine::judge(run.ev, edition, checks::registry(), engine::Mode::check));
  CHECK(four == one);
  // Not a trivial judgement: findings, passes, advice and hints are all in it.
  CHECK(one.find(" fail ") != std::string::npos);
  CHECK(one.find(" pass ") != std::string::npos);
  CHECK(one.find(" fix ") != std::string::npos);
  CHECK(one.find("  hint ") != std::string::npos);
  for (int threads : {2, 4, 8}) {
    FakeRun again = wide_run();  // its caches (document index, derived walks, joined fields) made afresh
    again.ev.settings.judges = threads;
    CAPTURE(threads);
    CHECK(describe(engine::judge(again.ev, edition, checks::registry(), engine::Mode::check)) == one);
  }
}

namespace {
CheckResult throws_first(const engine::Evidence&, const catalogue::CheckRef&) { throw std::runtime_error("first"); }
CheckResult throws_second(const engine::Evidence&, const catalogue::CheckRef&) { throw std::runtime_error("second"); }
const engine::Check fake_first{"FAKE-3", engine::document, "fake", "nothing", "never", engine::PerPath::none, {}, nullptr,
                               nullptr, throws_first};
const engine::Check fake_second{"FAKE-4", engine::document, "fake", "nothing", "never", engine::PerPath::none, {}, nullptr,
                                nullptr, throws_second};
}  // namespace

TEST_CASE("a check that throws: judge throws the first failure in rule order, on any number of threads") {
  engine::Registry registry{{&fake_static, &fake_first, &fake_second}, {}};
  catalogue::Edition edition;
  catalogue::Rule rule;
  rule.id = "/t";
  rule.kind = "technical";
  rule.checks = {{"FAKE-1", {}}, {"FAKE-3", {}}, {"FAKE-4", {}}};
  edition.rules = {rule};
  for (int threads : {1, 2, 3}) {
    FakeRun run;
    run.ev.settings.judges = threads;
    CAPTURE(threads);
    CHECK_THROWS_WITH_AS(engine::judge(run.ev, edition, registry, engine::Mode::check), "first", std::runtime_error);
  }
}
