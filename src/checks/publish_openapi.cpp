// /core/publish-openapi (API-51): PO-1, PO-2, PO-3.
#include <fmt/format.h>

#include "checks/checks.hpp"
#include "oas/equal.hpp"
#include "oas/parse.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::checks {

using report::Verdict;

namespace {
CheckResult publication_prerequisite(const Context& ctx, const std::string& id) {
  const auto& f = ctx.evidence.po1_fetch;
  return CheckResult{id, f.transport() ? Verdict::error : Verdict::fail,
                     "prerequisite not met: " + f.message, {f.last_exchange}};
}
}  // namespace

CheckResult po1_public_json(const Context& ctx, const catalogue::CheckRef& ref) {
  const auto& ev = ctx.evidence;
  const auto& f = ev.po1_fetch;
  std::vector<int> ids = ev.po1.chain;
  if (f.transport()) return {ref.id, Verdict::error, f.message, ids};
  if (!f.ok()) {
    if (ev.po1_with_headers_fetch && ev.po1_with_headers_fetch->ok()) {
      ids.insert(ids.end(), ev.po1_with_headers->chain.begin(), ev.po1_with_headers->chain.end());
      return {ref.id, Verdict::fail,
              fmt::format("requires authentication: {} without the -H headers, a JSON document with them", f.message),
              ids};
    }
    const auto& last = ctx.ex(f.last_exchange);
    if (last.status && (*last.status == 401 || *last.status == 403))
      return {ref.id, Verdict::fail, fmt::format("requires authentication: {}", f.message), ids};
    return {ref.id, Verdict::fail, f.message, ids};
  }
  if (f.redirects > 0)
    return {ref.id, Verdict::warn,
            fmt::format("served only after {} to {}: {}", plural(f.redirects, "redirect", "redirects"),
                        f.final_url, f.message),
            ids};
  return {ref.id, Verdict::pass, f.message, ids};
}

CheckResult po2_cors(const Context& ctx, const catalogue::CheckRef& ref) {
  if (ctx.publication_failed()) return publication_prerequisite(ctx, ref.id);
  const auto& ev = ctx.evidence;
  int last = ev.po2.last();
  if (auto err = ctx.transport_error(ref.id, last)) return *err;
  const auto& e = ctx.ex(last);
  const std::string* acao = e.header("access-control-allow-origin");
  std::string req = fmt::format("GET {} with Origin: {}", url_path(e.url), ev.po2_origin);
  if (!acao) return {ref.id, Verdict::fail, req + " → no Access-Control-Allow-Origin header", ev.po2.chain};
  if (*acao == "*") return {ref.id, Verdict::pass, req + " → Access-Control-Allow-Origin: *", ev.po2.chain};
  if (*acao == ev.po2_origin) return {ref.id, Verdict::pass, req + " → the origin is echoed", ev.po2.chain};
  return {ref.id, Verdict::fail, fmt::format("{} → Access-Control-Allow-Origin: {} (not every origin)", req, *acao),
          ev.po2.chain};
}

CheckResult po3_yaml(const Context& ctx, const catalogue::CheckRef& ref) {
  if (ctx.publication_failed()) return publication_prerequisite(ctx, ref.id);
  const auto& ev = ctx.evidence;
  int id = ev.po3.last();
  if (auto err = ctx.transport_error(ref.id, id)) return *err;
  const auto& e = ctx.ex(id);
  std::string got = ctx.describe(id);
  int status = e.status.value_or(0);
  if (status == 404 || status == 410) return {ref.id, Verdict::skip, got + ": no YAML variant (it is optional)", {id}};
  if (!e.is_success()) return {ref.id, Verdict::warn, got + " (expected 2xx, or 404/410 when there is none)", {id}};
  if (e.body_truncated)
    return {ref.id, Verdict::fail, fmt::format("{}: larger than {} bytes", got, ctx.settings.limits.max_document_bytes), {id}};
  auto parsed = oas::parse_yaml(e.body, ctx.settings.limits);
  if (!parsed.ok) return {ref.id, Verdict::fail, fmt::format("{}: {}", got, parsed.error), {id}};
  const oas::json* json_doc = ctx.published();
  if (!json_doc) return {ref.id, Verdict::skip, "no openapi.json to compare with", {id}};
  if (auto diff = oas::first_difference(*json_doc, parsed.value))
    return {ref.id, Verdict::fail,
            fmt::format("{}: differs from openapi.json at '{}'", got, diff->empty() ? "/" : *diff), {id}};
  return {ref.id, Verdict::pass, got + ": the same document as openapi.json", {id}};
}

}  // namespace adrprobe::checks
