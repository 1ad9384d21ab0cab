// summary.md: the digest of a night, to paste in a chat channel or an issue:
// by owner, what changed since the previous run, and what is still failing or
// down and since when. Names, owners and rule ids are register or report text:
// markdown_text escapes them. URLs, times and a server's words are code spans
// (markdown_code): pasted into a chat that does not render Markdown, or copied
// from one that does, they read exactly as in the report.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "report/markdown_text.hpp"
#include "report/summary.hpp"
#include "util/strings.hpp"

namespace adrprobe::report {
namespace {

std::string digest_ids(const std::vector<std::string>& ids) {
  std::vector<std::string> out;
  for (const auto& id : ids) out.push_back(markdown_text(id));
  return join(out, ", ");
}

std::string digest_percent(const std::optional<double>& p) { return p ? fmt::format("{:.1f} %", *p) : "n/a"; }

// "`2026-11-20T02:00:00Z` (8 nights)": a streak's first run, as a code span (a
// time pasted anywhere reads as written), and how many runs it has lasted when
// the history reaches back to it.
std::string digest_since(const std::string& since, const SummaryTarget& t, const Summary& summary) {
  std::string nights = nights_since(summary, t.name, since);
  return markdown_code(since) + (nights.empty() ? "" : " (" + nights + ")");
}

// The outage of a down target: since when, and why (server text, a code span).
std::string digest_down(const SummaryTarget& t, const Summary& summary) {
  std::string what = still_down(t) ? "still down" : "down";
  if (!t.down_since.empty()) what += " since " + digest_since(t.down_since, t, summary);
  return what + ": " + (t.note.empty() ? std::string("no answer") : markdown_code(t.note));
}

// One bullet: the name, then what happened to it; below it, the rules that
// fail as they did before, by the date their failure began (oldest first).
std::string digest_bullet(const SummaryTarget& t, const Summary& summary) {
  std::vector<std::string> what;
  if (!t.reachable) what.push_back(digest_down(t, summary));
  std::vector<std::string> new_fail;
  if (t.change) {
    const Changes& c = *t.change;
    if (c.back_up) what.push_back("back up");
    if (!c.new_fail.empty()) what.push_back("new-fail " + digest_ids(c.new_fail));
    if (!c.regressed.empty()) what.push_back("regressed " + digest_ids(c.regressed));
    if (!c.fixed.empty()) what.push_back("fixed " + digest_ids(c.fixed));
    new_fail = c.new_fail;
  }
  if (!t.moved_from.empty())
    what.push_back(fmt::format("moved from {} to {}", markdown_code(t.moved_from), markdown_code(t.base_url)));
  if (t.reachable) {
    std::string score = "score " + digest_percent(t.score.percent);
    auto h = summary.history.find(t.name);
    if (h != summary.history.end() && h->second.size() >= 2) {
      const HistoryPoint& before = h->second[h->second.size() - 2];
      score += before.up ? fmt::format(" (was {})", digest_percent(before.percent)) : " (was down)";
    }
    what.push_back(score);
  }
  std::string out = fmt::format("- **{}**: {}\n", markdown_text(t.name), join(what, " · "));
  // Tonight's new failures are named above; these are the ones still failing
  // (without a date in a summary.json of an earlier version).
  for (const auto& [since, ids] : failing_by_since(t, new_fail))
    out += fmt::format("  - {}: {}\n", since.empty() ? std::string("failing") : "failing since " + digest_since(since, t, summary),
                       digest_ids(ids));
  return out;
}

}  // namespace

std::string render_summary_markdown(const Summary& summary) {
  std::string out;
  auto line = [&](const std::string& s) { out += s + "\n"; };

  std::size_t n_changed = 0, n_down = 0, n_new_fail = 0, n_regressed = 0, n_fixed = 0, n_back_up = 0, n_moved = 0;
  std::size_t n_still_down = 0, n_unchanged = 0, n_no_baseline = 0;
  std::vector<std::string> no_baseline;
  // Owner → the targets to list: what changed, moved, is down or fails; "No owner" (an empty owner) comes last.
  std::map<std::pair<bool, std::string>, std::vector<const SummaryTarget*>> by_owner;
  for (const auto& t : summary.targets) {
    if (changed(t)) ++n_changed;
    if (!t.moved_from.empty()) ++n_moved;
    if (still_down(t)) ++n_still_down;
    if (t.change) {
      if (t.change->down) ++n_down;
      if (!t.change->new_fail.empty()) ++n_new_fail;
      if (!t.change->regressed.empty()) ++n_regressed;
      if (!t.change->fixed.empty()) ++n_fixed;
      if (t.change->back_up) ++n_back_up;
    } else {
      ++n_no_baseline;
      no_baseline.push_back(markdown_text(t.name));
    }
    if (changed(t) || !t.moved_from.empty() || !t.reachable || !t.failing.empty())
      by_owner[{t.owner.empty(), t.owner}].push_back(&t);
    else if (t.change)
      ++n_unchanged;
  }

  std::string date = summary.generated_at.substr(0, summary.generated_at.find('T'));
  std::string counts = fmt::format("{} down · {} new-fail · {} regressed · {} fixed · {} back up", n_down, n_new_fail,
                                   n_regressed, n_fixed, n_back_up);
  if (n_moved > 0) counts += fmt::format(" · {} moved", n_moved);
  if (n_still_down > 0) counts += fmt::format(" · {} still down", n_still_down);
  line(fmt::format("### adrprobe nightly {}: {} of {} changed ({})", markdown_text(date), n_changed,
                   plural(summary.targets.size(), "target", "targets"), counts));
  line("");
  // What a reader must know first: a shard missing, a baseline that could not be read.
  if (!summary.complete) line("**Incomplete: this summary does not cover the whole register.**\n");
  for (const auto& note : summary.notes) line("**" + markdown_text(note) + "**\n");
  if (summary.previous_generated_at.empty())
    line("No previous run: nothing to compare with.");
  else
    line(fmt::format("Since the previous run of {}.", markdown_code(summary.previous_generated_at)));

  for (auto& [owner, targets] : by_owner) {
    std::stable_sort(targets.begin(), targets.end(), [](const SummaryTarget* x, const SummaryTarget* y) {
      return std::pair(row_rank(*x), std::string_view(x->name)) < std::pair(row_rank(*y), std::string_view(y->name));
    });
    line("");
    line("#### " + (owner.first ? std::string("No owner") : markdown_text(owner.second)));
    line("");
    for (const auto* t : targets) out += digest_bullet(*t, summary);
  }

  line("");
  std::string rest = fmt::format("{} unchanged, without a failing rule", plural(n_unchanged, "other target", "other targets"));
  // Named (the first few): a target new in the register is news too.
  if (n_no_baseline > 0)
    rest += fmt::format("; {} with no earlier run to compare: {}", n_no_baseline, join(no_baseline, ", ", 10));
  line(rest + ".");
  return out;
}

}  // namespace adrprobe::report
