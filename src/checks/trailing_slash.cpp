// /core/no-trailing-slash (API-48): NT-1 (document), NT-2 (live).
#include <fmt/format.h>

#include "checks/registry.hpp"
#include "checks/findings.hpp"
#include "oas/pointer.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::checks {
namespace {

CheckResult judge_nt1(const Evidence& ev, const CheckRef& ref) {
  if (auto stop = ev.without_paths(ref.id)) return *stop;
  const oas::Value* paths = ev.doc_paths();
  std::vector<std::string> bad;
  std::vector<Location> where;
  for (const auto& path : paths->GetObject())
    if (std::string_view key = oas::key_of(path); key != "/" && !key.empty() && key.back() == '/') {
      bad.push_back(std::string(key));
      where.push_back({"/paths/" + oas::escape_token(key), std::nullopt, ""});
    }
  if (!bad.empty()) {
    CheckResult out{ref.id, Verdict::fail, fmt::format("documented paths ending with '/': {}", join(bad, ", ", 10)), {}};
    out.locations = std::move(where);
    return out;
  }
  return {ref.id, Verdict::pass, fmt::format("none of the {} documented paths ends with '/'", paths->MemberCount()), {}};
}

// NT-2: GET {url}/, redirects not followed.
RequestSpec slash(const Target& t) { return engine::probe_request("GET", t.url + "/"); }

// Edition parameter root: exempt (2.2.0): the root resource may be served with
// a trailing slash, so {base}/ and a documented '/' are not probed.
bool probed(const Target& t, const CheckRef& ref) {
  if (!t.has_get()) return false;
  auto root = ref.params.find("root");
  bool exempt = root != ref.params.end() && root->second == "exempt";
  return !(exempt && (t.is_base || t.path.template_path == "/"));
}

void plan_nt2(Planner& p, const engine::Settings&, const Target& t, const CheckRef& ref) {
  if (probed(t, ref)) p.add(slash(t), ref.id);
}

CheckResult judge_nt2(const Evidence& ev, const CheckRef& ref) {
  Findings f(ref.id);
  std::size_t urls = 0;
  for (const auto& t : ev.targets) {
    if (!probed(t, ref)) continue;
    const http::Result* r = ev.result(slash(t));
    if (!r) {
      f.add(Verdict::error, fmt::format("GET {}/ was not sent", url_path(t.url)));
      continue;
    }
    int id = r->last();
    const auto& e = ev.ex(id);
    std::string req = fmt::format("GET {}", url_path(e.url));
    if (e.error) {
      f.add_error(e);
      continue;
    }
    int status = *e.status;
    if (status == 404) {
      std::size_t before = f.size();
      f.add(Verdict::pass, "", {id});
      urls += f.size() - before;  // a URL probed for two targets (a documented '/') counts once
    }
    else if (e.is_redirect()) {
      const std::string* loc = e.header("location");
      f.add(Verdict::fail, fmt::format("{} redirects to {} ({})", req, loc ? *loc : "(no Location)", status), {id});
    } else if (e.is_success()) f.add(Verdict::fail, fmt::format("{} served ({})", req, status), {id});
    else if (status == 401 || status == 403)
      f.add(Verdict::warn, fmt::format("{} → {}: behind authentication, supply -H", req, status), {id});
    else f.add(Verdict::fail, fmt::format("{} → {} (expected 404)", req, status), {id});
  }
  if (f.empty())
    return {ref.id, Verdict::skip, "nothing to probe: the root resource is exempt and no other documented path with a GET was probed", {}};
  CheckResult out = f.result(fmt::format("{} with a trailing slash answered 404", plural(urls, "URL", "URLs")));
  // Every documented path answering 404 even without the slash says nothing about the API.
  if (out.verdict == Verdict::pass && ev.all_documented_404()) {
    out.verdict = Verdict::warn;
    out.message = fmt::format("{} ({})", engine::kWrongBaseUrl, out.message);
  }
  return out;
}

}  // namespace

extern const Check nt1{
    .id = "NT-1",
    .needs = document,
    .title = "No documented path ends with a slash",
    .sends = "nothing (static); reads the keys of {oas}.paths",
    .passes = "no key other than / ends with /: pass; else fail",
    .judge = judge_nt1};
extern const Check nt2{
    .id = "NT-2",
    .needs = requests,
    .title = "Trailing slash is answered 404",
    .sends = "GET {base}{path}/ for the base URL and every probed path with a GET operation, redirects not followed; with root: exempt (2.2.0) not for the base URL and a documented '/'",
    .passes = "404 pass; 3xx fail (redirects to <Location>); 2xx fail (served); 401/403 warn (behind authentication, supply -H); else fail; warn where it would pass when every probed documented path answered GET with 404 (is the base URL right?)",
    .per_path = PerPath::with_get,
    .params = {{"root", {"probe", "exempt"}}},
    .plan_target = plan_nt2,
    .judge = judge_nt2};

}  // namespace adrprobe::checks
