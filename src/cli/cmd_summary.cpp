// adrprobe summary DIR...: merges the --out-dir of several batch shards into
// one summary.json, summary.html and summary.prom (in --out-dir, default the
// current directory), each target's report linked from where the summary is.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "cli/batch_output.hpp"
#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/settings.hpp"
#include "engine/run.hpp"
#include "report/json.hpp"
#include "util/files.hpp"
#include "util/read_file.hpp"
#include "util/strings.hpp"

namespace adrprobe::cli {
namespace {

namespace fs = std::filesystem;

struct SummaryArgs {
  std::vector<std::string> dirs;
  std::string out_dir = ".", previous, fail_on = "fail";
  bool no_color = false, quiet = false;
  PushArgs push;  // its -H and --header-file: summary sends no other request
  double timeout = 10;
  std::string ca_file;
};

// The previous run's summary (--previous PREV): its history of the targets
// `wanted` (tonight's) is carried forward. None yet (the first night) is not
// an error; an unreadable one is said, and the history starts again.
std::optional<report::Summary> previous_summary(const std::string& dir, const report::HistoryWanted& wanted,
                                                std::vector<std::string>& notes) {
  fs::path file = fs::path(dir) / "summary.json";
  std::error_code ec;
  // The first night has no previous summary; a directory that is not there
  // at all may be a typo that would lose the history: said, not an error.
  if (!fs::exists(dir, ec))
    fmt::print(stderr, "adrprobe: warning: --previous {}: no such directory (the history starts with this run)\n",
               escape_control(dir));
  try {
    return report::parse_summary_json(read_file(file.string(), report::max_summary_bytes), wanted);
  } catch (const ReadFileError& e) {
    if (e.kind() != ReadFileError::Kind::missing)
      notes.push_back(fmt::format("--previous {}: {} (history starts again)", file.string(), e.what()));
  } catch (const std::exception& e) {
    notes.push_back(fmt::format("--previous {}: {} (history starts again)", file.string(), e.what()));
  }
  return std::nullopt;
}

// The register the merged summary is of (its Pushgateway group): --register-name,
// else the one name the shards recorded. Shards that name different ones are
// noted; none known leaves it empty (a push then says to give --register-name).
std::string register_of(const std::set<std::string>& recorded, const std::string& given, std::vector<std::string>& notes) {
  if (!given.empty()) return given;
  std::vector<std::string> named;
  for (const auto& name : recorded)
    if (!name.empty()) named.push_back(name);
  if (named.size() > 1)
    notes.push_back(fmt::format("the shards name different registers ({}): --register-name says which this is",
                                join(named, ", ", 5)));
  return named.size() == 1 ? named.front() : "";
}

int merge(const SummaryArgs& a) {
  Push push = to_push(a.push, "-H", a.timeout, a.ca_file, user_agent(""));
  std::error_code ec;
  fs::create_directories(a.out_dir, ec);
  if (!fs::is_directory(a.out_dir)) throw UsageError(fmt::format("--out-dir {}: cannot create the directory", a.out_dir));
  if (std::string problem = summary_write_problem(a.out_dir); !problem.empty()) throw UsageError(problem);
  fs::path out = fs::absolute(a.out_dir);
  report::Summary merged;
  merged.tool_version = ADRPROBE_VERSION;
  merged.generated_at = engine::now_rfc3339();
  std::vector<std::string> missing;
  struct Part {
    std::string dir;
    std::size_t k, n, register_size;
  };
  std::vector<Part> shards;
  std::set<std::string> registers;  // the shards' register names ("": a summary.json that names none)
  std::set<std::pair<std::string, std::string>> seen;  // (name, base_url)
  // Report files copied under OUT, by name: every link of summary.html
  // resolves inside the directory that is published (CLI.md).
  std::map<std::string, fs::path> copied;
  std::vector<std::string> not_copied;
  for (const auto& dir : a.dirs) {
    fs::path file = fs::path(dir) / "summary.json";
    report::Summary s;
    try {
      // Someone else's file (a restored cache, an artifact): a regular file within the cap.
      // Its history is not merged (tonight's is carried from --previous): skipped as it is parsed.
      s = report::parse_summary_json(read_file(file.string(), report::max_summary_bytes), report::no_history);
    } catch (const ReadFileError& e) {
      // A shard whose job died left no summary: the others still merge, and the status says so.
      if (e.kind() == ReadFileError::Kind::missing)
        missing.push_back(fmt::format("{}: no summary.json (did that shard run?)", dir));
      else
        missing.push_back(fmt::format("{}: {}", file.string(), e.what()));
      continue;
    } catch (const std::exception& e) {
      missing.push_back(fmt::format("{}: {}", file.string(), e.what()));
      continue;
    }
    shards.push_back({dir, s.shard_k, s.shard_n, s.register_size});
    registers.insert(s.register_name);
    std::vector<std::string> unlinked;
    for (const auto& note : s.notes) merged.notes.push_back(fmt::format("{}: {}", dir, note));
    if (!s.complete) merged.complete = false;
    for (auto& t : s.targets) {
      if (!seen.insert({t.name, t.base_url}).second) {
        fmt::print(stderr, "adrprobe: warning: {} is in more than one shard; the first is kept\n", escape_control(t.name));
        continue;
      }
      // Each report file, from where the merged summary is: inside OUT as it
      // is, else copied into OUT under its own name (names are unique in a register).
      auto moved = [&](const std::string& file) -> std::string {
        fs::path source = (fs::absolute(dir) / file).lexically_normal();
        fs::path relative = source.lexically_relative(out);
        if (!relative.empty() && *relative.begin() != "..") return relative.string();
        std::string name = source.filename().string();
        const auto& reserved = summary_file_names();
        if (std::find(reserved.begin(), reserved.end(), name) != reserved.end()) {
          not_copied.push_back(fmt::format("{} ({}: the name of a summary file)", t.name, file));
          return "";
        }
        if (auto it = copied.find(name); it != copied.end()) {
          if (it->second == source) return name;
          not_copied.push_back(fmt::format("{} ({}: another shard's file has that name)", t.name, file));
          return "";
        }
        try {
          write_file((out / name).string(), read_file(source.string(), report::max_report_bytes));
        } catch (const std::exception& e) {
          not_copied.push_back(fmt::format("{} ({}: {})", t.name, file, e.what()));
          return "";
        }
        copied.emplace(name, source);
        return name;
      };
      // summary.json is a file anyone with the shard's directory could have
      // written: a report path is linked only when it is a regular file inside
      // that directory (no "../../etc/passwd", no URL, no link leading out).
      auto linkable = [&](const std::string& file) {
        std::string problem = file_inside_problem(dir, file);
        if (!problem.empty()) unlinked.push_back(fmt::format("{} ({}: {})", t.name, file, problem));
        return problem.empty();
      };
      if (!t.report.empty()) t.report = linkable(t.report) ? moved(t.report) : "";
      std::vector<std::pair<std::string, std::string>> files;
      for (auto& [format, file] : t.files)
        if (linkable(file))
          if (std::string placed = moved(file); !placed.empty()) files.emplace_back(format, placed);
      t.files = std::move(files);
      merged.targets.push_back(std::move(t));
    }
    if (!unlinked.empty())
      merged.notes.push_back(fmt::format("{}: {} not linked, not a file inside that directory: {}", dir,
                                         plural(unlinked.size(), "report file", "report files"), join(unlinked, "; ", 5)));
  }
  if (merged.targets.empty() && !missing.empty()) {
    for (const auto& m : missing) fmt::print(stderr, "adrprobe: error: {}\n", escape_control(m));
    throw UsageError("no shard summary could be read");
  }
  // Register order is not known across shards: by name, then URL, so a merge is the same whatever the shard order.
  std::sort(merged.targets.begin(), merged.targets.end(), [](const auto& x, const auto& y) {
    return std::tie(x.name, x.base_url) < std::tie(y.name, y.base_url);
  });
  // Complete only when the shards read are every K of one N over one register.
  if (!shards.empty()) {
    std::size_t n = shards.front().n, size = shards.front().register_size;
    std::set<std::size_t> ks;
    bool consistent = true;
    for (const auto& p : shards) {
      ks.insert(p.k);
      if (p.n != n || p.register_size != size) consistent = false;
    }
    merged.shard_n = 1;
    merged.register_size = size;
    if (!consistent) {
      merged.complete = false;
      merged.notes.push_back("the directories are shards of different splits or registers (K/N and register size differ)");
    } else if (ks.size() != n) {
      // n is at most batch::max_shards (parse_summary_json checks it), and
      // only the first few absent shards are named.
      constexpr std::size_t named = 10;
      std::vector<std::string> absent;
      for (std::size_t k = 0; k < n && absent.size() < named; ++k)
        if (!ks.count(k)) absent.push_back(fmt::format("{}/{}", k, n));
      std::size_t more = n - ks.size() - absent.size();
      merged.complete = false;
      merged.notes.push_back(fmt::format("incomplete: no summary of shard {}{} (of a register of {} targets)",
                                         join(absent, ", "), more ? fmt::format(", … (+{} more)", more) : "", size));
    }
  }
  for (const auto& m : missing) {
    merged.complete = false;
    merged.notes.push_back(m);
  }
  merged.register_name = register_of(registers, a.push.register_name, merged.notes);
  if (!not_copied.empty())
    merged.notes.push_back(fmt::format("{} not copied into {}, so not linked: {}",
                                       plural(not_copied.size(), "report file", "report files"), a.out_dir,
                                       join(not_copied, "; ", 5)));
  std::optional<report::Summary> previous;
  if (!a.previous.empty()) {
    // Only tonight's targets carry a history forward: the others' lists are never read.
    std::set<std::string> tonight;
    for (const auto& t : merged.targets) tonight.insert(t.name);
    previous = previous_summary(
        a.previous, [&tonight](const std::string& name) { return tonight.count(name) > 0; }, merged.notes);
  }
  report::carry_history(merged, previous ? &*previous : nullptr);
  write_summary(a.out_dir, merged, push);
  bool color = color_wanted(a.no_color);
  LineColumns columns = line_columns(merged.targets);
  for (const auto& t : merged.targets)
    if (!a.quiet || t.exit_status != Exit::ok) fmt::print("{}\n", target_line(t, color, columns));
  if (!a.quiet) fmt::print("{}\n", totals_line(merged, a.out_dir));
  auto fail_on = parse_fail_on(a.fail_on);
  int status = summary_exit_status(merged, fail_on);
  // A missing shard is a target set not tested: at least "could not be completed"
  // (under --fail-on regressed too: a night with a shard missing is not green).
  if (!merged.complete && status == Exit::ok) status = Exit::incomplete;
  for (const auto& note : merged.notes) fmt::print(stderr, "adrprobe: warning: {}\n", escape_control(note));
  return status;
}

}  // namespace

Command summary_command(CLI::App& parent) {
  auto a = std::make_shared<SummaryArgs>();
  auto* cmd = parent.add_subcommand("summary", "Merge batch output directories (shards) into one summary");
  cmd->add_option("DIR", a->dirs, "The --out-dir of each shard's batch run")->required();
  cmd->add_option("--out-dir", a->out_dir,
                  "Where summary.json, summary.html, summary.prom and summary.md go; the reports the summary links "
                  "are copied here when they are not inside it already")
      ->capture_default_str();
  cmd->add_option("--previous", a->previous,
                  "The previous run's --out-dir: its history (the last 30 runs per target) is carried forward, and "
                  "summary.md says what changed since then");
  cmd->add_option("--fail-on", a->fail_on,
                  "Which verdicts make the exit status 1: fail (default), warn, never, or regressed: only a target "
                  "with a rule new-fail or regressed, or newly down, against its baseline")
      ->check(CLI::IsMember({"fail", "warn", "regressed", "never"}));
  cmd->add_flag("--no-color", a->no_color, "No colour, even on a terminal");
  cmd->add_flag("-q,--quiet", a->quiet, "Only the targets that do not pass");
  add_push_options(cmd, a->push, "the register the shards' batch recorded in summary.json");
  cmd->add_option("-H,--header", a->push.headers,
                  "Header of the push to --pushgateway, 'Name: value' (repeatable); ${VAR} in the value is read from "
                  "the environment; the value is never shown in any output");
  cmd->add_option("--header-file", a->push.header_files,
                  "More headers of the push from a file, one 'Name: value' a line (# comments, ${VAR}); masked like -H");
  cmd->add_option("--timeout", a->timeout, "Seconds the push to --pushgateway may take")
      ->transform(decimal<double>())
      ->capture_default_str();
  cmd->add_option("--ca-file", a->ca_file, "Extra trusted CA bundle (PEM) for an https:// --pushgateway");
  cmd->footer(
      "Exit status:\n"
      "  0  no target has a rule at the --fail-on level\n"
      "  1  a target has a rule at the --fail-on level (regressed: a target got worse)\n"
      "  2  usage error, or no shard's summary.json could be read\n"
      "  3  nothing failed, but a target could not be completed, or a shard left no summary.json");
  return {cmd, [a] { return merge(*a); }};
}

}  // namespace adrprobe::cli
