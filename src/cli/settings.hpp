// Command-line options → engine::Settings and output choices, validated in
// one place before any request is sent (CLI.md).
#pragma once
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "catalogue/catalogue.hpp"
#include "engine/settings.hpp"
#include "report/formats.hpp"
#include "report/model.hpp"
#include "util/files.hpp"

namespace adrprobe::cli {

// Exit statuses of CLI.md.
enum Exit { ok = 0, rule_failed = 1, usage = 2, incomplete = 3 };

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Options every report-writing command takes (check, lint, demo).
struct OutputArgs {
  std::string edition = "2.0.0";
  std::string format;                // -f; empty: text, unless -o FORMAT=- takes stdout
  std::vector<std::string> outputs;  // FORMAT=PATH
  std::string fail_on = "fail";
  bool no_color = false;
  bool quiet = false;
  bool verbose = false;
  std::string baseline;  // --baseline OLD.json
  std::string rules;      // --rules ID,...: judge only these (ids or aliases of the edition)
  std::string modules = "auto";  // --modules auto|none|<module> (check, lint, batch)
  std::string checklist = "compact";  // --checklist compact|full (html)
};

// OAuth 2.0 client credentials as given (--oauth2-*, a batch file's oauth2
// keys); cli/oauth2.hpp validates them and fetches the token.
struct OAuth2Args {
  std::string token_url, client_id, client_secret, scope;
  std::string auth;  // basic | post; empty: basic
  bool given() const {
    return !token_url.empty() || !client_id.empty() || !client_secret.empty() || !scope.empty() || !auth.empty();
  }
};

// Options of the requests a run sends (check; lint takes the few that apply).
struct ProbeArgs {
  std::string openapi;
  std::vector<std::string> headers;       // -H 'Name: value'; ${VAR} in the value is read from the environment
  std::vector<std::string> header_files;  // --header-file FILE: one 'Name: value' a line
  std::vector<std::string> params;
  double timeout = 10;
  int concurrency = 4;
  double rate = 20;
  int max_paths = 250;
  long long max_requests = 0;  // --max-requests (0: only --deadline bounds a run)
  double deadline = 600;
  std::string ca_file;
  std::string cert_file, key_file;  // --cert, --key (check only)
  bool insecure = false;
  bool allow_unsafe = false;
  std::string ref_hosts = "public";  // --ref-hosts public|any
  std::string user_agent;            // --user-agent; empty: adrprobe/<version>
  std::vector<std::string> resolve;  // --resolve HOST:PORT:ADDR[,ADDR...] (check, batch)
  OAuth2Args oauth2;                 // --oauth2-* (check, batch)
};

// Validated output choices.
struct Output {
  const catalogue::Edition* edition = nullptr;  // the catalogue --edition resolves to
  std::string edition_asked;                    // --edition as given (an alias, "latest")
  const report::Format* format;  // written to stdout (nullptr: none, an -o file takes stdout)
  std::vector<std::pair<const report::Format*, std::string>> files;  // "-" is stdout
  report::FailOn fail_on = report::FailOn::fail;
  report::RenderOptions terminal;  // for stdout
  report::RenderOptions file;      // for files (never colour)
  bool quiet = false, verbose = false;
  std::optional<report::Report> baseline;  // --baseline, read and checked
  std::vector<std::string> rules;  // --rules, as the edition's ids, in the edition's order (empty: all)
  std::string modules = "auto";    // --modules, checked against the edition (engine::Settings::modules)
  // A character device or FIFO at a file's name: -o's paths are the user's
  // (/dev/null, a named pipe: written into); batch's are its own (refused).
  NonRegular non_regular = NonRegular::write_into;
};
Output to_output(const OutputArgs& args);
// --rules: the edition's ids of the rules named (ids or aliases, any case,
// comma-separated; a module's rule ids too, /geo/...), in the edition's order
// and then its modules'; UsageError for a name the edition does not know or an
// empty list.
std::vector<std::string> select_rules(const catalogue::Edition& edition, const std::string& list);
// The command line as given (main() records it after parsing): each argument
// shell-quoted where needed, every secret option value (`secrets`: each as
// the parser took it from the command line, "X-Api-Key: v" of -H) masked
// in the argument that carries it, however it is spelled ("-H" "X: v",
// "-qHX: v", "--header=X: v"): masked_option_value("X-Api-Key: v") is
// "X-Api-Key: ***". The Redactor masks the rest (URL passwords, other
// forms of the values).
// `whole_secrets` (--oauth2-client-secret) are masked whole: "***".
void record_command_line(int argc, char** argv, const std::vector<std::string>& secrets,
                         const std::vector<std::string>& whole_secrets = {});
const std::string& command_line();
// Colour on stdout: a terminal, neither --no-color nor NO_COLOR.
bool color_wanted(bool no_color);
// An earlier JSON report (--baseline, batch --baseline-dir, diff): UsageError
// naming `what` and the path when it cannot be read or is no report.
report::Report read_baseline(const std::string& path, const std::string& what);
// The edition --edition names: an edition, an alias of one, or "latest".
const catalogue::Edition& edition_or_throw(const std::string& name);
// --modules: auto, none, or a module of the catalogue that the edition carries
// (edition 1.0 has no geospatial rule: --modules geo with it is a usage error)
// and whose checks the build has; else UsageError. Returns the value.
std::string modules_or_throw(const catalogue::Edition& edition, const std::string& value);
// The report format of that name (-f, -o), one the build renders; else UsageError.
const report::Format& format_or_throw(const std::string& name);

// A description document given as a file (plain path or file://) or an http(s)
// URL: readable or well-formed, else UsageError naming `what`.
void check_document_location(const std::string& location, const std::string& what);
// --user-agent as given, else adrprobe/<version>.
std::string user_agent(const std::string& given);
// --timeout: more than 0, at most a week; else UsageError.
void check_timeout(double seconds);
// --ca-file: empty, or a PEM bundle OpenSSL loads; else UsageError.
void check_ca_file(const std::string& path);
// engine::Settings for check (base_url set) or lint (base_url empty).
engine::Settings to_settings(const ProbeArgs& args, const std::string& base_url);

// Parses "Name: value" (-H; `what` names the source in errors, which never
// show the text); throws UsageError.
http::Header parse_header(const std::string& text, const std::string& what = "-H");
// ${VAR} in a header value, read from the environment. An unset variable is a
// UsageError naming it (and `where`), never the value.
std::string expand_env(const std::string& value, const std::string& where);
// The headers of -H (or `option`, which errors name) and --header-file, in
// that order, ${VAR} expanded; UsageError as parse_header and expand_env.
std::vector<http::Header> read_headers(const std::vector<std::string>& given, const std::vector<std::string>& files,
                                       const std::string& option = "-H");
// --header-file: one 'Name: value' a line, blank lines and # comments ignored,
// ${VAR} expanded; errors name the line number, never its text.
std::vector<http::Header> read_header_file(const std::string& path);
// Checks a --resolve entry as curl reads it: [+]HOST:PORT:ADDR[,ADDR...], HOST
// a name or *, PORT 1..65535, each ADDR an IP address (IPv6 in brackets or
// not). libcurl skips an entry it cannot read without a word: a UsageError here.
void check_resolve_entry(const std::string& text);
// Parses "NAME=VALUE" (--param, -o); throws UsageError.
std::pair<std::string, std::string> parse_assignment(const std::string& text, const char* what);
// Validates a base URL: http(s), a host, no query or fragment; returns it without trailing slash.
std::string parse_base_url(const std::string& text);
report::FailOn parse_fail_on(const std::string& text);
// "1.0, 2.0.0 and 2.1.0"
std::string edition_list();
// The editions with their aliases and "latest", for help texts.
std::string edition_help();
// The exit status table (CLI.md), the footer of every report-writing command's help.
std::string exit_status_help();

}  // namespace adrprobe::cli
