// /core/version-header (API-57): VH-1..VH-4.
#include <fmt/format.h>

#include <limits>
#include <set>

#include "checks/checks.hpp"
#include "util/semver.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::checks {

using report::Verdict;

namespace {
const std::string* base_header(const Context& ctx) {
  const auto& e = ctx.ex(ctx.evidence.base_get);
  return e.error ? nullptr : e.header("api-version");
}
}  // namespace

CheckResult vh1_header_present(const Context& ctx, const catalogue::CheckRef& ref) {
  int id = ctx.evidence.base_get;
  if (auto err = ctx.transport_error(ref.id, id)) return *err;
  const auto& e = ctx.ex(id);
  std::string got = ctx.describe(id);
  if (e.is_redirect()) {
    const std::string* loc = e.header("location");
    return {ref.id, Verdict::fail,
            fmt::format("base URL redirects to {} ({})", loc ? *loc : "(no Location)", e.status.value_or(0)), {id}};
  }
  if (!e.is_success()) return {ref.id, Verdict::fail, got + ": a request to the base URL must succeed", {id}};
  const std::string* v = e.header("api-version");
  if (!v) return {ref.id, Verdict::fail, got + " without an API-Version header", {id}};
  return {ref.id, Verdict::pass, fmt::format("{}, API-Version: {}", got, *v), {id}};
}

CheckResult vh2_header_semver(const Context& ctx, const catalogue::CheckRef& ref) {
  int id = ctx.evidence.base_get;
  if (auto err = ctx.transport_error(ref.id, id)) return *err;
  const std::string* v = base_header(ctx);
  if (!v) return {ref.id, Verdict::skip, "no API-Version header on the base URL response (see VH-1)", {id}};
  std::string value = trim(*v);
  if (is_semver(value, ctx.edition.semver))
    return {ref.id, Verdict::pass, fmt::format("API-Version \"{}\" is a full Semantic Version", value), {id}};
  std::string expected = ctx.edition.semver == SemverGrammar::core
                             ? "an unprefixed MAJOR.MINOR.PATCH (edition 1.0: no pre-release)"
                             : "an unprefixed Semantic Version MAJOR.MINOR.PATCH";
  return {ref.id, Verdict::fail, fmt::format("API-Version \"{}\" is not {}", value, expected), {id}};
}

CheckResult vh3_header_matches(const Context& ctx, const catalogue::CheckRef& ref) {
  int id = ctx.evidence.base_get;
  const std::string* v = base_header(ctx);
  if (!v) return {ref.id, Verdict::skip, "no API-Version header on the base URL response (see VH-1)", {id}};
  const oas::json* doc = ctx.doc();
  if (!doc) return {ref.id, Verdict::skip, "no description document to compare with", {id}};
  const std::string* version = info_version(*doc);
  if (!version)
    return {ref.id, Verdict::warn, fmt::format("API-Version \"{}\" cannot be compared: no info.version", trim(*v)), {id}};
  const std::string& doc_version = *version;
  if (trim(*v) == doc_version)
    return {ref.id, Verdict::pass, fmt::format("API-Version \"{}\" equals info.version", doc_version), {id}};
  return {ref.id, Verdict::warn,
          fmt::format("API-Version \"{}\" differs from info.version \"{}\"", trim(*v), doc_version), {id}};
}

CheckResult vh4_every_response(const Context& ctx, const catalogue::CheckRef& ref) {
  // An intermediary (gateway, proxy) may answer these without the header.
  static const std::set<int> intermediary{401, 403, 429, 502, 503, 504};
  std::size_t counted = 0, apart = 0;
  Findings f(ref.id);
  for (const auto& e : ctx.exchanges) {
    if (!e.to_api || !e.status || e.id == ctx.evidence.base_get) continue;
    if (e.header("api-version")) {
      ++counted;
      continue;
    }
    if (intermediary.count(*e.status)) {
      ++apart;
      continue;
    }
    ++counted;
    f.add(Verdict::warn, fmt::format("{} {} → {}", e.method, url_path(e.url), *e.status), {e.id});
  }
  std::string apart_note =
      apart ? fmt::format(" ({} without it not counted: 401/403/429/502/503/504 may come from an intermediary)",
                          plural(apart, "response", "responses"))
            : "";
  CheckResult r = f.result(fmt::format("all {} other responses carry API-Version{}", counted, apart_note),
                           std::numeric_limits<std::size_t>::max());
  if (r.verdict == Verdict::warn) {
    std::size_t lacking = r.exchanges.size();  // one exchange per finding
    r.message = fmt::format("{} of {} other responses lack API-Version: {}{}", lacking, counted, r.message, apart_note);
  }
  return r;
}

}  // namespace adrprobe::checks
