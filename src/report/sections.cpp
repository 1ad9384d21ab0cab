#include "report/sections.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace adrprobe::report {

std::vector<RuleSection> rule_sections(const Report& report) {
  std::vector<RuleSection> sections(1);
  sections.front().score = report.score;
  for (const auto& m : report.modules) {
    sections.emplace_back();
    sections.back().module = m;
  }
  for (const auto& rule : report.rules) {
    auto it = std::find_if(sections.begin(), sections.end(),
                           [&](const RuleSection& s) { return s.module.id == rule.module; });
    if (it == sections.end()) {
      sections.emplace_back();
      sections.back().module.id = rule.module;
      it = sections.end() - 1;
    }
    it->rules.push_back(&rule);
  }
  for (auto& s : sections) {
    if (!s.is_module()) continue;
    // The count of Report::score, over this module's technical rules alone.
    for (const RuleResult* rule : s.rules) {
      if (rule->kind != "technical") continue;
      switch (rule->verdict) {
        case Verdict::pass: ++s.score.pass; break;
        case Verdict::warn: ++s.score.warn; break;
        case Verdict::fail: ++s.score.fail; break;
        case Verdict::error: ++s.score.error; break;
        default: break;
      }
    }
    s.score.applicable = s.score.pass + s.score.warn + s.score.fail + s.score.error;
  }
  return sections;
}

std::string module_heading(const ModuleInfo& module) {
  std::string name = module.title.empty() ? module.id : module.title;
  return module.version.empty() ? name + " module" : fmt::format("{} module {}", name, module.version);
}

std::string module_counts(const RuleSection& section) {
  const Score& s = section.score;
  return fmt::format("{} pass · {} warn · {} fail · {} error of {} applicable rules", s.pass, s.warn, s.fail, s.error,
                     s.applicable);
}

}  // namespace adrprobe::report
