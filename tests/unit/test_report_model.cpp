#include <doctest/doctest.h>

#include "report/formats.hpp"
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

TEST_CASE("score: no percent when no technical rule got pass, warn or fail") {
  std::vector<report::RuleResult> rules(3);
  rules[0].kind = "technical", rules[0].verdict = Verdict::error;
  rules[1].kind = "technical", rules[1].verdict = Verdict::skip;
  rules[2].kind = "functional", rules[2].verdict = Verdict::manual;
  auto s = report::compute_score(rules);
  CHECK(s.applicable == 1);
  CHECK_FALSE(s.percent.has_value());
  rules[1].verdict = Verdict::fail;
  CHECK(report::compute_score(rules).percent == doctest::Approx(0.0));
}

TEST_CASE("exit status: with --fail-on never an error is 3, also next to a fail") {
  std::vector<report::RuleResult> rules(2);
  rules[0].kind = "technical", rules[0].verdict = Verdict::fail;
  rules[1].kind = "technical", rules[1].verdict = Verdict::error;
  report::Report r;
  r.rules = rules;
  CHECK(report::exit_status(r, report::FailOn::fail) == 1);
  CHECK(report::exit_status(r, report::FailOn::warn) == 1);
  CHECK(report::exit_status(r, report::FailOn::never) == 3);
  r.rules[1].verdict = Verdict::pass;
  CHECK(report::exit_status(r, report::FailOn::never) == 0);
}

TEST_CASE("text and JSON: the leading notes come first, a missing percent is n/a and null") {
  report::Report r;
  r.base_url = "https://127.0.0.1:1/v1";
  r.notes = {"could not reach https://127.0.0.1:1/v1: connection refused", "not probed: /a/{id}: no value for id"};
  r.leading_notes = 1;
  r.unreachable = true;
  report::RuleResult rule;
  rule.id = "/core/version-header";
  rule.kind = "technical";
  rule.title = "Return the full version number in a response header";
  rule.verdict = Verdict::error;
  rule.checks = {{"VH-1", Verdict::error, "GET /v1: Failed to connect to 127.0.0.1 port 1: Connection refused", {1}},
                 {"VH-3", Verdict::skip, "no API-Version header on the base URL response (see VH-1)", {}}};
  r.rules = {rule};
  r.score = report::compute_score(r.rules);
  report::RenderOptions plain;
  plain.color = false;
  std::string text = report::render("text", r, plain);
  auto top = text.find("could not reach https://127.0.0.1:1/v1: connection refused");
  REQUIRE(top != std::string::npos);
  CHECK(text.find("could not reach", top + 1) == std::string::npos);  // once
  CHECK(text.find("Failed to connect") == std::string::npos);         // the error lines are the top line's
  // Down: one entry, not a line per rule (CLI.md, "Nightly monitoring"); -v lists them.
  CHECK(text.find("Technical rules") == std::string::npos);
  auto down = text.find("DOWN   1 technical rule and 0 functional rules not judged (-v lists them)");
  REQUIRE(down != std::string::npos);
  CHECK(down > top);
  CHECK(text.find("VH-3 skip") == std::string::npos);
  CHECK(text.find("not probed: /a/{id}") > text.find("Notes"));
  CHECK(text.find("Score  n/a  the target is down") != std::string::npos);
  report::RenderOptions verbose = plain;
  verbose.verbosity = 1;
  std::string full = report::render("text", r, verbose);
  CHECK(full.find("Technical rules") != std::string::npos);
  CHECK(full.find("VH-3 skip") != std::string::npos);
  std::string json = report::render("json", r, plain);
  CHECK(json.find("\"percent\": null") != std::string::npos);
  CHECK(json.find("\"notes\": [\n    \"could not reach") != std::string::npos);
}


namespace {
report::RuleResult conclusion_rule(std::string id, std::string kind, std::string level, Verdict v) {
  report::RuleResult r;
  r.id = std::move(id);
  r.kind = std::move(kind);
  r.level = std::move(level);
  r.verdict = v;
  return r;
}
}  // namespace

TEST_CASE("conclusion: a failing MUST rule makes the report not conform; SHOULD failures are deviations") {
  report::Report r;
  r.edition = "2.2.0";
  r.rules = {conclusion_rule("/core/a", "technical", "MUST", Verdict::fail),
             conclusion_rule("/core/b", "technical", "MUST", Verdict::fail),
             conclusion_rule("/core/c", "technical", "SHOULD", Verdict::fail),
             conclusion_rule("/core/d", "technical", "MUST", Verdict::warn),
             conclusion_rule("/core/e", "technical", "MUST", Verdict::pass),
             conclusion_rule("/core/f", "functional", "MUST", Verdict::manual),
             conclusion_rule("/core/g", "functional", "SHOULD", Verdict::manual)};
  auto c = report::conclude(r);
  REQUIRE(c.conforms.has_value());
  CHECK_FALSE(*c.conforms);
  CHECK(c.must_failed == 2);
  CHECK(c.should_failed == 1);
  CHECK(c.warned == 1);
  CHECK(c.errors == 0);
  CHECK(c.functional_pending == 2);
  CHECK(c.text.rfind("Does not conform to 2.2.0: 2 MUST rules fail (/core/a, /core/b)", 0) == 0);
  CHECK(c.text.find("1 SHOULD rule fails, a deviation (/core/c)") != std::string::npos);
  CHECK(c.text.find("2 functional rules await a reviewer") != std::string::npos);
}

TEST_CASE("conclusion: an error with no MUST failure is null (not established); none is true") {
  report::Report r;
  r.edition = "2.0.0";
  r.rules = {conclusion_rule("/core/a", "technical", "MUST", Verdict::error),
             conclusion_rule("/core/c", "technical", "SHOULD", Verdict::fail),
             conclusion_rule("/core/f", "functional", "MUST", Verdict::manual)};
  auto c = report::conclude(r);
  CHECK_FALSE(c.conforms.has_value());
  CHECK(c.errors == 1);
  CHECK(c.text.find("could not be established") != std::string::npos);
  r.rules[0].verdict = Verdict::pass;
  c = report::conclude(r);
  REQUIRE(c.conforms.has_value());
  CHECK(*c.conforms);
  CHECK(c.should_failed == 1);
  CHECK(c.text.rfind("Conforms to 2.0.0 in its technical rules", 0) == 0);
  CHECK(c.text.find("1 functional rule awaits a reviewer") != std::string::npos);
}

TEST_CASE("down: a rule that failed without an answer fails the report; the others are not judged") {
  // TS-1 on an http:// base URL fails by the scheme alone (probes.md: fail > error).
  report::Report r;
  r.edition = "2.0.0";
  r.base_url = "http://127.0.0.1:1/v1";
  r.unreachable = true;
  r.notes = {"could not reach http://127.0.0.1:1/v1: connection refused"};
  r.leading_notes = 1;
  r.rules = {conclusion_rule("/core/transport-security", "technical", "MUST", Verdict::fail),
             conclusion_rule("/core/version-header", "technical", "MUST", Verdict::error),
             conclusion_rule("/core/naming-resources", "functional", "MUST", Verdict::manual)};
  r.rules[0].title = "Apply the transport security module";
  r.rules[0].checks = {{"TS-1", Verdict::fail, "the base URL is http://: connections must use TLS (https://)"},
                       {"TS-5", Verdict::error, "GET /v1: Connection refused", {1}}};
  r.rules[1].checks = {{"VH-1", Verdict::error, "GET /v1: Connection refused", {1}}};
  r.score = report::compute_score(r.rules);
  auto c = report::conclude(r);
  CHECK(c.conforms == std::optional<bool>(false));
  CHECK(c.must_failed == 1);
  CHECK(c.text ==
        "Does not conform to 2.0.0: 1 MUST rule fails (/core/transport-security); the target is down: 1 technical rule "
        "could not be judged (/core/version-header); 1 functional rule awaits a reviewer.");
  CHECK(report::exit_status(r, report::FailOn::fail) == 1);
  CHECK(r.score.percent == std::optional<double>(0.0));
  report::RenderOptions plain;
  plain.color = false;
  std::string text = report::render("text", r, plain);
  // One entry for the down target, then the rule that failed with its check; no error lines.
  CHECK(text.find("DOWN   1 technical rule and 1 functional rule not judged (-v lists them)") != std::string::npos);
  CHECK(text.find("FAIL   /core/transport-security") != std::string::npos);
  CHECK(text.find("TS-1 fail the base URL is http://") != std::string::npos);
  CHECK(text.find("Connection refused") == std::string::npos);
  CHECK(text.find("/core/version-header") == text.find("/core/version-header)"));  // in the conclusion only
  CHECK(text.find("Score  0.0 %  the target is down: 1 fail · 1 not judged") != std::string::npos);
  std::string markdown = report::render("markdown", r, plain);
  CHECK(markdown.find("**down: could not reach") != std::string::npos);
  CHECK(markdown.find("- ❌ **TS-1** fail /core/transport-security: the base URL is http") != std::string::npos);
  CHECK(markdown.find("| Rule |") == std::string::npos);
}

TEST_CASE("conclusion: a down target is null; rules not selected count nowhere") {
  report::Report r;
  r.edition = "2.2.0";
  r.unreachable = true;
  r.notes = {"could not reach http://127.0.0.1:1/v1: connection refused"};
  r.leading_notes = 1;
  r.rules = {conclusion_rule("/core/a", "technical", "MUST", Verdict::error)};
  auto c = report::conclude(r);
  CHECK_FALSE(c.conforms.has_value());
  CHECK(c.text.find("the target is down") != std::string::npos);
  report::Report s;
  s.edition = "2.2.0";
  auto skipped = conclusion_rule("/core/f", "functional", "MUST", Verdict::skip);
  skipped.summary = "not selected";
  s.rules = {conclusion_rule("/core/a", "technical", "MUST", Verdict::pass), skipped};
  c = report::conclude(s);
  CHECK(c.functional_pending == 0);
  CHECK(c.conforms == std::optional<bool>(true));
}

TEST_CASE("judged headers line: present, absent, no response") {
  http::Exchange e;
  e.id = 1;
  e.method = "GET";
  e.url = "https://x/v1/a";
  e.status = 404;
  e.response_headers["content-type"] = "text/html";
  CHECK(report::judged_headers_line(e, {"content-type"}) == "content-type: text/html");
  CHECK(report::judged_headers_line(e, {"content-type", "x-frame-options"}) ==
        "content-type: text/html · x-frame-options: (none)");
  CHECK(report::judged_headers_line(e, {}).empty());
  e.status.reset();
  CHECK(report::judged_headers_line(e, {"content-type"}).empty());
}

TEST_CASE("find_exchange: ids are positions; a hand-numbered report is still searched") {
  report::Report r;
  for (int id : {1, 2, 3}) {
    http::Exchange e;
    e.id = id;
    r.exchanges.push_back(e);
  }
  CHECK(report::find_exchange(r, 2) == &r.exchanges[1]);
  CHECK(report::find_exchange(r, 4) == nullptr);
  CHECK(report::find_exchange(r, 0) == nullptr);
  r.exchanges[0].id = 7;
  CHECK(report::find_exchange(r, 7) == &r.exchanges[0]);
}

TEST_CASE("slim: a report record keeps 2 KiB of a body it shows, at a character boundary, and none else") {
  http::Exchange ok;
  ok.status = 200;
  ok.body = "{\"a\": 1}";
  ok.purpose = "HM-1,NT-2";
  report::slim(ok);
  CHECK(ok.body.empty());
  CHECK(ok.purpose.empty());
  http::Exchange judged;
  judged.status = 200;
  judged.body = "{}";
  (void)judged.judged_body();
  report::slim(judged);
  CHECK(judged.body == "{}");
  CHECK_FALSE(judged.body_truncated);
  http::Exchange error;
  error.status = 500;
  error.body = std::string(2047, 'x') + "é and more";  // é straddles byte 2048
  report::slim(error);
  CHECK(error.body == std::string(2047, 'x'));
  CHECK(error.body_truncated);
}
