#include "engine/stages.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "engine/acquire.hpp"
#include "engine/client_cert.hpp"
#include "engine/judge.hpp"
#include "engine/run.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::engine {

Session::Session(const Settings& s, Observer* observer)
    : client([&s] {
        http::ClientSettings cs = s.client;
        cs.deadline = http::Clock::now() +
                      std::chrono::duration_cast<http::Clock::duration>(std::chrono::duration<double>(s.deadline_s));
        return cs;
      }()) {
  if (observer)
    client.on_exchange = [observer](const http::Exchange& e, std::size_t done, std::size_t queued) {
      observer->request_done(e, done, queued);
    };
}

void Session::send(Planner& planner, Evidence& ev, bool last) {
  std::vector<std::string> keys;
  std::deque<http::Request> requests;
  {
    auto batch = planner.take();
    keys.reserve(batch.size());
    while (!batch.empty()) {  // each entry freed as it is moved on
      keys.push_back(std::move(batch.front().first));
      requests.push_back(std::move(batch.front().second));  // the one copy goes to the client
      batch.pop_front();
    }
  }
  if (last) planner.forget();
  auto results = client.run_queue(std::move(requests));
  ev.results.reserve(ev.results.size() + keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) ev.results[std::move(keys[i])] = std::move(results[i]);
}

std::shared_ptr<Evidence> start_evidence(const Settings& s, const catalogue::Edition& edition) {
  auto ev = std::make_shared<Evidence>();
  ev->settings = s;
  ev->semver = edition.semver;
  ev->ncsc = catalogue::Catalogue::builtin().ncsc(edition.ncsc);
  return ev;
}

PlannedChecks planned_checks(const catalogue::Edition& edition, const Registry& registry, const Evidence& ev) {
  const Settings& s = ev.settings;
  // The selected rules: the edition's, then those of the modules judged on an API that shows them.
  std::vector<const catalogue::Rule*> rules;
  for (const auto& rule : edition.rules)
    if (s.selected(rule.id)) rules.push_back(&rule);
  for (const auto& judged : ev.modules)
    if (const catalogue::Module* m = edition.module(judged.id); m && !judged.shape.empty())
      for (const auto& rule : m->rules)
        if (selected(s, rule, m)) rules.push_back(&rule);
  PlannedChecks out;
  for (const Check* c : registry.checks) {
    bool listed = false;
    for (const auto* rule : rules)
      for (const auto& ref : rule->checks)
        if (ref.id == c->id) {
          out.emplace_back(c, ref);
          listed = true;
        }
    if (listed) continue;
    bool used = false;
    for (const auto* rule : rules)
      for (const auto& name : rule->hints)
        if (const auto* h = registry.find_hints(name))
          for (auto id : h->uses) used = used || id == c->id;
    if (used) out.emplace_back(c, catalogue::CheckRef{std::string(c->id), {}});
  }
  return out;
}

void judge_modules(Evidence& ev, const catalogue::Edition& edition, const Registry& registry) {
  const std::string& mode = ev.settings.modules;
  if (mode == "none") return;
  for (const auto& m : edition.modules) {
    std::optional<JudgedModule> seen;
    for (const auto& d : registry.modules)
      if (d.module == m.id && d.detect) seen = d.detect(ev);
    if (seen) {
      seen->id = m.id;
      ev.modules.push_back(std::move(*seen));
    } else if (mode == m.id) {
      ev.modules.push_back({m.id, fmt::format("forced on with --modules {}: {}", m.id, m.not_judged), ""});
    }
  }
}

namespace {

// The NCSC level of every accepted suite and of its key exchange, for the
// report (TS-3 judges from the table itself).
void grade_suites(tls::Facts& t, const catalogue::NcscTable* ncsc) {
  for (auto& p : t.protocols)
    for (auto& s : p.suites) {
      s.level = ncsc ? ncsc->cipher_level(s.name) : "";
      s.kx_level = ncsc && !s.kx.empty() ? ncsc->group_level(s.kx) : "";
    }
}

// Why a documented path is not probed.
std::string not_probed_reason(const oas::PathPlan& p) {
  if (p.template_path.empty() || p.template_path.front() != '/') return "does not begin with '/' (see DO-3)";
  if (p.unresolved) return "its path item does not resolve (see DO-2)";
  std::vector<std::string> hints;
  for (const auto& m : p.missing) hints.push_back("--param " + m + "=VALUE");
  return fmt::format("no value for {} (give {})", join(p.missing, ", "), join(hints, " "));
}

// The line of each location of a finding in the root document's text (one parse for all).
void add_lines(std::vector<report::RuleResult>& rules, const Evidence& ev) {
  std::vector<report::Location*> locations;
  std::vector<std::string> pointers;
  for (auto& rule : rules)
    for (auto& c : rule.checks)
      for (auto& l : c.locations) locations.push_back(&l), pointers.push_back(l.pointer);
  if (pointers.empty()) return;
  auto lines = ev.document_lines(pointers);
  for (std::size_t i = 0; i < locations.size(); ++i) locations[i]->line = lines[i];
}

}  // namespace

std::future<tls::Facts> start_handshakes(const Settings& s, Session& session, Evidence& ev) {
  // Every edition needs them on https: an untrusted certificate stops every
  // rule but the handshake checks (probes.md), also in an edition without transport rules.
  auto base = parse_url(s.base_url);
  ev.https = base && base->scheme == "https";
  if (!ev.https) return {};
  tls::Settings ts{.ca_file = s.client.ca_file,
                   .timeout_s = s.client.timeout_s,
                   .deadline = session.client.settings().deadline,  // the run's: the TLS phase ends by it too
                   .cert_file = s.client.cert_file,
                   .key_file = s.client.key_file,
                   .route = {.resolve = s.client.resolve,
                             .proxy = tls::https_proxy_setting(),  // libcurl applies no_proxy to it
                             .user_agent = s.client.user_agent}};
  return std::async(std::launch::async, tls::probe, base->host, base->port, ts);
}

void finish_handshakes(std::future<tls::Facts>& facts, const Settings& s, Evidence& ev, std::vector<std::string>& notes) {
  if (!facts.valid()) return;
  ev.tls = facts.get();
  grade_suites(*ev.tls, ev.ncsc);
  bool negotiated = ev.tls->handshake_ok || !ev.tls->client_cert_refusal.empty();
  ev.untrusted_stop = negotiated && !ev.tls->trusted && !s.insecure;
  if (ev.untrusted_stop)
    notes.push_back(fmt::format("the TLS certificate is not trusted ({}): only the handshake checks could be judged; "
                                "rerun with --ca-file or --insecure",
                                ev.tls->trust_error));
}

DocumentedPlan plan_documented(Session& session, Planner& planner, Evidence& ev, const PlannedChecks& checks,
                               std::vector<std::string>& notes) {
  // --max-requests (when given) bounds even --max-paths 0: the paths whose
  // requests no longer fit are left out and named at the top of the report.
  // 16 requests stay for the run-level ones.
  const Settings& s = ev.settings;
  const auto& cs = session.client.settings();
  std::size_t sent = session.client.exchanges().size();
  std::size_t budget = !cs.max_exchanges             ? std::numeric_limits<std::size_t>::max()
                       : cs.max_exchanges > sent + 16 ? cs.max_exchanges - sent - 16
                                                      : 0;
  std::size_t left_out = 0;
  DocumentedPlan plan;
  // --max-paths takes the first N probable paths in document order, with or
  // without GET. Paths with a GET are planned first, in document order (their
  // requests go out as they always did), then the others (HM-2 and HM-3 only).
  std::vector<const oas::PathPlan*> chosen;
  for (const auto& p : ev.paths) {
    if (!p.probed()) {
      ev.not_probed.emplace_back(fmt::format("{}: {}", p.template_path, not_probed_reason(p)), p.has_get());
      notes.push_back("not probed: " + ev.not_probed.back().text);
      continue;
    }
    if (s.max_paths && chosen.size() >= s.max_paths) {
      ++left_out;
      continue;
    }
    chosen.push_back(&p);
  }
  std::stable_partition(chosen.begin(), chosen.end(), [](const oas::PathPlan* p) { return p->has_get(); });
  plan.targets.reserve(chosen.size());
  for (const oas::PathPlan* p : chosen) {
    Target t = documented_target(s, *p);
    std::size_t before = planner.size();
    for (const auto& [c, ref] : checks)
      if (c->plan_target) c->plan_target(planner, s, t, ref);
    if (planner.size() > budget) {
      planner.truncate(before);
      plan.capped.push_back(p->template_path);
      continue;
    }
    plan.targets.push_back(std::move(t));
  }
  if (!plan.capped.empty()) plan.cut_note = max_requests_note(cs.max_exchanges, plan.capped);
  if (left_out) notes.push_back(fmt::format("--max-paths {}: {} left out", s.max_paths, plural(left_out, "path", "paths")));
  PlanInput two{s, ev.origin, 2, plan.targets};
  for (const auto& [c, ref] : checks)
    if (c->plan_run) c->plan_run(planner, two, ref);
  return plan;
}

void followup_rounds(Session& session, Planner& planner, Evidence& ev, const PlannedChecks& checks) {
  if (std::none_of(checks.begin(), checks.end(), [](const auto& c) { return c.first->plan_followup != nullptr; })) return;
  const auto& cs = session.client.settings();
  for (int round = 3; round < 3 + kFollowupRounds; ++round) {
    if (session.client.deadline_passed()) break;
    if (cs.max_exchanges && session.client.exchanges().size() >= cs.max_exchanges) break;
    ev.exchanges = session.client.release_exchanges();  // the answers so far, read by key as a judge reads them
    for (const auto& [c, ref] : checks)
      if (c->plan_followup) c->plan_followup(planner, ev, ref, round);
    session.client.restore_exchanges(std::move(ev.exchanges));
    ev.exchanges.clear();
    if (planner.size() == 0) break;  // nothing new
    session.send(planner, ev);
  }
  planner.forget();
}

void take_exchanges(Session& session, Evidence& ev, std::vector<std::string>& notes) {
  const Settings& s = ev.settings;
  ev.exchanges = session.client.release_exchanges();
  bool cert_given = !s.client.cert_file.empty();
  explain_client_cert_errors(ev.tls, ev.exchanges, cert_given);
  if (!ev.untrusted_stop) {
    ev.client_cert_stop = client_cert_refusal(ev.tls, ev.exchanges, cert_given);
    if (!ev.client_cert_stop.empty()) notes.insert(notes.begin(), ev.client_cert_stop);
  }
  // The API's responses are those under {base}: a redirect may have left it
  // (the client drops to_api only when it leaves the origin).
  for (auto& e : ev.exchanges) e.to_api = e.to_api && under_base(e.url, s.base_url);
}

std::vector<std::string> leading_notes(const Evidence& ev, const std::string& unreachable, const std::string& cut_note) {
  const Settings& s = ev.settings;
  std::vector<std::string> leading;
  if (!unreachable.empty()) leading.push_back(unreachable);
  // A wrong base URL: {base} and {base}/openapi.json both answer 404, so
  // every rule that needs the document fails its prerequisite. Said once, first.
  if (unreachable.empty() && !s.openapi) {
    const http::Exchange* base_get = ev.last(probe_request("GET", s.base_url));
    const http::Exchange* doc_get = ev.last(published_document(s));
    if (base_get && doc_get && base_get->status == 404 && doc_get->status == 404)
      leading.push_back(fmt::format("{} and {}/openapi.json both answered 404: is the base URL right? (give the URL the "
                                    "API's resources are under, with its major version, e.g. https://api.example.nl/v1)",
                                    s.base_url, s.base_url));
  }
  if (!cut_note.empty()) leading.push_back(cut_note);
  if (std::size_t n = ev.all_documented_404())
    leading.push_back(fmt::format("every probed documented path ({}) answered 404 to GET: is the base URL {} right?", n,
                                  s.base_url));
  return leading;
}

report::Report assemble(const Settings& s, const catalogue::Edition& edition, Session& session, Evidence& ev,
                        std::vector<report::RuleResult> rules, std::vector<std::string> notes) {
  report::Report rep;
  add_lines(rules, ev);
  rep.rules = std::move(rules);
  rep.notes = std::move(notes);
  if (session.client.deadline_passed()) rep.notes.push_back(fmt::format("deadline of {} s reached", s.deadline_s));
  rep.tool_version = s.tool_version;
  rep.edition = edition.edition;
  rep.edition_name = edition.name;
  for (const auto& judged : ev.modules)
    if (const catalogue::Module* m = edition.module(judged.id))
      rep.modules.push_back({m->id, m->title, m->version, judged.reason});
  rep.generated_at = now_rfc3339();
  rep.tls = ev.tls;
  // The report's records are slim: a body only where the report shows it (2 KiB at most).
  rep.exchanges = std::move(ev.exchanges);
  for (auto& e : rep.exchanges) report::slim(e);
  rep.score = report::compute_score(rep.rules);
  rep.duration_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - session.started).count();
  return rep;
}

}  // namespace adrprobe::engine
