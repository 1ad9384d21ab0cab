// /core/http-methods (API-03): HM-0 (document), HM-1..HM-3 (live).
#include <fmt/format.h>

#include "checks/checks.hpp"
#include "http/allow.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::checks {

using report::Verdict;

CheckResult hm0_static(const Context& ctx, const catalogue::CheckRef& ref) {
  if (!ctx.doc()) return ctx.prerequisite(ref.id);
  Findings f(ref.id);
  for (const auto& p : ctx.evidence.all_paths)
    for (const auto& m : p.methods)
      if (m != "GET" && m != "POST" && m != "PUT" && m != "PATCH" && m != "DELETE")
        f.add(Verdict::warn, fmt::format("{} documents {} (outside the rule's method table)", p.template_path, m));
  return f.result("operations use only GET, POST, PUT, PATCH and DELETE");
}

CheckResult hm1_get_head(const Context& ctx, const catalogue::CheckRef& ref) {
  Findings f(ref.id);
  std::size_t n = 0;
  for (const auto& p : ctx.evidence.probed) {
    for (int id : {p.get, p.head}) {
      ++n;
      const auto& e = ctx.ex(id);
      if (e.error) f.add(Verdict::error, ctx.describe(id), {id});
      else if (*e.status == 405) f.add(Verdict::fail, fmt::format("{} {} → 405", e.method, url_path(e.url)), {id});
      else f.add(Verdict::pass, "", {id});
    }
  }
  return f.result(fmt::format("GET and HEAD are not refused with 405 ({} requests)", n));
}

CheckResult hm2_supported(const Context& ctx, const catalogue::CheckRef& ref) {
  Findings f(ref.id);
  std::vector<std::string> unsent;
  for (const auto& p : ctx.evidence.probed) {
    if (p.is_base) continue;
    for (const auto& [method, id] : p.supported) {
      const auto& e = ctx.ex(id);
      if (e.error) f.add(Verdict::error, ctx.describe(id), {id});
      else if (*e.status == 405)
        f.add(Verdict::fail, fmt::format("{} {} → 405, although the document says it is supported", method, url_path(e.url)), {id});
      else f.add(Verdict::pass, "", {id});
    }
    for (const auto& m : p.supported_unsent) unsent.push_back(m + " " + p.plan.template_path);
  }
  if (f.empty()) {
    if (!unsent.empty())
      return {ref.id, Verdict::skip, fmt::format("documented {}: needs --allow-unsafe", join(unsent, ", ", 6)), {}};
    return {ref.id, Verdict::skip, "no documented optional method to send", {}};
  }
  CheckResult r = f.result("documented optional methods are not refused with 405");
  if (!unsent.empty() && r.verdict == Verdict::pass)
    r.message += fmt::format(" (not sent, needs --allow-unsafe: {})", join(unsent, ", ", 6));
  return r;
}

CheckResult hm3_unsupported(const Context& ctx, const catalogue::CheckRef& ref) {
  Findings f(ref.id);
  for (const auto& p : ctx.evidence.probed) {
    if (p.is_base) continue;
    for (const auto& [method, id] : p.unsupported) {
      const auto& e = ctx.ex(id);
      std::string req = fmt::format("{} {}", method, url_path(e.url));
      if (e.error) {
        f.add(Verdict::error, ctx.describe(id), {id});
        continue;
      }
      if (*e.status != 405) {
        f.add(Verdict::fail, fmt::format("{} → {} (expected 405 with Allow)", req, *e.status), {id});
        continue;
      }
      const std::string* allow = e.header("allow");
      if (!allow) {
        f.add(Verdict::fail, req + " → 405 without an Allow header", {id});
        continue;
      }
      auto allowed = http::parse_allow(*allow);
      std::vector<std::string> omitted;
      for (const auto& m : p.plan.methods)
        if (!allowed.count(m)) omitted.push_back(m);
      if (allowed.count(method)) f.add(Verdict::warn, fmt::format("{} → 405 but Allow: {} lists {}", req, *allow, method), {id});
      else if (!omitted.empty())
        f.add(Verdict::warn, fmt::format("{} → 405, Allow: {} omits documented {}", req, *allow, join(omitted, ", ")), {id});
      else f.add(Verdict::pass, "", {id});
    }
  }
  if (f.empty()) {
    bool any_path = ctx.evidence.probed.size() > 1;
    return {ref.id, Verdict::skip,
            any_path ? "no unsupported method to send (every probed path documents TRACE)" : "no documented path probed",
            {}};
  }
  return f.result("unsupported methods are answered 405 with an Allow header");
}

}  // namespace adrprobe::checks
