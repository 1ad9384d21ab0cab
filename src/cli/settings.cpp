#include "cli/settings.hpp"

#include <fmt/format.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <arpa/inet.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <set>

#include "checks/registry.hpp"
#include "report/json.hpp"
#include "report/redact.hpp"
#include "tls/client_cert.hpp"
#include "util/read_file.hpp"
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

std::string edition_help() {
  const auto& cat = catalogue::Catalogue::builtin();
  std::string out = edition_list();
  for (const auto& name : cat.edition_names()) {
    const auto* e = cat.edition(name);
    if (e->aliases.empty()) continue;
    std::string aliases = e->aliases.size() == 1 ? e->aliases.front()
                                                  : join({e->aliases.begin(), e->aliases.end() - 1}, ", ") + " and " +
                                                        e->aliases.back();
    out += fmt::format("; {} are judged as {} ({})", aliases, e->edition, e->aliases_note);
  }
  if (const auto* newest = cat.latest()) out += fmt::format("; latest is {}", newest->edition);
  return out;
}

std::string exit_status_help() {
  return "Exit status: 0 no rule at or above --fail-on, 1 a rule at or above it, 2 usage or configuration error,\n"
         "3 no rule failed but a check could not be completed.";
}

const catalogue::Edition& edition_or_throw(const std::string& name) {
  const auto& cat = catalogue::Catalogue::builtin();
  if (const auto* e = cat.resolve(name)) return *e;
  throw UsageError(fmt::format("unknown edition '{}' (available: {})", name, join(cat.accepted_names(), ", ")));
}

const report::Format& format_or_throw(const std::string& name) {
  const report::Format* f = report::find_format(name);
  if (!f) throw UsageError(fmt::format("unknown format '{}' (available: {})", name, report::format_names()));
  if (!f->render)
    throw UsageError(fmt::format("format '{}' is not available in adrprobe {} yet (use text or json)", name, ADRPROBE_VERSION));
  return *f;
}

namespace {

// A report file must be writable before the run starts, not after it; and
// never through a symbolic link, even one the user made (util/files.hpp says why).
void check_writable(const std::string& path) {
  std::string problem = write_problem(path, NonRegular::write_into);
  if (!problem.empty()) throw UsageError(fmt::format("-o {}: {}", path, problem));
}

// "api.example.nl/v1" (a host name, maybe a port and a path, no scheme):
// "https://api.example.nl/v1"; empty when text does not look like that.
std::string with_scheme(const std::string& text) {
  if (text.find("://") != std::string::npos) return "";
  std::string host = text.substr(0, text.find('/'));
  auto colon = host.rfind(':');
  if (colon != std::string::npos) {
    std::string port = host.substr(colon + 1);
    if (port.empty() || port.find_first_not_of("0123456789") != std::string::npos) return "";
    host = host.substr(0, colon);
  }
  if (host.empty() || host.front() == '.' || host.back() == '.' || host.find("..") != std::string::npos) return "";
  if (host.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-") != std::string::npos)
    return "";
  if (host.find('.') == std::string::npos && host != "localhost") return "";
  return "https://" + text;
}


}  // namespace

bool color_wanted(bool no_color) {
  return !no_color && std::getenv("NO_COLOR") == nullptr && isatty(STDOUT_FILENO);
}

report::Report read_baseline(const std::string& path, const std::string& what) {
  std::string text;
  try {
    // A report is a few MiB at most; a baseline far bigger is not one, and a FIFO or device never is.
    text = read_file(path, report::max_report_bytes);
  } catch (const ReadFileError& e) {
    throw UsageError(fmt::format("{} {}: {}", what, path, e.kind() == ReadFileError::Kind::too_large
                                                             ? std::string(e.what()) + ", not a report"
                                                             : std::string(e.what())));
  }
  try {
    return report::parse_json_report(text);
  } catch (const std::exception& e) {
    throw UsageError(fmt::format("{} {}: {}", what, path, escape_control(e.what())));
  }
}

Output to_output(const OutputArgs& args) {
  Output out;
  out.edition = &edition_or_throw(args.edition);
  out.edition_asked = args.edition;
  out.fail_on = parse_fail_on(args.fail_on);
  bool stdout_taken = false;
  for (const auto& o : args.outputs) {
    auto [name, path] = parse_assignment(o, "-o");
    const report::Format& f = format_or_throw(name);
    if (path.empty()) throw UsageError(fmt::format("-o {}=: give a file path (or - for stdout)", name));
    if (path == "-") {
      if (stdout_taken) throw UsageError("-o: only one report can go to stdout ('-')");
      if (!args.format.empty())
        throw UsageError(fmt::format("-o {}=- and -f {} both write to stdout: give one", name, args.format));
      stdout_taken = true;
    } else {
      check_writable(path);
      for (const auto& [other, taken] : out.files)
        if (taken == path)
          throw UsageError(fmt::format("-o {}={} and -o {}={} write the same file: give each its own", other->name, path,
                                       name, path));
    }
    out.files.emplace_back(&f, path);
  }
  out.format = stdout_taken ? nullptr : &format_or_throw(args.format.empty() ? "text" : args.format);
  if (out.format && !out.format->to_stdout)
    throw UsageError(fmt::format("format '{}' is written to a file only: -o {}=PATH", out.format->name, out.format->name));
  if (!args.baseline.empty()) out.baseline = read_baseline(args.baseline, "--baseline");
  out.quiet = args.quiet;
  out.verbose = args.verbose;
  int verbosity = args.quiet ? -1 : (args.verbose ? 1 : 0);
  out.terminal = report::RenderOptions{color_wanted(args.no_color), verbosity, out.fail_on};
  out.terminal.terminal = isatty(fileno(stdout)) != 0;
  out.file = report::RenderOptions{false, args.verbose ? 1 : 0, out.fail_on};
  if (args.checklist != "compact" && args.checklist != "full")
    throw UsageError(fmt::format("--checklist {}: give compact or full", escape_control(args.checklist)));
  out.terminal.checklist_full = out.file.checklist_full = args.checklist == "full";
  if (!args.rules.empty()) out.rules = select_rules(*out.edition, args.rules);
  out.modules = modules_or_throw(*out.edition, args.modules);
  return out;
}

std::vector<std::string> select_rules(const catalogue::Edition& edition, const std::string& list) {
  std::set<std::string> chosen;
  for (const auto& part : split(list, ',')) {
    std::string name = trim(part);
    if (name.empty()) continue;
    const catalogue::Rule* found = nullptr;
    auto find_in = [&](const std::vector<catalogue::Rule>& rules) {
      for (const auto& rule : rules) {
        bool match = iequals(rule.id, name);
        for (const auto& alias : rule.aliases) match = match || iequals(alias, name);
        if (match) return &rule;
      }
      return static_cast<const catalogue::Rule*>(nullptr);
    };
    found = find_in(edition.rules);
    for (const auto& m : edition.modules) found = found ? found : find_in(m.rules);
    if (!found)
      throw UsageError(fmt::format("--rules: edition {} has no rule '{}' (adrprobe rules --edition {} lists them)",
                                   edition.edition, escape_control(name), edition.edition));
    chosen.insert(found->id);
  }
  if (chosen.empty()) throw UsageError("--rules: give at least one rule id");
  std::vector<std::string> out;
  for (const auto& rule : edition.rules)
    if (chosen.count(rule.id)) out.push_back(rule.id);
  for (const auto& m : edition.modules)
    for (const auto& rule : m.rules)
      if (chosen.count(rule.id)) out.push_back(rule.id);
  return out;
}

std::string modules_or_throw(const catalogue::Edition& edition, const std::string& value) {
  if (value == "auto" || value == "none") return value;
  const auto& cat = catalogue::Catalogue::builtin();
  const catalogue::Module* m = cat.module(value);
  if (!m) {
    std::vector<std::string> choices{"auto", "none"};
    for (const auto& known : cat.modules()) choices.push_back(known.id);
    throw UsageError(fmt::format("--modules {}: give {}", escape_control(value), join(choices, ", ")));
  }
  if (!edition.module(m->id))
    throw UsageError(fmt::format("--modules {} with --edition {}: edition {} has no rule {} requiring the {} module",
                                 m->id, edition.edition, edition.edition, m->required_by, m->title));
  const auto& detectors = checks::registry().modules;
  if (std::none_of(detectors.begin(), detectors.end(), [&](const auto& d) { return d.module == m->id; }))
    throw UsageError(fmt::format("--modules {}: the {} module's checks are not in this build", m->id, m->title));
  return value;
}

namespace {
std::string recorded_command_line;

// An argument as a POSIX shell reads it back: bare when it holds only safe characters, else in single quotes.
std::string shell_quoted(const std::string& arg) {
  bool safe = !arg.empty() && std::all_of(arg.begin(), arg.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("@%+=:,./_-").find(c) != std::string_view::npos;
  });
  return safe ? arg : "'" + replace_all(arg, "'", "'\\''") + "'";
}

// "Name: value" → "Name: ***" (a header given on the command line).
std::string masked_header(const std::string& text) {
  auto colon = text.find(':');
  return colon == std::string::npos ? std::string(report::Redactor::mask) : text.substr(0, colon + 1) + " ***";
}
}  // namespace

void record_command_line(int argc, char** argv, const std::vector<std::string>& secrets,
                         const std::vector<std::string>& whole_secrets) {
  std::vector<std::string> args{"adrprobe"};
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    // An option's value is its argument, or the end of it (after "=" or a
    // group of short flags): masked there, whatever spells the option.
    auto mask_end = [&](const std::vector<std::string>& values, bool header) {
      for (const auto& secret : values)
        if (!secret.empty() && a.size() >= secret.size() && a.compare(a.size() - secret.size(), secret.size(), secret) == 0) {
          a = a.substr(0, a.size() - secret.size()) + (header ? masked_header(secret) : report::Redactor::mask);
          return true;
        }
      return false;
    };
    if (!mask_end(secrets, true)) mask_end(whole_secrets, false);
    args.push_back(shell_quoted(mask_url_password(std::move(a))));  // a URL's password, wherever it stands
  }
  recorded_command_line = join(args, " ");
}

const std::string& command_line() { return recorded_command_line; }

void check_document_location(const std::string& location, const std::string& what) {
  if (location.rfind("http://", 0) == 0 || location.rfind("https://", 0) == 0) {
    std::string error;
    if (!parse_url(location, &error)) throw UsageError(fmt::format("{}: {}", what, error));
  } else {
    std::string path = location.rfind("file://", 0) == 0 ? percent_decode(location.substr(7)) : location;
    struct stat st {};
    if (stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) throw UsageError(fmt::format("{}: not a file", what));
    if (std::ifstream probe(path); !probe) {
      // "api.example.nl/v1/openapi.json" is more likely a URL without its scheme than a file.
      std::string suggestion = location.find('/') != std::string::npos ? with_scheme(location) : "";
      throw UsageError(fmt::format("{}: cannot read the file{}", what,
                                   suggestion.empty() ? "" : fmt::format(" (did you mean {}?)", mask_url_password(suggestion))));
    }
  }
}

namespace {
// Upper bounds keep the arithmetic finite; a week is longer than any useful run.
constexpr double kMaxSeconds = 7 * 24 * 3600;
}  // namespace

std::string user_agent(const std::string& given) {
  return given.empty() ? std::string("adrprobe/") + ADRPROBE_VERSION : given;
}

void check_timeout(double seconds) {
  if (!(seconds > 0) || seconds > kMaxSeconds) throw UsageError("--timeout must be more than 0 and at most 604800 seconds");
}

void check_ca_file(const std::string& path) {
  if (path.empty()) return;
  // A bundle that does not load would make every verification fail later: say so now.
  X509_STORE* store = X509_STORE_new();
  bool loaded = X509_STORE_load_file(store, path.c_str()) == 1;
  X509_STORE_free(store);
  ERR_clear_error();
  if (!loaded) throw UsageError(fmt::format("--ca-file '{}': not a readable PEM certificate bundle", path));
}

engine::Settings to_settings(const ProbeArgs& a, const std::string& base_url) {
  engine::Settings s;
  s.base_url = base_url;
  if (!a.openapi.empty()) {
    check_document_location(a.openapi, fmt::format("--openapi '{}'", mask_url_password(a.openapi)));
    s.openapi = a.openapi;
  }
  s.headers = read_headers(a.headers, a.header_files);
  for (const auto& p : a.params) s.params.insert(parse_assignment(p, "--param"));
  s.allow_unsafe = a.allow_unsafe;
  s.insecure = a.insecure;
  s.ref_hosts_any = a.ref_hosts == "any";
  if (a.max_paths < 0) throw UsageError("--max-paths must be 0 or more");
  s.max_paths = static_cast<std::size_t>(a.max_paths);
  if (a.max_requests < 0) throw UsageError("--max-requests must be 0 (no limit) or more");
  s.client.max_exchanges = static_cast<std::size_t>(a.max_requests);
  check_timeout(a.timeout);
  if (a.concurrency < 1 || a.concurrency > 256) throw UsageError("--concurrency must be between 1 and 256");
  if (!(a.rate >= 0)) throw UsageError("--rate must be 0 (no limit) or more");
  if (!(a.deadline > 0) || a.deadline > kMaxSeconds) throw UsageError("--deadline must be more than 0 and at most 604800 seconds");
  if (!(a.rate <= 1e6)) throw UsageError("--rate must be at most 1000000");
  check_ca_file(a.ca_file);
  // Both or neither, readable, and the key belongs to the certificate.
  if (auto why = tls::check_client_certificate(a.cert_file, a.key_file); !why.empty()) throw UsageError(why);
  s.client.timeout_s = a.timeout;
  s.client.concurrency = a.concurrency;
  s.client.rate = a.rate;
  s.client.ca_file = a.ca_file;
  s.client.cert_file = a.cert_file;
  s.client.key_file = a.key_file;
  if (!a.cert_file.empty()) {
    // The client certificate goes only to the servers the user named.
    if (!base_url.empty()) s.client.cert_origins.push_back(base_url);
    if (s.openapi && parse_url(*s.openapi)) s.client.cert_origins.push_back(*s.openapi);
  }
  s.client.insecure = a.insecure;
  s.client.allow_unsafe = a.allow_unsafe;
  if (a.user_agent.find_first_of("\r\n") != std::string::npos) throw UsageError("--user-agent must be one line");
  s.client.user_agent = user_agent(a.user_agent);
  for (const auto& entry : a.resolve) check_resolve_entry(entry);
  s.client.resolve = a.resolve;
  s.deadline_s = a.deadline;
  s.tool_version = ADRPROBE_VERSION;
  return s;
}

http::Header parse_header(const std::string& text, const std::string& what) {
  auto colon = text.find(':');
  if (colon == std::string::npos || colon == 0)
    throw UsageError(fmt::format("{} expects 'Name: value' (what was given is not shown: it may hold a secret)", what));
  std::string name = trim(text.substr(0, colon));
  for (unsigned char c : name)
    if (c <= 32 || c >= 127 || c == '(' || c == ')' || c == ',' || c == '/' || c == ';' || c == '@' || c == '"')
      throw UsageError(fmt::format(
          "{}: the header name is not valid (a token without spaces or separators; the text is not shown)", what));
  std::string value = trim(text.substr(colon + 1));
  if (value.find_first_of("\r\n") != std::string::npos) throw UsageError(fmt::format("{}: a header value must be one line", what));
  return {name, value};
}

std::string expand_env(const std::string& value, const std::string& where) {
  std::string out;
  for (std::size_t i = 0; i < value.size();) {
    if (value.compare(i, 2, "${") != 0) {
      out += value[i++];
      continue;
    }
    std::size_t end = value.find('}', i + 2);
    std::string var = end == std::string::npos ? "" : value.substr(i + 2, end - i - 2);
    bool valid = !var.empty() && !std::isdigit(static_cast<unsigned char>(var[0])) &&
                 var.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") ==
                     std::string::npos;
    if (!valid) throw UsageError(fmt::format("{}: '${{' must be followed by a variable name and '}}'", where));
    const char* env = std::getenv(var.c_str());
    if (!env) throw UsageError(fmt::format("{}: the environment variable {} is not set", where, var));
    std::string got = env;
    if (got.find_first_of("\r\n") != std::string::npos)
      throw UsageError(fmt::format("{}: the environment variable {} holds more than one line", where, var));
    out += got;
    i = end + 1;
  }
  return out;
}

std::vector<http::Header> read_headers(const std::vector<std::string>& given, const std::vector<std::string>& files,
                                       const std::string& option) {
  std::vector<http::Header> out;
  for (const auto& h : given) {
    auto [name, value] = parse_header(h, option);
    out.emplace_back(name, expand_env(value, option + " " + name));
  }
  for (const auto& f : files)
    for (auto& h : read_header_file(f)) out.push_back(std::move(h));
  return out;
}

std::vector<http::Header> read_header_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(fmt::format("--header-file '{}': cannot read the file", path));
  std::vector<http::Header> out;
  std::string line;
  constexpr std::size_t kMaxBytes = 1 << 20;  // headers, not a data file
  std::size_t number = 0, bytes = 0;
  while (std::getline(in, line)) {
    ++number;
    bytes += line.size() + 1;
    if (bytes > kMaxBytes) throw UsageError(fmt::format("--header-file '{}': larger than 1 MiB", path));
    std::string text = trim(line);  // also the \r of CRLF files
    if (text.empty() || text.front() == '#') continue;
    std::string where = fmt::format("--header-file '{}' line {}", path, number);
    auto [name, value] = parse_header(text, where);
    out.emplace_back(name, expand_env(value, where + " (" + name + ")"));
  }
  if (in.bad()) throw UsageError(fmt::format("--header-file '{}': cannot read the file", path));
  return out;
}

void check_resolve_entry(const std::string& text) {
  auto bad = [&](const std::string& why) {
    return UsageError(fmt::format("--resolve '{}': {} (expected HOST:PORT:ADDR[,ADDR...], e.g. "
                                  "api.example.nl:443:192.0.2.10,[2001:db8::10])",
                                  escape_control(text), why));
  };
  std::string rest = text.rfind('+', 0) == 0 ? text.substr(1) : text;
  auto first = rest.find(':');
  auto second = first == std::string::npos ? std::string::npos : rest.find(':', first + 1);
  if (second == std::string::npos) throw bad("not HOST:PORT:ADDR");
  std::string host = rest.substr(0, first), port = rest.substr(first + 1, second - first - 1);
  if (host.empty() || host.find_first_of(" \t[]/") != std::string::npos) throw bad("no host name");
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoi(port) < 1 || std::stoi(port) > 65535)
    throw bad("the port is not a number from 1 to 65535");
  std::string addrs = rest.substr(second + 1);
  if (addrs.empty()) throw bad("no address");
  std::size_t at = 0;
  while (at <= addrs.size()) {
    std::size_t comma = addrs.find(',', at);
    std::string addr = addrs.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    bool bracketed = addr.size() > 2 && addr.front() == '[' && addr.back() == ']';
    if (bracketed) addr = addr.substr(1, addr.size() - 2);
    unsigned char buf[16];
    bool v4 = inet_pton(AF_INET, addr.c_str(), buf) == 1;
    if (!v4 && inet_pton(AF_INET6, addr.c_str(), buf) != 1)
      throw bad(fmt::format("'{}' is not an IP address", escape_control(addr)));
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
}

std::pair<std::string, std::string> parse_assignment(const std::string& text, const char* what) {
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) throw UsageError(fmt::format("{} expects NAME=VALUE, got '{}'", what, text));
  return {text.substr(0, eq), text.substr(eq + 1)};
}

std::string parse_base_url(const std::string& text) {
  if (text.find("://") == std::string::npos) {
    std::string shown = mask_url_password("x://" + text).substr(4);  // "user:pw@host/v1" too
    if (std::string suggestion = with_scheme(text); !suggestion.empty())
      throw UsageError(fmt::format("'{}' has no scheme: did you mean {}?", shown, mask_url_password(suggestion)));
    throw UsageError(fmt::format("'{}' is not a valid base URL: it has no scheme (expected e.g. https://api.example.nl/v1)",
                                 shown));
  }
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
  if (text == "regressed") return report::FailOn::regressed;
  throw UsageError(fmt::format("--fail-on expects fail, warn, regressed or never, not '{}'", text));
}

}  // namespace adrprobe::cli
