// adrprobe diff OLD.json NEW.json: what got better or worse between two
// reports of one API. Each rule of NEW is marked against OLD by the table of
// probes/baseline.yaml (as --baseline does); exit 1 when anything regressed.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "cli/settings.hpp"
#include "report/baseline.hpp"
#include "report/json.hpp"
#include "util/strings.hpp"

namespace adrprobe::cli {
namespace {

std::string percent(const report::Score& s) { return s.percent ? fmt::format("{:.1f} %", *s.percent) : "n/a"; }

int diff(const std::string& old_path, const std::string& new_path, const std::string& format, bool no_color) {
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
  bool color = color_wanted(no_color);
  auto paint = [&](const std::string& text, const char* code) {
    return color ? fmt::format("\x1b[{}m{}\x1b[0m", code, text) : text;
  };
  // Everything read from the two files is shown with control characters made visible.
  auto E = [](const std::string& s) { return escape_control(s); };
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
  auto* cmd = parent.add_subcommand("diff", "What got better or worse between two JSON reports of one API");
  cmd->add_option("OLD", a->old_path, "The earlier JSON report (-o json=...)")->required();
  cmd->add_option("NEW", a->new_path, "The later JSON report")->required();
  cmd->add_option("-f,--format", a->format, "text (default) or json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_flag("--no-color", a->no_color, "No colour, even on a terminal");
  cmd->footer(
      "Each rule of NEW is marked new-fail, regressed, fixed or unchanged against the same rule of OLD\n"
      "(matched by id or alias, so reports of different editions compare).\n\n"
      "Exit status:\n"
      "  0  nothing got worse\n"
      "  1  a rule is new-fail or regressed\n"
      "  2  a report could not be read");
  return {cmd, [a] { return diff(a->old_path, a->new_path, a->format, a->no_color); }};
}

}  // namespace adrprobe::cli
