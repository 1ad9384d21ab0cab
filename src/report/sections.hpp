// The parts of a report every format shows apart (CLI.md, `modules`): the
// edition's rules, then the rules of each module judged beside it, under a
// heading of their own ("Geospatial module 1.0.2") with their own count and
// why the module was judged. One grouping, so no renderer tells a module's
// rules apart in its own way.
#pragma once
#include <string>
#include <vector>

#include "report/model.hpp"

namespace adrprobe::report {

struct RuleSection {
  // The module ("" id for the edition's own rules). A module rule whose module
  // the report does not list (a hand-edited file) gets one named by its id.
  ModuleInfo module;
  std::vector<const RuleResult*> rules;  // in report order
  // Its technical rules by verdict: a module's own pass count (they are not
  // in Report::score one by one); the edition's is Report::score.
  Score score;
  bool is_module() const { return !module.id.empty(); }
};

// The edition's section first (always, even when empty), then one per module
// in the order of Report::modules.
std::vector<RuleSection> rule_sections(const Report& report);

// "Geospatial module 1.0.2" (the id when the module has no title).
std::string module_heading(const ModuleInfo& module);

// "3 pass · 1 warn · 1 fail · 0 error of 5 applicable rules": a module's own
// count, as every format words it.
std::string module_counts(const RuleSection& section);

}  // namespace adrprobe::report
