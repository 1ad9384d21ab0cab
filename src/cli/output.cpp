#include "cli/output.hpp"

#include "cli/about.hpp"
#include "checks/registry.hpp"
#include "cli/progress.hpp"
#include "report/baseline.hpp"
#include "report/json.hpp"
#include "util/files.hpp"
#include "util/free_later.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <stdexcept>

namespace adrprobe::cli {

int write_report(report::Report& rep, const Output& output, const report::Redactor& redactor,
                 std::vector<std::string>* unwritten) {
  redactor.apply(rep);
  // Since when each rule has failed, and the target been down: from tonight, or carried from the baseline.
  report::date_streaks(rep, output.baseline ? &*output.baseline : nullptr);
  if (output.baseline) {
    report::apply_baseline(rep, *output.baseline, catalogue::Catalogue::builtin().baseline());
    // Compared as asked, but a reader must know when the earlier report is of another API or document.
    const auto& before = *output.baseline;
    std::string then = before.mode == "lint" ? before.openapi_url.value_or("") : before.base_url;
    std::string now = rep.mode == "lint" ? rep.openapi_url.value_or("") : rep.base_url;
    // A batch matches its baselines by the target's name (CLI.md): an API that moved keeps its history.
    bool same_name = before.name && rep.name && *before.name == *rep.name;
    if (same_name && !then.empty() && then != now) rep.moved_from = then;
    if (!then.empty() && then != now)
      rep.notes.push_back(redactor.apply(
          same_name ? fmt::format("{} moved from {} to {} since its baseline: compared by its name", *rep.name, then, now)
                    : fmt::format("--baseline is a report of {}, not of {}: the changes compare two targets", then, now)));
  }
  int status = report::exit_status(rep, output.fail_on);
  auto to_stdout = [](std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); };
  // The JSON report is written as it is rendered (one exchange at a time), never whole in memory.
  auto produce = [&](const report::Format* format, const report::RenderOptions& options, const Sink& sink) {
    if (format->name == "json") report::stream_json(rep, sink);
    else sink(format->render(rep, options));
  };
  for (const auto& file : output.files) {
    const auto& path = file.second;
    const report::Format* format = file.first;
    if (path == "-") {
      produce(format, output.file, to_stdout);
      continue;
    }
    try {
      // Not a structured binding: clang 14 refuses a lambda that captures one.
      write_file_from(path, [&](const Sink& sink) { produce(format, output.file, sink); }, output.non_regular);
    } catch (const std::runtime_error& e) {
      fmt::print(stderr, "adrprobe: error: cannot write {}\n", escape_control(e.what()));
      if (unwritten) unwritten->push_back(path);
      status = Exit::usage;
    }
  }
  if (output.format) produce(output.format, output.terminal, to_stdout);
  return status;
}

void add_run_secrets(report::Redactor& redactor, const engine::Settings& s) {
  redactor.add_url(s.base_url);
  if (s.openapi) redactor.add_url(*s.openapi);
  if (!s.oauth2.token_url.empty()) {
    redactor.add_url(s.oauth2.token_url);
    redactor.add_credential(s.oauth2.client_id, s.oauth2.client_secret);
  }
  add_proxy_secrets(redactor);
}

void add_proxy_secrets(report::Redactor& redactor) {
  for (const char* name : {"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"})
    if (const char* value = std::getenv(name)) redactor.add_proxy(value);
}

report::RunInfo run_info(const std::string& command, const engine::Settings& s, const Output& output) {
  report::RunInfo info;
  info.command = command;
  info.command_line = command_line();
  info.rules_selected = output.rules;
  info.edition_asked = output.edition_asked;
  if (output.edition && output.edition_asked != output.edition->edition &&
      std::find(output.edition->aliases.begin(), output.edition->aliases.end(), output.edition_asked) !=
          output.edition->aliases.end())
    info.edition_note = output.edition->aliases_note;
  info.timeout_s = s.client.timeout_s;
  info.rate = s.client.rate;
  info.deadline_s = s.deadline_s;
  info.concurrency = s.client.concurrency;
  info.max_paths = s.max_paths;
  info.max_requests = s.client.max_exchanges;
  info.insecure = s.insecure;
  info.allow_unsafe = s.allow_unsafe;
  info.ca_file = !s.client.ca_file.empty();
  info.client_cert = !s.client.cert_file.empty();
  info.user_agent = s.client.user_agent;
  info.ref_hosts = s.ref_hosts_any ? "any" : "public";
  for (const auto& [name, value] : s.headers) info.header_names.push_back(name);
  info.oauth2_token_url = mask_url_password(s.oauth2.token_url);
  info.oauth2_status = s.oauth2.status;
  info.libraries = library_versions();
  return info;
}

int run_and_report(const std::string& command, Engine run, const engine::Settings& settings, const Output& output,
                   TokenSource* token) {
  const catalogue::Edition& edition = *output.edition;
  report::Redactor redactor(settings.headers);
  add_run_secrets(redactor, settings);
  // A token renewed during the run is a secret from then on.
  if (token) token->on_renewed = [&redactor](const http::Header& h) { redactor.add_late(h); };
  TerminalProgress progress(output, redactor);
  engine::Settings selected = settings;
  selected.rules = std::set<std::string>(output.rules.begin(), output.rules.end());  // --rules
  selected.modules = output.modules;
  report::Report rep = run(selected, edition, checks::registry(), &progress);
  if (token) token->on_renewed = nullptr;  // the run is over: nothing renews
  rep.run = run_info(command, settings, output);
  if (redactor.url_password())
    rep.notes.push_back(
        "a URL given carries a password: it is masked (user:***@) in this report, but credentials in URLs are "
        "discouraged (they end up in shell histories, process lists and logs); give them with -H or --header-file");
  int status = write_report(rep, output, redactor);
  free_later(std::move(rep));  // the process ends without waiting for it
  return status;
}

}  // namespace adrprobe::cli
