// /core/semver (API-56) SV-1 and /core/uri-version (API-20) UV-1..3.
#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "checks/registry.hpp"
#include "oas/walk.hpp"
#include "checks/findings.hpp"
#include "util/semver.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::checks {
namespace {

const std::regex& major_segment() {
  static const std::regex re(R"(^v[0-9]+$)");
  return re;
}
// "v1.2", "1.2.3", "V2.0": a minor or patch number in the path.
const std::regex& full_version_segment() {
  static const std::regex re(R"(^[vV]?[0-9]+(\.[0-9]+)+$)");
  return re;
}

struct UriVersion {
  std::optional<std::string> major;  // "v1"
  std::optional<std::string> too_precise;
};

UriVersion uri_version(const std::string& url) {
  UriVersion out;
  auto parsed = parse_url(url);
  if (!parsed) return out;
  for (const auto& seg : parsed->segments()) {
    if (seg.size() > 32) continue;  // neither v<major> nor a version number
    if (std::regex_match(seg, major_segment())) out.major = seg;
    else if (std::regex_match(seg, full_version_segment()) && !out.too_precise) out.too_precise = seg;
  }
  return out;
}

CheckResult judge_sv1(const Evidence& ev, const CheckRef& ref) {
  const oas::Value* doc = ev.doc();
  if (!doc) return ev.prerequisite(ref.id);
  const oas::Value* info = oas::find(*doc, "info");
  const oas::Value* version = info && info->IsObject() ? oas::find(*info, "version") : nullptr;
  if (!version)
    return located({ref.id, Verdict::fail, "no info.version in the document", {}}, info ? "/info" : "");
  const auto& v = *version;
  if (!v.IsString())
    return located({ref.id, Verdict::fail, fmt::format("info.version {} is not a string", oas::dump(v)), {}},
                   "/info/version");
  const std::string s(oas::str(v));
  bool core = ev.semver == SemverGrammar::core;
  if (is_semver(s, ev.semver)) return {ref.id, Verdict::pass, fmt::format("info.version \"{}\"", s), {}};
  std::string expected = core ? "MAJOR.MINOR.PATCH (edition 1.0: no pre-release or build)" : "Semantic Versioning 2.0.0";
  return located({ref.id, Verdict::fail, fmt::format("info.version \"{}\" is not {}", s, expected), {}}, "/info/version");
}

CheckResult judge_uv1(const Evidence& ev, const CheckRef& ref) {
  UriVersion uv = uri_version(ev.settings.base_url);
  std::string path = url_path(ev.settings.base_url);
  if (uv.too_precise)
    return {ref.id, Verdict::fail,
            fmt::format("base path {} has '{}': minor and patch versions do not belong in the URI", path, *uv.too_precise), {}};
  if (!uv.major) return {ref.id, Verdict::fail, fmt::format("base path {} has no v<major> segment", path), {}};
  return {ref.id, Verdict::pass, fmt::format("base path {} has major version segment {}", path, *uv.major), {}};
}

CheckResult judge_uv2(const Evidence& ev, const CheckRef& ref) {
  const oas::Value* doc = ev.doc();
  if (!doc) return ev.prerequisite(ref.id);
  auto base = uri_version(ev.settings.base_url);
  std::vector<const oas::Value*> servers;
  if (const oas::Value* list = oas::find(*doc, "servers")) {
    if (!list->IsArray()) return located({ref.id, Verdict::fail, "'servers' is not an array", {}}, "/servers");
    for (const auto& s : list->GetArray()) servers.push_back(&s);
  }
  bool defaulted = servers.empty();
  static const oas::DocPtr default_server = oas::from_json(oas::json{{"url", "/"}});
  if (defaulted) servers.push_back(&default_server->root());
  Findings f(ref.id);
  for (std::size_t i = 0; i < servers.size(); ++i) {
    const auto& s = *servers[i];
    // Where the finding is: the entry's url, or the document (no servers: the default '/').
    std::string at = defaulted ? "" : fmt::format("/servers/{}", i);
    auto url_written = oas::string_member(&s, "url");
    if (!url_written) {
      f.add_at(Verdict::fail, at, "a servers entry has no url");
      continue;
    }
    if (!defaulted) at += "/url";
    std::string written(*url_written);
    std::string url = oas::expand_server_url(s);
    std::string absolute = resolve_url(ev.document.url, url).value_or(url);
    UriVersion uv = uri_version(absolute);
    std::string label = defaulted ? "no servers: the default '/' (" + absolute + ")"
                                  : fmt::format("server '{}'", written);
    if (uv.too_precise) f.add_at(Verdict::fail, at, fmt::format("{} has '{}' (minor/patch in the URI)", label, *uv.too_precise));
    else if (!uv.major) f.add_at(Verdict::fail, at, fmt::format("{} has no v<major> segment", label));
    else if (base.major && *uv.major != *base.major)
      f.add_at(Verdict::fail, at, fmt::format("{} has {}, the base URL {}", label, *uv.major, *base.major));
    else f.add(Verdict::pass, label);
  }
  if (!ev.settings.live()) return f.result("every servers url has a v<major> segment");
  return f.result(fmt::format("every servers url has the major version segment {}", base.major.value_or("v<major>")));
}

// lint: the v<major> segments of the servers urls stand in for the base URL's.
std::vector<std::string> server_majors(const Evidence& ev, const oas::Value& doc) {
  std::vector<std::string> out;
  const oas::Value* list = oas::find(doc, "servers");
  if (!list || !list->IsArray()) return out;
  for (const auto& s : list->GetArray()) {
    if (!oas::string_member(&s, "url")) continue;
    std::string url = oas::expand_server_url(s);
    auto major = uri_version(resolve_url(ev.document.url, url).value_or(url)).major;
    if (major && std::find(out.begin(), out.end(), *major) == out.end()) out.push_back(*major);
  }
  return out;
}

CheckResult judge_uv3(const Evidence& ev, const CheckRef& ref) {
  const oas::Value* doc = ev.doc();
  if (!doc) return ev.prerequisite(ref.id);
  std::vector<std::string> majors;
  if (ev.settings.live()) {
    auto base = uri_version(ev.settings.base_url);
    if (!base.major) return {ref.id, Verdict::fail, "the base URL has no v<major> segment to compare", {}};
    majors.push_back(*base.major);
  } else {
    majors = server_majors(ev, *doc);
    if (majors.empty())
      return located({ref.id, Verdict::fail, "no servers url has a v<major> segment to compare", {}},
                     oas::contains(*doc, "servers") ? "/servers" : "");
  }
  std::optional<std::string> version;
  if (auto written = engine::info_version(*doc)) version = std::string(*written);
  if (!version) return located({ref.id, Verdict::fail, "no info.version string to compare with", {}}, "");
  auto major = leading_major(*version);
  if (!major)
    return located({ref.id, Verdict::fail, fmt::format("info.version \"{}\" has no leading major number", *version), {}},
                   "/info/version");
  const char* where = ev.settings.live() ? "base URL" : "servers url";
  for (const auto& m : majors)
    if (*major != leading_major(m.substr(1)))
      return located({ref.id, Verdict::fail,
                      fmt::format("{} has {} but info.version \"{}\" has major {}", where, m, *version, *major), {}},
                     "/info/version");
  return {ref.id, Verdict::pass, fmt::format("{} matches info.version \"{}\"", join(majors, ", "), *version), {}};
}

}  // namespace

extern const Check sv1{
    .id = "SV-1",
    .needs = document,
    .title = "info.version is Semantic Versioning",
    .sends = "nothing; reads {oas}.info.version",
    .passes = "edition 1.0: exactly MAJOR.MINOR.PATCH (no leading zeros, no pre-release, no build); 2.0.0 and later: the full SemVer 2.0.0 grammar (pre-release such as -rc.1 allowed); missing fails, and v1.2.3, 1.2, 01.2.3 fail in every edition",
    .judge = judge_sv1};
extern const Check uv1{
    .id = "UV-1",
    .needs = base_url,
    .title = "Base URL path has a v<major> segment",
    .sends = "nothing; inspects the path of {base}",
    .passes = "a segment matching ^v[0-9]+$ passes; missing fails; a segment like v1.2 or a full version in the path fails (minor/patch in the URI)",
    .judge = judge_uv1};
extern const Check uv2{
    .id = "UV-2",
    .needs = document,
    .title = "Every servers url carries the same v<major>",
    .sends = "nothing; reads every {oas}.servers[].url (relative ones resolved against the document URL; no servers means /)",
    .passes = "every url contains the same v<major> segment as the base URL: pass; else fail",
    .judge = judge_uv2};
extern const Check uv3{
    .id = "UV-3",
    .needs = document,
    .title = "URI major equals the major of info.version",
    .sends = "nothing; compares <major> with the leading digits of {oas}.info.version (1.4 has major 1)",
    .passes = "equal passes; different, or info.version without leading digits, fails",
    .judge = judge_uv3};

}  // namespace adrprobe::checks
