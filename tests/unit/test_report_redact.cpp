#include <doctest/doctest.h>

#include "report/formats.hpp"
#include "report/redact.hpp"
#include "util/strings.hpp"

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
  std::string json = report::render("json", r);
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
  std::string out = report::render("json", r);
  CHECK(out.find("ab1") == std::string::npos);
  CHECK(out.find("tok") == std::string::npos);
}

TEST_CASE("redaction: the password of a URL given, in every form it can take") {
  report::Redactor red(std::vector<http::Header>{});
  CHECK(red.empty());
  red.add_url("https://api.example.nl/v1");  // no password: nothing to mask
  CHECK(red.empty());
  CHECK_FALSE(red.url_password());
  red.add_url("https://user:p%40ss-w0rd@api.example.nl/v1");
  CHECK(red.url_password());
  CHECK(red.apply("https://user:p%40ss-w0rd@api.example.nl/v1/x") == "https://user:***@api.example.nl/v1/x");
  CHECK(red.apply("echo p@ss-w0rd") == "echo ***");                   // decoded
  CHECK(red.apply("echo P%40SS-W0RD p%40ss-w0rd") == "echo P%40SS-W0RD ***");
  report::Report r;
  http::Exchange e;
  e.id = 1;
  e.url = "https://user:p%40ss-w0rd@api.example.nl/v1";
  e.response_headers = {{"x-echo-authorization", "Basic dXNlcjpwQHNzLXcwcmQ="}, {"x-pw", "p@ss-w0rd"}};
  r.exchanges.push_back(e);
  r.base_url = e.url;
  red.apply(r);
  std::string json = report::render("json", r, {});
  CHECK(json.find("w0rd") == std::string::npos);
  CHECK(json.find("dXNlcjpwQHNzLXcwcmQ") == std::string::npos);
  CHECK(r.base_url == "https://user:***@api.example.nl/v1");

  report::Redactor short_pw(std::vector<http::Header>{});
  short_pw.add_url("http://u:ab@h/v1");  // too short to mask inside other text, masked in the userinfo
  CHECK(short_pw.apply("http://u:ab@h/v1/tab") == "http://u:***@h/v1/tab");
}

TEST_CASE("redaction: a mask never completes a value with the text around it") {
  // Found by tests/fuzz/fuzz_redact: "**ab" in "**abab" became "***ab".
  report::Redactor one(std::vector<http::Header>{{"X-Key", "**ab"}, {"X-Other", "unrelated"}});
  CHECK(one.apply("**abab").find("**ab") == std::string::npos);
  CHECK(one.apply("x**ab**ababy").find("**ab") == std::string::npos);
  // ... nor another value: masking the second value formed the first.
  report::Redactor two(std::vector<http::Header>{{"X-A", "*\xff" "aa"}, {"X-B", "a\f\xff\xff"}});
  std::string out = two.apply("a\f\xff\xff\xff" "aa");
  CHECK(out.find("*\xff" "aa") == std::string::npos);
  CHECK(out.find("a\f\xff\xff") == std::string::npos);
  CHECK(report::Redactor(std::vector<http::Header>{{"X-Key", "s3cret"}, {"X-Other", "unrelated"}}).apply("a s3cret b") == "a *** b");
}

TEST_CASE("redaction: a value passed on base64-encoded is masked too") {
  report::Redactor red({{"Authorization", "Bearer s3cret-token-value"}, {"X-Key", "k3y/v4lue+1"}});
  red.add_url("https://user:p%40ss-w0rd@api.example.nl/v1");
  const std::string bearer = base64_encode("Bearer s3cret-token-value");
  const std::string key = base64_encode("k3y/v4lue+1");
  const std::string basic = base64_encode("Basic " + base64_encode("user:p@ss-w0rd"));
  CHECK(red.apply("x-echo-b64: " + bearer) == "x-echo-b64: ***");
  CHECK(red.apply("x-echo-b64: " + key) == "x-echo-b64: ***");
  CHECK(red.apply("x-echo-b64: " + basic) == "x-echo-b64: ***");
  report::Report r;
  http::Exchange e;
  e.id = 1;
  e.url = "https://api.example.nl/v1";
  e.response_headers = {{"x-echo-b64-authorization", bearer}, {"x-echo-b64-x-key", key}, {"x-echo-b64-auth", basic}};
  r.exchanges.push_back(e);
  red.apply(r);
  for (const auto& [name, value] : r.exchanges[0].response_headers) CHECK(value == "***");
  // inside other text, percent-encoded ('+', '/', '=' of base64), without its padding
  const std::string pct = percent_encode("Basic " + base64_encode("user:p@ss-w0rd"));
  CHECK(red.apply("/next?echo=" + pct + "%3B%20x") == "/next?echo=Basic%20***%3B%20x");
  CHECK(red.apply("/next?echo=" + to_lower(pct)).find("dXNlcjpw") == std::string::npos);
  std::string unpadded = key;
  while (unpadded.back() == '=') unpadded.pop_back();
  CHECK(red.apply("k=" + unpadded + "&x") == "k=***&x");
}
