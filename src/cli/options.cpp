#include "cli/options.hpp"

#include <fmt/format.h>

#include <functional>

#include "util/strings.hpp"

namespace adrprobe::cli {

namespace {

// CLI11 validators that name the choices in --help ("TEXT:{1.0,2.0.0,...}") and
// keep adrprobe's own messages for a wrong value.
CLI::Validator choice(std::string desc, std::function<void(const std::string&)> check) {
  return CLI::Validator(
      [check](std::string& value) -> std::string {
        try {
          check(value);
          return "";
        } catch (const UsageError& e) {
          return e.what();
        }
      },
      desc);
}

std::vector<std::string> available_formats() {
  std::vector<std::string> out;
  for (const auto& f : report::formats())
    if (f.render) out.emplace_back(f.name);
  return out;
}

}  // namespace

CLI::Validator edition_validator() {
  return choice("{" + join(catalogue::Catalogue::builtin().accepted_names(), ",") + "}",
                [](const std::string& v) { edition_or_throw(v); });
}

void add_modules_option(CLI::App* cmd, std::string& modules, const std::string& help_prefix) {
  std::vector<std::string> choices{"auto", "none"};
  for (const auto& m : catalogue::Catalogue::builtin().modules()) choices.push_back(m.id);
  cmd->add_option("--modules", modules,
                  help_prefix + ": auto (default) judges the Geospatial module when the document shows geospatial "
                                "content, geo always (its rules skip on an API without any), none never")
      ->check(CLI::IsMember(choices));
}

void add_output_options(CLI::App* cmd, OutputArgs& out) {
  cmd->add_option("--edition", out.edition, fmt::format("Rule edition to judge by: {} (default 2.0.0)", edition_help()))
      ->check(edition_validator());
  cmd->add_option("-f,--format", out.format,
                  fmt::format("What goes to stdout: {} (default text)", report::format_names()))
      ->check(choice("{" + join(available_formats(), ",") + "}", [](const std::string& v) { format_or_throw(v); }));
  cmd->add_option("-o,--output", out.outputs,
                  "Also write a report file, FORMAT=PATH (repeatable), e.g. json=report.json; PATH - is stdout")
      ->check(choice("{" + join(available_formats(), ",") + "}=PATH", [](const std::string& v) { format_or_throw(parse_assignment(v, "-o").first); }));
  cmd->add_option("--fail-on", out.fail_on,
                  "Which verdicts make the exit status 1: fail (default), warn, never, or regressed: only a rule "
                  "new-fail or regressed against --baseline, or the target newly down (no baseline: 0)")
      ->check(choice("{fail,warn,regressed,never}", [](const std::string& v) { parse_fail_on(v); }));
  cmd->add_option("--baseline", out.baseline,
                  "An earlier JSON report (-o json=...) of this API: mark each rule new-fail, regressed, fixed or "
                  "unchanged against it, in every format");
  cmd->add_option("--rules", out.rules,
                  "Judge only these rules, ID,... (ids or aliases of the edition); only their checks' requests are sent; "
                  "the others are listed as skip (not selected) and the score counts only the selected");
  cmd->add_option("--checklist", out.checklist,
                  "The HTML reviewer checklist: compact (one line per functional rule, its text folded; default) or "
                  "full (every rule's text and room for findings)")
      ->check(CLI::IsMember({"compact", "full"}))
      ->capture_default_str();
  cmd->add_flag("--no-color", out.no_color, "No colour, even on a terminal");
  cmd->add_flag("-q,--quiet", out.quiet, "Only the target, the rules that do not pass, and the score");
  cmd->add_flag("-v,--verbose", out.verbose,
                "Every check with its evidence, each rule's level and text; log each request to stderr");
  cmd->footer(exit_status_help());
}

void add_transport_options(CLI::App* cmd, ProbeArgs& a) {
  cmd->add_option("--timeout", a.timeout, "Seconds per request")->transform(decimal<double>())->capture_default_str();
  cmd->add_option("--deadline", a.deadline, "End the run after this many seconds; unfinished checks are error")
      ->transform(decimal<double>())
      ->capture_default_str();
  cmd->add_option("--ca-file", a.ca_file, "Extra trusted CA bundle (PEM)");
  cmd->add_flag("--insecure", a.insecure, "Go on after a certificate failure (the TLS check still fails)");
  cmd->add_option("--user-agent", a.user_agent, fmt::format("User-Agent of every request (default adrprobe/{})", ADRPROBE_VERSION));
}

void add_fetch_options(CLI::App* cmd, ProbeArgs& a) {
  add_transport_options(cmd, a);
  cmd->add_option("--ref-hosts", a.ref_hosts,
                  "Hosts external $refs, and the description document's redirects, may be fetched from: public "
                  "(public addresses and the hosts given: the base URL's, --openapi's) or any")
      ->check(CLI::IsMember({"public", "any"}))
      ->capture_default_str();
}

void add_header_options(CLI::App* cmd, ProbeArgs& a) {
  cmd->add_option("-H,--header", a.headers,
                  "Extra request header 'Name: value' (repeatable); ${VAR} in the value is read from the environment; "
                  "the value is never shown in any output");
  cmd->add_option("--header-file", a.header_files,
                  "More headers from a file, one 'Name: value' a line (# comments, ${VAR}); masked like -H");
}

void add_pace_options(CLI::App* cmd, ProbeArgs& a) {
  cmd->add_option("--concurrency", a.concurrency, "Requests in flight at once")
      ->transform(decimal<int>())
      ->capture_default_str();
  cmd->add_option("--rate", a.rate, "At most N requests per second to one host (0 = no limit)")
      ->transform(decimal<double>())
      ->capture_default_str();
}

void add_probe_options(CLI::App* cmd, ProbeArgs& a) {
  cmd->add_option("--openapi", a.openapi,
                  "Description document (URL or file, JSON or YAML), if not at BASE_URL/openapi.json");
  add_header_options(cmd, a);
  cmd->add_option("--param", a.params, "Value for a path parameter, NAME=VALUE (repeatable)");
  add_pace_options(cmd, a);
  cmd->add_option("--max-paths", a.max_paths, "Probe at most N documented paths (0 = all)")
      ->transform(decimal<int>())
      ->capture_default_str();
  cmd->add_option("--max-requests", a.max_requests,
                  "At most N requests in one run (0 = no limit but --deadline); the report names the paths left out")
      ->transform(decimal<long long>())
      ->capture_default_str();
  add_fetch_options(cmd, a);
  cmd->add_option("--cert", a.cert_file, "Client certificate (PEM) for APIs that require mutual TLS; with --key");
  cmd->add_option("--key", a.key_file, "Private key (PEM, unencrypted) of --cert; never shown in any output");
  cmd->add_flag("--allow-unsafe", a.allow_unsafe, "Also send POST/PUT/PATCH/DELETE probes (never by default)");
  cmd->add_option("--resolve", a.resolve,
                  "Use these addresses for HOST:PORT, HOST:PORT:ADDR[,ADDR...] as curl's --resolve (repeatable); "
                  "for the HTTP requests and the TLS handshakes alike");
  add_oauth2_options(cmd, a.oauth2);
}

void add_oauth2_options(CLI::App* cmd, OAuth2Args& a) {
  cmd->add_option("--oauth2-token-url", a.token_url,
                  "OAuth 2.0 token endpoint (https, or http on loopback): before the first request a token is fetched "
                  "with the client credentials grant and sent as Authorization: Bearer wherever -H goes");
  cmd->add_option("--oauth2-client-id", a.client_id, "The OAuth 2.0 client id");
  cmd->add_option("--oauth2-client-secret", a.client_secret,
                  "The OAuth 2.0 client secret; ${VAR} is read from the environment; never shown in any output, nor the token");
  cmd->add_option("--oauth2-scope", a.scope, "Scopes to ask the token for, space-separated (optional)");
  cmd->add_option("--oauth2-auth", a.auth, "How the client authenticates to the token endpoint: basic (HTTP Basic, default) or post (in the form body)")
      ->check(CLI::IsMember({"basic", "post"}));
}

void add_push_options(CLI::App* cmd, PushArgs& a, const std::string& register_default) {
  cmd->add_option("--pushgateway", a.url,
                  "PUT summary.prom to this Prometheus Pushgateway (its base URL) as the group job=\"adrprobe\", "
                  "register=NAME, replacing the last push's series; a failed push is a warning, the exit status stays");
  cmd->add_option("--register-name", a.register_name,
                  "NAME of the register in the Pushgateway group (default " + register_default + ")");
}

}  // namespace adrprobe::cli
