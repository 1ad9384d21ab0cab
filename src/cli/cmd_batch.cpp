// adrprobe batch TARGETS.yaml --out-dir DIR: probe many APIs (CLI.md, "Batch
// file"). Targets run concurrently; every client shares one http::Gate, so
// --rate holds per host across all targets (many APIs sit behind one gateway)
// and --concurrency bounds the requests in flight over the whole batch. Each
// target gets <stem>.json (+ the -o formats; the stem is its name, folded by
// batch::file_stem), the directory summary.json,
// summary.html and summary.prom. A target that is down gets error verdicts;
// the others finish.
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "batch/targets.hpp"
#include "checks/registry.hpp"
#include "cli/about.hpp"
#include "cli/batch_output.hpp"
#include "cli/command.hpp"
#include "cli/output.hpp"
#include "cli/progress.hpp"
#include "cli/oauth2.hpp"
#include "cli/options.hpp"
#include "engine/judge.hpp"
#include "engine/run.hpp"
#include "util/files.hpp"
#include "util/read_file.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::cli {
namespace {

struct BatchArgs {
  std::string file, out_dir, shard, baseline_dir, edition, fail_on = "fail", modules = "auto";
  std::vector<std::string> formats;
  bool no_color = false, quiet = false, verbose = false;
  ProbeArgs probe;
  PushArgs push;  // its headers are --pushgateway-header's: -H goes to the targets only
};

// One target, validated: what the engine runs and where its files go.
struct Job {
  batch::Target target;
  engine::Settings settings;
  Output output;  // edition, the report files, --baseline-dir's report
  std::string baseline_problem;
  std::string baseline_note;  // a baseline found under its host/path name
  OAuth2 oauth2;              // the target's OAuth 2.0 client (defaults', its own, the command line's)
  std::string token_problem;  // its token endpoint refused or could not be reached: the target is down
};

// A number of the register is read as the command line reads its option: decimal, within its type.
template <class T>
T number_option(const batch::Target& t, const std::string& key, T fallback, const std::string& where) {
  auto it = t.options.find(key);
  if (it == t.options.end()) return fallback;
  T value{};
  if (auto why = parse_decimal(it->second, value); !why.empty()) throw UsageError(fmt::format("{}: {}: {}", where, key, why));
  return value;
}

bool flag_option(const batch::Target& t, const std::string& key, bool fallback, const std::string& where) {
  auto it = t.options.find(key);
  if (it == t.options.end()) return fallback;
  std::string v = to_lower(it->second);
  if (v == "true" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "no" || v == "off") return false;
  throw UsageError(fmt::format("{}: {}: expected true or false, not '{}'", where, key, escape_control(it->second)));
}

std::string text_option(const batch::Target& t, const std::string& key, const std::string& fallback) {
  auto it = t.options.find(key);
  return it == t.options.end() ? fallback : it->second;
}

// The target's report of an earlier run in --baseline-dir: <stem>.json,
// matched by the target's name (CLI.md, "Nightly monitoring"), so an API that
// moved to a new base URL keeps its history (write_report notes the move).
// Reports were named host[_port]_path.json before they were named after the
// target: such a report is still taken, once, when it is this target's.
std::optional<report::Report> baseline_of(const std::string& dir, const batch::Target& t, const std::string& base_url,
                                          Job& job) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path path = fs::path(dir) / (t.stem + ".json");
  if (fs::exists(path, ec)) {
    try {
      report::Report before = read_baseline(path.string(), "--baseline-dir");
      // A file of that name that is another target's (the register changed, or
      // a report copied in by hand): comparing the two would report changes
      // that never happened.
      if (before.name ? *before.name != t.name : strip_trailing_slash(before.base_url) != base_url) {
        job.baseline_problem = fmt::format("--baseline-dir {}: the report of another target ({}, {})", path.string(),
                                           before.name.value_or("no name"), before.base_url);
        return std::nullopt;
      }
      return before;
    } catch (const UsageError& e) {
      job.baseline_problem = e.what();
      return std::nullopt;
    }
  }
  fs::path earlier = fs::path(dir) / (batch::stem_of(strip_trailing_slash(t.base_url)) + ".json");
  // No earlier report: the target is new in the register, no change to show.
  if (earlier == path || !fs::exists(earlier, ec)) return std::nullopt;
  try {
    report::Report before = read_baseline(earlier.string(), "--baseline-dir");
    // Under the old names two targets of one host and path shared a stem: only this target's own counts.
    if (before.name.value_or("") != t.name || strip_trailing_slash(before.base_url) != base_url) return std::nullopt;
    job.baseline_note = fmt::format("--baseline-dir: the baseline is {}, the name reports had before they were named "
                                    "after the target; from this run on it is {}.json",
                                    earlier.filename().string(), t.stem);
    return before;
  } catch (const UsageError&) {
    return std::nullopt;  // not this target's to complain about
  }
}

// The command line gives the defaults; the file's `defaults`, then the target, override them.
Job make_job(const BatchArgs& a, const batch::Target& t, const std::vector<const report::Format*>& formats,
             const std::shared_ptr<http::Gate>& gate) {
  std::string where = fmt::format("{}: target '{}'", a.file, escape_control(t.name));
  Job job;
  job.target = t;
  ProbeArgs p = a.probe;
  p.openapi = text_option(t, "openapi", "");
  p.timeout = number_option(t, "timeout", p.timeout, where);
  p.rate = number_option(t, "rate", p.rate, where);
  p.concurrency = number_option(t, "concurrency", p.concurrency, where);
  p.max_paths = number_option(t, "max_paths", p.max_paths, where);
  p.max_requests = number_option(t, "max_requests", p.max_requests, where);
  p.deadline = number_option(t, "deadline", p.deadline, where);
  p.ca_file = text_option(t, "ca_file", p.ca_file);
  p.insecure = flag_option(t, "insecure", p.insecure, where);
  p.allow_unsafe = flag_option(t, "allow_unsafe", p.allow_unsafe, where);
  p.user_agent = text_option(t, "user_agent", p.user_agent);
  p.ref_hosts = text_option(t, "ref_hosts", p.ref_hosts);
  if (p.ref_hosts != "public" && p.ref_hosts != "any") throw UsageError(where + ": ref_hosts: expected public or any");
  for (const auto& [name, value] : t.params) p.params.push_back(name + "=" + value);
  try {
    job.settings = to_settings(p, parse_base_url(t.base_url));
    for (const auto& [name, value] : t.headers) {
      // Checked as -H is; the error names the header, never its value.
      auto header = parse_header(name + ": " + value, "header " + escape_control(name));
      job.settings.headers.emplace_back(header.first, expand_env(header.second, "header " + header.first));
    }
    // The command line's --oauth2-*, then the file's keys over them.
    job.oauth2 = to_oauth2(with_keys(a.probe.oauth2, t.oauth2),
                           t.oauth2.empty() ? OAuth2Names::options : OAuth2Names::batch_keys);
    if (job.oauth2.enabled()) {
      check_no_authorization(job.settings.headers, "headers");
      // The Redactor learns the secret even when no token comes of it.
      job.settings.oauth2 = {job.oauth2.token_url, 0, job.oauth2.client_id, job.oauth2.client_secret};
    }
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("{}: {}", where, e.what()));
  }
  job.settings.client.gate = gate;
  std::string edition = text_option(t, "edition", a.edition);
  try {
    job.output.edition = &edition_or_throw(edition);
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("{}: {}", where, e.what()));
  }
  job.output.edition_asked = edition;
  try {
    job.settings.modules = job.output.modules = modules_or_throw(*job.output.edition, text_option(t, "modules", a.modules));
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("{}: {}", where, e.what()));
  }
  job.output.fail_on = parse_fail_on(a.fail_on);
  job.output.format = nullptr;
  job.output.file = report::RenderOptions{false, a.verbose ? 1 : 0, job.output.fail_on};
  auto dir = std::filesystem::path(a.out_dir);
  job.output.files.emplace_back(report::find_format("json"), (dir / (t.stem + ".json")).string());
  for (const auto* f : formats)
    if (f->name != "json") job.output.files.emplace_back(f, (dir / (t.stem + "." + std::string(f->extension))).string());
  job.output.non_regular = NonRegular::refuse;  // names the batch chose, in a directory others may write too
  return job;
}

// Every target's requests and results, for the terminal: a live line on a TTY
// (targets done, requests, which targets run), a request log with -v.
class BatchProgress {
 public:
  BatchProgress(std::size_t targets, bool live, bool verbose, const report::Redactor& redactor)
      : targets_(targets), live_(live), verbose_(verbose), redactor_(redactor) {}
  ~BatchProgress() { clear(); }

  struct ForTarget : engine::Observer {
    BatchProgress* batch;
    std::string name;
    void request_done(const http::Exchange& e, std::size_t, std::size_t) override { batch->request(name, e); }
  };

  void started(const std::string& name) {
    std::lock_guard lock(mutex_);
    running_.push_back(name);
    draw();
  }
  void request(const std::string& name, const http::Exchange& e) {
    std::lock_guard lock(mutex_);
    ++requests_;
    if (verbose_) spdlog::debug("[{}] {}", escape_control(name), request_log_line(e, redactor_));
    draw();
  }
  // A finished target's line goes to stdout; the live line is redrawn below it.
  void finished(const std::string& name, const std::string& line, bool print) {
    std::lock_guard lock(mutex_);
    ++done_;
    running_.erase(std::remove(running_.begin(), running_.end(), name), running_.end());
    erase();
    if (print) {
      fmt::print("{}\n", line);
      std::fflush(stdout);
    }
    draw();
  }
  void clear() {
    std::lock_guard lock(mutex_);
    erase();
  }

 private:
  void erase() {
    if (shown_) fmt::print(stderr, "\r\x1b[K");
    std::fflush(stderr);
    shown_ = false;
  }
  void draw() {
    if (!live_) return;
    std::string names = escape_control(join(running_, ", ", 3));
    std::string line = fmt::format("  batch: {}/{} targets done · {} requests · running: {}", done_, targets_, requests_,
                                   truncate_utf8(names, 60));
    fmt::print(stderr, "\r\x1b[K{}", truncate_utf8(line, live_line_width()));
    std::fflush(stderr);
    shown_ = true;
  }
  std::mutex mutex_;
  std::size_t targets_, done_ = 0, requests_ = 0;
  bool live_, verbose_, shown_ = false;
  const report::Redactor& redactor_;
  std::vector<std::string> running_;
};

// A report of `error` verdicts for a target whose run could not be made at all.
report::Report failed_report(const Job& job, const std::string& why) {
  report::Report r;
  r.tool_version = ADRPROBE_VERSION;
  r.base_url = job.settings.base_url;
  r.edition = job.output.edition->edition;
  r.edition_name = job.output.edition->name;
  r.unreachable = true;
  r.generated_at = engine::now_rfc3339();
  r.notes.push_back("the run of this target stopped: " + why);
  r.leading_notes = 1;
  for (const auto& rule : job.output.edition->rules) {
    report::RuleResult rr = engine::rule_result(rule);
    rr.verdict = rule.technical() ? report::Verdict::error : report::Verdict::manual;
    rr.summary = rule.technical() ? "the run stopped: " + why : "";
    r.rules.push_back(std::move(rr));
  }
  engine::mark_down(r);
  return r;
}

int run_batch(const BatchArgs& a) {
  // Everything is validated before the first request: the file, every target, the directories.
  std::vector<batch::Target> all;
  try {
    all = batch::parse_targets(read_file(a.file, batch::max_register_bytes), a.file);
  } catch (const ReadFileError& e) {
    throw UsageError(fmt::format("{}: {}", a.file, e.what()));
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  batch::Shard shard;
  if (!a.shard.empty()) {
    try {
      shard = batch::parse_shard(a.shard);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  Push push = to_push(a.push, "--pushgateway-header", a.probe.timeout, a.probe.ca_file, user_agent(a.probe.user_agent));
  // The group's series are replaced whole by each push: one shard's would drop the others'.
  if (!push.url.empty() && shard.n > 1)
    throw UsageError("--pushgateway with --shard: each shard's push would replace the others' series; push the "
                     "merged summary instead (adrprobe summary --pushgateway)");
  std::string register_name =
      a.push.register_name.empty() ? std::filesystem::path(a.file).stem().string() : a.push.register_name;
  if (std::string problem = register_name_problem(register_name); !push.url.empty() && !problem.empty())
    throw UsageError(fmt::format("{} (the name of {}): give --register-name", problem, a.file));
  if (!a.probe.openapi.empty()) throw UsageError("--openapi: give each target's document in the file (openapi: URL)");
  if (!a.probe.cert_file.empty() || !a.probe.key_file.empty())
    throw UsageError("--cert/--key are not taken by batch: a client certificate belongs to one API");
  // Every file of every target, whichever formats are written tonight: two
  // never share a name (in any case), and none is too long for a file system.
  std::vector<std::string> extensions;
  for (const auto& f : report::formats()) extensions.emplace_back(f.extension);
  try {
    batch::check_file_names(all, extensions, summary_file_names(), a.file);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  std::vector<const report::Format*> formats;
  for (const auto& name : a.formats) {
    if (name.find('=') != std::string::npos)
      throw UsageError(fmt::format("-o {}: batch names the report files itself: give the format only (-o junit)", name));
    const auto* f = report::find_format(name);
    if (!f || !f->render) throw UsageError(fmt::format("-o {}: unknown format (available: {})", name, report::format_names()));
    formats.push_back(f);
  }
  std::error_code ec;
  std::filesystem::create_directories(a.out_dir, ec);
  if (ec || !std::filesystem::is_directory(a.out_dir))
    throw UsageError(fmt::format("--out-dir {}: cannot create the directory", a.out_dir));
  if (access(a.out_dir.c_str(), W_OK) != 0) throw UsageError(fmt::format("--out-dir {}: not writable", a.out_dir));
  if (!a.baseline_dir.empty() && !std::filesystem::is_directory(a.baseline_dir))
    throw UsageError(fmt::format("--baseline-dir {}: not a directory", a.baseline_dir));

  auto gate = std::make_shared<http::Gate>(a.probe.concurrency);
  std::vector<batch::Target> mine = batch::select(all, shard);
  std::vector<Job> jobs;
  for (const auto& t : mine) jobs.push_back(make_job(a, t, formats, gate));
  // Each file can be written: not a symbolic link someone planted in --out-dir
  // (a volume kept night after night), not a directory, a path not too long.
  for (const auto& j : jobs)
    for (const auto& [format, path] : j.output.files)
      if (std::string problem = write_problem(path); !problem.empty())
        throw UsageError(fmt::format("--out-dir {}: {}: {}", a.out_dir, std::filesystem::path(path).filename().string(),
                                     problem));
  if (std::string problem = summary_write_problem(a.out_dir); !problem.empty()) throw UsageError(problem);

  // The OAuth 2.0 tokens, before any request to an API: one per token
  // endpoint, client and scope, shared by the targets that name the same.
  std::map<std::string, std::shared_ptr<TokenSource>> tokens;
  std::map<std::string, std::string> refused;  // share key -> why: the targets are down, asked once
  for (auto& j : jobs) {
    if (!j.oauth2.enabled()) continue;
    std::string key = j.oauth2.share_key();
    if (auto why = refused.find(key); why != refused.end()) {
      j.token_problem = why->second;
      continue;
    }
    auto& source = tokens[key];
    if (!source) {
      auto fresh = std::make_shared<TokenSource>(j.oauth2, j.settings.client);
      try {
        fresh->fetch();
      } catch (const TokenError& e) {
        refused[key] = j.token_problem = e.what();
        j.settings.oauth2.status = fresh->status();
        tokens.erase(key);
        continue;
      }
      source = fresh;
    }
    authorise(j.settings, source);
  }

  // One redactor over every target's secrets: no value given for one target
  // shows in any file, line or log of the batch.
  std::vector<http::Header> secrets;
  for (const auto& j : jobs) secrets.insert(secrets.end(), j.settings.headers.begin(), j.settings.headers.end());
  secrets.insert(secrets.end(), push.headers.begin(), push.headers.end());  // run.command may quote them
  report::Redactor redactor(secrets);
  for (const auto& j : jobs) add_run_secrets(redactor, j.settings);
  redactor.add_url(push.url);
  // A token renewed during the batch is a secret from then on.
  for (auto& [key, source] : tokens) source->on_renewed = [&redactor](const http::Header& h) { redactor.add_late(h); };

  bool live = !a.quiet && !a.verbose && isatty(STDERR_FILENO);
  bool color = color_wanted(a.no_color);
  if (!a.quiet)
    fmt::print("adrprobe {} batch · {} of {} targets{} · {}\n", ADRPROBE_VERSION, jobs.size(), all.size(),
               a.shard.empty() ? "" : fmt::format(" (shard {}/{})", shard.k, shard.n), escape_control(a.out_dir));
  std::fflush(stdout);
  BatchProgress progress(jobs.size(), live, a.verbose, redactor);
  // Each target's line is printed when it finishes: the columns are sized for all of them first.
  std::vector<std::pair<std::string, std::string>> shown;
  for (const auto& j : jobs) shown.emplace_back(j.target.name, redactor.apply(j.settings.base_url));
  LineColumns columns = line_columns(shown);
  std::vector<report::SummaryTarget> rows(jobs.size());
  std::atomic<std::size_t> next{0};
  std::mutex write_mutex;
  std::string write_error;
  std::vector<std::string> baseline_problems;

  auto work = [&] {
    for (std::size_t i = next++; i < jobs.size(); i = next++) {
      Job& job = jobs[i];
      progress.started(job.target.name);
      BatchProgress::ForTarget observer;
      observer.batch = &progress;
      observer.name = job.target.name;
      report::Report rep;
      try {
        // No token, no run: the target is down with the token endpoint's answer as the cause.
        rep = job.token_problem.empty() ? engine::run_check(job.settings, *job.output.edition, checks::registry(), &observer)
                                        : failed_report(job, job.token_problem);
      } catch (const std::exception& e) {
        rep = failed_report(job, e.what());
      }
      rep.name = job.target.name;
      rep.owner = job.target.owner;
      rep.labels = job.target.labels;
      rep.don_adr_score = job.target.don_adr_score;
      rep.run = run_info("check", job.settings, job.output);
      // The baseline is read when its target is done, and let go with it: a
      // register of a thousand targets never holds a thousand earlier reports.
      if (!a.baseline_dir.empty()) job.output.baseline = baseline_of(a.baseline_dir, job.target, job.settings.base_url, job);
      if (!job.baseline_problem.empty()) rep.notes.push_back(job.baseline_problem + " (no change shown)");
      if (redactor.url_password())
        rep.notes.push_back("a URL in the batch file carries a password: it is masked (user:***@) in every output; "
                            "give credentials as headers with ${VAR} instead");
      if (!job.baseline_note.empty()) rep.notes.push_back(job.baseline_note);
      std::vector<std::string> unwritten;
      int status = write_report(rep, job.output, redactor, &unwritten);
      if (status == Exit::usage) {
        std::lock_guard lock(write_mutex);
        write_error = fmt::format("cannot write the reports of {}", job.target.name);
      }
      // The summary links only the files that were written.
      auto written = [&](const std::string& path) {
        return std::find(unwritten.begin(), unwritten.end(), path) == unwritten.end();
      };
      const std::string& json = job.output.files.front().second;
      rows[i] = report::summarize(rep, job.target.name, written(json) ? job.target.stem + ".json" : "",
                                  job.output.fail_on);
      for (const auto& [format, path] : job.output.files)
        if (written(path))
          rows[i].files.emplace_back(std::string(format->name), std::filesystem::path(path).filename().string());
      if (!job.baseline_problem.empty()) {
        // Not silently "no baseline": the row says so, and so does stderr.
        std::string why = redactor.apply(job.baseline_problem) + " (no change shown)";
        rows[i].note = rows[i].note.empty() ? why : rows[i].note + "; " + why;
        std::lock_guard lock(write_mutex);
        baseline_problems.push_back(fmt::format("{}: {}", job.target.name, why));
      }
      job.output.baseline.reset();
      progress.finished(job.target.name, target_line(rows[i], color, columns), !a.quiet || rows[i].exit_status != Exit::ok);
    }
  };
  std::size_t workers = std::min<std::size_t>(jobs.size(), static_cast<std::size_t>(std::max(1, a.probe.concurrency)));
  std::vector<std::thread> threads;
  for (std::size_t w = 0; w < workers; ++w) threads.emplace_back(work);
  for (auto& t : threads) t.join();
  progress.clear();
  for (auto& [key, source] : tokens) source->on_renewed = nullptr;  // the redactor's run is over

  report::Summary summary;
  summary.tool_version = ADRPROBE_VERSION;
  summary.generated_at = engine::now_rfc3339();
  summary.targets = std::move(rows);
  summary.shard_k = shard.k;
  summary.shard_n = shard.n;
  summary.register_size = all.size();
  summary.register_name = register_name;
  report::carry_history(summary, nullptr);
  if (!baseline_problems.empty())
    summary.notes.push_back(fmt::format("{} with a baseline that could not be used (no change shown): {}",
                                        baseline_problems.size() == 1 ? "1 target" : std::to_string(baseline_problems.size()) + " targets",
                                        join(baseline_problems, "; ", 5)));
  for (const auto& p : baseline_problems) fmt::print(stderr, "adrprobe: warning: {}\n", escape_control(p));
  write_summary(a.out_dir, summary, push);
  if (!a.quiet) fmt::print("{}\n", totals_line(summary, a.out_dir));
  if (!write_error.empty()) {
    fmt::print(stderr, "adrprobe: error: {}\n", escape_control(write_error));
    return Exit::usage;
  }
  return summary_exit_status(summary, parse_fail_on(a.fail_on));
}

}  // namespace

Command batch_command(CLI::App& parent) {
  auto a = std::make_shared<BatchArgs>();
  auto* cmd = parent.add_subcommand("batch", "Probe many APIs from a TARGETS.yaml: one report each and a summary");
  cmd->add_option("TARGETS", a->file, "The register: a YAML file with defaults and targets (see below)")->required();
  cmd->add_option("--out-dir", a->out_dir,
                  "Directory for <name>.json per target (its name in lower case, a-z 0-9 . _ -, other characters -; "
                  "+ the -o formats) and summary.json, summary.html, summary.prom")
      ->required();
  cmd->add_option("--shard", a->shard,
                  "K/N: probe only every N-th target starting at K (0-based), so N machines split a register");
  cmd->add_option("--baseline-dir", a->baseline_dir,
                  "--out-dir of an earlier run: mark each target's rules new-fail, regressed, fixed or unchanged");
  cmd->add_option("--edition", a->edition, fmt::format("Edition of targets that name none: {} (default 2.0.0)", edition_help()))
      ->check(edition_validator())
      ->default_str("2.0.0");
  a->edition = "2.0.0";
  add_modules_option(cmd, a->modules, "Modules of targets that name none (the file's modules: key)");
  cmd->add_option("-o,--output", a->formats,
                  fmt::format("Also write this format per target (repeatable): {}", report::format_names()));
  cmd->add_option("--fail-on", a->fail_on,
                  "Which verdicts make the exit status 1: fail (default), warn, never, or regressed: only what got "
                  "worse against --baseline-dir (a rule new-fail or regressed, a target newly down)")
      ->check(CLI::IsMember({"fail", "warn", "regressed", "never"}));
  cmd->add_flag("--no-color", a->no_color, "No colour, even on a terminal");
  cmd->add_flag("-q,--quiet", a->quiet, "Only the targets that do not pass");
  cmd->add_flag("-v,--verbose", a->verbose, "Log each request to stderr, with its target");
  add_probe_options(cmd, a->probe);
  add_push_options(cmd, a->push, "the TARGETS file's name without its extension");
  cmd->add_option("--pushgateway-header", a->push.headers,
                  "Header of the push to --pushgateway, 'Name: value' (repeatable; -H goes to the targets, never to "
                  "the Pushgateway); ${VAR} in the value is read from the environment; the value is never shown");
  cmd->footer(
      "The command line's options are the defaults of every target; the file's `defaults:`, then each\n"
      "target, override them. --concurrency bounds the requests in flight over the whole batch, and --rate\n"
      "holds per host across all targets (many APIs sit behind one gateway).\n\n"
      "TARGETS.yaml:\n"
      "  defaults: {edition: 2.0.0, rate: 10}\n"
      "  targets:\n"
      "    - name: bag\n"
      "      base_url: https://api.example.nl/bag/v2\n"
      "      headers: {X-Api-Key: ${BAG_KEY}}   # ${VAR} is read from the environment, never shown\n"
      "    - name: kvk\n"
      "      base_url: https://api.example.nl/kvk/v1\n"
      "      edition: 1.0\n"
      "  Keys of a target or of defaults: name, base_url, owner, labels, headers, params, don_adr_score (a target's), " + join(batch::option_keys(), ", ") + ",\n"
      "  oauth2: {" + join(batch::oauth2_keys(), ", ") + "} (client_secret: ${VAR} too)\n\n" +
      exit_status_help() + "\n"
      "  (over all targets: 1 when any target has a rule at the --fail-on level, else 3 when any could not be\n"
      "  completed, e.g. a target that is down)");
  return {cmd, [a] { return run_batch(*a); }};
}

}  // namespace adrprobe::cli
