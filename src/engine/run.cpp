#include "engine/run.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <future>
#include <limits>
#include <random>

#include "engine/check.hpp"
#include "engine/acquire.hpp"
#include "engine/client_cert.hpp"
#include "engine/evidence.hpp"
#include "engine/judge.hpp"
#include "engine/planner.hpp"
#include "oas/lines.hpp"
#include "util/free_later.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::engine {

std::string now_rfc3339() {
  auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(t));
}
namespace {

std::string random_origin() {
  std::random_device rd;
  std::mt19937_64 gen(rd());
  return fmt::format("https://adrprobe-{:012x}.example", gen() & 0xffffffffffffULL);
}


// The checks of an edition, in registry order (the order requests are sent), with their parameters.
// A check a hint producer uses and no rule lists is planned with default parameters.
// --rules: only the selected rules' checks (Settings::selected).
std::vector<std::pair<const Check*, catalogue::CheckRef>> edition_checks(const catalogue::Edition& edition,
                                                                       const Registry& registry, const Settings& s) {
  std::vector<std::pair<const Check*, catalogue::CheckRef>> out;
  for (const Check* c : registry.checks) {
    bool listed = false;
    for (const auto& rule : edition.rules)
      if (s.selected(rule.id))
        for (const auto& ref : rule.checks)
        if (ref.id == c->id) {
          out.emplace_back(c, ref);
          listed = true;
        }
    if (listed) continue;
    bool used = false;
    for (const auto& rule : edition.rules)
      for (const auto& name : s.selected(rule.id) ? rule.hints : std::vector<std::string>{})
        if (const auto* h = registry.find_hints(name))
          for (auto id : h->uses) used = used || id == c->id;
    if (used) out.emplace_back(c, catalogue::CheckRef{std::string(c->id), {}});
  }
  return out;
}

struct Session {
  Session(const Settings& s, Observer* observer) : client(client_settings(s)) {
    if (observer)
      client.on_exchange = [observer](const http::Exchange& e, std::size_t done, std::size_t queued) {
        observer->request_done(e, done, queued);
      };
  }
  static http::ClientSettings client_settings(const Settings& s) {
    http::ClientSettings cs = s.client;
    cs.deadline = http::Clock::now() +
                  std::chrono::duration_cast<http::Clock::duration>(std::chrono::duration<double>(s.deadline_s));
    return cs;
  }
  // Sends what the planner holds and files each result under its key. The
  // last batch of a run: the planner's memory of keys is let go first.
  void send(Planner& planner, Evidence& ev, bool last = false) {
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
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  http::Client client;
};

// The line of each location of a finding in the root document's text (one parse for all).
void add_lines(std::vector<report::RuleResult>& rules, std::string_view text) {
  std::vector<report::Location*> locations;
  std::vector<std::string> pointers;
  for (auto& rule : rules)
    for (auto& c : rule.checks)
      for (auto& l : c.locations) locations.push_back(&l), pointers.push_back(l.pointer);
  if (pointers.empty() || text.empty()) return;
  auto lines = oas::lines_of(text, pointers);
  for (std::size_t i = 0; i < locations.size(); ++i) locations[i]->line = lines[i];
}

// The report of a run: evidence and verdicts together.
report::Report assemble(const Settings& s, const catalogue::Edition& edition, Session& session, Evidence& ev,
                        std::vector<report::RuleResult> rules, std::vector<std::string> notes) {
  report::Report rep;
  add_lines(rules, ev.document_text());
  rep.rules = std::move(rules);
  rep.notes = std::move(notes);
  if (session.client.deadline_passed()) rep.notes.push_back(fmt::format("deadline of {} s reached", s.deadline_s));
  rep.tool_version = s.tool_version;
  rep.edition = edition.edition;
  rep.edition_name = edition.name;
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

}  // namespace

std::string max_requests_note(std::size_t max_requests, const std::vector<std::string>& left_out) {
  constexpr std::size_t named = 20;  // in the note; the JSON report lists every one (left_out)
  std::vector<std::string> names(left_out.begin(), left_out.begin() + static_cast<long>(std::min(named, left_out.size())));
  std::string list = join(names, ", ");
  if (left_out.size() > named) list += fmt::format(", … (+{} more)", left_out.size() - named);
  return fmt::format("--max-requests {} cut the run: {} not probed: {}", max_requests,
                     plural(left_out.size(), "documented path", "documented paths"), list);
}

namespace {

// Why a documented path is not probed.
std::string not_probed_reason(const oas::PathPlan& p) {
  if (p.template_path.empty() || p.template_path.front() != '/') return "does not begin with '/' (see DO-3)";
  if (p.unresolved) return "its path item does not resolve (see DO-2)";
  std::vector<std::string> hints;
  for (const auto& m : p.missing) hints.push_back("--param " + m + "=VALUE");
  return fmt::format("no value for {} (give {})", join(p.missing, ", "), join(hints, " "));
}

// The NCSC level of every accepted suite and of its key exchange, for the
// report (TS-3 judges from the table itself).
void grade_suites(tls::Facts& t, const catalogue::NcscTable* ncsc) {
  for (auto& p : t.protocols)
    for (auto& s : p.suites) {
      s.level = ncsc ? ncsc->cipher_level(s.name) : "";
      s.kx_level = ncsc && !s.kx.empty() ? ncsc->group_level(s.kx) : "";
    }
}

// On the heap: freed whole at the end of the run, its document's derived
// views too, on another thread (free_later) while the report is written.
std::shared_ptr<Evidence> start_evidence(const Settings& s, const catalogue::Edition& edition) {
  auto ev = std::make_shared<Evidence>();
  ev->settings = s;
  ev->semver = edition.semver;
  ev->ncsc = catalogue::Catalogue::builtin().ncsc(edition.ncsc);
  return ev;
}

}  // namespace

report::Report run_check(const Settings& s, const catalogue::Edition& edition, const Registry& registry,
                         Observer* observer) {
  Session session(s, observer);
  auto held = start_evidence(s, edition);
  Evidence& ev = *held;
  ev.origin = random_origin();
  std::vector<std::string> notes;
  auto checks = edition_checks(edition, registry, s);
  Planner planner(s);

  // TLS handshakes run in parallel with the HTTP probes. Every edition needs
  // them on https: an untrusted certificate stops every rule but the handshake
  // checks (probes.md), also in an edition without transport rules.
  auto base = parse_url(s.base_url);
  ev.https = base && base->scheme == "https";
  std::future<tls::Facts> tls_future;
  if (ev.https) {
    tls::Settings ts{.ca_file = s.client.ca_file,
                     .timeout_s = s.client.timeout_s,
                     .deadline = session.client.settings().deadline,  // the run's: the TLS phase ends by it too
                     .cert_file = s.client.cert_file,
                     .key_file = s.client.key_file,
                     .route = {.resolve = s.client.resolve,
                               .proxy = tls::https_proxy_setting(),  // libcurl applies no_proxy to it
                               .user_agent = s.client.user_agent}};
    tls_future = std::async(std::launch::async, tls::probe, base->host, base->port, ts);
  }

  // Phase one: what needs no document (the base URL is the one target).
  Target base_target{true, {}, s.base_url};
  ev.targets = {base_target};
  PlanInput one{s, ev.origin, 1, ev.targets};
  for (const auto& [c, ref] : checks)
    if (c->plan_run) c->plan_run(planner, one, ref);
  for (const auto& [c, ref] : checks)
    if (c->plan_target) c->plan_target(planner, s, base_target, ref);
  plan_acquire(planner, s);
  session.send(planner, ev);

  // The description document and its $refs.
  acquire_for_check(session.client, ev);
  if (ev.document.docs) ev.paths = oas::enumerate_paths(*ev.document.docs, s.params);

  // Phase two: the documented paths. --max-requests (when given) bounds even
  // --max-paths 0: the paths whose requests no longer fit are left out and
  // named at the top of the report. 16 requests stay for the run-level ones.
  const auto& cs = session.client.settings();
  std::size_t sent = session.client.exchanges().size();
  std::size_t budget = !cs.max_exchanges                  ? std::numeric_limits<std::size_t>::max()
                       : cs.max_exchanges > sent + 16 ? cs.max_exchanges - sent - 16
                                                      : 0;
  std::size_t left_out = 0;
  std::vector<std::string> capped;  // documented paths --max-requests left out
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
  std::vector<Target> documented;
  documented.reserve(chosen.size());
  for (const oas::PathPlan* p : chosen) {
    Target t = documented_target(s, *p);
    std::size_t before = planner.size();
    for (const auto& [c, ref] : checks)
      if (c->plan_target) c->plan_target(planner, s, t, ref);
    if (planner.size() > budget) {
      planner.truncate(before);
      capped.push_back(p->template_path);
      continue;
    }
    documented.push_back(std::move(t));
  }
  std::string cut_note;
  if (!capped.empty()) cut_note = max_requests_note(cs.max_exchanges, capped);
  if (left_out) notes.push_back(fmt::format("--max-paths {}: {} left out", s.max_paths, plural(left_out, "path", "paths")));
  PlanInput two{s, ev.origin, 2, documented};
  for (const auto& [c, ref] : checks)
    if (c->plan_run) c->plan_run(planner, two, ref);
  session.send(planner, ev, true);
  ev.targets.reserve(ev.targets.size() + documented.size());
  ev.targets.insert(ev.targets.end(), std::make_move_iterator(documented.begin()), std::make_move_iterator(documented.end()));

  if (tls_future.valid()) {
    ev.tls = tls_future.get();
    grade_suites(*ev.tls, ev.ncsc);
    bool negotiated = ev.tls->handshake_ok || !ev.tls->client_cert_refusal.empty();
    ev.untrusted_stop = negotiated && !ev.tls->trusted && !s.insecure;
    if (ev.untrusted_stop)
      notes.push_back(fmt::format("the TLS certificate is not trusted ({}): only the handshake checks could be judged; "
                                  "rerun with --ca-file or --insecure",
                                  ev.tls->trust_error));
  }

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

  // What concerns the whole report comes first.
  std::vector<std::string> leading;
  std::string unreachable = ev.untrusted_stop || !ev.client_cert_stop.empty() ? "" : ev.unreachable();
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
  notes.insert(notes.begin(), leading.begin(), leading.end());

  auto rules = judge(ev, edition, registry, Mode::check, observer);
  report::Report rep = assemble(s, edition, session, ev, std::move(rules), std::move(notes));
  rep.leading_notes = leading.size();
  // Down is no answer at all. A server that completed a TLS handshake at
  // some protocol version answered: one that speaks only TLS 1.0 is a
  // transport finding (TS-2 fails), not a down target.
  bool tls_answered = rep.tls && std::any_of(rep.tls->protocols.begin(), rep.tls->protocols.end(),
                                             [](const auto& p) { return p.accepted; });
  rep.unreachable = !unreachable.empty() && !tls_answered;
  if (rep.unreachable) mark_down(rep);
  rep.base_url = s.base_url;
  rep.headline = ev.client_cert_stop;
  rep.openapi_url = ev.document.docs ? ev.document.url : s.openapi.value_or(s.base_url + "/openapi.json");
  rep.paths_probed = static_cast<int>(documented.size());
  rep.left_out = std::move(capped);
  free_later(std::static_pointer_cast<void>(std::move(held)));
  if (observer) observer->target_done(rep);
  return rep;
}

void mark_down(report::Report& rep) {
  // CLI.md, "Nightly monitoring": a down target is one state, not verdicts
  // per rule. A rule whose checks could not run is `error` ("not judged"),
  // whatever a static check said of the URL alone; its checks stay as the
  // evidence of what was tried. A rule that fails keeps its `fail`: the
  // worst of its checks' (probes.md: fail > error), since what fails needed
  // no answer (TS-1 on an http:// base URL fails by the scheme alone). The
  // score and the conclusion follow from the rules.
  for (auto& rule : rep.rules) {
    if (rule.kind != "technical") continue;
    if (rule.verdict == report::Verdict::skip && rule.checks.empty() && rule.summary == "not selected") continue;  // --rules
    if (rule.verdict == report::Verdict::fail) continue;
    rule.verdict = report::Verdict::error;
    rule.summary = "not judged: the target is down";
  }
  rep.score = report::compute_score(rep.rules);
}

report::Report run_lint(const Settings& s, const catalogue::Edition& edition, const Registry& registry,
                        Observer* observer) {
  Session session(s, observer);
  auto held = start_evidence(s, edition);
  Evidence& ev = *held;
  acquire_for_lint(session.client, ev);
  if (ev.document.docs) ev.paths = oas::enumerate_paths(*ev.document.docs, s.params);
  ev.exchanges = session.client.release_exchanges();
  auto rules = judge(ev, edition, registry, Mode::lint, observer);
  report::Report rep = assemble(s, edition, session, ev, std::move(rules), {});
  rep.mode = "lint";
  rep.base_url = s.openapi.value_or("");
  rep.openapi_url = ev.document.docs ? ev.document.url : s.openapi;
  free_later(std::static_pointer_cast<void>(std::move(held)));
  if (observer) observer->target_done(rep);
  return rep;
}

}  // namespace adrprobe::engine
