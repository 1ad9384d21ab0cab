// Markdown for a merge-request comment (GitLab, GitHub): a header line, the
// table of technical rules, then the checks that did not pass with the
// requests that prove it. Short: functional rules are one line.
#include <fmt/format.h>

#include <algorithm>

#include "report/formats.hpp"
#include "report/markdown_text.hpp"
#include "report/sections.hpp"
#include "util/strings.hpp"

namespace adrprobe::report {
namespace {

const char* icon(Verdict v) {
  switch (v) {
    case Verdict::pass: return "✅";
    case Verdict::warn: return "⚠️";
    case Verdict::fail: return "❌";
    case Verdict::error: return "❗";
    case Verdict::skip: return "⏭️";
    case Verdict::manual: return "👀";
  }
  return "";
}

constexpr std::size_t kShownPlaces = 10;  // places listed under one check

}  // namespace

std::string render_markdown(const Report& r, const RenderOptions&) {
  std::string out;
  auto line = [&](const std::string& s) { out += s + "\n"; };
  std::string target = r.mode == "lint" ? document_location(r) : r.base_url;
  std::string edition = r.edition_name.empty() ? "edition " + r.edition : r.edition_name;
  std::string percent = r.score.percent ? fmt::format("{:.1f} %", *r.score.percent) : "n/a";
  // The conclusion an auditor signs is the first line (CLI.md).
  Conclusion conclusion = conclude(r);
  line(fmt::format("**{} {}**", conclusion.conforms == std::optional<bool>(false) ? "❌" : conclusion.conforms ? "✅" : "❗",
                   markdown_text(conclusion.text)));
  line("");
  line(fmt::format("### adrprobe {}: {} · {} · score {}", r.mode == "lint" ? "lint" : "check", markdown_text(target), markdown_text(edition),
                   percent));
  line("");
  int functional = 0;
  std::vector<RuleSection> sections = rule_sections(r);
  const std::vector<const RuleResult*>& edition_rules = sections.front().rules;
  bool changes = false;
  for (const auto& rule : r.rules) changes = changes || (rule.kind == "technical" && rule.change);
  // A table of technical rules: one row each, the change against a baseline when there is one.
  auto table = [&](const std::vector<const RuleResult*>& rules) {
    line(changes ? "| Rule | Verdict | Summary | Change |" : "| Rule | Verdict | Summary |");
    line(changes ? "|---|---|---|---|" : "|---|---|---|");
    for (const RuleResult* rule : rules) {
      if (rule->kind != "technical") continue;
      std::string row = fmt::format("| {} | {} {} | {} |", markdown_text(rule->id), icon(rule->verdict),
                                    to_string(rule->verdict), markdown_text(truncate_utf8(rule->summary, 200)));
      if (changes) row += fmt::format(" {} |", rule->change ? markdown_text(*rule->change) : "");
      line(row);
    }
  };
  if (r.unreachable) {
    // Down (CLI.md, "Nightly monitoring"): one entry, no table of rules that
    // could not run; only what failed without an answer (TS-1 on http://) follows.
    line("**down: " + markdown_text(down_cause(r)) + "**");
    if (r.went_down) line("\nIt was up in the baseline.");
    if (!r.notes.empty() && r.notes.size() > 1) {
      line("");
      for (std::size_t i = 1; i < r.notes.size(); ++i) line("- " + markdown_text(r.notes[i]));
    }
  } else {
    line(fmt::format("{} pass · {} warn · {} fail · {} error of {} applicable technical rules", r.score.pass, r.score.warn,
                     r.score.fail, r.score.error, r.score.applicable));
    if (r.came_back) line("\nBack up: it was down in the baseline.");
    if (!r.headline.empty()) line("\n**" + markdown_text(r.headline) + "**");
    for (std::size_t i = 0; i < std::min(r.leading_notes, r.notes.size()); ++i) line("\n**" + markdown_text(r.notes[i]) + "**");

    line("");
    table(edition_rules);
    for (const RuleResult* rule : edition_rules) functional += rule->kind != "technical";
  }

  // The checks that did not pass, worst rules first.
  auto problems_of = [&](const std::vector<const RuleResult*>& rules) {
    std::vector<std::string> problems;
    for (Verdict v : {Verdict::fail, Verdict::error, Verdict::warn}) {
      for (const RuleResult* rule_of : rules) {
        const RuleResult& rule = *rule_of;
        if (rule.kind != "technical" || rule.verdict != v) continue;
        for (const auto& c : rule.checks) {
          if (severity(c.verdict) <= severity(Verdict::pass)) continue;
          // The unreachable target is said once at the top: its errors need no line each.
          if (r.unreachable && c.verdict == Verdict::error) continue;
          std::string item = fmt::format("- {} **{}** {} {}: {}", icon(c.verdict), markdown_text(c.id), to_string(c.verdict),
                                         markdown_text(rule.id), markdown_text(truncate_utf8(c.message, 400)));
          // Every place (one per distinct field, a field in another file with its own).
          for (std::size_t i = 0; i < std::min<std::size_t>(c.locations.size(), kShownPlaces); ++i) {
            const auto& l = c.locations[i];
            item += fmt::format("\n  - at {}{}{}", markdown_text(l.pointer), l.target.empty() ? "" : " → " + markdown_text(l.target),
                                l.line ? fmt::format(" (line {})", *l.line) : "");
          }
          if (c.locations.size() > kShownPlaces)
            item += fmt::format("\n  - (+{} more places: JSON, SARIF)", c.locations.size() - kShownPlaces);
          if (c.fix) {
            // The change as a fenced block, its fence longer than any backtick run in it.
            std::size_t run = 0, longest = 0;
            for (char ch : c.fix->text) longest = std::max(longest, run = ch == '`' ? run + 1 : 0);
            std::string fence(std::max<std::size_t>(3, longest + 1), '`');
            // The documentation's URL (the catalogue's own, https, no backtick) as a code span: readable, not a link.
            item += fmt::format("\n  - fix{}, see `{}`:\n\n    {}\n", c.fix->name.empty() ? "" : " for " + markdown_text(c.fix->name),
                                escape_control(c.fix->source), fence);
            // Tabs stay tabs: the code is pasted from here (Go is indented with them).
            for (const auto& l : split(trim(c.fix->text), '\n')) item += "    " + escape_control(l, Tabs::kept) + "\n";
            item += "    " + fence + "\n";
          }
          std::size_t shown = 0;
          for (int id : c.exchanges) {
            if (shown == 2) break;
            if (const auto* e = find_exchange(r, id)) {
              std::string judged = judged_headers_line(*e, c.judged_headers);
              item += "\n  - " + markdown_text(exchange_line(*e)) + (judged.empty() ? "" : " · " + markdown_text(judged));
              ++shown;
            }
          }
          if (c.exchanges.size() > shown && shown) item += fmt::format(" (+{} more)", c.exchanges.size() - shown);
          problems.push_back(std::move(item));
        }
      }
    }
    return problems;
  };
  std::vector<std::string> problems = problems_of(edition_rules);
  if (!problems.empty()) {
    line("");
    line("#### What did not pass");
    line("");
    for (const auto& p : problems) line(p);
  }
  if (functional) {
    line("");
    line(fmt::format("{} for a reviewer.", plural(static_cast<std::size_t>(functional), "functional rule",
                                                  "functional rules")));
  }
  // Each module judged beside the edition (module-geo.md), after it: its
  // heading, why it was judged, its own count, its table and what did not pass.
  for (std::size_t i = 1; i < sections.size() && !r.unreachable; ++i) {
    const RuleSection& s = sections[i];
    line("");
    line("### " + markdown_text(module_heading(s.module)));
    line("");
    if (!s.module.reason.empty()) line(markdown_text(s.module.reason) + "\n");
    line(module_counts(s) + " of the module (they count in the score only through the edition's rule for it)");
    line("");
    table(s.rules);
    std::vector<std::string> module_problems = problems_of(s.rules);
    if (!module_problems.empty()) {
      line("");
      line("#### What did not pass in the " + markdown_text(module_heading(s.module)));
      line("");
      for (const auto& p : module_problems) line(p);
    }
    std::size_t module_functional = static_cast<std::size_t>(
        std::count_if(s.rules.begin(), s.rules.end(), [](const RuleResult* rule) { return rule->kind != "technical"; }));
    if (module_functional) {
      line("");
      line(fmt::format("{} of the module for a reviewer.",
                       plural(module_functional, "functional rule", "functional rules")));
    }
  }
  return out;
}

}  // namespace adrprobe::report
