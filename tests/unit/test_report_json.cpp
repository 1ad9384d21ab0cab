// The JSON report read back (--baseline, adrprobe diff, adrprobe summary):
// what render_json writes, parse_json_report reads; anything else is a clear
// error, never a crash.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "catalogue/catalogue.hpp"
#include "report/baseline.hpp"
#include "report/formats.hpp"
#include "report/json.hpp"

using namespace adrprobe;
using report::Verdict;

namespace {
report::Report json_sample() {
  report::Report r;
  r.tool_version = "0.3.0";
  r.base_url = "https://user:***@api.example.nl/v1";
  r.openapi_url = "https://api.example.nl/v1/openapi.json";
  r.name = "bag \"prod\"";
  r.edition = "2.0.0";
  r.edition_name = "REST API Design Rules 2.0.0";
  r.generated_at = "2026-11-22T02:00:00Z";
  r.duration_ms = 1234;
  report::RuleResult nts;
  nts.id = "/core/no-trailing-slash";
  nts.aliases = {"API-48"};
  nts.title = "Leave off trailing slashes from URIs";
  nts.kind = "technical";
  nts.level = "MUST";
  nts.url = "https://example.nl/#/core/no-trailing-slash";
  nts.verdict = Verdict::fail;
  nts.summary = "a slash \x1b[31m served";
  nts.change = "new-fail";
  report::CheckResult nt2{"NT-2", Verdict::fail, "GET /v1/a/ served (200)", {1, 2}};
  nt2.details = {"/a/", "/b/"};
  nts.checks = {nt2, {"NT-1", Verdict::pass, "ok"}};
  report::RuleResult geo;
  geo.id = "/core/geospatial";
  geo.aliases = {"/core/modules/geospatial"};
  geo.title = "Geo";
  geo.kind = "functional";
  geo.verdict = Verdict::manual;
  geo.hints = {"no GeoJSON seen"};
  geo.review = "look at the payloads";
  r.rules = {nts, geo};
  r.score = report::compute_score(r.rules);
  r.notes = {"could not reach the API", "second note"};
  return r;
}
}  // namespace

TEST_CASE("json report: render_json → parse_json_report keeps what a baseline and a summary need") {
  auto r = json_sample();
  auto back = report::parse_json_report(report::render("json", r));
  CHECK(back.tool_version == "0.3.0");
  CHECK(back.base_url == r.base_url);
  CHECK(back.openapi_url == r.openapi_url);
  CHECK(back.name == r.name);
  CHECK(back.edition == "2.0.0");
  CHECK(back.generated_at == r.generated_at);
  CHECK(back.duration_ms == 1234);
  CHECK(back.score.fail == 1);
  CHECK(back.score.applicable == 1);
  REQUIRE(back.score.percent);
  CHECK(*back.score.percent == doctest::Approx(*r.score.percent));
  REQUIRE(back.rules.size() == 2);
  const auto& a = back.rules[0];
  CHECK(a.id == "/core/no-trailing-slash");
  CHECK(a.aliases == std::vector<std::string>{"API-48"});
  CHECK(a.title == "Leave off trailing slashes from URIs");
  CHECK(a.kind == "technical");
  CHECK(a.level == "MUST");
  CHECK(a.url == "https://example.nl/#/core/no-trailing-slash");
  CHECK(a.verdict == Verdict::fail);
  CHECK(a.summary == "a slash \x1b[31m served");  // JSON carries it escaped, reading gives it back
  CHECK(a.change == "new-fail");
  REQUIRE(a.checks.size() == 2);
  CHECK(a.checks[0].id == "NT-2");
  CHECK(a.checks[0].verdict == Verdict::fail);
  CHECK(a.checks[0].message == "GET /v1/a/ served (200)");
  CHECK(a.checks[0].exchanges == std::vector<int>{1, 2});
  CHECK(a.checks[0].details == std::vector<std::string>{"/a/", "/b/"});
  CHECK(a.checks[1].verdict == Verdict::pass);
  const auto& g = back.rules[1];
  CHECK(g.kind == "functional");
  CHECK(g.verdict == Verdict::manual);
  CHECK(g.hints == std::vector<std::string>{"no GeoJSON seen"});
  CHECK(g.review == "look at the payloads");
  CHECK_FALSE(g.change);
  CHECK(back.notes == r.notes);
  CHECK(back.mode == "check");
}

TEST_CASE("json report: failing_since and down_since read back; reports of earlier versions have none") {
  auto r = json_sample();
  r.rules[0].failing_since = "2026-11-20T02:00:00Z";
  auto text = report::render("json", r);
  auto j = nlohmann::json::parse(text);
  CHECK(j["rules"][0]["failing_since"] == "2026-11-20T02:00:00Z");
  CHECK(j["rules"][1]["failing_since"].is_null());  // every rule carries it: null when it does not fail
  CHECK_FALSE(j.contains("down_since"));
  auto back = report::parse_json_report(text);
  CHECK(back.rules[0].failing_since == "2026-11-20T02:00:00Z");
  CHECK_FALSE(back.rules[1].failing_since);

  r.unreachable = true;
  r.down_since = "2026-11-21T02:00:00Z";
  r.last_up = report::LastUp{"2026-11-20T02:00:00Z", "2.0.0", r.base_url, {r.rules[0]}};
  j = nlohmann::json::parse(report::render("json", r));
  CHECK(j["down_since"] == "2026-11-21T02:00:00Z");
  CHECK(j["last_up"]["rules"][0]["failing_since"] == "2026-11-20T02:00:00Z");
  back = report::parse_json_report(j.dump());
  CHECK(back.down_since == "2026-11-21T02:00:00Z");
  REQUIRE(back.last_up);
  CHECK(back.last_up->rules[0].failing_since == "2026-11-20T02:00:00Z");

  // A report of an earlier version: no failing_since, no down_since, anywhere.
  j.erase("down_since");
  j["rules"][0].erase("failing_since");
  j["last_up"]["rules"][0].erase("failing_since");
  back = report::parse_json_report(j.dump());
  CHECK(back.down_since.empty());
  CHECK_FALSE(back.rules[0].failing_since);
  CHECK_FALSE(back.last_up->rules[0].failing_since);
  // A wrong type is said, as for any member.
  j["rules"][0]["failing_since"] = 7;
  CHECK_THROWS_WITH_AS(report::parse_json_report(j.dump()), doctest::Contains("failing_since"), std::runtime_error);
}

TEST_CASE("json report: secure_renegotiation is null on TLS 1.3 and without a handshake; a report that says false there still reads as a baseline") {
  report::Report r = json_sample();
  tls::Facts t;
  t.host = "api.example.nl";
  t.handshake_ok = true;
  t.protocol = "TLSv1.3";
  t.secure_renegotiation = false;  // what OpenSSL says of a TLS 1.3 handshake: no claim about anything
  r.tls = t;
  std::string text = report::render("json", r);
  CHECK(nlohmann::json::parse(text)["tls"]["secure_renegotiation"].is_null());
  r.tls->protocol = "TLSv1.2";
  CHECK(nlohmann::json::parse(report::render("json", r))["tls"]["secure_renegotiation"] == false);
  r.tls->secure_renegotiation = true;
  CHECK(nlohmann::json::parse(report::render("json", r))["tls"]["secure_renegotiation"] == true);
  // No handshake negotiated a protocol: OpenSSL's "no" is about nothing, so null.
  r.tls->handshake_ok = false;
  r.tls->protocol.clear();
  r.tls->secure_renegotiation = false;
  CHECK(nlohmann::json::parse(report::render("json", r))["tls"]["secure_renegotiation"].is_null());
  r.tls->handshake_ok = true;
  r.tls->protocol = "TLSv1.3";

  // An earlier report's TLS 1.3 table held a boolean: it is read back and compared as before.
  auto earlier = nlohmann::json::parse(text);
  earlier["tls"]["secure_renegotiation"] = false;
  report::Report before = report::parse_json_report(earlier.dump());
  REQUIRE(before.rules.size() == 2);
  CHECK(before.rules[0].verdict == Verdict::fail);
  report::Report now = json_sample();
  now.rules[0].verdict = Verdict::pass;
  now.rules[0].change.reset();
  report::apply_baseline(now, before, catalogue::Catalogue::builtin().baseline());
  CHECK(now.rules[0].change == "fixed");
}

TEST_CASE("json report: a null percent, no name, no openapi_url and a lint run read back") {
  report::Report r;
  r.mode = "lint";
  r.base_url = "";
  r.edition = "2.0.0";
  report::RuleResult rule;
  rule.id = "/core/x";
  rule.kind = "technical";
  rule.verdict = Verdict::error;
  r.rules = {rule};
  r.score = report::compute_score(r.rules);
  REQUIRE_FALSE(r.score.percent);  // no technical rule got pass, warn or fail
  auto text = report::render("json", r);
  CHECK(nlohmann::json::parse(text)["score"]["percent"].is_null());
  auto back = report::parse_json_report(text);
  CHECK_FALSE(back.score.percent);
  CHECK_FALSE(back.name);
  CHECK_FALSE(back.openapi_url);
  CHECK(back.mode == "lint");
  REQUIRE(back.rules.size() == 1);
  CHECK(back.rules[0].verdict == Verdict::error);
}

TEST_CASE("json report: what is not one is rejected with a message saying why") {
  auto rejects = [](const std::string& text, const std::string& why) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(report::parse_json_report(text), doctest::Contains(why.c_str()), std::runtime_error);
  };
  rejects("", "not JSON");
  rejects("<html>", "not JSON");
  rejects("{\"schema\": \"adrprobe-report/1\"", "not JSON");
  rejects("[]", "not an adrprobe report");
  rejects("42", "not an adrprobe report");
  rejects("{}", "not an adrprobe report");
  rejects(R"({"schema": "adrprobe-summary/1", "rules": []})", "not an adrprobe report");
  rejects(R"({"schema": 1, "rules": []})", "wrong type");
  rejects(R"({"schema": "adrprobe-report/1"})", "no \"rules\" list");
  rejects(R"({"schema": "adrprobe-report/1", "rules": {}})", "no \"rules\" list");
  rejects(R"({"schema": "adrprobe-report/1", "rules": [1]})", "not a rule");
  rejects(R"({"schema": "adrprobe-report/1", "rules": [{"verdict": "pass"}]})", "without an id");
  rejects(R"({"schema": "adrprobe-report/1", "rules": [{"id": "/a"}]})", "rule /a has no valid verdict");
  rejects(R"({"schema": "adrprobe-report/1", "rules": [{"id": "/a", "verdict": "great"}]})", "rule /a has no valid verdict");
  rejects(R"({"schema": "adrprobe-report/1", "rules": [{"id": "/a", "verdict": 3}]})", "rule /a.verdict has the wrong type");
  rejects(R"({"schema": "adrprobe-report/1", "rules": [{"id": 7, "verdict": "pass"}]})", "rule.id has the wrong type");
  rejects(R"({"schema": "adrprobe-report/1", "rules": [{"id": "/a", "verdict": "pass", "aliases": "API-1"}]})",
          "rule /a.aliases has the wrong type");
  rejects(R"({"schema": "adrprobe-report/1", "rules": [], "notes": [1, 2]})", "report.notes has the wrong type");
  rejects(R"({"schema": "adrprobe-report/1", "rules": [], "target": {"base_url": 5}})", "target.base_url has the wrong type");
  rejects(R"({"schema": "adrprobe-report/1", "rules": [], "score": {"pass": "many"}})", "score.pass has the wrong type");
  rejects(R"({"schema": "adrprobe-report/1", "rules": [{"id": "/a", "verdict": "pass",
             "checks": [{"id": "X-1", "verdict": "pass", "exchanges": ["one"]}]}]})",
          "rule /a.exchanges has the wrong type");
}

TEST_CASE("json report: odd but harmless input is read, not a crash") {
  // nulls, unknown keys, a check that is not an object, a percent that is not a number
  auto r = report::parse_json_report(R"({"schema": "adrprobe-report/1", "extra": {"x": [1]}, "tool": null,
      "target": null, "score": {"percent": "n/a"}, "notes": null,
      "rules": [{"id": "/a", "verdict": "warn", "checks": [1, {"id": "C-1", "verdict": "odd"}], "hints": null}]})");
  CHECK_FALSE(r.score.percent);
  CHECK(r.notes.empty());
  REQUIRE(r.rules.size() == 1);
  CHECK(r.rules[0].verdict == Verdict::warn);
  REQUIRE(r.rules[0].checks.size() == 1);
  CHECK(r.rules[0].checks[0].verdict == Verdict::skip);
  // deep nesting is an error message, not a stack overflow
  std::string deep = R"({"schema": "adrprobe-report/1", "rules": [], "x": )" + std::string(100000, '[') +
                     std::string(100000, ']') + "}";
  CHECK_THROWS_WITH_AS(report::parse_json_report(deep), doctest::Contains("nested deeper than 64 levels"),
                       std::runtime_error);
}

TEST_CASE("json report: a file nested 200,000 deep where the reader looks is refused before anything is built") {
  // Hostile input III, item 2: the reader copied "target" recursively (SIGSEGV).
  std::string deep = R"({"schema":"adrprobe-report/1","target":{"x":)" + std::string(200000, '[') +
                     std::string(200000, ']') + R"(},"rules":[]})";
  CHECK_THROWS_WITH_AS(report::parse_json_report(deep), "JSON nested deeper than 64 levels: not an adrprobe report",
                       std::runtime_error);
  // 64 levels are read; the deepest place a report has is 7
  auto nested = [](std::size_t depth) {  // the root object is level 1, "target" level 2
    return R"({"schema":"adrprobe-report/1","rules":[],"target":{"base_url":"u","x":)" + std::string(depth - 2, '[') +
           std::string(depth - 2, ']') + "}}";
  };
  CHECK(report::parse_json_report(nested(64)).base_url == "u");
  CHECK_THROWS_AS(report::parse_json_report(nested(65)), std::runtime_error);
}

TEST_CASE("json report: numbers are range-checked before they are stored") {
  auto rejects = [](const std::string& members, const std::string& why) {
    std::string text = R"({"schema": "adrprobe-report/1", )" + members + "}";
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(report::parse_json_report(text), doctest::Contains(why.c_str()), std::runtime_error);
  };
  rejects(R"("rules": [], "score": {"pass": 1e300})", "score.pass is not a whole number in range");
  rejects(R"("rules": [], "score": {"fail": 2147483648})", "score.fail is not a whole number in range");
  rejects(R"("rules": [], "score": {"warn": -2147483649})", "score.warn is not a whole number in range");
  rejects(R"("rules": [], "score": {"error": 1.5})", "score.error is not a whole number in range");
  rejects(R"("rules": [], "duration_ms": 1e19)", "report.duration_ms is not a whole number in range");
  rejects(R"("rules": [], "duration_ms": 9223372036854775808)", "report.duration_ms is not a whole number in range");
  rejects(R"("rules": [{"id": "/a", "verdict": "pass", "checks": [{"id": "C", "exchanges": [1, 1e300]}]}])",
          "rule /a.exchanges has the wrong type");
  // what fits is read, an integral float too (another writer's 3.0)
  auto r = report::parse_json_report(R"({"schema": "adrprobe-report/1", "rules": [], "duration_ms": 9223372036854775807,
      "score": {"pass": 2147483647, "warn": -2147483648, "fail": 3.0, "percent": 1e300}})");
  CHECK(r.duration_ms == 9223372036854775807LL);
  CHECK(r.score.pass == 2147483647);
  CHECK(r.score.warn == -2147483647 - 1);
  CHECK(r.score.fail == 3);
  CHECK(r.score.percent == 1e300);
}

namespace {
http::Exchange streamed_exchange(int id, int status) {
  http::Exchange e;
  e.id = id;
  e.method = "GET";
  e.url = "https://api.example.nl/v1/a" + std::to_string(id);
  e.status = status;
  e.request_headers = {{"Host", "api.example.nl"}, {"User-Agent", "adrprobe/0.5.0"}, {"Accept", "*/*"}};
  e.response_headers = {{"set-cookie", "a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT"}, {"content-type", "application/json"},
                        {"set-cookie", "b=2"}, {"x-bidi", "\u202Eevil"}};
  e.body = std::string(3000, 'x');
  e.duration_ms = 1.5;
  return e;
}
}  // namespace

TEST_CASE("json report: the exchanges are streamed one at a time, as the whole tree would dump them") {
  report::Report r = json_sample();
  r.exchanges = {streamed_exchange(1, 200), streamed_exchange(2, 500)};
  r.exchanges[0].error = "x";
  std::vector<std::string> pieces;
  report::stream_json(r, [&](std::string_view p) { pieces.emplace_back(p); });
  CHECK(pieces.size() >= 5);  // head, the array's start, one piece per exchange, its end, the rest
  std::string out;
  for (const auto& p : pieces) out += p;
  CHECK(out == report::render("json", r));
  // The same text the whole tree gives: parsed and dumped again, byte for byte.
  auto whole = nlohmann::ordered_json::parse(out);
  CHECK(report::dump_json(whole) == out);
  const auto& ex = whole["exchanges"];
  REQUIRE(ex.size() == 2);
  CHECK(ex[0]["request_headers"]["User-Agent"] == "adrprobe/0.5.0");
  // Every Set-Cookie line kept whole; the names in byte order.
  CHECK(ex[0]["response_headers"]["set-cookie"] == "a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT\nb=2");
  CHECK(ex[0]["response_headers"].begin().key() == "content-type");
  CHECK(out.find("\\u202e") != std::string::npos);  // bidi controls escaped in streamed pieces too
  // A body only where the report shows it: status >= 400 (or one a check judged), 2 KiB at most.
  CHECK(!ex[0].contains("response_body"));
  CHECK(ex[1]["response_body"].get<std::string>().size() == report::kReportBodyBytes);
  CHECK(ex[1]["response_body_truncated"] == true);
  CHECK(whole["notes"].size() == 2);  // the members after the exchanges follow them
}

TEST_CASE("json report: no exchanges and the paths --max-requests left out") {
  report::Report r = json_sample();
  r.left_out = {"/a", "/b"};
  std::string out = report::render("json", r);
  auto j = nlohmann::ordered_json::parse(out);
  CHECK(j["exchanges"].empty());
  CHECK(j["paths_left_out"] == nlohmann::ordered_json::array({"/a", "/b"}));
}

TEST_CASE("json report: write_exchange writes what dump_json makes of exchange_json, byte for byte, hostile text included") {
  report::ExchangeWriter writer, indented("    ");
  auto same = [&](const http::Exchange& e) {
    std::string direct;
    report::write_exchange(direct, e, writer);
    std::string dumped = report::dump_json(report::exchange_json(e));
    dumped.pop_back();  // its final newline
    CHECK(direct == dumped);
    // Indented: every line after the first.
    std::string deeper, expected;
    report::write_exchange(deeper, e, indented);
    for (char c : dumped) {
      expected += c;
      if (c == '\n') expected += "    ";
    }
    CHECK(deeper == expected);
  };
  http::Exchange e = streamed_exchange(7, 500);
  same(e);
  // No response: null status, no headers, an error; then the same blocks again (kept by the writer).
  http::Exchange down;
  down.id = 8;
  down.method = "TRACE";
  down.url = "http://[::1]:8/a?b=\"c\"";
  down.error = "Failed to connect: Connection refused";
  down.duration_ms = 0.00049;
  same(down);
  same(e);
  // Server bytes: controls, quotes, backslashes, invalid and cut UTF-8, C1 and bidi controls;
  // a request header name given twice (the object keeps its first place and last value).
  http::Exchange bad = streamed_exchange(9, 404);
  bad.request_headers = {{"X-A", "1"}, {"Host", "h"}, {"X-A", "2\t\"\\"}};
  bad.response_headers = {{"x-\x01name", "v\x7f\xc2\x85\xe2\x80\xae"}, {"server", "\xff\xfe ok \xe2\x80"}, {"empty", ""},
                          {"x-invisible", "bag\u200B\u00AD\U000E0041"}};
  bad.body = std::string("line\r\n\x1b[31mred\0\xc3", 16) + std::string(2100, 'y');
  bad.body_truncated = true;
  bad.duration_ms = 123456.78949;
  same(bad);
  // A 200 whose body a check judged: its start is shown.
  http::Exchange judged = streamed_exchange(10, 200);
  judged.body = "{\"when\": \"2026-11-27\"}";
  judged.body_judged = true;
  judged.duration_ms = 1e-7;
  same(judged);
  http::Exchange big = judged;
  big.duration_ms = 3.5e21;
  same(big);
}

TEST_CASE("json report: invisible characters come out as \\u escapes, beyond the BMP as a surrogate pair (Hostile input IV)") {
  // "bag" and "bag" U+200B look one in an editor; escaped, they differ where the file is read as text.
  CHECK(report::escape_dump("\"bag\u200B\"") == "\"bag\\u200b\"");
  CHECK(report::escape_dump("\"\u00AD\u2060\uFEFF\u2028\u2029\"") == "\"\\u00ad\\u2060\\ufeff\\u2028\\u2029\"");
  CHECK(report::escape_dump("\"tag\U000E0041\"") == "\"tag\\udb40\\udc41\"");  // U+E0041, TAG LATIN CAPITAL LETTER A
  CHECK(report::escape_dump("\"één 😀 → \u00A0\"") == "\"één 😀 → \u00A0\"");  // visible characters stay as they are
  // the same strings when read back
  nlohmann::ordered_json names = {"bag", "bag\u200B", "tag\U000E0041"};
  CHECK(nlohmann::ordered_json::parse(report::dump_json(names)) == names);
  CHECK(report::dump_json(names).find("\u200B") == std::string::npos);
}

TEST_CASE("json report: modules[] and rules[].module read back; a report of 0.5 without them reads as one without a module") {
  auto r = json_sample();
  CHECK(nlohmann::json::parse(report::render("json", r))["modules"] == nlohmann::json::array());  // none: empty, not absent
  report::RuleResult crs;
  crs.id = "/geo/crs-list";
  crs.module = "geo";
  crs.title = "Provide a list of all CRSs that are supported by the API";
  crs.kind = "technical";
  crs.level = "MUST";
  crs.verdict = Verdict::fail;
  crs.checks = {{"GE-1", Verdict::fail, "GET /v1/collections: no crs"}};
  r.rules.push_back(crs);
  r.modules = {{"geo", "Geospatial", "1.0.2", "judged: /collections and application/geo+json in the document"}};
  r.unreachable = true;
  r.last_up = report::LastUp{"2026-11-20T02:00:00Z", "2.0.0", r.base_url, {crs}};
  auto text = report::render("json", r);
  auto j = nlohmann::json::parse(text);
  REQUIRE(j["modules"].size() == 1);
  CHECK(j["modules"][0] == nlohmann::json{{"id", "geo"}, {"title", "Geospatial"}, {"version", "1.0.2"},
                                          {"reason", "judged: /collections and application/geo+json in the document"}});
  CHECK(j["rules"][2]["module"] == "geo");
  CHECK_FALSE(j["rules"][0].contains("module"));  // the edition's rules have none
  CHECK(j["last_up"]["rules"][0]["module"] == "geo");
  auto back = report::parse_json_report(text);
  REQUIRE(back.modules.size() == 1);
  CHECK(back.modules[0].version == "1.0.2");
  CHECK(back.modules[0].reason == r.modules[0].reason);
  CHECK(back.rules[2].module == "geo");
  CHECK(back.rules[0].module.empty());
  CHECK(back.last_up->rules[0].module == "geo");
  // 0.5 wrote neither.
  j.erase("modules");
  j["rules"].erase(2);
  j["last_up"]["rules"][0].erase("module");
  back = report::parse_json_report(j.dump());
  CHECK(back.modules.empty());
  for (const auto& rule : back.rules) CHECK(rule.module.empty());
  CHECK(back.last_up->rules[0].module.empty());
  // A wrong type is said, as for any member.
  j["rules"][0]["module"] = 7;
  CHECK_THROWS_WITH_AS(report::parse_json_report(j.dump()), doctest::Contains("module"), std::runtime_error);
}
