// /core/path-segments-kebab-case (2.2.0): KC-1 (the paths), KC-2 (the server URLs); both static.
#include <fmt/format.h>

#include "checks/registry.hpp"
#include "checks/findings.hpp"
#include "oas/pointer.hpp"
#include "oas/walk.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::checks {
namespace {

bool is_kebab(std::string_view s) {
  if (s.empty() || s.front() == '-' || s.back() == '-') return false;
  char prev = 0;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    if (!ok || (c == '-' && prev == '-')) return false;
    prev = c;
  }
  return true;
}

bool is_template(std::string_view s) {
  if (s.size() < 3 || s.front() != '{' || s.back() != '}') return false;
  std::string_view name = s.substr(1, s.size() - 2);
  return name.find_first_of("{}/") == std::string_view::npos;
}

std::string segment_problem(std::string_view s, bool last) {
  if (s.empty()) return "an empty segment";
  if (is_template(s) || is_kebab(s)) return "";
  if (last && s.front() == '_' && is_kebab(s.substr(1))) return "";
  std::string q = "'" + escape_control(truncate_utf8(std::string(s), 60)) + "'";
  if (s.find_first_of("{}") != std::string_view::npos) return "a template mixed with literal text in " + q;
  bool upper = false, non_ascii = false;
  for (char c : s) {
    upper = upper || (c >= 'A' && c <= 'Z');
    non_ascii = non_ascii || static_cast<unsigned char>(c) >= 0x80;
  }
  if (upper) return "uppercase letters in " + q;
  if (non_ascii) return "non-ASCII characters in " + q;
  if (auto u = s.find('_'); u != std::string_view::npos) {
    if (u != 0) return "'_' inside " + q;
    if (!last) return "'_' begins a segment other than the last in " + q;
    if (s.find('_', 1) != std::string_view::npos) return "'_' inside " + q;
    s.remove_prefix(1);  // the last segment's '_': judge what follows it
    if (s.empty()) return "nothing after '_' in " + q;
  }
  if (s.find('.') != std::string_view::npos) return "a dot (file extension) in " + q;
  if (s.find('%') != std::string_view::npos) return "percent-encoding in " + q;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
      return fmt::format("the character '{}' in {}", escape_control(std::string(1, c)), q);
  return "a leading, trailing or doubled hyphen in " + q;
}

CheckResult judge_kc1(const Evidence& ev, const CheckRef& ref) {
  if (auto stop = ev.without_paths(ref.id)) return *stop;
  const oas::Value* paths = ev.doc_paths();
  Findings f(ref.id);
  CheckResult out;
  std::size_t judged = 0;
  for (const auto& path : paths->GetObject()) {
    const std::string key(oas::key_of(path));
    if (key == "/" || key == "/openapi.json" || key == "/openapi.yaml") continue;
    ++judged;
    std::string where = "/paths/" + oas::escape_token(key);
    std::string shown = escape_control(truncate_utf8(key, 200));
    std::string problem;
    if (key.empty() || key.front() != '/') problem = "does not begin with '/'";
    else {
      std::string rest = key.substr(1);
      if (!rest.empty() && rest.back() == '/') rest.pop_back();  // NT-1 reports it
      auto segs = split(rest, '/');
      for (std::size_t i = 0; i < segs.size() && problem.empty(); ++i) problem = segment_problem(segs[i], i + 1 == segs.size());
    }
    if (problem.empty()) continue;
    std::string finding = fmt::format("{}: {} ({})", shown, problem, where);
    out.details.push_back(finding);
    f.add_at(Verdict::fail, where, std::move(finding));
  }
  CheckResult r = f.result(judged ? fmt::format("the segments of {} are kebab-case", plural(judged, "path", "paths"))
                                  : "no path to judge (only '/' and the openapi.json/yaml locations)",
                           10, 1000);
  r.details = std::move(out.details);
  and_more(r);
  return r;
}

// The path of a server URL as written: after the scheme and authority (which
// may hold a {variable} that has no default), before any query or fragment;
// a relative URL is a path already.
std::string server_path(const std::string& url) {
  std::string path = url.substr(0, url.find_first_of("?#"));
  if (auto scheme = path.find("://"); scheme != std::string::npos) {
    auto slash = path.find('/', scheme + 3);
    path = slash == std::string::npos ? "" : path.substr(slash);
  } else if (path.rfind("//", 0) == 0) {  // network-path reference
    auto slash = path.find('/', 2);
    path = slash == std::string::npos ? "" : path.substr(slash);
  }
  return path;
}

// The non-empty segments of a URL's path that are neither kebab-case nor a template.
void judge_url_segments(Findings& f, const std::string& label, const std::string& path, const std::string& at = "") {
  for (const auto& s : split(path, '/')) {
    if (s.empty() || is_kebab(s) || is_template(s)) continue;
    f.add(Verdict::warn, fmt::format("{}: '{}'", escape_control(truncate_utf8(label, 200)),
                                     escape_control(truncate_utf8(s, 60))), {}, at);
  }
}

CheckResult judge_kc2(const Evidence& ev, const CheckRef& ref) {
  const oas::Value* doc = ev.doc();
  if (!doc) return ev.prerequisite(ref.id);
  Findings f(ref.id);
  std::size_t urls = 0;
  if (ev.settings.live()) {
    ++urls;
    judge_url_segments(f, "base URL " + ev.settings.base_url, url_path(ev.settings.base_url));
  }
  if (const oas::Value* servers = oas::find(*doc, "servers"); servers && servers->IsArray())
    for (rapidjson::SizeType i = 0; i < servers->Size(); ++i) {
      std::string url = oas::expand_server_url((*servers)[i]);
      if (url.empty()) continue;
      ++urls;
      judge_url_segments(f, url, server_path(url), fmt::format("/servers/{}/url", i));
    }
  if (urls == 0) return {ref.id, Verdict::pass, "no servers urls to judge", {}};
  CheckResult r = f.result(fmt::format("the path segments of {} are kebab-case", plural(urls, "URL", "URLs")), 10, 1000);
  and_more(r);
  return r;
}

}  // namespace

extern const Check kc1{
    .id = "KC-1",
    .needs = document,
    .title = "Path segments are kebab-case",
    .sends = "nothing (static); reads the keys of {oas}.paths except '/', /openapi.json and /openapi.yaml (one trailing '/' left to NT-1)",
    .passes = "every segment is kebab-case ([a-z0-9] with single hyphens between), a whole {template}, or in the last segment '_' followed by kebab-case: pass; else fail, naming the path, its first offending segment and why",
    .judge = judge_kc1};
extern const Check kc2{
    .id = "KC-2",
    .needs = document,
    .title = "Server URL segments are kebab-case",
    .sends = "nothing (static); reads every servers[].url (variables by their default, relative ones resolved) and, in check, the base URL",
    .passes = "every non-empty path segment kebab-case or a template: pass; else warn (the How to test looks at resource paths only)",
    .judge = judge_kc2};

}  // namespace adrprobe::checks
