// /core/version-header (API-57): VH-1..VH-4.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <set>

#include "checks/base_url.hpp"
#include "checks/registry.hpp"
#include "checks/findings.hpp"
#include "util/semver.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::checks {
namespace {
const std::string* base_header(const Evidence& ev) {
  int id = base_get_id(ev);
  if (!id) return nullptr;
  const auto& e = ev.ex(id);
  return e.error ? nullptr : e.header("api-version");
}

CheckResult not_sent(const CheckRef& ref) { return {ref.id, Verdict::error, "GET {base} was not sent", {}}; }
CheckResult judge_vh1(const Evidence& ev, const CheckRef& ref) {
  int id = base_get_id(ev);
  if (!id) return not_sent(ref);
  if (auto err = ev.transport_error(ref.id, id)) return *err;
  const auto& e = ev.ex(id);
  std::string got = ev.describe(id);
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

CheckResult judge_vh2(const Evidence& ev, const CheckRef& ref) {
  int id = base_get_id(ev);
  if (!id) return not_sent(ref);
  if (auto err = ev.transport_error(ref.id, id)) return *err;
  const std::string* v = base_header(ev);
  if (!v) return {ref.id, Verdict::skip, "no API-Version header on the base URL response (see VH-1)", {id}};
  std::string value = trim(*v);
  if (is_semver(value, ev.semver))
    return {ref.id, Verdict::pass, fmt::format("API-Version \"{}\" is a full Semantic Version", value), {id}};
  std::string expected = ev.semver == SemverGrammar::core
                             ? "an unprefixed MAJOR.MINOR.PATCH (edition 1.0: no pre-release)"
                             : "an unprefixed Semantic Version MAJOR.MINOR.PATCH";
  return {ref.id, Verdict::fail, fmt::format("API-Version \"{}\" is not {}", value, expected), {id}};
}

CheckResult judge_vh3(const Evidence& ev, const CheckRef& ref) {
  int id = base_get_id(ev);
  const std::string* v = base_header(ev);
  if (!v) return {ref.id, Verdict::skip, "no API-Version header on the base URL response (see VH-1)", {id}};
  const oas::Value* doc = ev.doc();
  if (!doc) return {ref.id, Verdict::skip, "no description document to compare with", {id}};
  auto version = engine::info_version(*doc);
  if (!version)
    return {ref.id, Verdict::warn, fmt::format("API-Version \"{}\" cannot be compared: no info.version", trim(*v)), {id}};
  const std::string doc_version(*version);
  if (trim(*v) == doc_version)
    return {ref.id, Verdict::pass, fmt::format("API-Version \"{}\" equals info.version", doc_version), {id}};
  return {ref.id, Verdict::warn,
          fmt::format("API-Version \"{}\" differs from info.version \"{}\"", trim(*v), doc_version), {id}};
}

CheckResult judge_vh4(const Evidence& ev, const CheckRef& ref) {
  // An intermediary (gateway, proxy) may answer these without the header.
  static const std::set<int> intermediary{401, 403, 429, 502, 503, 504};
  std::size_t counted = 0, apart = 0, lacking = 0;
  // Lacking responses by what a reader sees ("GET /v1/openapi.json → 200" for PO-1's
  // and PO-2's requests alike): listed once, with how many.
  std::vector<std::pair<std::string, std::vector<int>>> lacking_by_text;
  int base = base_get_id(ev);
  // The API's own responses: to requests under {base} (to_api), not external documents.
  for (const auto& e : ev.exchanges) {
    if (!e.to_api || !e.status || e.id == base) continue;
    if (e.header("api-version")) {
      ++counted;
      continue;
    }
    if (intermediary.count(*e.status)) {
      ++apart;
      continue;
    }
    ++counted;
    ++lacking;
    std::string text = fmt::format("{} {} → {}", e.method, url_path(e.url), *e.status);
    auto same = std::find_if(lacking_by_text.begin(), lacking_by_text.end(), [&](const auto& l) { return l.first == text; });
    if (same == lacking_by_text.end()) lacking_by_text.push_back({text, {e.id}});
    else same->second.push_back(e.id);
  }
  Findings f(ref.id);
  for (auto& [text, ids] : lacking_by_text)
    f.add(Verdict::warn, ids.size() > 1 ? fmt::format("{} (×{})", text, ids.size()) : text, ids);
  std::string apart_note =
      apart ? fmt::format(" ({} without it not counted: 401/403/429/502/503/504 may come from an intermediary)",
                          plural(apart, "response", "responses"))
            : "";
  if (counted == 0) return {ref.id, Verdict::skip, "no responses to judge" + apart_note, {}};
  std::string lead = fmt::format("{} of {} other responses lack API-Version: ", lacking, counted);
  std::size_t room = Findings::kMessageBytes > lead.size() + apart_note.size() + 40
                         ? Findings::kMessageBytes - lead.size() - apart_note.size()
                         : 40;
  CheckResult r = f.result(fmt::format("all {} other responses carry API-Version{}", counted, apart_note),
                           std::numeric_limits<std::size_t>::max(), room);
  if (r.verdict == Verdict::warn) r.message = lead + r.message + apart_note;
  return r;
}

}  // namespace

extern const Check vh1{
    .id = "VH-1",
    .needs = requests,
    .title = "Base URL answers 2xx with an API-Version header",
    .sends = "GET {base}, redirects not followed",
    .passes = "2xx with an API-Version header (name case-insensitive) passes; 3xx fails ('base URL redirects to <Location>'); other non-2xx or header missing fails",
    .plan_run = plan_base_get,
    .judge = judge_vh1,
    .judged_headers = {"api-version"}};
extern const Check vh2{
    .id = "VH-2",
    .needs = requests,
    .title = "API-Version is an unprefixed SemVer number",
    .sends = "nothing more; reads the API-Version value of the VH-1 response",
    .passes = "MAJOR.MINOR.PATCH SemVer, unprefixed (edition 2.0.0 and later: pre-release allowed) passes; else fail (v1.2.3 fails)",
    .plan_run = plan_base_get,
    .judge = judge_vh2,
    .judged_headers = {"api-version"}};
extern const Check vh3{
    .id = "VH-3",
    .needs = requests | document,
    .title = "API-Version equals info.version",
    .sends = "nothing more; compares the VH-1 header value with {oas}.info.version",
    .passes = "equal passes; different warn",
    .plan_run = plan_base_get,
    .judge = judge_vh3,
    .judged_headers = {"api-version"}};
extern const Check vh4{
    .id = "VH-4",
    .needs = requests,
    .title = "Other responses carry API-Version",
    .sends = "nothing more; inspects every other response the run received from the API (to requests under {base}, openapi.json included; not external documents)",
    .passes = "none lacking the header: pass; lacking ones warn, listed; 401, 403, 429, 502, 503 and 504 responses without it are counted apart (an intermediary MAY omit it) and do not warn; no response counted: skip",
    .judge = judge_vh4,
    .judged_headers = {"api-version"}};

}  // namespace adrprobe::checks
