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

const RuleResult* find_rule(const Report& before, const RuleResult& rule) {
  for (const auto& r : before.rules)
    if (r.id == rule.id) return &r;
  auto names = [](const RuleResult& r) {
    std::vector<std::string> out = r.aliases;
    out.push_back(r.id);
    return out;
  };
  auto mine = names(rule);
  for (const auto& r : before.rules)
    for (const auto& name : names(r))
      if (has(mine, name)) return &r;
  return nullptr;
}

void apply_baseline(Report& now, const Report& before, const std::vector<catalogue::ChangeRule>& table) {
  for (auto& rule : now.rules) {
    const RuleResult* old = find_rule(before, rule);
    rule.change = change_of(table, rule, old ? std::optional<Verdict>(old->verdict) : std::nullopt);
  }
}

std::optional<Changes> changes(const Report& report) {
  bool any = false;
  Changes c;
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

bool regressed(const Changes& c) { return !c.new_fail.empty() || !c.regressed.empty(); }

}  // namespace adrprobe::report
