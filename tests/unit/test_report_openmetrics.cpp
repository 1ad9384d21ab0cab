// OpenMetrics text (-o openmetrics, summary.prom): the families and their
// samples, label values escaped (server and register text is not trusted),
// "# EOF" last.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "batch/targets.hpp"
#include "report/formats.hpp"
#include "report/summary.hpp"
#include "util/strings.hpp"

using namespace adrprobe;
using report::Verdict;

namespace {
report::SummaryTarget target(const std::string& name) {
  report::SummaryTarget t;
  t.name = name;
  t.base_url = "https://api.example.nl/v1";
  t.edition = "2.0.0";
  t.score.pass = 2;
  t.score.fail = 1;
  t.score.applicable = 3;
  t.score.percent = 66.5;
  t.verdicts = {{"/core/a", Verdict::pass}, {"/core/b", Verdict::fail}, {"/core/c", Verdict::pass}, {"/core/d", Verdict::skip}};
  t.generated_at = "2026-11-22T02:00:00Z";
  return t;
}

std::vector<std::string> lines_of(const std::string& text) {
  auto lines = split(text, '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

bool has_line(const std::string& text, const std::string& line) {
  auto lines = lines_of(text);
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

std::size_t count_prefix(const std::string& text, const std::string& prefix) {
  auto lines = lines_of(text);
  return static_cast<std::size_t>(
      std::count_if(lines.begin(), lines.end(), [&](const std::string& l) { return l.rfind(prefix, 0) == 0; }));
}
}  // namespace

TEST_CASE("openmetrics: every family declared once as a gauge, the samples of a target, # EOF last") {
  report::Summary s;
  auto t = target("bag");
  t.cert_days_left = 12;
  t.change = report::Changes{{"/core/b"}, {}, {}};
  s.targets = {t};
  auto text = report::render_summary_openmetrics(s);
  CAPTURE(text);
  // Series are keyed by the target's name; the URL and edition go on adrprobe_target_info.
  const std::string L = "{target=\"bag\"";
  CHECK(has_line(text, "adrprobe_target_info{target=\"bag\",base_url=\"https://api.example.nl/v1\",edition=\"2.0.0\",state=\"up\"} 1"));
  for (const char* family : {"adrprobe_score_percent", "adrprobe_rules", "adrprobe_rule_verdict", "adrprobe_rule_failing",
                             "adrprobe_changes", "adrprobe_certificate_days_left", "adrprobe_target_reachable",
                             "adrprobe_last_run_timestamp_seconds"}) {
    CAPTURE(family);
    CHECK(count_prefix(text, std::string("# TYPE ") + family + " gauge") == 1);
    CHECK(count_prefix(text, std::string("# HELP ") + family + " ") == 1);
  }
  CHECK(has_line(text, "adrprobe_score_percent" + L + "} 66.5"));
  CHECK(has_line(text, "adrprobe_rules" + L + ",verdict=\"pass\"} 2"));
  CHECK(has_line(text, "adrprobe_rules" + L + ",verdict=\"fail\"} 1"));
  CHECK(has_line(text, "adrprobe_rules" + L + ",verdict=\"warn\"} 0"));
  CHECK(has_line(text, "adrprobe_rules" + L + ",verdict=\"error\"} 0"));
  CHECK(has_line(text, "adrprobe_rules" + L + ",verdict=\"skip\"} 1"));
  CHECK(has_line(text, "adrprobe_rule_verdict" + L + ",rule=\"/core/b\",verdict=\"fail\"} 1"));
  CHECK(count_prefix(text, "adrprobe_rule_verdict{") == 4);
  CHECK(has_line(text, "adrprobe_rule_failing" + L + ",rule=\"/core/b\"} 1"));
  CHECK(has_line(text, "adrprobe_rule_failing" + L + ",rule=\"/core/a\"} 0"));
  CHECK(has_line(text, "adrprobe_changes" + L + ",change=\"new-fail\"} 1"));
  CHECK(has_line(text, "adrprobe_changes" + L + ",change=\"regressed\"} 0"));
  CHECK(has_line(text, "adrprobe_changes" + L + ",change=\"fixed\"} 0"));
  CHECK(has_line(text, "adrprobe_changes" + L + ",change=\"down\"} 0"));
  CHECK(has_line(text, "adrprobe_changes" + L + ",change=\"back-up\"} 0"));
  CHECK(has_line(text, "adrprobe_certificate_days_left" + L + "} 12"));
  CHECK(has_line(text, "adrprobe_target_reachable" + L + "} 1"));
  CHECK(has_line(text, "adrprobe_last_run_timestamp_seconds" + L + "} 1795312800"));
  auto lines = lines_of(text);
  REQUIRE_FALSE(lines.empty());
  CHECK(lines.back() == "# EOF");
  CHECK(count_prefix(text, "# EOF") == 1);
  CHECK(text.back() == '\n');
  // Every sample line belongs to a family declared above it.
  std::string family;
  for (const auto& l : lines) {
    if (l.rfind("# TYPE ", 0) == 0) family = split(l, ' ')[2];
    if (l.empty() || l[0] == '#') continue;
    CAPTURE(l);
    CHECK(l.rfind(family + "{", 0) == 0);
  }
}

TEST_CASE("openmetrics: no percent sample when percent is null, no days when unknown, no changes without a baseline") {
  report::Summary s;
  auto t = target("kvk");
  t.score.percent.reset();
  t.reachable = false;
  t.generated_at = "not a time";
  s.targets = {t};
  auto text = report::render_summary_openmetrics(s);
  CAPTURE(text);
  CHECK(count_prefix(text, "adrprobe_score_percent{") == 0);
  CHECK(count_prefix(text, "adrprobe_certificate_days_left{") == 0);
  CHECK(count_prefix(text, "adrprobe_changes{") == 0);
  CHECK(count_prefix(text, "adrprobe_last_run_timestamp_seconds{") == 0);
  CHECK(count_prefix(text, "# TYPE adrprobe_score_percent gauge") == 1);  // the family is still declared
  CHECK(count_prefix(text, "adrprobe_target_reachable{target=\"kvk\"") == 1);
  CHECK(text.find("adrprobe_target_reachable{target=\"kvk\"} 0\n") != std::string::npos);
  CHECK(text.find("adrprobe_target_info{target=\"kvk\",base_url=\"https://api.example.nl/v1\",edition=\"2.0.0\",state=\"down\"} 1\n") !=
        std::string::npos);
  CHECK(count_prefix(text, "adrprobe_rules{") == 0);  // down: no per-rule noise
}

TEST_CASE("openmetrics: the owner and the register's labels on every series of the target") {
  report::Summary s;
  auto t = target("bag");
  t.owner = "Team Basis";
  t.labels = {{"domain", "adressen"}};
  s.targets = {t};
  auto text = report::render_summary_openmetrics(s);
  CAPTURE(text);
  for (const auto& l : lines_of(text)) {
    if (l.empty() || l[0] == '#') continue;
    CAPTURE(l);
    CHECK(l.find("{target=\"bag\",owner=\"Team Basis\",domain=\"adressen\"") != std::string::npos);
  }
  CHECK(lines_of(text).back() == "# EOF");
}

TEST_CASE("openmetrics: label values escape \\, \" and newline; control characters and invalid UTF-8 are made visible") {
  report::Summary s;
  auto t = target("a\"b\\c\nd\x1b[31m\xff");
  t.base_url = "https://h/v1?x=\"1\"";
  t.verdicts = {{"/core/\x07", Verdict::pass}};
  s.targets = {t};
  auto text = report::render_summary_openmetrics(s);
  CAPTURE(text);
  CHECK(text.find("target=\"a\\\"b\\\\c\\\\x0ad\\\\x1b[31m\\\\xff\"") != std::string::npos);
  CHECK(text.find("base_url=\"https://h/v1?x=\\\"1\\\"\"") != std::string::npos);
  CHECK(text.find("rule=\"/core/\\\\x07\"") != std::string::npos);
  CHECK(is_valid_utf8(text));
  for (char c : text) {
    CAPTURE(static_cast<int>(static_cast<unsigned char>(c)));
    CHECK((c == '\n' || (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f)));
  }
  // Each sample is one line: no label value broke out of its quotes.
  for (const auto& l : lines_of(text)) {
    if (l.empty() || l[0] == '#') continue;
    auto close = l.rfind("} ");
    REQUIRE(close != std::string::npos);
    CHECK(l.find('{') < close);
  }
}

namespace {
// One report of api.example.nl/v1 whose one technical rule fails.
report::Report openmetrics_one_failing_rule() {
  report::Report r;
  r.base_url = "https://api.example.nl/v1";
  r.edition = "2.0.0";
  r.generated_at = "2026-11-22T02:00:00Z";
  report::RuleResult a;
  a.id = "/core/a";
  a.kind = "technical";
  a.verdict = Verdict::fail;
  r.rules = {a};
  r.score = report::compute_score(r.rules);
  return r;
}
}  // namespace

TEST_CASE("openmetrics: -o openmetrics renders one report as one target, named by its name or base URL") {
  report::Report r = openmetrics_one_failing_rule();
  auto text = report::render("openmetrics", r);
  CHECK(text.find("adrprobe_rule_failing{target=\"https://api.example.nl/v1\",rule=\"/core/a\"} 1\n") != std::string::npos);
  r.name = "bag";
  text = report::render("openmetrics", r);
  CHECK(text.find("adrprobe_target_reachable{target=\"bag\"} 1") != std::string::npos);
  CHECK(lines_of(text).back() == "# EOF");
}

TEST_CASE("openmetrics: the conclusion first: adrprobe_conforms 1|0, absent when not established; its counts") {
  auto conclusion = [](std::optional<bool> conforms, int must, int errors) {
    report::Conclusion c;
    c.conforms = conforms;
    c.must_failed = must;
    c.should_failed = 1;
    c.warned = 2;
    c.errors = errors;
    c.functional_pending = 7;
    return c;
  };
  report::Summary s;
  auto yes = target("yes"), no = target("no"), unknown = target("unknown"), down = target("down"), older = target("older");
  yes.conclusion = conclusion(true, 0, 0);
  no.conclusion = conclusion(false, 3, 0);
  unknown.conclusion = conclusion(std::nullopt, 0, 1);
  down.conclusion = conclusion(std::nullopt, 0, 9);
  down.reachable = false;
  s.targets = {yes, no, unknown, down, older};  // older: a row of a summary.json that kept no conclusion
  auto text = report::render_summary_openmetrics(s);
  CAPTURE(text);
  // The first families of the file, so the first series of every target.
  auto lines = lines_of(text);
  REQUIRE(lines.size() > 2);
  CHECK(lines[0].rfind("# HELP adrprobe_conforms ", 0) == 0);
  CHECK(lines[1] == "# TYPE adrprobe_conforms gauge");
  CHECK(lines[2] == "adrprobe_conforms{target=\"yes\"} 1");
  CHECK(lines[3] == "adrprobe_conforms{target=\"no\"} 0");
  CHECK(lines[4].rfind("# HELP adrprobe_conclusion_rules ", 0) == 0);
  // Unknown is no sample (never NaN): not established, down, or a row without a conclusion.
  CHECK(count_prefix(text, "adrprobe_conforms{") == 2);
  CHECK(text.find("NaN") == std::string::npos);
  for (const char* outcome : {"must_failed", "should_failed", "warned", "errors", "functional_pending"})
    CHECK(count_prefix(text, std::string("adrprobe_conclusion_rules{target=\"no\",outcome=\"") + outcome + "\"}") == 1);
  CHECK(has_line(text, "adrprobe_conclusion_rules{target=\"no\",outcome=\"must_failed\"} 3"));
  CHECK(has_line(text, "adrprobe_conclusion_rules{target=\"unknown\",outcome=\"errors\"} 1"));
  CHECK(has_line(text, "adrprobe_conclusion_rules{target=\"yes\",outcome=\"functional_pending\"} 7"));
  // A down target: one state, no counts of rules never judged.
  CHECK(count_prefix(text, "adrprobe_conclusion_rules{target=\"down\"") == 0);
  CHECK(count_prefix(text, "adrprobe_conclusion_rules{target=\"older\"") == 0);
  CHECK(has_line(text, "adrprobe_target_reachable{target=\"down\"} 0"));
}

TEST_CASE("openmetrics: -o openmetrics carries the report's conclusion") {
  report::Report r = openmetrics_one_failing_rule();
  r.name = "bag";
  CHECK(report::render("openmetrics", r).find("\nadrprobe_conforms{target=\"bag\"} 0\n") != std::string::npos);
  r.rules[0].verdict = Verdict::pass;
  CHECK(report::render("openmetrics", r).find("\nadrprobe_conforms{target=\"bag\"} 1\n") != std::string::npos);
  r.rules[0].verdict = Verdict::error;
  std::string unknown = report::render("openmetrics", r);
  CHECK(unknown.find("\nadrprobe_conforms{") == std::string::npos);
  CHECK(unknown.find("\nadrprobe_conclusion_rules{target=\"bag\",outcome=\"errors\"} 1\n") != std::string::npos);
}

TEST_CASE("openmetrics: no register label may be named as a label summary.prom writes itself") {
  // A register label "verdict" made adrprobe_rules{...,verdict="x",verdict="pass"}, which Prometheus rejects.
  report::Summary s;
  auto t = target("bag");
  t.owner = "team";
  t.cert_days_left = 12;
  t.change = report::Changes{{"/core/b"}, {}, {}};
  t.conclusion = report::Conclusion{};
  t.conclusion->conforms = false;
  s.targets = {t};
  std::set<std::string> names;
  for (const auto& line : lines_of(report::render_summary_openmetrics(s))) {
    if (line.empty() || line[0] == '#') continue;
    std::string labels = line.substr(line.find('{') + 1, line.rfind('}') - line.find('{') - 1);
    for (const auto& pair : split(labels, ',')) names.insert(pair.substr(0, pair.find('=')));
  }
  CHECK(names.size() >= 9);  // target, owner, outcome, verdict, rule, change, base_url, edition, state
  for (const auto& name : names) {
    CAPTURE(name);
    CHECK_FALSE(batch::label_name(name));
  }
}

TEST_CASE("openmetrics: a module's rules carry module=\"geo\", counted apart; the edition's series are unchanged") {
  report::Summary plain;
  plain.targets.push_back(target("bag"));
  std::string before = report::render_summary_openmetrics(plain);
  report::Summary s = plain;
  auto& t = s.targets[0];
  t.verdicts.emplace_back("/geo/crs-list", Verdict::fail);
  t.verdicts.emplace_back("/geo/storage-crs", Verdict::skip);
  t.modules.push_back({"geo", "Geospatial module 1.0.2", {"/geo/crs-list", "/geo/storage-crs"}});
  t.change = report::Changes{{"/core/b", "/geo/crs-list"}, {}, {}, false, false};
  std::string out = report::render_summary_openmetrics(s);
  CHECK(has_line(out, "adrprobe_rule_verdict{target=\"bag\",module=\"geo\",rule=\"/geo/crs-list\",verdict=\"fail\"} 1"));
  CHECK(has_line(out, "adrprobe_rule_failing{target=\"bag\",module=\"geo\",rule=\"/geo/crs-list\"} 1"));
  CHECK(has_line(out, "adrprobe_rule_failing{target=\"bag\",module=\"geo\",rule=\"/geo/storage-crs\"} 0"));
  CHECK(has_line(out, "adrprobe_rules{target=\"bag\",module=\"geo\",verdict=\"fail\"} 1"));
  CHECK(has_line(out, "adrprobe_rules{target=\"bag\",module=\"geo\",verdict=\"skip\"} 1"));
  CHECK(has_line(out, "adrprobe_rule_change{target=\"bag\",module=\"geo\",rule=\"/geo/crs-list\",change=\"new-fail\"} 1"));
  CHECK(has_line(out, "adrprobe_rule_change{target=\"bag\",rule=\"/core/b\",change=\"new-fail\"} 1"));
  // The edition's series are those of the target without the module: no module label, the
  // same skip count (the module's skipped rule is counted under module="geo" alone).
  CHECK(has_line(out, "adrprobe_rules{target=\"bag\",verdict=\"skip\"} 1"));
  CHECK(has_line(out, "adrprobe_rule_verdict{target=\"bag\",rule=\"/core/b\",verdict=\"fail\"} 1"));
  for (const auto& line : lines_of(before))
    if (line.rfind("adrprobe_changes", 0) != 0 && line.rfind("adrprobe_rule_change", 0) != 0) CHECK(has_line(out, line));
  CHECK(count_prefix(out, "adrprobe_rule_verdict{") == 6);
}

TEST_CASE("openmetrics: -o openmetrics of a report with a module labels its rules from the report") {
  report::Report r;
  r.base_url = "https://api.example.nl/v1";
  r.edition = "2.2.0";
  report::RuleResult core;
  core.id = "/core/geospatial";
  core.kind = "technical";
  core.verdict = Verdict::fail;
  report::RuleResult geo = core;
  geo.id = "/geo/crs-list";
  geo.module = "geo";
  r.rules = {core, geo};
  r.modules.push_back({"geo", "Geospatial", "1.0.2", "judged: /collections in the document"});
  std::string out = report::render("openmetrics", r);
  CHECK(has_line(out, "adrprobe_rule_failing{target=\"https://api.example.nl/v1\",rule=\"/core/geospatial\"} 1"));
  CHECK(has_line(out, "adrprobe_rule_failing{target=\"https://api.example.nl/v1\",module=\"geo\",rule=\"/geo/crs-list\"} 1"));
}
