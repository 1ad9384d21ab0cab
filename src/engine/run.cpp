#include "engine/run.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <cmath>

#include <fstream>
#include <future>
#include <random>
#include <set>
#include <sstream>

#include "checks/checks.hpp"
#include "engine/plan.hpp"
#include "oas/parse.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"
#include "tls/probe.hpp"

namespace adrprobe::engine {

using checks::DocumentFetch;
using report::Verdict;

DocumentFetch judge_document(const std::deque<http::Exchange>& exchanges, const http::Result& result,
                             const oas::Limits& limits, oas::json* out) {
  DocumentFetch f;
  f.last_exchange = result.last();
  f.redirects = static_cast<int>(result.chain.size()) - 1;
  const auto& e = exchanges.at(static_cast<std::size_t>(f.last_exchange - 1));
  f.final_url = e.url;
  std::string req = fmt::format("GET {}", url_path(exchanges.at(static_cast<std::size_t>(result.chain.front() - 1)).url));
  if (e.error) {
    f.outcome = DocumentFetch::Outcome::transport_error;
    f.message = fmt::format("{}: {}", req, *e.error);
    return f;
  }
  if (e.is_redirect()) {
    f.outcome = DocumentFetch::Outcome::too_many_redirects;
    f.message = fmt::format("{} → {}: still redirecting after {}", req, *e.status, plural(f.redirects, "redirect", "redirects"));
    return f;
  }
  if (!e.is_success()) {
    f.outcome = DocumentFetch::Outcome::http_status;
    f.message = fmt::format("{} → {}", req, *e.status);
    return f;
  }
  if (e.body_truncated) {
    f.outcome = DocumentFetch::Outcome::too_large;
    f.message = fmt::format("{} → {}, but the document is larger than {} bytes", req, *e.status, limits.max_document_bytes);
    return f;
  }
  auto parsed = oas::parse_json(e.body, limits);
  if (!parsed.ok) {
    f.outcome = DocumentFetch::Outcome::not_json;
    f.message = fmt::format("{} → {}, but the body is not JSON ({})", req, *e.status, parsed.error);
    return f;
  }
  if (!parsed.value.is_object()) {
    f.outcome = DocumentFetch::Outcome::not_object;
    f.message = fmt::format("{} → {}, but the body is JSON {}, not an object", req, *e.status, parsed.value.type_name());
    return f;
  }
  f.outcome = DocumentFetch::Outcome::ok;
  f.message = fmt::format("{} → {}, a JSON object", req, *e.status);
  if (out) *out = std::move(parsed.value);
  return f;
}

namespace {

std::string random_label() {
  std::random_device rd;
  std::mt19937_64 gen(rd());
  return fmt::format("adrprobe-{:012x}", gen() & 0xffffffffffffULL);
}

std::string now_rfc3339() {
  auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(t));
}

// Parsed documents for $ref resolution: over HTTP(S) for a document that came
// from the web, also from disk for one that came from a file.
oas::Fetcher make_fetcher(http::Client& client, const std::string& root_url, const checks::RunSettings& s) {
  bool root_is_file = root_url.rfind("file:", 0) == 0;
  return [&client, root_is_file, &s](const std::vector<std::string>& urls) {
    std::map<std::string, oas::FetchedDocument> out;
    std::vector<http::Request> requests;
    std::vector<std::string> http_urls;
    for (const auto& url : urls) {
      auto parsed = parse_url(url);
      auto& doc = out[url];
      if (!parsed) {
        doc.error = "not a valid URL";
      } else if (parsed->scheme == "file") {
        if (!root_is_file) {
          doc.error = "refused: a file reference from a document served over HTTP";
          continue;
        }
        auto r = oas::parse_file(percent_decode(parsed->path), s.limits);
        doc.ok = r.ok;
        doc.value = std::move(r.value);
        doc.error = r.error;
      } else if (parsed->scheme == "http" || parsed->scheme == "https") {
        http::Request req;
        req.url = url;
        req.max_redirects = 5;
        req.body_limit = s.limits.max_document_bytes + 1;
        req.to_api = same_origin(url, s.base_url);
        req.purpose = "DO-2";
        req.address_policy = s.ref_hosts_any ? http::AddressPolicy::any : http::AddressPolicy::public_only;  // hostile-II
        if (auto base = parse_url(s.base_url)) req.exempt_host = base->host;  // hostile-II: the base URL's own host
        requests.push_back(std::move(req));
        http_urls.push_back(url);
      } else {
        doc.error = "unsupported scheme '" + parsed->scheme + "'";
      }
    }
    auto results = client.run(requests);
    for (std::size_t i = 0; i < results.size(); ++i) {
      auto& doc = out[http_urls[i]];
      doc.exchanges = results[i].chain;
      for (int id : results[i].chain) doc.bytes += client.exchange(id).body.size();  // hostile-II: $ref closure byte cap
      const auto& e = client.exchange(results[i].last());
      std::string where = fmt::format("GET {}", http_urls[i]);
      if (e.error) {
        doc.error = fmt::format("{}: {}", where, *e.error);
        doc.transport_error = true;
      } else if (!e.is_success()) {
        doc.error = fmt::format("{} → {}", where, *e.status);
      } else if (e.body_truncated) {
        doc.error = fmt::format("{}: larger than {} bytes", where, s.limits.max_document_bytes);
      } else {
        auto r = oas::parse_any(e.body, s.limits);
        doc.ok = r.ok;
        doc.value = std::move(r.value);
        if (!r.ok) doc.error = fmt::format("{}: {}", where, r.error);
      }
    }
    return out;
  };
}

nlohmann::json tls_json(const tls::Facts& t) {
  nlohmann::json j;
  j["host"] = t.host;
  j["port"] = t.port;
  j["handshake"] = t.handshake_ok;
  if (!t.handshake_ok) j["error"] = t.error;
  j["protocol"] = t.protocol;
  j["cipher"] = t.cipher;
  j["group"] = t.group;
  std::vector<std::string> accepted;
  nlohmann::json protocols = nlohmann::json::array();
  for (const auto& p : t.protocols) {
    if (p.accepted) accepted.push_back(p.name);
    nlohmann::json jp{{"name", p.name}, {"accepted", p.accepted}, {"testable", p.testable}};
    if (p.accepted) jp["cipher"] = p.cipher;
    else jp["error"] = p.error;
    protocols.push_back(jp);
  }
  j["accepted_protocols"] = accepted;
  j["protocols"] = protocols;
  j["trusted"] = t.trusted;
  j["trust_error"] = t.trusted ? nlohmann::json(nullptr) : nlohmann::json(t.trust_error);
  nlohmann::json chain = nlohmann::json::array();
  for (const auto& c : t.chain)
    chain.push_back({{"subject", c.subject}, {"issuer", c.issuer}, {"sans", c.sans}, {"not_before", c.not_before},
                     {"not_after", c.not_after}, {"days_left", c.days_left}, {"key", c.key}, {"signature", c.signature}});
  if (!chain.empty()) j["certificate"] = chain.front();
  j["chain"] = chain;
  j["ocsp_stapled"] = t.ocsp_stapled;
  j["compression"] = t.compression;
  j["secure_renegotiation"] = t.secure_renegotiation;
  j["duration_ms"] = std::round(t.duration_ms);
  return j;
}

std::string rule_summary(const report::RuleResult& r) {
  if (r.checks.empty()) return "no checks";
  if (r.verdict == Verdict::pass) {
    // A check id may have extra skip entries (paths not probed): count ids.
    std::set<std::string> ids, passed;
    for (const auto& c : r.checks) {
      ids.insert(c.id);
      if (c.verdict == Verdict::pass) passed.insert(c.id);
    }
    if (ids.size() == 1) return r.checks.front().message;
    std::vector<std::string> names(passed.begin(), passed.end());
    return passed.size() == ids.size()
               ? fmt::format("all {} checks pass ({})", ids.size(), join(names, ", "))
               : fmt::format("{} of {} checks pass ({}), the others do not apply", passed.size(), ids.size(), join(names, ", "));
  }
  for (const auto& c : r.checks)
    if (c.verdict == r.verdict) return r.checks.size() == 1 ? c.message : c.id + ": " + c.message;
  return "";
}

}  // namespace

std::vector<report::RuleResult> judge(const checks::Context& ctx) {
  std::vector<report::RuleResult> out;
  for (const auto& rule : ctx.edition.rules) {
    report::RuleResult r;
    r.id = rule.id;
    r.aliases = rule.aliases;
    r.title = rule.title;
    r.kind = rule.kind;
    r.level = rule.level;
    r.statement = rule.statement;
    r.review = rule.review;
    if (rule.technical()) {
      const auto& cat = catalogue::Catalogue::builtin();
      for (const auto& ref : rule.checks) {
        const auto* info = cat.check(ref.id);
        if (ctx.evidence.untrusted_stop && !(info && info->handshake))
          r.checks.push_back({ref.id, Verdict::error, "TLS certificate not trusted: rerun with --ca-file or --insecure", {}});
        else if (auto fn = checks::find_check(ref.id)) r.checks.push_back(fn(ctx, ref));
        else r.checks.push_back({ref.id, Verdict::skip, "not implemented in this version of adrprobe", {}});
        // A check that probes every documented path lists the ones it could not probe.
        if (info && info->per_path && !ctx.evidence.untrusted_stop)
          for (const auto& n : ctx.evidence.not_probed) r.checks.push_back({ref.id, Verdict::skip, "not probed: " + n, {}});
      }
      r.verdict = report::aggregate(r.checks);
      r.summary = rule_summary(r);
    } else {
      r.verdict = Verdict::manual;
      for (const auto& producer : rule.hints) {
        auto h = checks::hints_for(producer, ctx);
        r.hints.insert(r.hints.end(), h.begin(), h.end());
      }
      r.summary = r.hints.empty() ? "needs a reviewer" : fmt::format("needs a reviewer; {}", plural(r.hints.size(), "hint", "hints"));
    }
    out.push_back(std::move(r));
  }
  return out;
}

report::Report run_check(const RunOptions& options, const catalogue::Edition& edition) {
  auto started = http::Clock::now();
  auto wall_start = std::chrono::steady_clock::now();
  http::ClientSettings cs = options.client;
  cs.deadline = started + std::chrono::duration_cast<http::Clock::duration>(std::chrono::duration<double>(options.deadline_s));
  http::Client client(cs);
  client.on_exchange = options.on_exchange;
  const checks::RunSettings& s = options.settings;
  checks::Evidence ev;
  report::Report rep;

  // TLS handshakes run in parallel with the HTTP probes.
  auto base = parse_url(s.base_url);
  ev.https = base && base->scheme == "https";
  std::future<tls::Facts> tls_future;
  if (ev.https) {
    tls::Settings ts{options.client.ca_file, std::min(options.client.timeout_s, options.deadline_s)};
    tls_future = std::async(std::launch::async, tls::probe, base->host, base->port, ts);
  }

  // Phase 1: everything that needs no document.
  ev.po2_origin = "https://" + random_label() + ".example";
  auto requests = phase_one(s, ev.po2_origin);
  bool openapi_is_http = s.openapi_url && s.openapi_url->rfind("http", 0) == 0;
  if (openapi_is_http) {
    http::Request r;
    r.url = *s.openapi_url;
    r.max_redirects = 5;
    r.body_limit = s.limits.max_document_bytes + 1;
    r.to_api = same_origin(*s.openapi_url, s.base_url);
    r.purpose = "document";
    requests.push_back(r);
  }
  auto results = client.run(requests);
  ev.po1 = results[0];
  ev.po2 = results[1];
  ev.po3 = results[2];
  ev.base_get = results[3].last();
  oas::json published;
  ev.po1_fetch = judge_document(client.exchanges(), ev.po1, s.limits, &published);
  oas::json with_headers;
  if (!ev.po1_fetch.ok() && !ev.po1_fetch.transport() && !s.headers.empty()) {
    http::Request r = requests[0];
    r.headers = s.headers;
    r.purpose = "PO-1 (with -H)";
    ev.po1_with_headers = client.run_one(r);
    ev.po1_with_headers_fetch = judge_document(client.exchanges(), *ev.po1_with_headers, s.limits, &with_headers);
  }

  // The document the other checks read.
  auto& doc = ev.document;
  auto use = [&](std::string url, oas::json value) { doc.url = std::move(url), doc.docs.emplace(doc.url, std::move(value), s.limits); };
  if (s.openapi_url) {
    if (openapi_is_http) {
      oas::json value;
      auto f = judge_document(client.exchanges(), results.back(), s.limits, &value);
      if (f.ok()) use(f.final_url, std::move(value));
      else doc.missing_reason = f.message, doc.missing_is_error = f.transport();
    } else {
      std::string path = s.openapi_url->rfind("file://", 0) == 0 ? percent_decode(s.openapi_url->substr(7)) : *s.openapi_url;
      auto r = oas::parse_file(path, s.limits);
      if (r.ok && r.value.is_object()) {
        char real[4096];
        std::string abs = realpath(path.c_str(), real) ? real : path;
        use("file://" + abs, std::move(r.value));
      } else {
        doc.missing_reason = r.ok ? path + " is not an object" : r.error;
      }
    }
    if (ev.po1_fetch.ok()) ev.published_json = std::move(published);
  } else if (ev.po1_fetch.ok()) {
    use(ev.po1_fetch.final_url, std::move(published));
  } else if (ev.po1_with_headers_fetch && ev.po1_with_headers_fetch->ok()) {
    use(ev.po1_with_headers_fetch->final_url, std::move(with_headers));
  } else {
    doc.missing_reason = ev.po1_fetch.message;
    doc.missing_is_error = ev.po1_fetch.transport();
  }
  if (doc.docs) {
    doc.unresolved = doc.docs->resolve_all(make_fetcher(client, doc.url, s), cs.deadline);  // hostile-II: $ref work stops at the deadline
    doc.ref_exchanges = doc.docs->exchanges();
    ev.all_paths = oas::enumerate_paths(*doc.docs, s.params);
  }

  // Phase 2: the documented paths.
  checks::ProbedPath base_probe;
  base_probe.is_base = true;
  base_probe.url = s.base_url;
  base_probe.get = results[3].last();
  base_probe.head = results[4].last();
  base_probe.slash = results[5].last();
  ev.probed.push_back(base_probe);
  std::vector<PathRequests> planned;
  std::vector<http::Request> batch;
  // The client's request cap (a named limit) bounds even --max-paths 0: paths
  // beyond it are left out and said so, not sent and failed.
  std::size_t budget = cs.max_exchanges > client.exchanges().size() + 16 ? cs.max_exchanges - client.exchanges().size() - 16 : 0;
  std::size_t capped = 0;
  for (const auto& p : ev.all_paths) {
    if (!p.has_get()) continue;
    if (!p.probed()) {
      ev.not_probed.push_back(fmt::format("{}: {}", p.template_path, not_probed_reason(p)));
      rep.notes.push_back("not probed: " + ev.not_probed.back());
      continue;
    }
    if (s.max_paths && planned.size() >= s.max_paths) {
      ++ev.left_out;
      continue;
    }
    PathRequests pr = plan_path(s, p);
    if (batch.size() + pr.requests.size() > budget) {
      ++capped;
      continue;
    }
    planned.push_back(std::move(pr));
    batch.insert(batch.end(), planned.back().requests.begin(), planned.back().requests.end());
  }
  if (capped)
    rep.notes.push_back(fmt::format("{} left out: a run sends at most {} requests", plural(capped, "path", "paths"), cs.max_exchanges));
  if (ev.left_out)
    rep.notes.push_back(fmt::format("--max-paths {}: {} left out", s.max_paths, plural(ev.left_out, "path", "paths")));
  // TS-7: CORS on an API resource (the first probed documented path that is not
  // the description document; the base URL when there is none).
  std::string cors_url = s.base_url;
  for (const auto& pr : planned)
    if (pr.probe.plan.template_path != "/openapi.json" && pr.probe.plan.template_path != "/openapi.yaml") {
      cors_url = pr.probe.url;
      break;
    }
  ev.cors_origin = "https://" + random_label() + ".example";
  http::Request cors;
  cors.url = cors_url;
  cors.headers = s.headers;
  cors.headers.emplace_back("Origin", ev.cors_origin);
  cors.purpose = "TS-7";
  batch.push_back(cors);
  auto path_results = client.run(batch);
  ev.cors_probe = path_results.back().last();
  std::size_t at = 0;
  for (auto& pr : planned) {
    auto& probe = pr.probe;
    probe.get = path_results[at++].last();
    probe.head = path_results[at++].last();
    probe.slash = path_results[at++].last();
    for (const auto& [method, kind] : pr.optional) {
      int id = path_results[at++].last();
      (kind == 's' ? probe.supported : probe.unsupported).emplace_back(method, id);
    }
    ev.probed.push_back(std::move(probe));
  }

  if (tls_future.valid()) {
    ev.tls = tls_future.get();
    ev.untrusted_stop = ev.tls->handshake_ok && !ev.tls->trusted && !s.insecure;
    rep.tls = tls_json(*ev.tls);
    if (ev.untrusted_stop)
      rep.notes.push_back(fmt::format("the TLS certificate is not trusted ({}): only the handshake checks could be judged; "
                                      "rerun with --ca-file or --insecure", ev.tls->trust_error));
  }

  // Verdicts.
  checks::Context ctx{s, edition, client.exchanges(), ev, catalogue::Catalogue::builtin().ncsc()};
  rep.rules = judge(ctx);
  if (client.deadline_passed()) rep.notes.push_back(fmt::format("deadline of {} s reached", options.deadline_s));
  rep.tool_version = options.tool_version;
  rep.base_url = s.base_url;
  rep.openapi_url = doc.docs ? doc.url : s.openapi_url.value_or(s.base_url + "/openapi.json");
  rep.edition = edition.edition;
  rep.edition_name = edition.name;
  rep.generated_at = now_rfc3339();
  rep.paths_probed = static_cast<int>(ev.probed.size()) - 1;
  for (const auto& e : client.exchanges()) {
    rep.exchanges.push_back(e);
    rep.exchanges.back().body.clear();  // bodies are evidence for checks, not for the report
  }
  rep.score = report::compute_score(rep.rules);
  rep.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - wall_start).count();
  return rep;
}

}  // namespace adrprobe::engine
