#include <doctest/doctest.h>

#include "catalogue/catalogue.hpp"
#include "checks/context.hpp"
#include "engine/plan.hpp"
#include "report/redact.hpp"
#include "report/render.hpp"

using namespace adrprobe;
using report::Verdict;

TEST_CASE("verdict aggregation: fail > error > warn > pass > skip") {
  using report::CheckResult;
  CHECK(report::aggregate({}) == Verdict::skip);
  CHECK(report::aggregate({{"A", Verdict::pass, "", {}}, {"B", Verdict::skip, "", {}}}) == Verdict::pass);
  CHECK(report::aggregate({{"A", Verdict::warn, "", {}}, {"B", Verdict::error, "", {}}}) == Verdict::error);
  CHECK(report::aggregate({{"A", Verdict::fail, "", {}}, {"B", Verdict::error, "", {}}, {"C", Verdict::warn, "", {}}}) == Verdict::fail);
  CHECK(report::verdict_from_string("manual") == Verdict::manual);
}

TEST_CASE("score counts technical rules only, one decimal") {
  std::vector<report::RuleResult> rules(5);
  rules[0].kind = "technical", rules[0].verdict = Verdict::pass;
  rules[1].kind = "technical", rules[1].verdict = Verdict::warn;
  rules[2].kind = "technical", rules[2].verdict = Verdict::fail;
  rules[3].kind = "technical", rules[3].verdict = Verdict::skip;
  rules[4].kind = "functional", rules[4].verdict = Verdict::manual;
  auto s = report::compute_score(rules);
  CHECK(s.applicable == 3);
  CHECK(s.percent == doctest::Approx(66.7));
  rules[2].verdict = Verdict::error;
  report::Report r;
  r.rules = rules;
  CHECK(report::exit_status(r, report::FailOn::fail) == 3);
  CHECK(report::exit_status(r, report::FailOn::warn) == 1);
  rules[2].verdict = Verdict::pass;
  r.rules = rules;
  CHECK(report::exit_status(r, report::FailOn::fail) == 0);
  CHECK(report::exit_status(r, report::FailOn::warn) == 1);
  CHECK(report::exit_status(r, report::FailOn::never) == 0);
}

TEST_CASE("redaction: -H values never reach any output") {
  report::Report r;
  r.base_url = "https://h/v1";
  http::Exchange e;
  e.id = 1;
  e.url = "https://h/v1?token=s3cret-token-value";
  e.request_headers = {{"Authorization", "Bearer s3cret-token-value"}, {"X-Debug", "1"}};
  e.response_headers = {{"x-echo", "Bearer s3cret-token-value"}, {"x-token", "s3cret-token-value"}};
  r.exchanges.push_back(e);
  report::RuleResult rule;
  rule.checks.push_back({"X-1", Verdict::fail, "saw s3cret-token-value", {1}});
  r.rules.push_back(rule);
  report::Redactor red({{"Authorization", "Bearer s3cret-token-value"}, {"X-Debug", "1"}});
  red.apply(r);
  std::string json = report::render_json(r);
  CHECK(json.find("s3cret") == std::string::npos);
  CHECK(r.exchanges[0].request_headers[1].second == "***");  // short value: masked in its own header
  CHECK(r.base_url == "https://h/v1");                        // ... and nowhere else
}

TEST_CASE("the built-in catalogue has every rule of both editions") {
  const auto& cat = catalogue::Catalogue::builtin();
  const auto* e1 = cat.edition("1.0");
  const auto* e2 = cat.edition("2.0.0");
  REQUIRE(e1);
  REQUIRE(e2);
  CHECK(e1->rules.size() == 19);
  CHECK(e2->rules.size() == 21);
  CHECK(e1->semver == SemverGrammar::core);
  CHECK(e2->semver == SemverGrammar::full);
  for (const auto* e : {e1, e2})
    for (const auto& r : e->rules) {
      CAPTURE(r.id);
      CHECK((r.kind == "technical") == !r.checks.empty());
      for (const auto& c : r.checks) CHECK(cat.check(c.id) != nullptr);
    }
  CHECK(e1->rules[3].id == "API-48");
  CHECK(e2->rules[3].aliases == std::vector<std::string>{"API-48"});
}

TEST_CASE("plan: safe mode sends only GET, HEAD, OPTIONS and TRACE") {
  checks::RunSettings s;
  s.base_url = "https://h/v1";
  oas::PathPlan p;
  p.template_path = "/gebouwen";
  p.concrete = "/gebouwen";
  p.methods = {"GET", "POST", "DELETE", "OPTIONS"};
  auto safe = engine::plan_path(s, p);
  for (const auto& r : safe.requests) CHECK(http::is_safe_method(r.method));
  CHECK(safe.probe.supported_unsent == std::vector<std::string>{"DELETE", "POST"});
  CHECK(safe.requests.back().method == "TRACE");
  CHECK(safe.requests[2].url == "https://h/v1/gebouwen/");
  s.allow_unsafe = true;
  auto unsafe = engine::plan_path(s, p);
  std::set<std::string> methods;
  for (const auto& r : unsafe.requests) methods.insert(r.method);
  CHECK(methods == std::set<std::string>{"GET", "HEAD", "OPTIONS", "POST", "DELETE", "TRACE", "PUT", "PATCH"});
  for (const auto& r : engine::phase_one(s, "https://x.example"))
    if (r.purpose.rfind("PO", 0) == 0) CHECK(r.headers.size() <= 1);  // never the user's -H on the document
}

TEST_CASE("findings: one entry per check, worst first") {
  checks::Findings f("NT-2");
  f.add(Verdict::pass, "", {1});
  f.add(Verdict::warn, "GET /a/ → 401", {2});
  f.add(Verdict::fail, "GET /b/ served (200)", {3});
  auto r = f.result("all good");
  CHECK(r.verdict == Verdict::fail);
  CHECK(r.message.rfind("GET /b/ served (200)", 0) == 0);
  CHECK(r.exchanges == std::vector<int>{3, 2});
  checks::Findings ok("NT-2");
  ok.add(Verdict::pass, "", {1});
  ok.add(Verdict::skip, "not probed: /x/{id}");
  auto r2 = ok.result("1 URL answered 404");
  CHECK(r2.verdict == Verdict::pass);
  CHECK(r2.message == "1 URL answered 404; not probed: /x/{id}");
  checks::Findings none("HM-0");
  CHECK(none.result("nothing to warn about").verdict == Verdict::pass);  // nothing found is a pass
}

TEST_CASE("the NCSC TLS table is data: levels and verdicts") {
  const auto* n = catalogue::Catalogue::builtin().ncsc();
  REQUIRE(n);
  CHECK(n->protocol_level("TLSv1.3") == "good");
  CHECK(n->protocol_level("TLSv1.1") == "phase_out");
  CHECK(n->protocol_level("SSLv3") == "insufficient");
  CHECK(n->cipher_level("TLS_AES_256_GCM_SHA384") == "good");
  CHECK(n->cipher_level("ECDHE-RSA-AES128-SHA") == "sufficient");
  CHECK(n->cipher_level("AES128-GCM-SHA256") == "phase_out");
  CHECK(n->cipher_level("RC4-SHA") == "insufficient");
  CHECK(n->group_level("x25519") == "good");
  CHECK(n->group_level("ffdhe2048") == "phase_out");
  CHECK(n->verdict_of("sufficient") == "pass");
  CHECK(n->verdict_of("phase_out") == "warn");
  CHECK(n->verdict_of("insufficient") == "fail");
  CHECK(n->expiry_warn_days == 14);
}

TEST_CASE("edition 2.1.0: 26 rules, security headers fail instead of warn") {
  const auto& cat = catalogue::Catalogue::builtin();
  const auto* e = cat.edition("2.1.0");
  REQUIRE(e);
  CHECK(e->rules.size() == 26);
  const catalogue::Rule* headers = nullptr;
  for (const auto& r : e->rules)
    if (r.id == "/core/transport/security-headers") headers = &r;
  REQUIRE(headers);
  REQUIRE(headers->checks.size() == 2);
  CHECK(headers->checks[0].id == "TS-5");
  CHECK(headers->checks[0].params.at("missing") == "fail");
  for (const char* id : {"TS-1", "TS-2", "TS-3", "TS-4"}) CHECK(cat.check(id)->handshake);
  CHECK_FALSE(cat.check("TS-5")->handshake);
}
