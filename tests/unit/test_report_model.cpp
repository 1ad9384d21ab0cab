#include <doctest/doctest.h>

#include "report/model.hpp"

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
