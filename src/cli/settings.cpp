#include "cli/settings.hpp"

#include <fmt/format.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::cli {

std::string edition_list() {
  auto names = catalogue::Catalogue::builtin().edition_names();
  if (names.size() < 2) return join(names, ", ");
  std::string last = names.back();
  names.pop_back();
  return join(names, ", ") + " and " + last;
}

void add_output_options(CLI::App* cmd, OutputArgs& out) {
  cmd->add_option("--edition", out.edition, fmt::format("Rule edition to judge by: {} (default 2.0.0)", edition_list()));
  cmd->add_option("-f,--format", out.format,
                  fmt::format("What goes to stdout: {} (default text)", report::format_names()));
  cmd->add_option("-o,--output", out.outputs,
                  "Also write a report file, FORMAT=PATH (repeatable), e.g. json=report.json; PATH - is stdout");
  cmd->add_option("--fail-on", out.fail_on, "Which verdicts make the exit status 1: fail (default), warn, never");
  cmd->add_flag("--no-color", out.no_color, "No colour, even on a terminal");
  cmd->add_flag("-q,--quiet", out.quiet, "Only the rules that do not pass, and the score");
  cmd->add_flag("-v,--verbose", out.verbose, "Every check with its evidence; log each request to stderr");
}

void add_fetch_options(CLI::App* cmd, ProbeArgs& a) {
  cmd->add_option("--timeout", a.timeout, "Seconds per request")->capture_default_str();
  cmd->add_option("--deadline", a.deadline, "End the run after this many seconds; unfinished checks are error")
      ->capture_default_str();
  cmd->add_option("--ca-file", a.ca_file, "Extra trusted CA bundle (PEM)");
  cmd->add_flag("--insecure", a.insecure, "Go on after a certificate failure (the TLS check still fails)");
  cmd->add_option("--ref-hosts", a.ref_hosts,
                  "Hosts external $refs may be fetched from: public (public addresses and the target's own host) or any")
      ->check(CLI::IsMember({"public", "any"}))
      ->capture_default_str();
}

void add_probe_options(CLI::App* cmd, ProbeArgs& a) {
  cmd->add_option("--openapi", a.openapi,
                  "Description document (URL or file, JSON or YAML), if not at BASE_URL/openapi.json");
  cmd->add_option("-H,--header", a.headers, "Extra request header 'Name: value' (repeatable); never shown in any output");
  cmd->add_option("--param", a.params, "Value for a path parameter, NAME=VALUE (repeatable)");
  cmd->add_option("--concurrency", a.concurrency, "Requests in flight at once")->capture_default_str();
  cmd->add_option("--rate", a.rate, "At most N requests per second to one host (0 = no limit)")->capture_default_str();
  cmd->add_option("--max-paths", a.max_paths, "Probe at most N documented paths (0 = all)")->capture_default_str();
  add_fetch_options(cmd, a);
  cmd->add_flag("--allow-unsafe", a.allow_unsafe, "Also send POST/PUT/PATCH/DELETE probes (never by default)");
  cmd->add_option("--baseline", a.baseline, "Earlier JSON report to compare with (not available in this version)");
}

const catalogue::Edition& edition_or_throw(const std::string& name) {
  const auto& cat = catalogue::Catalogue::builtin();
  if (const auto* e = cat.edition(name)) return *e;
  throw UsageError(fmt::format("unknown edition '{}' (available: {})", name, join(cat.edition_names(), ", ")));
}

namespace {

const report::Format& format_or_throw(const std::string& name) {
  const report::Format* f = report::find_format(name);
  if (!f) throw UsageError(fmt::format("unknown format '{}' (available: {})", name, report::format_names()));
  if (!f->render)
    throw UsageError(fmt::format("format '{}' is not available in adrprobe {} yet (use text or json)", name, ADRPROBE_VERSION));
  return *f;
}

// A report file must be writable before the run starts, not after it.
void check_writable(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw UsageError(fmt::format("-o {}: is a directory", path));
    if (access(path.c_str(), W_OK) != 0) throw UsageError(fmt::format("-o {}: not writable", path));
    return;
  }
  auto slash = path.find_last_of('/');
  std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw UsageError(fmt::format("-o {}: the directory {} does not exist", path, dir));
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    throw UsageError(fmt::format("-o {}: cannot create a file in {}", path, dir));
}

bool color_wanted(const OutputArgs& out) {
  return !out.no_color && std::getenv("NO_COLOR") == nullptr && isatty(STDOUT_FILENO);
}

}  // namespace

Output to_output(const OutputArgs& args) {
  Output out;
  edition_or_throw(args.edition);
  out.fail_on = parse_fail_on(args.fail_on);
  bool stdout_taken = false;
  for (const auto& o : args.outputs) {
    auto [name, path] = parse_assignment(o, "-o");
    const report::Format& f = format_or_throw(name);
    if (path == "-") {
      if (stdout_taken) throw UsageError("-o: only one report can go to stdout ('-')");
      if (!args.format.empty())
        throw UsageError(fmt::format("-o {}=- and -f {} both write to stdout: give one", name, args.format));
      stdout_taken = true;
    } else {
      check_writable(path);
    }
    out.files.emplace_back(&f, path);
  }
  out.format = stdout_taken ? nullptr : &format_or_throw(args.format.empty() ? "text" : args.format);
  out.quiet = args.quiet;
  out.verbose = args.verbose;
  int verbosity = args.quiet ? -1 : (args.verbose ? 1 : 0);
  out.terminal = report::RenderOptions{color_wanted(args), verbosity, out.fail_on};
  out.file = report::RenderOptions{false, args.verbose ? 1 : 0, out.fail_on};
  return out;
}

void check_document_location(const std::string& location, const std::string& what) {
  if (location.rfind("http://", 0) == 0 || location.rfind("https://", 0) == 0) {
    std::string error;
    if (!parse_url(location, &error)) throw UsageError(fmt::format("{}: {}", what, error));
  } else if (std::ifstream probe(location.rfind("file://", 0) == 0 ? location.substr(7) : location); !probe) {
    throw UsageError(fmt::format("{}: cannot read the file", what));
  }
}

engine::Settings to_settings(const ProbeArgs& a, const std::string& base_url) {
  engine::Settings s;
  s.base_url = base_url;
  if (!a.openapi.empty()) {
    check_document_location(a.openapi, fmt::format("--openapi '{}'", mask_url_password(a.openapi)));
    s.openapi = a.openapi;
  }
  for (const auto& h : a.headers) s.headers.push_back(parse_header(h));
  for (const auto& p : a.params) s.params.insert(parse_assignment(p, "--param"));
  s.allow_unsafe = a.allow_unsafe;
  s.insecure = a.insecure;
  s.ref_hosts_any = a.ref_hosts == "any";
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
  s.client.timeout_s = a.timeout;
  s.client.concurrency = a.concurrency;
  s.client.rate = a.rate;
  s.client.ca_file = a.ca_file;
  s.client.insecure = a.insecure;
  s.client.allow_unsafe = a.allow_unsafe;
  s.client.user_agent = std::string("adrprobe/") + ADRPROBE_VERSION;
  s.deadline_s = a.deadline;
  s.tool_version = ADRPROBE_VERSION;
  return s;
}

http::Header parse_header(const std::string& text) {
  auto colon = text.find(':');
  if (colon == std::string::npos || colon == 0)
    throw UsageError("-H expects 'Name: value' (what was given is not shown: it may hold a secret)");
  std::string name = trim(text.substr(0, colon));
  for (unsigned char c : name)
    if (c <= 32 || c >= 127 || c == '(' || c == ')' || c == ',' || c == '/' || c == ';' || c == '@' || c == '"')
      throw UsageError("-H: the header name is not valid (a token without spaces or separators; the text is not shown)");
  std::string value = trim(text.substr(colon + 1));
  if (value.find_first_of("\r\n") != std::string::npos) throw UsageError("-H: a header value must be one line");
  return {name, value};
}

std::pair<std::string, std::string> parse_assignment(const std::string& text, const char* what) {
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) throw UsageError(fmt::format("{} expects NAME=VALUE, got '{}'", what, text));
  return {text.substr(0, eq), text.substr(eq + 1)};
}

std::string parse_base_url(const std::string& text) {
  std::string error;
  auto url = parse_url(text, &error);
  std::string shown = mask_url_password(text);  // an error message never shows a password
  if (!url) throw UsageError(fmt::format("'{}' is not a valid base URL: {} (expected e.g. https://api.example.nl/v1)", shown, error));
  if (url->scheme != "http" && url->scheme != "https")
    throw UsageError(fmt::format("'{}': the base URL must be http:// or https://, not {}://", shown, url->scheme));
  if (!url->query.empty() || text.find('#') != std::string::npos)
    throw UsageError(fmt::format("'{}': a base URL has no query or fragment", shown));
  return strip_trailing_slash(url->full);
}

report::FailOn parse_fail_on(const std::string& text) {
  if (text == "fail") return report::FailOn::fail;
  if (text == "warn") return report::FailOn::warn;
  if (text == "never") return report::FailOn::never;
  throw UsageError("--fail-on expects fail, warn or never");
}

}  // namespace adrprobe::cli
