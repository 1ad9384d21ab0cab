// summary.html: the batch at a glance, one row per target, each linking its
// own HTML and JSON report. The page skeleton, CSS and escaping are
// report/html_page.* (the same as the audit report's).
#include <fmt/format.h>

#include <algorithm>

#include "report/html_page.hpp"
#include "report/summary.hpp"
#include "util/strings.hpp"

namespace adrprobe::report {
namespace {

using html::esc;

std::string rule_list(const std::vector<std::string>& ids) {
  std::vector<std::string> items;
  for (const auto& id : ids) items.push_back("<code>" + esc(id) + "</code>");
  return join(items, "<br>");
}

std::string score_cell(const Score& s) {
  std::string out = fmt::format("<div class=\"pct-s\">{}</div>", s.percent ? fmt::format("{:.1f} %", *s.percent) : "n/a");
  out += fmt::format("<div class=\"small\"><span class=\"n v-pass\">✔ {} pass</span> · <span class=\"n v-warn\">⚠ {} "
                     "warn</span> · <span class=\"n v-fail\">✖ {} fail</span> · <span class=\"n v-error\">! {} "
                     "error</span></div>",
                     s.pass, s.warn, s.fail, s.error);
  return out;
}

std::string change_cell(const std::optional<Changes>& change) {
  if (!change) return "<span class=\"muted\">—</span>";
  std::string out;
  auto part = [&](const char* label, const char* cls, const std::vector<std::string>& ids) {
    if (ids.empty()) return;
    out += fmt::format("<div><span class=\"{}\">{}:</span> {}</div>", cls, label, rule_list(ids));
  };
  part("new fail", "v-fail", change->new_fail);
  part("regressed", "v-warn", change->regressed);
  part("fixed", "v-pass", change->fixed);
  return out.empty() ? "<span class=\"muted\">no change</span>" : out;
}

std::string cert_cell(const std::optional<int>& days) {
  if (!days) return "<span class=\"muted\">—</span>";
  if (*days < 0) return fmt::format("<span class=\"v v-fail\">✖ expired {} days ago</span>", -*days);
  if (*days < 30) return fmt::format("<span class=\"v v-warn\">⚠ {} days</span>", *days);
  return fmt::format("{} days", *days);
}

// A link to each report file the batch wrote (never to one it did not):
// HTML first, the one a person opens, then JSON, then the others as written.
std::string reports_cell(const SummaryTarget& t) {
  auto files = t.files;
  if (files.empty() && !t.report.empty()) files.emplace_back("json", t.report);
  auto rank = [](const std::string& format) { return format == "html" ? 0 : format == "json" ? 1 : 2; };
  std::stable_sort(files.begin(), files.end(), [&](const auto& x, const auto& y) { return rank(x.first) < rank(y.first); });
  std::vector<std::string> links;
  for (const auto& [format, path] : files) {
    std::string label = format == "html" ? "HTML" : format == "json" ? "JSON" : format == "junit" ? "JUnit" : format;
    links.push_back(html::file_link(path, esc(label)));
  }
  if (links.empty()) return "<span class=\"muted\">—</span>";
  return "<span class=\"n\">" + join(links, " · ") + "</span>";
}

}  // namespace

std::string render_summary_html(const Summary& summary) {
  std::size_t failing = 0, erroring = 0, unreachable = 0;
  for (const auto& t : summary.targets) {
    if (!t.failing.empty()) ++failing;
    if (!t.erroring.empty()) ++erroring;
    if (!t.note.empty()) ++unreachable;
  }
  std::string body = "<header>\n<h1>ADR batch summary</h1>\n";
  body += fmt::format("<p class=\"sub\">{} · adrprobe {} · {}: {} with failing rules, {} with errors, {} with a "
                      "note</p>\n</header>\n",
                      esc(summary.generated_at), esc(summary.tool_version),
                      plural(summary.targets.size(), "target", "targets"), failing, erroring, unreachable);
  // What a reader must know before the table: a shard missing, a baseline that could not be read.
  if (!summary.complete)
    body += "<div class=\"notice\" role=\"alert\"><b>Incomplete:</b> this summary does not cover the whole register.</div>\n";
  for (const auto& note : summary.notes) body += fmt::format("<div class=\"notice\" role=\"alert\">{}</div>\n", esc(note));
  body += "<table class=\"targets\">\n<thead><tr><th>Target</th><th>Edition</th><th>Score</th><th>Failing rules</th>"
          "<th>Since the previous run</th><th>Certificate</th><th>Report</th></tr></thead>\n<tbody>\n";
  for (const auto& t : summary.targets) {
    std::string target = fmt::format("<b>{}</b><div class=\"small wrap\"><code>{}</code></div>", esc(t.name), esc(t.base_url));
    if (!t.note.empty()) target += fmt::format("<div class=\"small err\">{}</div>", esc(t.note));
    std::string rules = rule_list(t.failing);
    if (!t.erroring.empty())
      rules += fmt::format("<div class=\"small\"><span class=\"v-error\">error:</span> {}</div>", rule_list(t.erroring));
    if (rules.empty()) rules = "<span class=\"muted\">none</span>";
    body += fmt::format("<tr><td class=\"wrap\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                        target, esc(t.edition), score_cell(t.score), rules, change_cell(t.change),
                        cert_cell(t.cert_days_left), reports_cell(t));
  }
  if (summary.targets.empty()) body += "<tr><td colspan=\"7\" class=\"muted\">No targets.</td></tr>\n";
  body += "</tbody>\n</table>\n";
  body += fmt::format(
      "<footer>adrprobe {} · {} · This file is self-contained: it loads nothing from the network and runs no "
      "script.</footer>\n",
      esc(summary.tool_version), esc(summary.generated_at));
  return html::page("ADR batch summary", body, ".pct-s { font-size: 18px; font-weight: bold; }\n.n { white-space: nowrap; }\n");
}

}  // namespace adrprobe::report
