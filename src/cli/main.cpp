// adrprobe: is a live API conformant to the REST API Design Rules?
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "catalogue/catalogue.hpp"
#include "cli/options.hpp"
#include "demo/reference_api.hpp"
#include "engine/run.hpp"
#include "report/redact.hpp"
#include "report/render.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::cli {
namespace {

struct ProbeArgs {
  std::string base_url;
  std::string openapi;
  std::vector<std::string> headers;
  std::vector<std::string> params;
  double timeout = 10;
  int concurrency = 4;
  double rate = 20;
  int max_paths = 250;
  double deadline = 600;
  std::string ca_file;
  bool insecure = false;
  bool allow_unsafe = false;
  std::string baseline;
  std::string fail_on = "fail";
  std::string ref_hosts = "public";  // hostile-II: --ref-hosts
};

void add_output_options(CLI::App* cmd, OutputOptions& out, std::string& fail_on) {
  cmd->add_option("--edition", out.edition, "Rule edition to judge by: 1.0, 2.0.0 (default), 2.1.0")->capture_default_str();
  cmd->add_option("-f,--format", out.format, "What goes to stdout: text (default) or json")->capture_default_str();
  cmd->add_option("-o,--output", out.outputs, "Also write a report file, FORMAT=PATH (repeatable), e.g. json=report.json");
  cmd->add_option("--fail-on", fail_on, "Which verdicts make the exit status 1: fail (default), warn, never")->capture_default_str();
  cmd->add_flag("--no-color", out.no_color, "No colour, even on a terminal");
  cmd->add_flag("-q,--quiet", out.quiet, "Only the rules that do not pass, and the score");
  cmd->add_flag("-v,--verbose", out.verbose, "Every check with its evidence; log each request to stderr");
}

void add_probe_options(CLI::App* cmd, ProbeArgs& a) {
  cmd->add_option("--openapi", a.openapi, "Description document (URL or file), if not at BASE_URL/openapi.json");
  cmd->add_option("-H,--header", a.headers, "Extra request header 'Name: value' (repeatable); never shown in any output");
  cmd->add_option("--param", a.params, "Value for a path parameter, NAME=VALUE (repeatable)");
  cmd->add_option("--timeout", a.timeout, "Seconds per request")->capture_default_str();
  cmd->add_option("--concurrency", a.concurrency, "Requests in flight at once")->capture_default_str();
  cmd->add_option("--rate", a.rate, "At most N requests per second to one host (0 = no limit)")->capture_default_str();
  cmd->add_option("--max-paths", a.max_paths, "Probe at most N documented paths (0 = all)")->capture_default_str();
  cmd->add_option("--deadline", a.deadline, "End the run after this many seconds; unfinished checks are error")->capture_default_str();
  cmd->add_option("--ca-file", a.ca_file, "Extra trusted CA bundle (PEM)");
  cmd->add_flag("--insecure", a.insecure, "Go on after a certificate failure (the TLS check still fails)");
  cmd->add_flag("--allow-unsafe", a.allow_unsafe, "Also send POST/PUT/PATCH/DELETE probes (never by default)");
  cmd->add_option("--ref-hosts", a.ref_hosts, "Hosts external $refs may be fetched from: public (public addresses and the base URL's host) or any")  // hostile-II
      ->check(CLI::IsMember({"public", "any"}))
      ->capture_default_str();
  cmd->add_option("--baseline", a.baseline, "Earlier JSON report to compare with (not available in this version)");
}

const catalogue::Edition& edition_or_throw(const std::string& name) {
  const auto& cat = catalogue::Catalogue::builtin();
  if (const auto* e = cat.edition(name)) return *e;
  throw UsageError(fmt::format("unknown edition '{}' (available: {})", name, join(cat.edition_names(), ", ")));
}

void check_format(const std::string& format) {
  if (std::find(known_formats().begin(), known_formats().end(), format) == known_formats().end())
    throw UsageError(fmt::format("unknown format '{}' (text, json, junit, html, markdown, sarif)", format));
  if (!format_available(format))
    throw UsageError(fmt::format("format '{}' is not available in adrprobe {} yet (use text or json)", format, ADRPROBE_VERSION));
}

bool color_wanted(const OutputOptions& out) {
  return !out.no_color && std::getenv("NO_COLOR") == nullptr && isatty(STDOUT_FILENO);
}

std::string render(const report::Report& r, const std::string& format, const report::TextStyle& style) {
  if (format == "json") return report::render_json(r);
  return report::render_text(r, style);
}

engine::RunOptions run_options(const ProbeArgs& a, const std::string& base_url) {
  engine::RunOptions o;
  auto& s = o.settings;
  s.base_url = base_url;
  if (!a.openapi.empty()) {
    if (a.openapi.rfind("http://", 0) == 0 || a.openapi.rfind("https://", 0) == 0) {
      std::string error;
      if (!parse_url(a.openapi, &error)) throw UsageError(fmt::format("--openapi '{}': {}", a.openapi, error));
    } else if (std::ifstream probe(a.openapi.rfind("file://", 0) == 0 ? a.openapi.substr(7) : a.openapi); !probe) {
      throw UsageError(fmt::format("--openapi '{}': cannot read the file", a.openapi));
    }
    s.openapi_url = a.openapi;
  }
  for (const auto& h : a.headers) s.headers.push_back(parse_header(h));
  for (const auto& p : a.params) s.params.insert(parse_assignment(p, "--param"));
  s.allow_unsafe = a.allow_unsafe;
  s.insecure = a.insecure;
  s.ref_hosts_any = a.ref_hosts == "any";  // hostile-II
  if (a.max_paths < 0) throw UsageError("--max-paths must be 0 or more");
  s.max_paths = static_cast<std::size_t>(a.max_paths);
  // Upper bounds keep the arithmetic finite; a week is longer than any useful run.
  constexpr double kWeek = 7 * 24 * 3600;
  if (!(a.timeout > 0) || a.timeout > kWeek) throw UsageError("--timeout must be more than 0 and at most 604800 seconds");
  if (a.concurrency < 1 || a.concurrency > 256) throw UsageError("--concurrency must be between 1 and 256");
  if (!(a.rate >= 0)) throw UsageError("--rate must be 0 (no limit) or more");
  if (!(a.deadline > 0) || a.deadline > kWeek) throw UsageError("--deadline must be more than 0 and at most 604800 seconds");
  if (!(a.rate <= 1e6)) throw UsageError("--rate must be at most 1000000");
  if (!a.ca_file.empty()) {
    // A bundle that does not load would make every verification fail later: say so now.
    X509_STORE* store = X509_STORE_new();
    bool loaded = X509_STORE_load_file(store, a.ca_file.c_str()) == 1;
    X509_STORE_free(store);
    ERR_clear_error();
    if (!loaded) throw UsageError(fmt::format("--ca-file '{}': not a readable PEM certificate bundle", a.ca_file));
  }
  if (!a.baseline.empty()) throw UsageError("--baseline is not available in this version of adrprobe");
  o.client.timeout_s = a.timeout;
  o.client.concurrency = a.concurrency;
  o.client.rate = a.rate;
  o.client.ca_file = a.ca_file;
  o.client.insecure = a.insecure;
  o.client.user_agent = std::string("adrprobe/") + ADRPROBE_VERSION;
  o.deadline_s = a.deadline;
  o.tool_version = ADRPROBE_VERSION;
  return o;
}

// Runs a check and writes every requested output. Returns the exit status.
int probe_and_report(engine::RunOptions options, const OutputOptions& out, report::FailOn fail_on) {
  const auto& edition = edition_or_throw(out.edition);
  check_format(out.format);
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& o : out.outputs) {
    auto assignment = parse_assignment(o, "-o");
    check_format(assignment.first);
    files.push_back(assignment);
  }
  report::Redactor redactor(options.settings.headers);
  bool progress = !out.quiet && !out.verbose && isatty(STDERR_FILENO);
  options.on_exchange = [&](const http::Exchange& e, std::size_t done, std::size_t queued) {
    if (out.verbose) {
      std::string what = e.error ? *e.error : std::to_string(e.status.value_or(0));
      spdlog::debug("{}", redactor.apply(fmt::format("#{} {} {} → {} ({:.0f} ms) [{}]", e.id, e.method, e.url, what, e.duration_ms, e.purpose)));
    } else if (progress) {
      fmt::print(stderr, "\r\x1b[K  probing: {}/{} requests", done, queued);
      std::fflush(stderr);
    }
  };
  report::Report rep = engine::run_check(options, edition);
  if (progress) fmt::print(stderr, "\r\x1b[K");
  redactor.apply(rep);
  report::TextStyle file_style{false, out.verbose ? 1 : 0};
  int status = report::exit_status(rep, fail_on);
  for (const auto& [format, path] : files) {
    std::ofstream f(path, std::ios::binary);
    f << render(rep, format, file_style);
    if (!f) {
      fmt::print(stderr, "adrprobe: error: cannot write {}\n", path);
      status = Exit::usage;
    }
  }
  report::TextStyle style{color_wanted(out), out.quiet ? -1 : (out.verbose ? 1 : 0)};
  std::string text = render(rep, out.format, style);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return status;
}

int print_rules(const std::string& edition_name, const std::string& format) {
  const auto& edition = edition_or_throw(edition_name);
  const auto& cat = catalogue::Catalogue::builtin();
  if (format == "json") {
    nlohmann::ordered_json j;
    j["edition"] = edition.edition;
    j["name"] = edition.name;
    j["source"] = edition.source;
    for (const auto& r : edition.rules) {
      nlohmann::ordered_json jr{{"id", r.id},       {"aliases", r.aliases}, {"kind", r.kind},
                                {"level", r.level}, {"title", r.title},     {"statement", r.statement}};
      std::vector<std::string> ids;
      for (const auto& c : r.checks) ids.push_back(c.id);
      jr["checks"] = ids;
      if (!r.review.empty()) jr["review"] = r.review;
      if (!r.decisions.empty()) jr["decisions"] = r.decisions;
      j["rules"].push_back(jr);
    }
    fmt::print("{}\n", j.dump(2));
    return Exit::ok;
  }
  if (format != "text") throw UsageError("rules: -f expects text or json");
  std::size_t technical = 0;
  for (const auto& r : edition.rules) technical += r.technical();
  fmt::print("{} ({} rules: {} technical, {} functional)\n{}\n", edition.name, edition.rules.size(), technical,
             edition.rules.size() - technical, edition.source);
  for (const auto& r : edition.rules) {
    fmt::print("\n{}  [{}]  {} {}\n  {}\n", r.id, join(r.aliases, ", "), r.kind, r.level, r.title);
    fmt::print("  {}\n", trim(r.statement));
    for (const auto& c : r.checks) {
      const auto* info = cat.check(c.id);
      fmt::print("  - {}: {}\n", c.id, info ? info->title : "");
      if (info) fmt::print("      sends:  {}\n      passes: {}\n", trim(info->sends), trim(info->passes));
    }
    if (!r.review.empty()) fmt::print("  review: {}\n", trim(r.review));
    for (const auto& d : r.decisions) fmt::print("  decision: {}\n", d);
  }
  return Exit::ok;
}

int run(int argc, char** argv) {
  CLI::App app{fmt::format(
      "adrprobe {}: tests a live REST API against the Dutch REST API Design Rules (editions 1.0 and 2.0.0).\n"
      "It fetches BASE_URL/openapi.json, sends read-only probes (GET, HEAD, OPTIONS, TRACE) and reports\n"
      "a verdict for every rule with the requests that prove it.",
      ADRPROBE_VERSION)};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(ADRPROBE_VERSION));
  app.footer(
      "Exit status: 0 no rule at or above --fail-on, 1 a rule at or above it, 2 usage or configuration error,\n"
      "3 no rule failed but a check could not be completed.\n"
      "Examples:\n"
      "  adrprobe demo                                  probe the built-in reference API\n"
      "  adrprobe check https://api.example.nl/v1       probe an API, terminal report\n"
      "  adrprobe check https://api.example.nl/v1 -f json -o text=report.txt --edition 1.0");

  OutputOptions out;
  ProbeArgs args;
  std::string fail_on = "fail";
  auto* check = app.add_subcommand("check", "Probe one API and print a conformance report");
  check->add_option("BASE_URL", args.base_url, "Base URL with the major version, e.g. https://api.example.nl/v1")->required();
  add_output_options(check, out, fail_on);
  add_probe_options(check, args);

  std::string profile = "conformant";
  auto* demo = app.add_subcommand("demo", "Start the built-in reference API on 127.0.0.1, probe it, report, stop it");
  demo->add_option("--profile", profile, "conformant (default) or broken: a deliberately non-conformant API")
      ->check(CLI::IsMember({"conformant", "broken"}))
      ->capture_default_str();
  add_output_options(demo, out, fail_on);

  std::string rules_edition = "2.0.0", rules_format = "text";
  auto* rules = app.add_subcommand("rules", "List the rule catalogue of an edition");
  rules->add_option("--edition", rules_edition, "1.0, 2.0.0 (default) or 2.1.0")->capture_default_str();
  rules->add_option("-f,--format", rules_format, "text (default) or json")->capture_default_str();

  std::vector<std::string> rest;
  for (auto [name, what] : {std::pair{"batch", "Probe many APIs from a TARGETS.yaml (not available in this version)"},
                            std::pair{"diff", "Compare two JSON reports (not available in this version)"},
                            std::pair{"lint", "Static checks on a description document (not available in this version)"}}) {
    auto* cmd = app.add_subcommand(name, what);
    cmd->allow_extras();
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? Exit::ok : Exit::usage;
  }

  auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  auto logger = std::make_shared<spdlog::logger>("adrprobe", sink);
  logger->set_pattern("%^[%l]%$ %v");
  logger->set_level(out.verbose ? spdlog::level::debug : spdlog::level::warn);
  spdlog::set_default_logger(logger);

  try {
    if (check->parsed()) {
      auto options = run_options(args, parse_base_url(args.base_url));
      return probe_and_report(std::move(options), out, parse_fail_on(fail_on));
    }
    if (demo->parsed()) {
      demo::ReferenceApi api(profile == "broken" ? demo::Profile::broken : demo::Profile::conformant);
      std::string base = api.start();
      if (!out.quiet) fmt::print(stderr, "adrprobe demo: reference API ({}) serving at {}\n", profile, base);
      // Trust the CA made for this run (a temporary file, removed afterwards).
      ProbeArgs demo_args;
      std::string ca_path;
      if (!api.ca_pem().empty()) {
        char tmpl[] = "/tmp/adrprobe-demo-ca-XXXXXX";
        int fd = mkstemp(tmpl);
        if (fd < 0) throw std::runtime_error("demo: cannot write the CA certificate to /tmp");
        ca_path = tmpl;
        (void)!write(fd, api.ca_pem().data(), api.ca_pem().size());
        close(fd);
        demo_args.ca_file = ca_path;
      }
      int status = probe_and_report(run_options(demo_args, base), out, parse_fail_on(fail_on));
      if (!ca_path.empty()) std::remove(ca_path.c_str());
      api.stop();
      return status;
    }
    if (rules->parsed()) return print_rules(rules_edition, rules_format);
    for (const char* name : {"batch", "diff", "lint"})
      if (app.get_subcommand(name)->parsed())
        throw UsageError(fmt::format("'{}' is not available in adrprobe {} yet", name, ADRPROBE_VERSION));
  } catch (const UsageError& e) {
    fmt::print(stderr, "adrprobe: error: {}\n", e.what());
    return Exit::usage;
  }
  return Exit::usage;
}

}  // namespace
}  // namespace adrprobe::cli

int main(int argc, char** argv) {
  try {
    return adrprobe::cli::run(argc, argv);
  } catch (const std::exception& e) {
    fmt::print(stderr, "adrprobe: internal error: {}\n", e.what());
    return 70;
  }
}
