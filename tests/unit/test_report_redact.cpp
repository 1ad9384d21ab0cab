#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstring>

#include "report/formats.hpp"
#include "report/redact.hpp"
#include "../base64_scan.hpp"
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
  // ... nor one mask after the other, however many (found by fuzz_redact: a bound of 16 passes let one through).
  report::Redactor ticks(std::vector<http::Header>{{"X-Key", "*```"}, {"X-Other", "unrelated"}});
  CHECK(ticks.apply("x*" + std::string(90, '`') + "aa").find("*```") == std::string::npos);
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

namespace {

std::string url_safe(std::string s) {
  for (char& c : s) c = c == '+' ? '-' : c == '/' ? '_' : c;
  return s;
}

}  // namespace

TEST_CASE("redaction: a value in a response header name, lower-cased as names are stored") {
  report::Report r;
  http::Exchange e;
  e.id = 1;
  e.url = "https://h/v1";
  // The issue's key, and one whose upper-case letters the lower-casing changed.
  e.response_headers = {{"x-9f3ad2c4e1b07a55", "1"}, {"x-tok7kq2xv9lp4tzw", "2"}, {"x-ok", "3"}};
  r.exchanges.push_back(e);
  report::Redactor({{"X-Api-Key", "9f3ad2c4e1b07a55"}, {"X-Other", "Tok7Kq2Xv9Lp4Tzw"}}).apply(r);
  const auto& h = r.exchanges[0].response_headers;
  // Both names are now "x-***": two lines of one field, joined in the JSON report as a repeated one is.
  CHECK(h.size() == 3);
  CHECK(h.joined("x-***") == "1, 2");
  CHECK(h.joined("x-ok") == "3");
  CHECK(report::render("json", r).find("\"x-***\": \"1, 2\"") != std::string::npos);
  for (const auto& format : {"json", "html", "text", "markdown", "junit", "sarif", "gitlab"}) {
    std::string out = report::render(format, r);
    CHECK(out.find("9f3ad2c4e1b07a55") == std::string::npos);
    CHECK(out.find("tok7kq2xv9lp4tzw") == std::string::npos);
  }
}

TEST_CASE("redaction: locations (JSON pointers), details and every evidence field") {
  report::Redactor red({{"X-Api-Key", "9f3ad2c4e1b07a55"}, {"X-Key", "k3y/v4lue~1x"}});
  red.add_url("https://user:p%40ss-w0rd@api.example.nl/v1");
  const std::string basic = "Basic " + base64_encode("user:p@ss-w0rd");
  auto pointer = [](std::string s) { return replace_all(replace_all(std::move(s), "~", "~0"), "/", "~1"); };
  report::Report r;
  r.name = "register name with 9f3ad2c4e1b07a55";
  report::RuleResult rule;
  rule.id = "/core/x";
  rule.kind = "technical";
  rule.checks.push_back({"KC-1", Verdict::fail, "segment 'Upper' of /k/***/Upper"});
  auto& c = rule.checks.back();
  c.locations = {{"/paths/~1k~19f3ad2c4e1b07a55~1Upper", 3, ""},
                 {"/paths/~1k~1" + pointer("k3y/v4lue~1x") + "~1Upper", std::nullopt, ""},
                 {"/paths/~1k~1" + pointer(basic) + "~1Upper", std::nullopt, ""},
                 {"/paths/~1k~1" + pointer(percent_encode("k3y/v4lue~1x")) + "~1Upper", std::nullopt, ""}};
  c.details = {"/k/9f3ad2c4e1b07a55/Upper", "/k/" + basic + "/Upper"};
  r.rules.push_back(rule);
  r.run = report::RunInfo{};
  r.run->user_agent = "agent 9f3ad2c4e1b07a55";
  tls::Facts t;
  t.host = "api.example.nl";
  t.error = "handshake: 9f3ad2c4e1b07a55";
  t.chain.push_back(tls::Certificate{});
  t.chain[0].subject = "CN=9f3ad2c4e1b07a55";
  r.tls = t;
  red.apply(r);
  const auto& locations = r.rules[0].checks[0].locations;
  CHECK(locations[0].pointer == "/paths/~1k~1***~1Upper");
  CHECK(locations[0].line == 3);
  CHECK(locations[1].pointer == "/paths/~1k~1***~1Upper");
  CHECK(locations[2].pointer == "/paths/~1k~1Basic ***~1Upper");
  CHECK(locations[3].pointer == "/paths/~1k~1***~1Upper");
  CHECK(r.rules[0].checks[0].details[0] == "/k/***/Upper");
  CHECK(r.rules[0].checks[0].details[1] == "/k/Basic ***/Upper");
  CHECK(*r.name == "register name with ***");
  CHECK(r.run->user_agent == "agent ***");
  CHECK(r.tls->error == "handshake: ***");
  CHECK(r.tls->chain[0].subject == "CN=***");
  for (const auto& format : {"json", "html", "text", "markdown", "junit", "sarif", "gitlab", "openmetrics"}) {
    std::string out = report::render(format, r);
    INFO(format);
    CHECK(out.find("9f3ad2c4e1b07a55") == std::string::npos);
    CHECK(out.find("v4lue") == std::string::npos);
    CHECK(out.find(base64_encode("user:p@ss-w0rd").substr(0, 12)) == std::string::npos);
  }
}

TEST_CASE("redaction: base64 of a value wherever it stands in the encoded data") {
  const std::string secret = "hdr+Sec/ret=Q7x9Kp2m";
  report::Redactor red({{"X-Api-Key", secret}});
  // The value after 0, 1 and 2 bytes (and so after any number), with bytes after it.
  for (std::string before : {"", "x", "xy", "{\"key\": \"", "{\"k\": \"", "{\"ky\": \""}) {
    for (std::string after : {"", "\"}", "!", "ab"}) {
      const std::string encoded = base64_encode(before + secret + after);
      INFO(before, " + secret + ", after, " = ", encoded);
      for (const std::string& text : {encoded, "body " + encoded + " end", url_safe(encoded),
                                      percent_encode(encoded), to_lower(percent_encode(encoded))}) {
        std::string out = red.apply(text);
        CHECK(out.find("***") != std::string::npos);
        CHECK(!adrprobe::testing::base64_holds(out, secret));
      }
    }
  }
  // in a pointer (base64 has '/': ~1)
  const std::string b64 = base64_encode("{\"k\": \"" + secret + "\"}");
  std::string escaped = replace_all(b64, "/", "~1");
  CHECK(!adrprobe::testing::base64_holds(replace_all(red.apply("/paths/~1e~1" + escaped), "~1", "/"), secret));
}

TEST_CASE("redaction: base64 parts are long enough to leave innocent text alone") {
  // A 4-byte value: its shifted encodings have 4 and 5 characters that depend
  // on it alone, too few to mask inside other base64 (a 24-bit match happens
  // by chance); only its aligned encoding is masked.
  report::Redactor red(std::vector<http::Header>{{"X-Key", "abcd"}});
  const std::string shifted = base64_encode("x" + std::string("abcd") + "yz");  // eGFiY2R5eg==
  CHECK(red.apply(shifted) == shifted);
  CHECK(red.apply("is " + base64_encode("abcd") + ".") == "is ***.");
  // Ordinary words, paths and numbers stay as they are.
  report::Redactor long_key({{"X-Api-Key", "9f3ad2c4e1b07a55"}, {"Authorization", "Bearer s3cret-token-value"}});
  const std::string plain = "GET https://api.example.nl/v1/gebouwen?page=2 → 404 Not Found; 2024-05-01T12:00:00Z";
  CHECK(long_key.apply(plain) == plain);
}

TEST_CASE("redaction: overlapping values are masked as one, and many values cost one pass") {
  report::Redactor red({{"X-A", "abcd1234"}, {"X-B", "1234wxyz"}});
  CHECK(red.apply("<abcd1234wxyz>") == "<***>");
  CHECK(red.apply("abcd1234 1234wxyz") == "*** ***");
  // A batch holds every target's values: 2,000 of them, over a 1 MB body.
  std::vector<http::Header> many;
  for (int i = 0; i < 2000; ++i) many.push_back({"X-Key", fmt::format("key-{:06d}-{:08x}", i, i * 2654435761u)});
  report::Redactor batch(many);
  std::string body(1 << 20, 'a');
  body.replace(500000, 22, "key-001999-" + fmt::format("{:08x}", 1999 * 2654435761u).substr(0, 8) + "...");
  std::string out = batch.apply(body);
  CHECK(out.size() == body.size() - 19 + 3);
  CHECK(out.find("key-001999") == std::string::npos);
}

TEST_CASE("redaction: a body cut in the middle of a secret does not keep its start") {
  report::Report r;
  http::Exchange e;
  e.id = 1;
  e.url = "https://h/v1";
  e.status = 500;
  e.body = std::string(2040, 'x') + "s3cret-t";  // "s3cret-token-value", cut after 8 bytes
  e.body_truncated = true;
  r.exchanges.push_back(e);
  http::Exchange whole = e;
  whole.id = 2;
  whole.body = "ends in s3c";  // not cut: an ordinary text that happens to end like a secret begins
  whole.body_truncated = false;
  r.exchanges.push_back(whole);
  report::Redactor(std::vector<http::Header>{{"Authorization", "Bearer s3cret-token-value"}}).apply(r);
  CHECK(r.exchanges[0].body == std::string(2040, 'x') + "***");
  CHECK(r.exchanges[1].body == "ends in s3c");
}

TEST_CASE("redaction: a value echoed in the escaped forms of JSON, URL and HTML libraries") {
  // "hdr+Sec/ret=Q7x9Kp2m" as PHP's json_encode, .NET's JSON, Python's
  // urllib.parse.quote (keeps '/') and quote_plus, and HTML character references.
  report::Redactor red({{"X-Api-Key", "hdr+Sec/ret=Q7x9Kp2m"}, {"Authorization", "Bearer tok en+val/ue99"}});
  for (const char* text : {
           R"({"key":"hdr+Sec\/ret=Q7x9Kp2m"})",            // PHP json_encode
           R"({"key":"hdr\u002BSec\u002Fret\u003DQ7x9Kp2m"})",  // .NET, upper-case hex
           R"({"key":"hdr\u002bSec/ret\u003dQ7x9Kp2m"})",      // lower-case hex
           R"({"key":"hdr\u002BSec/ret=Q7x9Kp2m"})",            // only '+' escaped: a segment stands plain
           "you sent hdr%2BSec/ret%3DQ7x9Kp2m",                  // urllib.parse.quote
           "you sent hdr%2BSec%2Fret%3DQ7x9Kp2m&x=1",            // quote_plus
           "<p>hdr&#43;Sec&#x2F;ret&#61;Q7x9Kp2m</p>",           // HTML, numeric
           "<p>hdr&plus;Sec&sol;ret&equals;Q7x9Kp2m</p>",        // HTML, named
           "<p>hdr&#x2b;Sec&#X2f;ret=Q7x9Kp2m</p>",
       }) {
    std::string out = red.apply(std::string(text));
    CAPTURE(text);
    CAPTURE(out);
    CHECK(out.find("Q7x9Kp2m") == std::string::npos);
    CHECK(out.find("Sec") == std::string::npos);  // no part of it: a segment masked alone would leave "hdr\u002BSec/***"
    CHECK(out.find("***") != std::string::npos);
  }
  // A space written as '+' by a form's encoding (quote_plus), the value's own '+' as %2B.
  std::string plus = red.apply(std::string("auth=Bearer+tok+en%2Bval%2Fue99;"));
  CHECK(plus.find("ue99") == std::string::npos);
  CHECK(plus.rfind("auth=", 0) == 0);
  CHECK(plus.back() == ';');
  // A JSON escape of a character beyond the BMP (a surrogate pair), and the text around a match kept.
  report::Redactor emoji(std::vector<http::Header>{{"X-Key", "key-\xF0\x9F\x98\x80-value"}});
  std::string escaped = emoji.apply(std::string(R"(before "key-\ud83d\ude00-value" after)"));
  CHECK(escaped == R"(before "***" after)");
  // Text without any of the value stays as it is, escapes and all.
  std::string innocent = R"({"a":"x\/y","b":"%2B&amp;+"})";
  CHECK(red.apply(innocent) == innocent);
}

TEST_CASE("redaction: the parts a header's syntax separates are secrets of their own") {
  report::Redactor red({{"Cookie", "theme=dark; sid=SIDabcdef123456"},
                        {"Authorization", "Basic " + base64_encode("alice:Pa55w0rdSecret")},
                        {"X-Api-Key", "Abcdefghij/klmnopqrstu+v=="}});
  CHECK(red.apply(std::string("session SIDabcdef123456 expired")) == "session *** expired");
  CHECK(red.apply(std::string("theme=dark; x")) == "theme=dark; x");  // a short part is no secret
  CHECK(red.apply(std::string("user alice:Pa55w0rdSecret")) == "user ***");
  CHECK(red.apply(std::string("password Pa55w0rdSecret")) == "password ***");
  // A segment between '/' (KC-1 quotes the segment of a path that holds the value).
  CHECK(red.apply(std::string("uppercase letters in 'Abcdefghij'")) == "uppercase letters in '***'");
  CHECK(red.apply(std::string("segment klmnopqrstu+v==")) == "segment ***");
  // Basic's own base64 is masked whole as before.
  CHECK(red.apply("Basic " + base64_encode("alice:Pa55w0rdSecret")).find("Pa55") == std::string::npos);
}

TEST_CASE("redaction: a proxy's credentials, from the environment libcurl reads") {
  report::Redactor red(std::vector<http::Header>{});
  CHECK(red.empty());
  red.add_proxy("http://proxyuser:pr0xy%2Fpass@127.0.0.1:3128");
  red.add_proxy("socks5://127.0.0.1:1080");  // no credentials: nothing
  red.add_proxy("other:pw-without-scheme-99@proxy.example:8080");
  CHECK_FALSE(red.empty());
  CHECK_FALSE(red.url_password());  // not a URL the user gave: no note about it
  std::string basic = base64_encode("proxyuser:pr0xy/pass");
  report::Report r;
  http::Exchange e;
  e.id = 1;
  e.url = "http://127.0.0.1:8080/v1";
  e.request_headers = {{"Host", "127.0.0.1:8080"}, {"Proxy-Authorization", "Basic " + basic}};
  e.response_headers = {{"x-echo", "Basic " + basic}, {"via", "proxyuser:pr0xy/pass"}};
  e.body = "denied for other:pw-without-scheme-99 and pr0xy%2Fpass";
  r.exchanges.push_back(e);
  red.apply(r);
  CHECK(r.exchanges[0].request_headers[1].second == "***");
  CHECK(r.exchanges[0].request_headers[0].second == "127.0.0.1:8080");
  std::string json = report::render("json", r);
  CHECK(json.find("Proxy-Authorization") != std::string::npos);
  CHECK(json.find(basic) == std::string::npos);
  CHECK(json.find("pr0xy") == std::string::npos);
  CHECK(json.find("pw-without-scheme") == std::string::npos);
  CHECK(red.apply(std::string("http://proxyuser:pr0xy%2Fpass@127.0.0.1:3128")) == "http://proxyuser:***@127.0.0.1:3128");
}
