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
  rule.checks.back().details = {"#/a/$ref → 'https://h/x.json?k=s3cret-token-value' (GET ... → 404)"};
  r.rules.push_back(rule);
  report::Redactor red({{"Authorization", "Bearer s3cret-token-value"}, {"X-Debug", "1"}});
  red.apply(r);
  std::string json = report::render_json(r, {});
  CHECK(json.find("s3cret") == std::string::npos);
  CHECK(r.exchanges[0].request_headers[1].second == "***");  // short value: masked in its own header
  CHECK(r.base_url == "https://h/v1");                        // ... and nowhere else
}
