#include <doctest/doctest.h>

#include "report/formats.hpp"
#include "report/redact.hpp"

using namespace adrprobe;
using report::Verdict;

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
  std::string json = report::render_json(r, {});
  CHECK(json.find("s3cret") == std::string::npos);
  CHECK(r.exchanges[0].request_headers[1].second == "***");  // short value: masked in its own header
  CHECK(r.base_url == "https://h/v1");                        // ... and nowhere else
}

TEST_CASE("redaction: a short value echoed whole is masked; lowercase percent-encoding too") {
  report::Report r;
  http::Exchange e;
  e.id = 1;
  e.url = "https://h/v1";
  e.response_headers = {{"x-echo-x-key", "ab1"}, {"x-echo-auth", "tok%2fen-value%2f1"}};
  r.exchanges.push_back(e);
  report::Redactor({{"X-Key", "ab1"}, {"Authorization", "tok/en-value/1"}}).apply(r);
  std::string out = report::render_json(r, {});
  CHECK(out.find("ab1") == std::string::npos);
  CHECK(out.find("tok") == std::string::npos);
}

TEST_CASE("redaction: a mask never completes a value with the text around it") {
  // Found by tests/fuzz/fuzz_redact: "**ab" in "**abab" became "***ab".
  report::Redactor one({{"X-Key", "**ab"}, {"X-Other", "unrelated"}});
  CHECK(one.apply("**abab").find("**ab") == std::string::npos);
  CHECK(one.apply("x**ab**ababy").find("**ab") == std::string::npos);
  // ... nor another value: masking the second value formed the first.
  report::Redactor two({{"X-A", "*\xff" "aa"}, {"X-B", "a\f\xff\xff"}});
  std::string out = two.apply("a\f\xff\xff\xff" "aa");
  CHECK(out.find("*\xff" "aa") == std::string::npos);
  CHECK(out.find("a\f\xff\xff") == std::string::npos);
  CHECK(report::Redactor({{"X-Key", "s3cret"}, {"X-Other", "unrelated"}}).apply("a s3cret b") == "a *** b");
}
