// adrprobe: is a live API conformant to the REST API Design Rules?
// CLI11 wiring only: each command is cli/cmd_<name>.cpp.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "checks/registry.hpp"
#include "cli/about.hpp"
#include "cli/command.hpp"
#include "cli/settings.hpp"
#include "report/redact.hpp"
#include "util/curl_opt.hpp"
#include "util/strings.hpp"

namespace adrprobe::cli {
namespace {

bool wants_verbose(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "-v" || std::string(argv[i]) == "--verbose") return true;
  return false;
}

// The values on the command line that are secrets (-H, --header,
// --pushgateway-header, --oauth2-client-secret, in any spelling CLI11 takes):
// a parse error quotes the arguments it did not expect, and a secret given to
// a command that does not take its option would be printed whole.
std::vector<std::string> secret_arguments(int argc, char** argv) {
  static const std::vector<std::string> names{"-H", "--header", "--pushgateway-header", "--oauth2-client-secret"};
  std::vector<std::string> out;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    for (const auto& name : names) {
      if (a == name && i + 1 < argc) out.emplace_back(argv[i + 1]);
      else if (a.rfind(name + "=", 0) == 0) out.push_back(a.substr(name.size() + 1));
      else if (name == "-H" && a.size() > 2 && a.rfind("-H", 0) == 0) out.push_back(a.substr(2));
    }
  }
  return out;
}

int run(int argc, char** argv) {
  // First: libcurl's TLS backend is chosen before anything else asks libcurl.
  const std::string& curl_problem = init_curl();
  // The catalogue and the code must agree; a build where they do not is broken.
  if (auto problems = checks::validate(catalogue::Catalogue::builtin()); !problems.empty())
    throw std::logic_error("the rule catalogue does not match the checks: " + join(problems, "; "));

  CLI::App app{fmt::format(
      "adrprobe {}: tests a live REST API against the Dutch REST API Design Rules (editions {}).\n"
      "It fetches BASE_URL/openapi.json, sends read-only probes (GET, HEAD, OPTIONS, TRACE) and reports\n"
      "a verdict for every rule with the requests that prove it.",
      ADRPROBE_VERSION, edition_list())};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_text(), "The version of adrprobe, of libcurl and OpenSSL, and the editions");

  std::vector<Command> commands{check_command(app), lint_command(app), demo_command(app),   rules_command(app),
                                batch_command(app), diff_command(app), summary_command(app), register_command(app)};

  // After the subcommands: CLI11 copies a parent's footer into subcommands made
  // later, and each command has its own (the exit status of check, lint and demo).
  app.footer(
      exit_status_help() + "\n"
      "Examples:\n"
      "  adrprobe demo                                  probe the built-in reference API\n"
      "  adrprobe check https://api.example.nl/v1       probe an API, terminal report\n"
      "  adrprobe check https://api.example.nl/v1 -f json -o text=report.txt --edition 1.0\n"
      "  adrprobe lint openapi.yaml --edition 2.1.0     the static checks on a document");

  if (argc > 1 && argv[1][0] != '-') {
    std::string name = argv[1];
    bool known = std::any_of(commands.begin(), commands.end(), [&](const Command& c) { return c.app->get_name() == name; });
    if (!known) {
      fmt::print(stderr, "adrprobe: error: unknown command '{}' (run adrprobe --help for the list)\n", name);
      return Exit::usage;
    }
  }
  app.failure_message([secrets = secret_arguments(argc, argv)](const CLI::App* app, const CLI::Error& e) {
    std::string text = CLI::FailureMessage::simple(app, e);
    for (const auto& secret : secrets)  // as the Redactor: a value that short is no secret, and masking it would garble
      if (secret.size() >= report::Redactor::min_substring) text = replace_all(text, secret, report::Redactor::mask);
    return text;
  });
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? Exit::ok : Exit::usage;
  }

  // The report's run.command, every secret option value masked as parsed.
  // A header's name stays ("X-Api-Key: ***"); a client secret is masked whole.
  std::vector<std::string> secrets, whole_secrets;
  auto collect = [&](const CLI::App* app, const char* name, std::vector<std::string>& into) {
    if (const CLI::Option* option = app->get_option_no_throw(name))
      for (const auto& value : option->results()) into.push_back(value);
  };
  for (const auto& c : commands)
    if (c.app->parsed()) {
      for (const char* name : {"--header", "--pushgateway-header"}) collect(c.app, name, secrets);
      collect(c.app, "--oauth2-client-secret", whole_secrets);
    }
  record_command_line(argc, argv, secrets, whole_secrets);
  auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  auto logger = std::make_shared<spdlog::logger>("adrprobe", sink);
  logger->set_pattern("%^[%l]%$ %v");
  logger->set_level(wants_verbose(argc, argv) ? spdlog::level::debug : spdlog::level::warn);
  spdlog::set_default_logger(logger);

  // libcurl must do TLS with OpenSSL: --ca-file, --cert and the trust checks hand
  // it OpenSSL's objects, which another backend would ignore.
  if (!curl_problem.empty()) {
    fmt::print(stderr, "adrprobe: error: {}\n", curl_problem);
    return Exit::usage;
  }

  try {
    for (const auto& c : commands)
      if (c.app->parsed()) return c.run();
  } catch (const UsageError& e) {
    fmt::print(stderr, "adrprobe: error: {}\n", e.what());
    return Exit::usage;
  }
  return Exit::usage;
}

}  // namespace
}  // namespace adrprobe::cli

#ifdef ADRPROBE_JEMALLOC
// jemalloc's options, which it reads before main (MALLOC_CONF in the
// environment still adds to them). Two arenas, whatever the number of cores:
// the sending threads of a run and the targets of a batch share them, and
// each thread keeps its own small cache. Freed pages go back to the system at
// once, so a run's peak is what it holds, not what it held earlier (the
// 10,000-path run: same peak RSS as glibc's one arena, 13 % faster).
extern "C" {
extern const char* malloc_conf;
const char* malloc_conf = "narenas:2,dirty_decay_ms:0,muzzy_decay_ms:0";
}
#endif

int main(int argc, char** argv) {
#ifndef ADRPROBE_JEMALLOC
  // glibc's malloc: one arena for every thread. What a sending thread
  // (http::Client) or a batch target's thread allocates is mostly freed by
  // another, and per-thread arenas then keep that memory apart and unused
  // (the 10,000-path run peaked 4-9 MB higher with two or more).
  mallopt(M_ARENA_MAX, 1);
#endif
  // A report on stdout that is not a terminal goes out in writes of 64 KiB
  // (a 30 MB JSON report was 7,000 writes); where a line must go at once
  // (demo --serve, batch), the command flushes it.
  static char stdout_buffer[64 * 1024];  // glibc sizes its own buffer by the file's block, whatever size is asked
  if (!isatty(STDOUT_FILENO)) std::setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
  try {
    return adrprobe::cli::run(argc, argv);
  } catch (const std::exception& e) {
    fmt::print(stderr, "adrprobe: internal error: {}\n", e.what());
    return 70;
  }
}
