// --baseline: every line of the change table (probes/baseline.yaml), rules
// matched by id or alias across editions, and the marks a summary reads.
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "catalogue/catalogue.hpp"
#include "report/baseline.hpp"

using namespace adrprobe;
using report::Verdict;

namespace {
report::RuleResult baseline_rule(const std::string& id, Verdict v, std::vector<std::string> aliases = {},
                        const std::string& kind = "technical") {
  report::RuleResult r;
  r.id = id;
  r.aliases = std::move(aliases);
  r.kind = kind;
  r.verdict = v;
  return r;
}

const std::vector<catalogue::ChangeRule>& table() { return catalogue::Catalogue::builtin().baseline(); }

std::string change(Verdict now, std::optional<Verdict> before) {
  return report::change_of(table(), baseline_rule("/core/x", now), before);
}
}  // namespace

TEST_CASE("baseline: every line of the change table") {
  struct Line {
    std::optional<Verdict> before;
    Verdict now;
    const char* mark;
  };
  const std::vector<Line> lines{
      {Verdict::pass, Verdict::fail, "new-fail"},
      {std::nullopt, Verdict::fail, "new-fail"},  // absent: a new rule, or a run of another edition
      {Verdict::warn, Verdict::fail, "new-fail"},
      {Verdict::error, Verdict::fail, "new-fail"},
      {Verdict::skip, Verdict::fail, "new-fail"},
      {Verdict::manual, Verdict::fail, "new-fail"},
      {Verdict::pass, Verdict::warn, "regressed"},
      {Verdict::pass, Verdict::error, "regressed"},
      {Verdict::warn, Verdict::error, "regressed"},
      {Verdict::fail, Verdict::pass, "fixed"},
      {Verdict::fail, Verdict::warn, "fixed"},
      {Verdict::warn, Verdict::pass, "fixed"},
      {Verdict::error, Verdict::pass, "unchanged"},  // the earlier run could not judge: nothing was fixed
      {Verdict::skip, Verdict::pass, "unchanged"},
      {Verdict::fail, Verdict::error, "unchanged"},  // not known to be fixed
      {Verdict::fail, Verdict::fail, "unchanged"},
      {Verdict::pass, Verdict::pass, "unchanged"},
      {Verdict::warn, Verdict::warn, "unchanged"},
      {Verdict::error, Verdict::error, "unchanged"},
      {std::nullopt, Verdict::pass, "unchanged"},
      {std::nullopt, Verdict::error, "unchanged"},
      {Verdict::pass, Verdict::skip, "unchanged"},
  };
  for (const auto& l : lines) {
    CAPTURE(l.before ? report::to_string(*l.before) : std::string("absent"));
    CAPTURE(report::to_string(l.now));
    CHECK(change(l.now, l.before) == l.mark);
  }
}

TEST_CASE("baseline: a functional rule is always unchanged") {
  for (Verdict before : {Verdict::pass, Verdict::fail, Verdict::manual})
    for (Verdict now : {Verdict::pass, Verdict::fail, Verdict::manual, Verdict::error}) {
      CAPTURE(report::to_string(before));
      CAPTURE(report::to_string(now));
      CHECK(report::change_of(table(), baseline_rule("/core/f", now, {}, "functional"), before) == "unchanged");
      CHECK(report::change_of(table(), baseline_rule("/core/f", now, {}, "functional"), std::nullopt) == "unchanged");
    }
}

TEST_CASE("baseline: the first matching line wins; no line is unchanged") {
  std::vector<catalogue::ChangeRule> mine{{"regressed", {"fail"}, {"pass"}}, {"new-fail", {"fail"}, {"pass", "absent"}}};
  CHECK(report::change_of(mine, baseline_rule("/a", Verdict::fail), Verdict::pass) == "regressed");
  CHECK(report::change_of(mine, baseline_rule("/a", Verdict::fail), std::nullopt) == "new-fail");
  CHECK(report::change_of(mine, baseline_rule("/a", Verdict::warn), Verdict::pass) == "unchanged");
  CHECK(report::change_of({}, baseline_rule("/a", Verdict::fail), Verdict::pass) == "unchanged");
}

TEST_CASE("baseline: rules are matched by id, then by an alias, across editions") {
  const auto& cat = catalogue::Catalogue::builtin();
  const auto* e10 = cat.edition("1.0");
  const auto* e200 = cat.edition("2.0.0");
  const auto* e220 = cat.edition("2.2.0");
  REQUIRE(e10);
  REQUIRE(e200);
  REQUIRE(e220);
  auto of = [](const catalogue::Edition& e, const std::string& id) {
    for (const auto& r : e.rules)
      if (r.id == id) return baseline_rule(r.id, Verdict::pass, r.aliases, r.kind);
    FAIL("no rule ", id, " in ", e.edition);
    return report::RuleResult{};
  };
  // 1.0's API-48 is 2.0.0's /core/no-trailing-slash (the catalogue's aliases).
  report::Report old10;
  old10.rules = {of(*e10, "API-05"), of(*e10, "API-48")};
  old10.rules[1].verdict = Verdict::fail;
  auto nts = of(*e200, "/core/no-trailing-slash");
  const auto* found = report::find_rule(old10, nts);
  REQUIRE(found);
  CHECK(found->id == "API-48");
  // ... and the other way round.
  report::Report old200;
  old200.rules = {nts};
  found = report::find_rule(old200, of(*e10, "API-48"));
  REQUIRE(found);
  CHECK(found->id == "/core/no-trailing-slash");

  // 2.2.0 renamed /core/geospatial /core/modules/geospatial.
  report::Report old_geo;
  old_geo.rules = {of(*e200, "/core/geospatial")};
  found = report::find_rule(old_geo, of(*e220, "/core/modules/geospatial"));
  REQUIRE(found);
  CHECK(found->id == "/core/geospatial");

  // The same id wins over an alias that another rule carries.
  report::Report both;
  both.rules = {baseline_rule("/core/other", Verdict::fail, {"/core/a"}), baseline_rule("/core/a", Verdict::pass)};
  found = report::find_rule(both, baseline_rule("/core/a", Verdict::pass));
  REQUIRE(found);
  CHECK(found->id == "/core/a");
  CHECK(report::find_rule(both, baseline_rule("/core/none", Verdict::pass, {"API-99"})) == nullptr);

  // apply_baseline: 1.0 failed API-48, 2.0.0 passes it: fixed; a rule 1.0 lacks and that fails is new-fail.
  report::Report now;
  now.rules = {nts, baseline_rule("/core/new", Verdict::fail)};
  report::apply_baseline(now, old10, table());
  CHECK(now.rules[0].change == "fixed");
  CHECK(now.rules[1].change == "new-fail");
}

TEST_CASE("baseline: changes() is nullopt without marks, else the ids by mark; regressed()") {
  report::Report r;
  r.rules = {baseline_rule("/a", Verdict::fail), baseline_rule("/b", Verdict::pass)};
  CHECK_FALSE(report::changes(r).has_value());

  report::Report before;
  before.rules = {baseline_rule("/a", Verdict::fail), baseline_rule("/b", Verdict::pass)};
  report::apply_baseline(r, before, table());
  auto c = report::changes(r);
  REQUIRE(c);  // every rule unchanged is still a comparison, not "no baseline"
  CHECK(c->new_fail.empty());
  CHECK(c->fixed.empty());
  CHECK(c->regressed.empty());
  CHECK_FALSE(report::regressed(*c));

  report::Report now;
  now.rules = {baseline_rule("/a", Verdict::pass), baseline_rule("/b", Verdict::warn), baseline_rule("/c", Verdict::fail), baseline_rule("/d", Verdict::fail)};
  before.rules = {baseline_rule("/a", Verdict::fail), baseline_rule("/b", Verdict::pass), baseline_rule("/d", Verdict::pass)};
  report::apply_baseline(now, before, table());
  c = report::changes(now);
  REQUIRE(c);
  CHECK(c->fixed == std::vector<std::string>{"/a"});
  CHECK(c->regressed == std::vector<std::string>{"/b"});
  CHECK(c->new_fail == std::vector<std::string>{"/c", "/d"});
  CHECK(report::regressed(*c));
  CHECK(report::regressed(report::Changes{{}, {}, {"/b"}}));
  CHECK(report::regressed(report::Changes{{"/c"}, {}, {}}));
  CHECK_FALSE(report::regressed(report::Changes{{}, {"/a"}, {}}));
}

TEST_CASE("baseline: a target that goes down is one event; back up, it is compared with its last up night") {
  report::Report up;
  up.generated_at = "2026-11-22T02:00:00Z";
  up.base_url = "https://api.example.nl/v1";
  up.edition = "2.0.0";
  up.rules = {baseline_rule("/a", Verdict::pass, {"API-1"}), baseline_rule("/b", Verdict::fail)};

  // Night 2: down. No rule marks, went_down, and the up night's verdicts travel along.
  report::Report down;
  down.unreachable = true;
  down.notes = {"could not reach https://api.example.nl/v1: connection refused"};
  down.rules = {baseline_rule("/a", Verdict::error), baseline_rule("/b", Verdict::error)};
  report::apply_baseline(down, up, table());
  CHECK(down.compared);
  CHECK(down.went_down);
  CHECK_FALSE(down.came_back);
  for (const auto& r : down.rules) CHECK_FALSE(r.change.has_value());
  REQUIRE(down.last_up);
  CHECK(down.last_up->generated_at == "2026-11-22T02:00:00Z");
  REQUIRE(down.last_up->rules.size() == 2);
  CHECK(down.last_up->rules[0].aliases == std::vector<std::string>{"API-1"});
  auto c = report::changes(down);
  REQUIRE(c);  // compared, though no rule is marked
  CHECK(c->down);
  CHECK(c->new_fail.empty());
  CHECK(c->regressed.empty());
  CHECK(report::regressed(*c));
  CHECK(report::down_cause(down) == "could not reach https://api.example.nl/v1: connection refused");

  // Night 3: still down. Not newly down; the last up verdicts carried on.
  report::Report still;
  still.unreachable = true;
  report::apply_baseline(still, down, table());
  CHECK_FALSE(still.went_down);
  REQUIRE(still.last_up);
  CHECK(still.last_up->generated_at == "2026-11-22T02:00:00Z");
  CHECK_FALSE(report::regressed(*report::changes(still)));

  // Night 4: back up with /a now failing: compared with night 1, not with the errors of the down nights.
  report::Report back;
  back.rules = {baseline_rule("/a", Verdict::fail), baseline_rule("/b", Verdict::fail)};
  report::apply_baseline(back, still, table());
  CHECK(back.came_back);
  CHECK_FALSE(back.went_down);
  c = report::changes(back);
  REQUIRE(c);
  CHECK(c->back_up);
  CHECK(c->new_fail == std::vector<std::string>{"/a"});
  CHECK(back.rules[1].change == "unchanged");

  // Down from the first night on: back up, there is nothing to compare the rules with.
  report::Report first_down;
  first_down.unreachable = true;
  report::Report first_up;
  first_up.rules = {baseline_rule("/a", Verdict::fail)};
  report::apply_baseline(first_up, first_down, table());
  CHECK(first_up.came_back);
  CHECK_FALSE(first_up.rules[0].change.has_value());
  CHECK_FALSE(report::regressed(*report::changes(first_up)));
}

TEST_CASE("baseline: failing_since and down_since, carried night to night through down nights") {
  // The reports as write_report makes them: date_streaks against the baseline, then written and read back.
  auto night = [](const std::string& at, bool down, std::vector<report::RuleResult> rules, const report::Report* before) {
    report::Report r;
    r.generated_at = at;
    r.unreachable = down;
    r.rules = std::move(rules);
    if (before) report::apply_baseline(r, *before, table());
    report::date_streaks(r, before);
    return r;
  };
  auto n1 = night("2026-11-20T02:00:00Z", false,
                  {baseline_rule("/a", Verdict::fail), baseline_rule("/b", Verdict::pass), baseline_rule("/c", Verdict::fail)},
                  nullptr);
  CHECK(n1.rules[0].failing_since == "2026-11-20T02:00:00Z");  // no baseline: since this report
  CHECK_FALSE(n1.rules[1].failing_since.has_value());
  CHECK(n1.down_since.empty());
  // /b newly fails; /c is an error for a night (its streak ends: error then fail is new-fail again).
  auto n2 = night("2026-11-21T02:00:00Z", false,
                  {baseline_rule("/a", Verdict::fail), baseline_rule("/b", Verdict::fail), baseline_rule("/c", Verdict::error)},
                  &n1);
  CHECK(n2.rules[0].failing_since == "2026-11-20T02:00:00Z");
  CHECK(n2.rules[1].failing_since == "2026-11-21T02:00:00Z");
  CHECK_FALSE(n2.rules[2].failing_since.has_value());
  // Two nights down: the outage dates from its first night; the up night's dates travel in last_up.
  // Night 3 judges /b without an answer (as TS-1 fails an http:// URL): its failure goes on.
  auto n3 = night("2026-11-22T02:00:00Z", true, {baseline_rule("/a", Verdict::error), baseline_rule("/b", Verdict::fail)},
                  &n2);
  CHECK(n3.down_since == "2026-11-22T02:00:00Z");
  CHECK_FALSE(n3.rules[0].failing_since.has_value());
  CHECK(n3.rules[1].failing_since == "2026-11-21T02:00:00Z");
  REQUIRE(n3.last_up);
  CHECK(n3.last_up->rules[0].failing_since == "2026-11-20T02:00:00Z");
  // Night 4 judges nothing: the rules not judged on a down night are carried by last_up.
  auto n4 = night("2026-11-23T02:00:00Z", true, {baseline_rule("/a", Verdict::error), baseline_rule("/b", Verdict::error)},
                  &n3);
  CHECK(n4.down_since == "2026-11-22T02:00:00Z");
  // Back up: the failures that went on across the outage keep their dates.
  auto n5 = night("2026-11-24T02:00:00Z", false,
                  {baseline_rule("/a", Verdict::fail), baseline_rule("/b", Verdict::fail), baseline_rule("/c", Verdict::fail)},
                  &n4);
  CHECK(n5.came_back);
  CHECK(n5.down_since.empty());
  CHECK(n5.rules[0].failing_since == "2026-11-20T02:00:00Z");
  CHECK(n5.rules[1].failing_since == "2026-11-21T02:00:00Z");
  CHECK(n5.rules[2].failing_since == "2026-11-24T02:00:00Z");
  // A passing rule has none, whatever it had.
  auto n6 = night("2026-11-25T02:00:00Z", false, {baseline_rule("/a", Verdict::pass)}, &n5);
  CHECK_FALSE(n6.rules[0].failing_since.has_value());

  // Baselines of an earlier version, without the fields: within the streak since their own time.
  report::Report old_up;
  old_up.generated_at = "2026-11-01T02:00:00Z";
  old_up.rules = {baseline_rule("/a", Verdict::fail)};
  CHECK(night("2026-11-02T02:00:00Z", false, {baseline_rule("/a", Verdict::fail)}, &old_up).rules[0].failing_since ==
        "2026-11-01T02:00:00Z");
  report::Report old_down;
  old_down.generated_at = "2026-11-03T02:00:00Z";
  old_down.unreachable = true;
  old_down.last_up = report::last_up_of(old_up);
  CHECK(night("2026-11-04T02:00:00Z", true, {}, &old_down).down_since == "2026-11-03T02:00:00Z");
  CHECK(night("2026-11-04T02:00:00Z", false, {baseline_rule("/a", Verdict::fail)}, &old_down).rules[0].failing_since ==
        "2026-11-01T02:00:00Z");
  // Down from its first report on, then up: nothing to carry.
  old_down.last_up.reset();
  CHECK(night("2026-11-04T02:00:00Z", false, {baseline_rule("/a", Verdict::fail)}, &old_down).rules[0].failing_since ==
        "2026-11-04T02:00:00Z");
}

TEST_CASE("baseline: --fail-on regressed exits 1 only on what got worse") {
  report::Report r;
  r.rules = {baseline_rule("/a", Verdict::fail), baseline_rule("/b", Verdict::error)};
  CHECK(report::exit_status(r, report::FailOn::regressed) == 0);  // no baseline: nothing compared
  report::Report before;
  before.rules = {baseline_rule("/a", Verdict::fail), baseline_rule("/b", Verdict::error)};
  report::apply_baseline(r, before, table());
  CHECK(report::exit_status(r, report::FailOn::regressed) == 0);  // failing as before: green
  CHECK(report::exit_status(r, report::FailOn::fail) == 1);
  before.rules[0].verdict = Verdict::pass;
  report::apply_baseline(r, before, table());
  CHECK(report::exit_status(r, report::FailOn::regressed) == 1);  // new-fail
  report::Report down;
  down.unreachable = true;
  report::apply_baseline(down, r, table());
  CHECK(report::exit_status(down, report::FailOn::regressed) == 1);  // newly down
}

namespace {
// find_rule as it was before RuleIndex (a linear search per rule): the reference.
const report::RuleResult* find_linearly(const report::Report& before, const report::RuleResult& rule) {
  for (const auto& r : before.rules)
    if (r.id == rule.id) return &r;
  for (const auto& r : before.rules) {
    std::vector<std::string> theirs = r.aliases;
    theirs.push_back(r.id);
    std::vector<std::string> mine = rule.aliases;
    mine.push_back(rule.id);
    for (const auto& name : theirs)
      if (std::find(mine.begin(), mine.end(), name) != mine.end()) return &r;
  }
  return nullptr;
}
}  // namespace

TEST_CASE("baseline: RuleIndex finds what the linear search found, on random reports with shared names") {
  std::mt19937 random(17);
  auto name = [&] { return "n" + std::to_string(random() % 12); };
  for (int round = 0; round < 500; ++round) {
    auto make = [&] {
      report::Report r;
      for (unsigned i = random() % 8; i > 0; --i) {
        std::vector<std::string> aliases;
        for (unsigned a = random() % 3; a > 0; --a) aliases.push_back(name());
        r.rules.push_back(baseline_rule(name(), Verdict::pass, aliases));
      }
      return r;
    };
    report::Report before = make(), now = make();
    report::RuleIndex index(before);
    for (const auto& r : now.rules) {
      CAPTURE(round);
      CHECK(index.find(r) == find_linearly(before, r));
    }
  }
}

TEST_CASE("baseline: two reports of 20,000 rules are matched by id and by alias (diff, Hostile input III item 7)") {
  // The timing is bench/diff_large.sh's; here the result on that input.
  constexpr int n = 20000;
  report::Report before, now;
  for (int i = 0; i < n; ++i) {
    // before: in reverse order, every third rule under an old id with the new id as its alias
    int j = n - 1 - i;
    std::string id = "/core/r" + std::to_string(j);
    if (j % 3 == 0) before.rules.push_back(baseline_rule("API-" + std::to_string(j), j % 2 ? Verdict::fail : Verdict::pass, {id}));
    else before.rules.push_back(baseline_rule(id, Verdict::pass, {"API-" + std::to_string(j)}));
    now.rules.push_back(baseline_rule("/core/r" + std::to_string(i), Verdict::pass));
  }
  now.rules.push_back(baseline_rule("/core/new", Verdict::fail));
  report::apply_baseline(now, before, table());
  auto c = report::changes(now);
  REQUIRE(c);
  CHECK(c->new_fail == std::vector<std::string>{"/core/new"});
  CHECK(c->regressed.empty());
  // the odd multiples of 3 failed before and pass now
  std::size_t fixed = 0;
  for (int j = 0; j < n; ++j) fixed += j % 3 == 0 && j % 2 == 1;
  CHECK(c->fixed.size() == fixed);
  report::RuleIndex index(before);
  CHECK(index.find(now.rules[3])->id == "API-3");
  CHECK(index.find(now.rules[4])->id == "/core/r4");
  CHECK(index.find(now.rules.back()) == nullptr);
}

TEST_CASE("baseline: a module's rules are marked like the edition's; one absent from the baseline is compared as absent") {
  auto geo = [](const std::string& id, Verdict v) {
    auto rule = baseline_rule(id, v);
    rule.module = "geo";
    return rule;
  };
  report::Report before;
  before.rules = {baseline_rule("/core/geospatial", Verdict::pass), geo("/geo/crs-list", Verdict::pass),
                  geo("/geo/bbox-query-parameter", Verdict::fail)};
  report::Report now;
  now.rules = {baseline_rule("/core/geospatial", Verdict::fail), geo("/geo/crs-list", Verdict::fail),
               geo("/geo/bbox-query-parameter", Verdict::pass), geo("/geo/default-crs", Verdict::fail)};
  report::apply_baseline(now, before, table());
  CHECK(now.rules[1].change == "new-fail");
  CHECK(now.rules[2].change == "fixed");
  CHECK(now.rules[3].change == change(Verdict::fail, std::nullopt));  // absent before, as an edition's new rule
  auto c = report::changes(now);
  REQUIRE(c);
  CHECK(c->fixed == std::vector<std::string>{"/geo/bbox-query-parameter"});
  CHECK(c->new_fail == std::vector<std::string>{"/core/geospatial", "/geo/crs-list", "/geo/default-crs"});
  // A baseline of an earlier version, without the module: every module rule is absent there.
  report::Report old;
  old.rules = {baseline_rule("/core/geospatial", Verdict::manual, {}, "functional")};
  report::Report again = now;
  report::apply_baseline(again, old, table());
  for (std::size_t i = 1; i < again.rules.size(); ++i)
    CHECK(again.rules[i].change == change(again.rules[i].verdict, std::nullopt));
  // Failing streaks of a module's rules are dated like the edition's.
  now.generated_at = "2026-11-23T02:00:00Z";
  before.generated_at = "2026-11-22T02:00:00Z";
  before.rules[2].failing_since = "2026-11-20T02:00:00Z";
  now.rules[2].verdict = Verdict::fail;
  report::date_streaks(now, &before);
  CHECK(now.rules[2].failing_since == "2026-11-20T02:00:00Z");
  CHECK(now.rules[1].failing_since == "2026-11-23T02:00:00Z");
  // A down report carries the module of each rule in last_up.
  CHECK(report::last_up_of(now).rules[1].module == "geo");
}

TEST_CASE("diff: a module's rules of two summaries are compared like the edition's") {
  report::SummaryTarget old_row;
  old_row.name = "bag";
  old_row.base_url = "https://api.example.nl/v1";
  old_row.verdicts = {{"/core/geospatial", Verdict::pass}, {"/geo/crs-list", Verdict::pass}, {"/geo/default-crs", Verdict::fail}};
  old_row.modules = {{"geo", "Geospatial module 1.0.2", {"/geo/crs-list", "/geo/default-crs"}}};
  report::SummaryTarget new_row = old_row;
  new_row.verdicts = {{"/core/geospatial", Verdict::fail}, {"/geo/crs-list", Verdict::fail}, {"/geo/default-crs", Verdict::pass},
                      {"/geo/bbox-query-parameter", Verdict::fail}};
  report::Summary before, now;
  before.targets = {old_row};
  now.targets = {new_row};
  auto d = report::diff_summaries(before, now, table());
  REQUIRE(d.size() == 1);
  CHECK(d[0].changes.new_fail ==
        std::vector<std::string>{"/core/geospatial", "/geo/crs-list", "/geo/bbox-query-parameter"});
  CHECK(d[0].changes.fixed == std::vector<std::string>{"/geo/default-crs"});
  CHECK(d[0].changes.regressed.empty());
}
