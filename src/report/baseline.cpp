#include "report/baseline.hpp"

#include <algorithm>

namespace adrprobe::report {

namespace {
bool has(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}
}  // namespace

std::string change_of(const std::vector<catalogue::ChangeRule>& table, const RuleResult& now,
                      std::optional<Verdict> before) {
  if (now.kind == "functional") return "unchanged";
  std::string was = before ? to_string(*before) : "absent";
  for (const auto& line : table)
    if (has(line.now, to_string(now.verdict)) && has(line.before, was)) return line.change;
  return "unchanged";
}

RuleIndex::RuleIndex(const std::vector<RuleResult>& rules) : rules_(&rules) {
  // emplace keeps the first: the first rule of an id or a name wins.
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const RuleResult& r = rules[i];
    by_id_.emplace(r.id, i);
    by_name_.emplace(r.id, i);
    for (const auto& alias : r.aliases) by_name_.emplace(alias, i);
  }
}

const RuleResult* RuleIndex::find(const RuleResult& rule) const {
  if (auto it = by_id_.find(rule.id); it != by_id_.end()) return &(*rules_)[it->second];
  // The earliest rule that shares any name with `rule`.
  std::size_t best = rules_->size();
  auto consider = [&](const std::string& name) {
    if (auto it = by_name_.find(name); it != by_name_.end()) best = std::min(best, it->second);
  };
  for (const auto& alias : rule.aliases) consider(alias);
  consider(rule.id);
  return best < rules_->size() ? &(*rules_)[best] : nullptr;
}

const RuleResult* find_rule(const Report& before, const RuleResult& rule) { return RuleIndex(before).find(rule); }

LastUp last_up_of(const Report& report) {
  if (report.unreachable && report.last_up) return *report.last_up;
  LastUp l;
  l.generated_at = report.generated_at;
  l.edition = report.edition;
  l.base_url = report.base_url;
  for (const auto& r : report.rules) {
    RuleResult slim;
    slim.id = r.id;
    slim.module = r.module;
    slim.aliases = r.aliases;
    slim.kind = r.kind;
    slim.verdict = r.verdict;
    slim.failing_since = r.failing_since;
    l.rules.push_back(std::move(slim));
  }
  return l;
}

void apply_baseline(Report& now, const Report& before, const std::vector<catalogue::ChangeRule>& table) {
  now.compared = true;
  if (now.unreachable) {
    // Down: one event, no rule marks. The verdicts of the last night it was up
    // travel with this report, so the night it answers again compares with them.
    now.went_down = !before.unreachable;
    if (!before.unreachable || before.last_up) now.last_up = last_up_of(before);
    return;
  }
  if (before.unreachable) {
    now.came_back = true;
    // Down in the baseline and never up before it: nothing to compare the rules with.
    if (!before.last_up) return;
  }
  RuleIndex index(before.unreachable ? before.last_up->rules : before.rules);
  for (auto& rule : now.rules) {
    const RuleResult* old = index.find(rule);
    rule.change = change_of(table, rule, old ? std::optional<Verdict>(old->verdict) : std::nullopt);
  }
}

void date_streaks(Report& now, const Report* before) {
  const std::string& tonight = now.generated_at;
  if (now.unreachable) {
    // Down in the baseline too: the same outage.
    bool goes_on = before && before->unreachable;
    now.down_since = goes_on && !before->down_since.empty() ? before->down_since
                     : goes_on                              ? before->generated_at
                                                            : tonight;
  }
  // A rule's streak goes on from the baseline's verdict when the baseline
  // judged it (up, or a rule that fails without an answer on a down night: TS-1
  // on http://), else, across the baseline's down night, from its last_up.
  std::optional<RuleIndex> in_before, in_last_up;
  if (before) in_before.emplace(before->rules);
  if (before && before->unreachable && before->last_up) in_last_up.emplace(before->last_up->rules);
  auto failed = [](const RuleResult* r) { return r && r->verdict == Verdict::fail; };
  for (auto& rule : now.rules) {
    rule.failing_since.reset();
    if (rule.verdict != Verdict::fail) continue;
    rule.failing_since = tonight;
    if (!before) continue;
    if (const RuleResult* old = in_before->find(rule); failed(old))
      rule.failing_since = old->failing_since.value_or(before->generated_at);
    else if (in_last_up && failed(old = in_last_up->find(rule)))
      rule.failing_since = old->failing_since.value_or(before->last_up->generated_at);
  }
}

std::optional<Changes> changes(const Report& report) {
  bool any = report.compared;
  Changes c;
  c.down = report.went_down;
  c.back_up = report.came_back;
  for (const auto& rule : report.rules) {
    if (!rule.change) continue;
    any = true;
    if (*rule.change == "new-fail") c.new_fail.push_back(rule.id);
    else if (*rule.change == "fixed") c.fixed.push_back(rule.id);
    else if (*rule.change == "regressed") c.regressed.push_back(rule.id);
  }
  if (!any) return std::nullopt;
  return c;
}

std::vector<TargetDiff> diff_summaries(const Summary& before, const Summary& now,
                                       const std::vector<catalogue::ChangeRule>& table) {
  std::unordered_map<std::string, const SummaryTarget*> old_rows;
  for (const auto& t : before.targets) old_rows.emplace(t.name, &t);
  std::vector<TargetDiff> out;
  std::unordered_map<std::string, bool> seen;
  for (const auto& t : now.targets) {
    if (!seen.emplace(t.name, true).second) continue;  // a name twice (a hand-made file): the first counts
    TargetDiff d;
    d.name = t.name;
    d.base_url = t.base_url;
    d.is_up = t.reachable;
    if (t.reachable) d.percent_now = t.score.percent;
    auto it = old_rows.find(t.name);
    if (it == old_rows.end()) {
      d.what = "added";
      out.push_back(std::move(d));
      continue;
    }
    const SummaryTarget& o = *it->second;
    d.what = "changed";
    d.was_up = o.reachable;
    if (o.reachable) d.percent_before = o.score.percent;
    if (o.base_url != t.base_url) d.moved_from = o.base_url;
    d.changes.down = o.reachable && !t.reachable;
    d.changes.back_up = !o.reachable && t.reachable;
    if (o.reachable && t.reachable) {
      std::unordered_map<std::string, Verdict> was(o.verdicts.begin(), o.verdicts.end());
      for (const auto& [id, v] : t.verdicts) {
        RuleResult rule;
        rule.id = id;
        rule.kind = "technical";
        rule.verdict = v;
        auto w = was.find(id);
        std::string mark = change_of(table, rule, w == was.end() ? std::nullopt : std::optional<Verdict>(w->second));
        if (mark == "new-fail") d.changes.new_fail.push_back(id);
        else if (mark == "regressed") d.changes.regressed.push_back(id);
        else if (mark == "fixed") d.changes.fixed.push_back(id);
      }
    }
    out.push_back(std::move(d));
  }
  for (const auto& o : before.targets) {
    if (seen.count(o.name)) continue;
    seen.emplace(o.name, true);
    TargetDiff d;
    d.name = o.name;
    d.what = "removed";
    d.base_url = o.base_url;
    d.was_up = o.reachable;
    if (o.reachable) d.percent_before = o.score.percent;
    out.push_back(std::move(d));
  }
  return out;
}

bool regressed(const Changes& c) { return c.down || !c.new_fail.empty() || !c.regressed.empty(); }

}  // namespace adrprobe::report
