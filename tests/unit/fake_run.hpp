// Hand-made evidence for unit tests of checks: responses are recorded under
// the same request keys the checks declare, so a check is judged exactly as
// in a run, without a server.
#pragma once
#include <doctest/doctest.h>

#include <filesystem>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "catalogue/catalogue.hpp"
#include "checks/registry.hpp"
#include "engine/acquire.hpp"
#include "engine/evidence.hpp"
#include "engine/planner.hpp"
#include "oas/paths.hpp"
#include "report/model.hpp"

// Verdicts print as "pass", "fail", ... and lists as {a, b} in failed assertions.
template <>
struct doctest::StringMaker<adrprobe::Verdict> {
  static doctest::String convert(adrprobe::Verdict v) { return adrprobe::to_string(v).c_str(); }
};
template <typename T>
struct doctest::StringMaker<std::vector<T>> {
  static doctest::String convert(const std::vector<T>& v) {
    doctest::String out = "{";
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + doctest::toString(v[i]);
    return out + "}";
  }
};

namespace adrprobe::testing {

// The base URL of the hand-made runs.
inline const std::string kBase = "https://api.example.nl/v1";

// The official linter test cases: tests/data/linter-testcases/<name>/openapi.json
// (tests/data/README.md); a missing file is a failed REQUIRE naming it.
inline std::filesystem::path linter_case(const std::string& name) {
  const auto doc = std::filesystem::path(ADRPROBE_TEST_DATA) / "linter-testcases" / name / "openapi.json";
  REQUIRE_MESSAGE(std::filesystem::is_regular_file(doc), "linter test case missing: " << doc.string());
  return doc;
}

using engine::RequestSpec;
using adrprobe::CheckResult;
using adrprobe::Verdict;

struct FakeRun {
  engine::Evidence ev;

  explicit FakeRun(std::string base_url = "https://api.example.nl/v1", const std::string& edition = "2.0.0") {
    const auto& cat = catalogue::Catalogue::builtin();
    const auto* e = cat.edition(edition);
    REQUIRE(e);
    ev.settings.base_url = std::move(base_url);
    ev.semver = e->semver;
    ev.ncsc = cat.ncsc(e->ncsc);
    ev.origin = "https://adrprobe-0123456789ab.example";
    ev.https = ev.settings.base_url.rfind("https:", 0) == 0;
    if (ev.settings.live()) ev.targets = {engine::Target{true, {}, ev.settings.base_url}};
  }

  // Records one exchange (not filed under a key) and returns its id.
  int exchange(const std::string& method, const std::string& url, int status,
               std::map<std::string, std::string> headers = {}, std::string body = "") {
    http::Exchange e;
    e.id = static_cast<int>(ev.exchanges.size()) + 1;
    e.method = method;
    e.url = url;
    e.status = status;
    e.response_headers = std::move(headers);
    e.body = std::move(body);
    ev.exchanges.push_back(e);
    return e.id;
  }
  // The answer to a declared request; a 3xx with redirects to follow may be given more hops with `hop`.
  int respond(const RequestSpec& spec, int status, std::map<std::string, std::string> headers = {},
              std::string body = "") {
    int id = exchange(spec.method, spec.url, status, std::move(headers), std::move(body));
    ev.results[spec.key()].chain.push_back(id);
    return id;
  }
  int hop(const RequestSpec& spec, const std::string& url, int status, std::map<std::string, std::string> headers = {},
          std::string body = "") {
    int id = exchange(spec.method, url, status, std::move(headers), std::move(body));
    ev.results[spec.key()].chain.push_back(id);
    return id;
  }
  // A transport error instead of an answer.
  int fail(const RequestSpec& spec, const std::string& error) {
    http::Exchange e;
    e.id = static_cast<int>(ev.exchanges.size()) + 1;
    e.method = spec.method;
    e.url = spec.url;
    e.error = error;
    ev.exchanges.push_back(e);
    ev.results[spec.key()].chain.push_back(e.id);
    return e.id;
  }

  // The description document the checks read. Local $refs are resolved; an
  // external document comes from `external` (by URL), else it is "not fetched".
  void document(const oas::json& doc, const std::string& url = "",
                std::map<std::string, oas::FetchedDocument> external = {}) {
    document(oas::from_json(doc), url, std::move(external));
  }
  void document(oas::DocPtr doc, const std::string& url = "",
                std::map<std::string, oas::FetchedDocument> external = {}) {
    std::string where = url.empty() ? ev.settings.base_url + "/openapi.json" : url;
    ev.document.url = where;
    ev.document.docs.emplace(where, std::move(doc), ev.settings.limits);
    ev.document.unresolved = ev.document.docs->resolve_all([&external](const std::vector<std::string>& urls) {
      std::map<std::string, oas::FetchedDocument> out;
      for (const auto& u : urls) {
        auto it = external.find(u);
        if (it != external.end()) out[u] = it->second;
        else out[u].error = "not fetched in a unit test";
      }
      return out;
    });
    ev.document.ref_exchanges = ev.document.docs->exchanges();
    ev.paths = oas::enumerate_paths(*ev.document.docs, ev.settings.params);
  }
  // Publishes the document at {base}/openapi.json as the engine would have fetched it.
  void publish(const oas::json& doc, int status = 200) {
    respond(engine::published_document(ev.settings), status, {{"content-type", "application/json"}}, doc.dump());
    acquire();
  }
  // No document: the publication failed with this status.
  void unpublished(int status) {
    respond(engine::published_document(ev.settings), status);
    acquire();
  }
  // No document: {base}/openapi.json could not be fetched for transport reasons.
  void unreachable(const std::string& error) {
    fail(engine::published_document(ev.settings), error);
    acquire();
  }
  // Judges what was filed under {base}/openapi.json (a response, or a redirect
  // chain given with respond and hop) and takes the document, as the engine's
  // acquisition does.
  void acquire() {
    RequestSpec spec = engine::published_document(ev.settings);
    oas::DocPtr parsed;
    ev.document.published_fetch = engine::judge_fetch(ev.exchanges, *ev.result(spec), ev.settings.limits, true, &parsed);
    if (ev.document.published_fetch->ok()) {
      document(parsed);
      return;
    }
    ev.document.missing_reason = ev.document.published_fetch->message;
    ev.document.missing_is_error = ev.document.published_fetch->transport();
  }
  // After a failed publication: the same GET with the user's -H headers got the
  // document (the engine asks again when -H was given); the checks read it.
  void with_headers(const oas::json& doc) {
    RequestSpec spec = engine::published_document(ev.settings);
    spec.user_headers = true;
    respond(spec, 200, {{"content-type", "application/json"}}, doc.dump());
    oas::DocPtr parsed;
    ev.document.published_with_headers =
        engine::judge_fetch(ev.exchanges, *ev.result(spec), ev.settings.limits, true, &parsed);
    if (ev.document.published_with_headers->ok()) {
      ev.document.missing_reason.clear();
      document(parsed);
    }
  }
  // The documented paths become probed targets, as the engine plans them
  // (with or without GET); the others are not probed, as the engine lists them.
  void probe_paths() {
    for (const auto& p : ev.paths) {
      if (p.probed()) ev.targets.push_back(engine::documented_target(ev.settings, p));
      else ev.not_probed.emplace_back(p.template_path + ": not probed in a unit test", p.has_get());
    }
  }
  const engine::Target& target(const std::string& template_path) const {
    for (const auto& t : ev.targets)
      if (t.path.template_path == template_path) return t;
    FAIL("no target " << template_path);
    return ev.targets.front();
  }

  // Judges one check by id, with edition parameters.
  CheckResult judge(const std::string& id, std::map<std::string, std::string> params = {}) const {
    const checks::Check* c = checks::find_check(id);
    REQUIRE(c);
    return c->evaluate(ev, catalogue::CheckRef{id, std::move(params)});
  }
  // The requests a check declares in a run over these targets, in send order.
  std::vector<http::Request> plan(const std::string& id, std::map<std::string, std::string> params = {}) const {
    const checks::Check* c = checks::find_check(id);
    REQUIRE(c);
    catalogue::CheckRef ref{id, std::move(params)};
    engine::Planner planner(ev.settings);
    std::vector<engine::Target> documented(ev.targets.begin() + (ev.base() ? 1 : 0), ev.targets.end());
    std::vector<engine::Target> base_only(ev.targets.begin(), ev.targets.begin() + (ev.base() ? 1 : 0));
    checks::PlanInput one{ev.settings, ev.origin, 1, base_only};
    if (c->plan_run) c->plan_run(planner, one, ref);
    for (const auto& t : ev.targets)
      if (c->plan_target) c->plan_target(planner, ev.settings, t, ref);
    checks::PlanInput two{ev.settings, ev.origin, 2, documented};
    if (c->plan_run) c->plan_run(planner, two, ref);
    std::vector<http::Request> out;
    for (auto& [key, r] : planner.take()) out.push_back(r);
    return out;
  }
};

// Asserts a check's verdict and that its message contains each fragment.
inline void expect(const CheckResult& r, Verdict verdict, std::initializer_list<std::string_view> fragments = {}) {
  INFO(r.id << ": " << r.message);
  CHECK(r.verdict == verdict);
  for (auto f : fragments) {
    INFO("expected fragment: " << std::string(f));
    CHECK(r.message.find(f) != std::string::npos);
  }
}

// A minimal conformant OpenAPI document with the given paths.
inline oas::json openapi_doc(oas::json paths = oas::json::object()) {
  return oas::json{{"openapi", "3.0.3"},
                   {"info", {{"title", "t"}, {"version", "1.0.0"},
                             {"contact", {{"name", "n"}, {"url", "https://x.example"}, {"email", "a@x.example"}}}}},
                   {"servers", oas::json::array({{{"url", "/v1"}}})},
                   {"paths", std::move(paths)}};
}

}  // namespace adrprobe::testing
