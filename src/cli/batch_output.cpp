#include "cli/batch_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "cli/settings.hpp"
#include "util/files.hpp"
#include "util/strings.hpp"

namespace adrprobe::cli {

const std::vector<std::string>& summary_file_names() {
  static const std::vector<std::string> names{"summary.json", "summary.html", "summary.prom", "summary.md"};
  return names;
}

std::string summary_write_problem(const std::string& dir) {
  for (const auto& name : summary_file_names()) {
    std::string problem = write_problem((std::filesystem::path(dir) / name).string());
    if (!problem.empty()) return fmt::format("--out-dir {}: {}: {}", dir, name, problem);
  }
  return "";
}

void write_summary(const std::string& dir, const report::Summary& summary, const Push& push) {
  std::string prom = report::render_summary_openmetrics(summary);
  for (auto [name, text] : {std::pair{"summary.json", report::render_summary_json(summary)},
                            std::pair{"summary.html", report::render_summary_html(summary)},
                            std::pair{"summary.prom", prom},
                            std::pair{"summary.md", report::render_summary_markdown(summary)}}) {
    // Written beside and renamed: a collector or a browser never reads half a file.
    try {
      write_file((std::filesystem::path(dir) / name).string(), text);
    } catch (const std::runtime_error& e) {
      throw UsageError(fmt::format("cannot write {}", e.what()));
    }
  }
  if (!push.url.empty()) push_summary(push, summary.register_name, prom);
}

namespace {
std::string state_of(const report::SummaryTarget& t) {
  if (!t.reachable) return "down";
  if (t.score.fail > 0) return "fail";
  if (t.score.error > 0) return "error";
  if (t.score.warn > 0) return "warn";
  return "pass";
}
}  // namespace

LineColumns line_columns(const std::vector<std::pair<std::string, std::string>>& names_and_urls) {
  LineColumns columns;
  for (const auto& [name, url] : names_and_urls) {
    columns.name = std::max(columns.name, utf8_columns(escape_control(name)));
    columns.url = std::max(columns.url, utf8_columns(escape_control(url)));
  }
  return columns;
}

LineColumns line_columns(const std::vector<report::SummaryTarget>& rows) {
  std::vector<std::pair<std::string, std::string>> shown;
  for (const auto& t : rows) shown.emplace_back(t.name, t.base_url);
  return line_columns(shown);
}

std::string target_line(const report::SummaryTarget& t, bool color, const LineColumns& columns) {
  std::string state = state_of(t);
  const char* code = state == "pass" ? "32" : state == "warn" ? "33" : state == "error" ? "35" : "1;31";
  std::string shown = color ? fmt::format("\x1b[{}m{:<5}\x1b[0m", code, state) : fmt::format("{:<5}", state);
  std::string percent = t.score.percent ? fmt::format("{:5.1f} %", *t.score.percent) : "  n/a  ";
  // As wide as "10 fail · 10 error": the changes after it start in one column.
  constexpr std::size_t counts_width = 18;
  std::string counts = pad_columns(t.reachable ? fmt::format("{} fail · {} error", t.score.fail, t.score.error) : "down",
                                   counts_width);
  // Names come from the register, URLs, rule ids and notes partly from servers and files: shown escaped.
  auto E = [](const std::string& text) { return escape_control(text); };
  std::string change;
  if (t.change) {
    if (!t.change->new_fail.empty()) change += "  new-fail: " + E(join(t.change->new_fail, ", "));
    if (!t.change->regressed.empty()) change += "  regressed: " + E(join(t.change->regressed, ", "));
    if (!t.change->fixed.empty()) change += "  fixed: " + E(join(t.change->fixed, ", "));
    if (t.change->down) change += "  went down";
    if (t.change->back_up) change += "  back up";
  }
  if (!t.moved_from.empty()) change += "  moved from " + E(t.moved_from);
  std::string note = t.note.empty() ? "" : "  " + E(t.note);
  std::string line = fmt::format("  {} {}  {}  {}  {}{}{}", shown, pad_columns(E(t.name), columns.name),
                                 pad_columns(E(t.base_url), columns.url), percent, counts, change, note);
  // No trailing spaces when nothing follows the padded counts.
  return line.erase(line.find_last_not_of(' ') + 1);
}

std::string totals_line(const report::Summary& s, const std::string& dir) {
  // By what the rows hold, whatever --fail-on was: a down target is down, not "failing".
  int pass = 0, fail = 0, untested = 0, down = 0, worse = 0, better = 0;
  for (const auto& t : s.targets) {
    if (!t.reachable) ++down;
    else if (!t.failing.empty()) ++fail;
    else if (!t.erroring.empty()) ++untested;
    else ++pass;
    if (report::got_worse(t)) ++worse;
    else if (report::changed(t)) ++better;
  }
  std::string changes;
  bool compared = std::any_of(s.targets.begin(), s.targets.end(), [](const auto& t) { return t.change.has_value(); });
  if (compared) changes = fmt::format("; since the baseline {} got worse, {} better", worse, better);
  return escape_control(fmt::format("{} targets: {} without a failing rule, {} failing, {} not completely tested, {} down{} · {}",
                                    s.targets.size(), pass, fail, untested, down, changes,
                                    (std::filesystem::path(dir) / "summary.html").string()));
}

int summary_exit_status(const report::Summary& s, report::FailOn fail_on) {
  using report::FailOn;
  if (fail_on == FailOn::regressed) {
    // Red only when something got worse since the baseline (CLI.md, "Nightly monitoring").
    for (const auto& t : s.targets)
      if (report::got_worse(t)) return Exit::rule_failed;
    return Exit::ok;
  }
  bool any_error = false;
  for (const auto& t : s.targets) {
    bool warned = false;
    for (const auto& [id, v] : t.verdicts) warned = warned || v == report::Verdict::warn;
    // A down row lists no rules; a rule that failed without an answer (TS-1
    // on http://) is still in its conclusion, and fails the night as it fails
    // the target's own exit status.
    bool failed = !t.failing.empty() ||
                  (t.conclusion && t.conclusion->must_failed + t.conclusion->should_failed > 0);
    if (fail_on == FailOn::fail && failed) return Exit::rule_failed;
    if (fail_on == FailOn::warn && (failed || warned)) return Exit::rule_failed;
    // Not completed: a rule in error, or the target down (3, also under never).
    if (!t.erroring.empty() || !t.reachable) any_error = true;
  }
  return any_error ? Exit::incomplete : Exit::ok;
}

}  // namespace adrprobe::cli
