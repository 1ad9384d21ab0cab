// adrprobe diff OLD NEW: what got better or worse between two reports of one
// API, or between two nights of a register (two batch/summary output
// directories, or their summary.json files). Each rule of NEW is marked
// against OLD by the table of probes/baseline.yaml (as --baseline does);
// exit 1 when anything regressed (or, of a register, a target went down).
#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>

#include "cli/command.hpp"
#include "cli/settings.hpp"
#include "report/baseline.hpp"
#include "report/json.hpp"
#include "report/summary.hpp"
#include "util/read_file.hpp"
#include "util/strings.hpp"

namespace adrprobe::cli {
namespace {

// Colour only when wanted; everything read from the two files is shown with
// control characters made visible.
struct Painter {
  bool color;
  std::string operator()(const std::string& text, const char* code) const {
    return color ? fmt::format("\x1b[{}m{}\x1b[0m", code, text) : text;
  }
};
std::string E(const std::string& s) { return escape_control(s); }

std::string percent(const report::Score& s) { return s.percent ? fmt::format("{:.1f} %", *s.percent) : "n/a"; }

// A summary when `path` is a directory (its summary.json) or a summary.json
// file; nullopt when it is a file that is no summary (then: a report).
std::optional<report::Summary> summary_at(const std::string& path, const char* which) {
  namespace fs = std::filesystem;
  std::error_code ec;
  bool dir = fs::is_directory(path, ec);
  std::string file = dir ? (fs::path(path) / "summary.json").string() : path;
  std::string text;
  try {
    text = read_file(file, report::max_summary_bytes);
  } catch (const ReadFileError& e) {
    if (dir) throw UsageError(fmt::format("{} {}: {}", which, file, e.what()));
    return std::nullopt;  // too large for a summary, or unreadable: read_baseline says why
  }
  try {
    // The rows are compared; the history is skipped as it is parsed.
    return report::parse_summary_json(text, report::no_history);
  } catch (const std::exception& e) {
    if (dir || text.find("adrprobe-summary/1") != std::string::npos)
      throw UsageError(fmt::format("{} {}: {}", which, file, e.what()));
    return std::nullopt;
  }
}

std::string percent_of(const std::optional<double>& p, bool up) {
  if (!up) return "down";
  return p ? fmt::format("{:.1f} %", *p) : "n/a";
}

int diff_register(const report::Summary& before, const report::Summary& now, const std::string& format, bool no_color) {
  auto diffs = report::diff_summaries(before, now, catalogue::Catalogue::builtin().baseline());
  bool worse = false;
  for (const auto& d : diffs) worse = worse || d.worse();
  int status = worse ? Exit::rule_failed : Exit::ok;
  if (format == "json") {
    nlohmann::ordered_json j;
    j["schema"] = "adrprobe-summary-diff/1";
    j["before"] = {{"generated_at", before.generated_at}, {"targets", before.targets.size()}};
    j["now"] = {{"generated_at", now.generated_at}, {"targets", now.targets.size()}};
    j["targets"] = nlohmann::ordered_json::array();
    for (const auto& d : diffs) {
      auto pct = [](const std::optional<double>& p) { return p ? nlohmann::ordered_json(*p) : nlohmann::ordered_json(nullptr); };
      nlohmann::ordered_json t{{"name", d.name},
                               {"what", d.what},
                               {"base_url", d.base_url},
                               {"state_before", d.what == "added" ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(d.was_up ? "up" : "down")},
                               {"state_now", d.what == "removed" ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(d.is_up ? "up" : "down")},
                               {"percent_before", pct(d.percent_before)},
                               {"percent_now", pct(d.percent_now)},
                               {"change", {{"new-fail", d.changes.new_fail}, {"fixed", d.changes.fixed},
                                           {"regressed", d.changes.regressed}, {"down", d.changes.down},
                                           {"back_up", d.changes.back_up}}}};
      if (!d.moved_from.empty()) t["moved_from"] = d.moved_from;
      j["targets"].push_back(std::move(t));
    }
    fmt::print("{}", report::dump_json(j));
    return status;
  }
  Painter paint{color_wanted(no_color)};
  fmt::print("{}\n", paint(fmt::format("adrprobe diff · {} → {} targets", before.targets.size(), now.targets.size()), "1"));
  fmt::print("  before  {}\n  now     {}\n", E(before.generated_at), E(now.generated_at));
  if (!before.generated_at.empty() && !now.generated_at.empty() && before.generated_at > now.generated_at)
    fmt::print("  note: OLD ({}) is newer than NEW ({}): are they the wrong way round?\n", E(before.generated_at),
               E(now.generated_at));
  fmt::print("\n");
  std::size_t width = 0;
  for (const auto& d : diffs) width = std::max(width, E(d.name).size());
  std::size_t quiet = 0;
  // Worse first, then better, then the rest that changed at all.
  for (int pass = 0; pass < 2; ++pass)
    for (const auto& d : diffs) {
      if (!d.any() || (pass == 0) != d.worse()) continue;
      std::vector<std::string> what;
      if (d.what != "changed") what.push_back(d.what);
      if (d.changes.down) what.push_back("went down");
      if (d.changes.back_up) what.push_back("back up");
      if (!d.changes.new_fail.empty()) what.push_back("new-fail: " + E(join(d.changes.new_fail, ", ")));
      if (!d.changes.regressed.empty()) what.push_back("regressed: " + E(join(d.changes.regressed, ", ")));
      if (!d.changes.fixed.empty()) what.push_back("fixed: " + E(join(d.changes.fixed, ", ")));
      if (!d.moved_from.empty()) what.push_back("moved from " + E(d.moved_from));
      std::string mark = d.worse() ? paint("worse ", "1;31") : paint("better", "32");
      if (!d.worse() && d.changes.fixed.empty() && !d.changes.back_up) mark = "      ";
      fmt::print("  {}  {:<{}}  {} → {}  {}\n", mark, E(d.name), width,
                 percent_of(d.percent_before, d.was_up), percent_of(d.percent_now, d.is_up), join(what, " · "));
    }
  for (const auto& d : diffs) quiet += d.any() ? 0 : 1;
  std::size_t changed = diffs.size() - quiet;
  if (changed == 0) fmt::print("  nothing changed\n");
  fmt::print("\n {} of {} targets changed · {} unchanged\n", changed, diffs.size(), quiet);
  return status;
}

int diff(const std::string& old_path, const std::string& new_path, const std::string& format, bool no_color) {
  auto old_summary = summary_at(old_path, "OLD");
  auto new_summary = summary_at(new_path, "NEW");
  if (old_summary && new_summary) return diff_register(*old_summary, *new_summary, format, no_color);
  if (old_summary || new_summary)
    throw UsageError(fmt::format("{} is a summary and {} a report: diff compares two reports or two summaries",
                                 old_summary ? old_path : new_path, old_summary ? new_path : old_path));
  report::Report before = read_baseline(old_path, "OLD");
  report::Report now = read_baseline(new_path, "NEW");
  report::apply_baseline(now, before, catalogue::Catalogue::builtin().baseline());
  report::Changes changes = report::changes(now).value_or(report::Changes{});
  int status = report::regressed(changes) ? Exit::rule_failed : Exit::ok;

  report::RuleIndex in_before(before), in_now(now);
  auto verdict_before = [&](const report::RuleResult& rule) -> std::string {
    const auto* old = in_before.find(rule);
    return old ? report::to_string(old->verdict) : "absent";
  };
  if (format == "json") {
    nlohmann::ordered_json j;
    j["schema"] = "adrprobe-diff/1";
    auto side = [](const report::Report& r) {
      return nlohmann::ordered_json{{"base_url", r.base_url},
                                    {"edition", r.edition},
                                    {"generated_at", r.generated_at},
                                    {"percent", r.score.percent ? nlohmann::ordered_json(*r.score.percent) : nullptr}};
    };
    j["before"] = side(before);
    j["now"] = side(now);
    j["change"] = {{"new-fail", changes.new_fail}, {"fixed", changes.fixed}, {"regressed", changes.regressed}};
    j["rules"] = nlohmann::ordered_json::array();
    for (const auto& rule : now.rules)
      j["rules"].push_back({{"id", rule.id},
                            {"before", verdict_before(rule)},
                            {"now", report::to_string(rule.verdict)},
                            {"change", rule.change.value_or("unchanged")}});
    fmt::print("{}", report::dump_json(j));
    return status;
  }
  Painter paint{color_wanted(no_color)};
  fmt::print("{}\n", paint(fmt::format("adrprobe diff · {}", E(now.base_url.empty() ? new_path : now.base_url)), "1"));
  fmt::print("  before  {}  edition {}  score {}\n", E(before.generated_at), E(before.edition), percent(before.score));
  fmt::print("  now     {}  edition {}  score {}\n", E(now.generated_at), E(now.edition), percent(now.score));
  if (!before.generated_at.empty() && !now.generated_at.empty() && before.generated_at > now.generated_at)
    fmt::print("  note: OLD ({}) is newer than NEW ({}): are the files the wrong way round?\n", E(before.generated_at),
               E(now.generated_at));
  if (!before.base_url.empty() && before.base_url != now.base_url)
    fmt::print("  note: the reports are of different targets ({} and {})\n", E(before.base_url), E(now.base_url));
  std::size_t width = 0;
  for (const auto& rule : now.rules) width = std::max(width, rule.id.size());
  std::size_t unchanged = 0;
  fmt::print("\n");
  for (const char* mark : {"new-fail", "regressed", "fixed"}) {
    for (const auto& rule : now.rules) {
      if (rule.change != mark) continue;
      const char* code = std::string(mark) == "fixed" ? "32" : "1;31";
      fmt::print("  {}  {:<{}}  {} → {}  {}\n", paint(fmt::format("{:<9}", mark), code), E(rule.id), width,
                 verdict_before(rule), report::to_string(rule.verdict), E(truncate_utf8(rule.summary, 100)));
    }
  }
  for (const auto& rule : now.rules)
    if (rule.change == "unchanged") ++unchanged;
  if (changes.new_fail.empty() && changes.regressed.empty() && changes.fixed.empty()) fmt::print("  nothing changed\n");
  // Rules of the earlier report the new one does not have (another edition).
  std::vector<std::string> gone;
  for (const auto& old : before.rules)
    if (!in_now.find(old)) gone.push_back(E(old.id));
  if (!gone.empty()) fmt::print("  not in the new report: {}\n", join(gone, ", "));
  fmt::print("\n {} new-fail · {} regressed · {} fixed · {} unchanged\n", changes.new_fail.size(),
             changes.regressed.size(), changes.fixed.size(), unchanged);
  return status;
}

}  // namespace

Command diff_command(CLI::App& parent) {
  struct Args {
    std::string old_path, new_path, format = "text";
    bool no_color = false;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = parent.add_subcommand(
      "diff", "What got better or worse: two JSON reports of one API, or two nights of a register (per target)");
  cmd->add_option("OLD", a->old_path,
                  "The earlier JSON report (-o json=...), or the earlier batch/summary --out-dir (or its summary.json)")
      ->required();
  cmd->add_option("NEW", a->new_path, "The later report, or the later output directory (or summary.json)")->required();
  cmd->add_option("-f,--format", a->format, "text (default) or json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_flag("--no-color", a->no_color, "No colour, even on a terminal");
  cmd->footer(
      "Each rule of NEW is marked new-fail, regressed, fixed or unchanged against the same rule of OLD\n"
      "(matched by id or alias, so reports of different editions compare). Of two summaries, each target\n"
      "(by name) is compared: new-fail, regressed, fixed, went down, back up, moved, added, removed.\n\n"
      "Exit status:\n"
      "  0  nothing got worse\n"
      "  1  a rule is new-fail or regressed (of a register: in any target, or a target went down)\n"
      "  2  a report or summary could not be read");
  return {cmd, [a] { return diff(a->old_path, a->new_path, a->format, a->no_color); }};
}

}  // namespace adrprobe::cli
