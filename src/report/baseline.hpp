// --baseline: each rule of a report marked against the same rule in an earlier
// report (new-fail, regressed, fixed, unchanged), by the table of
// probes/baseline.yaml. Rules are matched by id or alias, so a baseline of
// another edition compares too.
#pragma once
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "catalogue/catalogue.hpp"
#include "report/model.hpp"
#include "report/summary.hpp"

namespace adrprobe::report {

// The mark of one rule: `before` is nullopt when the earlier report does not
// have the rule ("absent" in the table). Functional rules are always unchanged.
std::string change_of(const std::vector<catalogue::ChangeRule>& table, const RuleResult& now,
                      std::optional<Verdict> before);

// The rules of a report by id and by alias, built once: matching every rule
// of one report against another is linear (a search per rule made `diff` of
// two 20,000-rule reports take a minute).
class RuleIndex {
 public:
  explicit RuleIndex(const Report& report) : RuleIndex(report.rules) {}
  explicit RuleIndex(const std::vector<RuleResult>& rules);  // a LastUp's
  // The rule of the report that is `rule`: the first with the same id, else
  // the first (in report order) with an id or alias in common; nullptr if none.
  const RuleResult* find(const RuleResult& rule) const;

 private:
  const std::vector<RuleResult>* rules_;
  std::unordered_map<std::string, std::size_t> by_id_, by_name_;
};

// RuleIndex(before).find(rule), for one look-up.
const RuleResult* find_rule(const Report& before, const RuleResult& rule);

// Sets RuleResult::change of every rule of `now`, and the report's state
// change (CLI.md, "Nightly monitoring"): a down `now` gets no rule marks but
// `went_down` when `before` was up, and carries the verdicts of the last up
// report as `last_up`; an up `now` whose baseline is down is `came_back` and
// is compared with the baseline's `last_up`.
void apply_baseline(Report& now, const Report& before, const std::vector<catalogue::ChangeRule>& table);

// Since when (CLI.md, "Nightly monitoring"): sets failing_since of every
// failing rule of `now` (a down report's too: TS-1 fails on http:// without
// an answer) and down_since of a down `now`. A streak that goes on from
// `before` (its baseline, if any) keeps the date `before` gives it (a report
// of an earlier version, which gives none, was made within the streak: its
// generated_at); any other starts with `now`. A rule's streak goes on when it
// failed in the baseline, or, when the baseline is down and did not judge it,
// in the last report in which the target was up (its `last_up`). Like the
// marks, which compare with that report too, a night the target was down does
// not break a streak: nobody saw the rule pass, so it is not dated anew (an
// auditor's "failing since" must not be younger than the failure). A failure
// that was an `error` in an up report in between does start anew, as its mark
// is new-fail again.
void date_streaks(Report& now, const Report* before);

// The rule ids of `report` (after apply_baseline) by mark; nullopt when no
// rule has a mark (no baseline).
std::optional<Changes> changes(const Report& report);
// The verdicts a down report carries forward: `report`'s own when it is up,
// else the last_up it carries.
LastUp last_up_of(const Report& report);

// `adrprobe diff` of two summaries (two nights of a register): per target
// name, what changed. Rules are compared by id through the same table.
struct TargetDiff {
  std::string name;
  std::string what;  // "changed", "added" (only in NEW), "removed" (only in OLD)
  std::string base_url, moved_from;  // NEW's URL; OLD's when it differs
  bool was_up = true, is_up = true;
  std::optional<double> percent_before, percent_now;
  Changes changes;  // new_fail, regressed, fixed; down (went down); back_up
  bool worse() const { return changes.down || !changes.new_fail.empty() || !changes.regressed.empty(); }
  bool any() const {
    return what != "changed" || worse() || changes.back_up || !changes.fixed.empty() || !moved_from.empty();
  }
};
// Every target of either summary, NEW's order first, then those only in OLD.
std::vector<TargetDiff> diff_summaries(const Summary& before, const Summary& now,
                                       const std::vector<catalogue::ChangeRule>& table);

// Whether anything got worse: a rule new-fail or regressed, or the target went down.
bool regressed(const Changes& changes);

}  // namespace adrprobe::report
