// /core/publish-openapi (API-51): PO-1, PO-2, PO-3.
#include <fmt/format.h>

#include "checks/registry.hpp"
#include "engine/acquire.hpp"
#include "oas/equal.hpp"
#include "oas/parse.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::checks {
namespace {

// PO-1: the description document as published: no -H, redirects followed.
// The engine acquires the document with this same request (engine/acquire.hpp).
RequestSpec published(const engine::Settings& s) { return engine::published_document(s); }

// PO-2: the same GET with a foreign Origin.
RequestSpec published_cors(const engine::Settings& s, const std::string& origin) {
  RequestSpec r = engine::document_request(s.base_url + "/openapi.json");
  r.body = engine::BodyLimit::probe;
  r.extra_headers = {{"Origin", origin}};
  return r;
}

// PO-3: openapi.yaml, redirects not followed.
RequestSpec published_yaml(const engine::Settings& s) {
  RequestSpec r = engine::document_request(s.base_url + "/openapi.yaml");
  r.max_redirects = 0;
  return r;
}

// PO-2 and PO-3 build on PO-1: without the published JSON there is nothing to judge.
std::optional<CheckResult> publication_failed(const Evidence& ev, const std::string& id) {
  const auto& f = ev.document.published_fetch;
  if (!f) return CheckResult{id, Verdict::error, "the description document was not fetched", {}};
  if (f->ok()) return std::nullopt;
  return CheckResult{id, f->transport() ? Verdict::error : Verdict::fail, "prerequisite not met: " + f->message,
                     {f->last_exchange()}};
}

void plan_po1(Planner& p, const PlanInput& in, const CheckRef& ref) {
  if (in.phase == 1) p.add(published(in.settings), ref.id);
}

CheckResult judge_po1(const Evidence& ev, const CheckRef& ref) {
  const auto& d = ev.document;
  if (!d.published_fetch) return {ref.id, Verdict::error, "the description document was not fetched", {}};
  const auto& f = *d.published_fetch;
  std::vector<int> ids = f.chain;
  if (f.transport()) return {ref.id, Verdict::error, f.message, ids};
  if (!f.ok()) {
    if (d.published_with_headers && d.published_with_headers->ok()) {
      ids.insert(ids.end(), d.published_with_headers->chain.begin(), d.published_with_headers->chain.end());
      return {ref.id, Verdict::fail,
              fmt::format("requires authentication: {} without the -H headers, a JSON document with them", f.message),
              ids};
    }
    const auto& last = ev.ex(f.last_exchange());
    if (last.status && (*last.status == 401 || *last.status == 403))
      return {ref.id, Verdict::fail, fmt::format("requires authentication: {}", f.message), ids};
    return {ref.id, Verdict::fail, f.message, ids};
  }
  if (f.redirects > 0) {
    std::vector<std::string> statuses;  // of each hop but the last, which served the document
    for (std::size_t i = 0; i + 1 < f.chain.size(); ++i) statuses.push_back(std::to_string(ev.ex(f.chain[i]).status.value_or(0)));
    return {ref.id, Verdict::warn,
            fmt::format("served only after {} ({}) to {}: {}", plural(f.redirects, "redirect", "redirects"),
                        join(statuses, ", "), f.final_url, f.message),
            ids};
  }
  return {ref.id, Verdict::pass, f.message, ids};
}

void plan_po2(Planner& p, const PlanInput& in, const CheckRef& ref) {
  if (in.phase == 1) p.add(published_cors(in.settings, in.origin), ref.id);
}

CheckResult judge_po2(const Evidence& ev, const CheckRef& ref) {
  if (auto r = publication_failed(ev, ref.id)) return *r;
  const http::Result* res = ev.result(published_cors(ev.settings, ev.origin));
  if (!res) return {ref.id, Verdict::error, "the CORS request was not sent", {}};
  int last = res->last();
  if (auto err = ev.transport_error(ref.id, last)) return *err;
  const auto& e = ev.ex(last);
  const std::string* acao = e.header("access-control-allow-origin");
  std::string req = fmt::format("GET {} with Origin: {}", url_path(e.url), ev.origin);
  if (!acao) return {ref.id, Verdict::fail, req + " → no Access-Control-Allow-Origin header", res->chain};
  if (*acao == "*") return {ref.id, Verdict::pass, req + " → Access-Control-Allow-Origin: *", res->chain};
  if (*acao == ev.origin) return {ref.id, Verdict::pass, req + " → the origin is echoed", res->chain};
  return {ref.id, Verdict::fail, fmt::format("{} → Access-Control-Allow-Origin: {} (not every origin)", req, *acao),
          res->chain};
}

void plan_po3(Planner& p, const PlanInput& in, const CheckRef& ref) {
  if (in.phase == 1) p.add(published_yaml(in.settings), ref.id);
}

CheckResult judge_po3(const Evidence& ev, const CheckRef& ref) {
  if (auto r = publication_failed(ev, ref.id)) return *r;
  const http::Result* res = ev.result(published_yaml(ev.settings));
  if (!res) return {ref.id, Verdict::error, "openapi.yaml was not requested", {}};
  int id = res->last();
  if (auto err = ev.transport_error(ref.id, id)) return *err;
  const auto& e = ev.ex(id);
  std::string got = ev.describe(id);
  int status = e.status.value_or(0);
  if (status == 404 || status == 410) return {ref.id, Verdict::skip, got + ": no YAML variant (it is optional)", {id}};
  if (!e.is_success()) return {ref.id, Verdict::warn, got + " (expected 2xx, or 404/410 when there is none)", {id}};
  if (e.body_truncated)
    return {ref.id, Verdict::fail, fmt::format("{}: larger than {} bytes", got, ev.settings.limits.max_document_bytes),
            {id}};
  auto parsed = oas::parse_yaml(e.judged_body(), ev.settings.limits);
  if (!parsed.ok) return {ref.id, Verdict::fail, fmt::format("{}: {}", got, parsed.error), {id}};
  const oas::Value* json_doc = ev.published();
  if (!json_doc) return {ref.id, Verdict::skip, "no openapi.json to compare with", {id}};
  oas::DocPtr yaml_doc = oas::from_json(parsed.value);
  parsed.value = nullptr;
  if (auto diff = oas::first_difference(*json_doc, yaml_doc->root()))
    return {ref.id, Verdict::fail,
            fmt::format("{}: differs from openapi.json at '{}'", got, diff->empty() ? "/" : *diff), {id}};
  return {ref.id, Verdict::pass, got + ": the same document as openapi.json", {id}};
}

}  // namespace

extern const Check po1{
    .id = "PO-1",
    .needs = requests,
    .title = "openapi.json is public and parses as JSON",
    .sends = "GET {base}/openapi.json without the user's -H headers; redirects followed (max 5)",
    .passes = "2xx with a body that parses as a JSON object passes; a followed redirect is warn; any other status or body fails, naming the status ('requires authentication' when it only works with the user's headers)",
    .plan_run = plan_po1,
    .judge = judge_po1};
extern const Check po2{
    .id = "PO-2",
    .needs = requests,
    .title = "openapi.json allows all origins (CORS)",
    .sends = "the PO-1 GET (redirects followed) with Origin: https://<random-label>.example",
    .passes = "Access-Control-Allow-Origin is * or echoes that origin: pass; else fail",
    .plan_run = plan_po2,
    .judge = judge_po2};
extern const Check po3{
    .id = "PO-3",
    .needs = requests,
    .title = "openapi.yaml, when offered, is the same document",
    .sends = "GET {base}/openapi.yaml, redirects not followed",
    .passes = "404 or 410 skip (YAML is optional); 2xx must parse as YAML and deep-equal the JSON document (1 vs 1.0 and key order do not matter, strings vs numbers do), else fail naming the first differing JSON pointer; any other status warn",
    .plan_run = plan_po3,
    .judge = judge_po3};

}  // namespace adrprobe::checks
