// /core/no-trailing-slash (API-48): NT-1 (document), NT-2 (live).
#include <fmt/format.h>

#include "checks/checks.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::checks {

using report::Verdict;

CheckResult nt1_static(const Context& ctx, const catalogue::CheckRef& ref) {
  const oas::json* doc = ctx.doc();
  if (!doc) return ctx.prerequisite(ref.id);
  auto paths = doc->is_object() ? doc->find("paths") : doc->end();
  if (!doc->is_object() || paths == doc->end() || !paths->is_object())
    return {ref.id, Verdict::skip, "no paths in the document (see DO-3)", {}};
  std::vector<std::string> bad;
  for (auto it = paths->begin(); it != paths->end(); ++it)
    if (it.key() != "/" && !it.key().empty() && it.key().back() == '/') bad.push_back(it.key());
  if (!bad.empty())
    return {ref.id, Verdict::fail,
            fmt::format("documented paths ending with '/': {}", join(bad, ", ", 10)),
            {}};
  return {ref.id, Verdict::pass, fmt::format("none of the {} documented paths ends with '/'", paths->size()), {}};
}

CheckResult nt2_live(const Context& ctx, const catalogue::CheckRef& ref) {
  Findings f(ref.id);
  for (const auto& p : ctx.evidence.probed) {
    int id = p.slash;
    const auto& e = ctx.ex(id);
    std::string req = fmt::format("GET {}", url_path(e.url));
    if (e.error) {
      f.add(Verdict::error, fmt::format("{}: {}", req, *e.error), {id});
      continue;
    }
    int status = *e.status;
    if (status == 404) f.add(Verdict::pass, "", {id});
    else if (e.is_redirect()) {
      const std::string* loc = e.header("location");
      f.add(Verdict::fail, fmt::format("{} redirects to {} ({})", req, loc ? *loc : "(no Location)", status), {id});
    } else if (e.is_success()) f.add(Verdict::fail, fmt::format("{} served ({})", req, status), {id});
    else if (status == 401 || status == 403)
      f.add(Verdict::warn, fmt::format("{} → {}: behind authentication, supply -H", req, status), {id});
    else f.add(Verdict::fail, fmt::format("{} → {} (expected 404)", req, status), {id});
  }
  std::size_t n = ctx.evidence.probed.size();
  return f.result(fmt::format("{} with a trailing slash answered 404", plural(n, "URL", "URLs")));
}

}  // namespace adrprobe::checks
