// A hand-made report with every verdict, server text that tries markup and
// control characters, evidence and a location: the input of the CI format tests.
#pragma once
#include "report/model.hpp"

namespace adrprobe::test {

inline report::RuleResult technical(std::string id, report::Verdict v, std::vector<report::CheckResult> checks) {
  report::RuleResult r;
  r.id = std::move(id);
  r.title = "Title of " + r.id;
  r.kind = "technical";
  r.url = "https://gitdocumentatie.logius.nl/publicatie/api/adr/#" + r.id.substr(1);
  r.verdict = v;
  r.summary = "summary of " + r.id;
  r.checks = std::move(checks);
  return r;
}

// Server text: markup of XML, Markdown and HTML, a CDATA end, an escape
// sequence, a bell, invalid UTF-8 and the XML non-character U+FFFF.
inline const std::string kHostile =
    "<img src=x onerror=alert(1)> & [link](javascript:alert(1)) ]]> `code` *em* _u_ | @all #1 \x1b]0;pwned\x07 \xff \xEF\xBF\xBF";

inline report::Report ci_sample() {
  using report::Verdict;
  report::Report r;
  r.tool_version = "0.3.0";
  r.base_url = "https://api.example.nl/v1";
  r.openapi_url = "https://api.example.nl/v1/openapi.json";
  r.edition = "2.2.0";
  r.edition_name = "REST API Design Rules 2.2.0";
  r.generated_at = "2025-01-02T03:04:05Z";
  r.duration_ms = 1234;
  report::CheckResult located{"KC-1", Verdict::fail, "/fooBar: not kebab-case (/paths/~1fooBar)", {}};
  located.locations = {{"/paths/~1fooBar", 12, ""}};
  r.rules = {
      technical("/core/passing", Verdict::pass, {{"PA-1", Verdict::pass, "fine", {}}}),
      technical("/core/failing", Verdict::fail, {{"NT-2", Verdict::fail, "GET /v1/a/ served (200) " + kHostile, {1}}}),
      technical("/core/kebab", Verdict::fail, {located}),
      technical("/core/erroring", Verdict::error, {{"TS-1", Verdict::error, "connection refused", {2}}}),
      technical("/core/warning", Verdict::warn, {{"VH-2", Verdict::warn, "API-Version 1 not full", {1}}}),
      technical("/core/skipped", Verdict::skip, {{"UV-1", Verdict::skip, "needs a live API", {}}}),
  };
  r.rules[1].change = "new failure";
  report::RuleResult functional;
  functional.id = "/core/naming";
  functional.title = "Naming";
  functional.kind = "functional";
  functional.verdict = Verdict::manual;
  r.rules.push_back(functional);
  http::Exchange ok;
  ok.id = 1;
  ok.method = "GET";
  ok.url = "https://api.example.nl/v1/a/";
  ok.status = 200;
  http::Exchange refused;
  refused.id = 2;
  refused.method = "GET";
  refused.url = "https://api.example.nl/v1";
  refused.error = "Connection refused";
  r.exchanges = {ok, refused};
  r.notes = {"note with " + kHostile};
  r.score = report::compute_score(r.rules);
  return r;
}

// The report of a target that is down, as the engine makes it when every
// request was refused: each check of a technical rule `error`, so each rule
// `error` too (none failed without an answer, as TS-1 on http:// does).
inline report::Report down(report::Report r) {
  r.unreachable = true;
  for (auto& rule : r.rules) {
    if (rule.kind != "technical") continue;
    rule.verdict = report::Verdict::error;
    for (auto& c : rule.checks) {
      c.verdict = report::Verdict::error;
      c.message = "GET " + r.base_url + " ✗ Connection refused";
    }
  }
  r.score = report::compute_score(r.rules);
  return r;
}

// `r` with the Geospatial module judged beside its edition (module-geo.md):
// its ModuleInfo, two technical /geo rules (one fails on server text, one
// passes) and the functional /geo/geometric-context, after the edition's
// rules. The score stays the edition's: a module's rules are not in it one by one.
inline report::Report with_geo(report::Report r) {
  using report::Verdict;
  r.modules.push_back({"geo", "Geospatial", "1.0.2", "judged: /collections and application/geo+json in the document"});
  auto geo = [](std::string id, Verdict v, std::vector<report::CheckResult> checks) {
    report::RuleResult rule = technical(std::move(id), v, std::move(checks));
    rule.module = "geo";
    rule.level = "MUST";
    return rule;
  };
  r.rules.push_back(geo("/geo/crs-list", Verdict::fail,
                        {{"GE-1", Verdict::fail, "/collections: crs entry EPSG:28992 is no URI " + kHostile, {1}}}));
  r.rules.push_back(geo("/geo/storage-crs", Verdict::pass, {{"GE-2", Verdict::pass, "every collection has storageCrs", {1}}}));
  report::RuleResult context;
  context.id = "/geo/geometric-context";
  context.module = "geo";
  context.title = "Geometric context";
  context.kind = "functional";
  context.verdict = Verdict::manual;
  context.hints = {"/zoek returns members of 2 types"};
  r.rules.push_back(context);
  return r;
}

}  // namespace adrprobe::test
