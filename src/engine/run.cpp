// The run's stages, in the order they run; each is a function of
// engine/stages.hpp (or acquire.hpp, judge.hpp):
//   check: acquire the TLS handshakes (in parallel) · plan phase one · send ·
//          acquire the description document · modules · plan phase two · send ·
//          follow-up rounds · judge · assemble
//   lint:  acquire the document · modules · judge · assemble
#include "engine/run.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <random>

#include "engine/acquire.hpp"
#include "engine/judge.hpp"
#include "engine/planner.hpp"
#include "engine/stages.hpp"
#include "util/free_later.hpp"
#include "util/release.hpp"
#include "util/strings.hpp"

namespace adrprobe::engine {

std::string now_rfc3339() {
  auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(t));
}

std::string max_requests_note(std::size_t max_requests, const std::vector<std::string>& left_out) {
  constexpr std::size_t named = 20;  // in the note; the JSON report lists every one (left_out)
  std::vector<std::string> names(left_out.begin(), left_out.begin() + static_cast<long>(std::min(named, left_out.size())));
  std::string list = join(names, ", ");
  if (left_out.size() > named) list += fmt::format(", … (+{} more)", left_out.size() - named);
  return fmt::format("--max-requests {} cut the run: {} not probed: {}", max_requests,
                     plural(left_out.size(), "documented path", "documented paths"), list);
}

namespace {

std::string random_origin() {
  std::random_device rd;
  std::mt19937_64 gen(rd());
  return fmt::format("https://adrprobe-{:012x}.example", gen() & 0xffffffffffffULL);
}

// "plan" phase one: what needs no document (the base URL is the one target),
// and the document's own requests.
void plan_phase_one(Planner& planner, Evidence& ev, const PlannedChecks& checks) {
  const Settings& s = ev.settings;
  Target base_target{true, {}, s.base_url};
  ev.targets = {base_target};
  PlanInput one{s, ev.origin, 1, ev.targets};
  for (const auto& [c, ref] : checks)
    if (c->plan_run) c->plan_run(planner, one, ref);
  for (const auto& [c, ref] : checks)
    if (c->plan_target) c->plan_target(planner, s, base_target, ref);
  plan_acquire(planner, s);
}

// "acquire" the description document (its $refs too) and the paths it documents.
void acquire_document(Session& session, Evidence& ev, bool live) {
  if (live) acquire_for_check(session.client, ev);
  else acquire_for_lint(session.client, ev);
  if (ev.document.docs) ev.paths = oas::enumerate_paths(*ev.document.docs, ev.settings.params);
}

// Down is no answer at all. A server that completed a TLS handshake at some
// protocol version answered: one that speaks only TLS 1.0 is a transport
// finding (TS-2 fails), not a down target.
bool down(const report::Report& rep, const std::string& unreachable) {
  bool tls_answered = rep.tls && std::any_of(rep.tls->protocols.begin(), rep.tls->protocols.end(),
                                             [](const auto& p) { return p.accepted; });
  return !unreachable.empty() && !tls_answered;
}

}  // namespace

report::Report run_check(const Settings& s, const catalogue::Edition& edition, const Registry& registry,
                         Observer* observer) {
  Session session(s, observer);
  auto held = start_evidence(s, edition);
  Evidence& ev = *held;
  ev.origin = random_origin();
  std::vector<std::string> notes;
  Planner planner(s);
  std::future<tls::Facts> handshakes = start_handshakes(s, session, ev);

  plan_phase_one(planner, ev, planned_checks(edition, registry, ev));
  session.send(planner, ev);
  acquire_document(session, ev, true);
  judge_modules(ev, edition, registry);

  // Phase two: the documented paths, with the checks of the modules judged too.
  PlannedChecks checks = planned_checks(edition, registry, ev);
  DocumentedPlan documented = plan_documented(session, planner, ev, checks, notes);
  bool followups = std::any_of(checks.begin(), checks.end(), [](const auto& c) { return c.first->plan_followup; });
  session.send(planner, ev, !followups);
  std::size_t paths_probed = documented.targets.size();
  ev.targets.reserve(ev.targets.size() + paths_probed);
  ev.targets.insert(ev.targets.end(), std::make_move_iterator(documented.targets.begin()),
                    std::make_move_iterator(documented.targets.end()));
  release(documented.targets);  // its room too: 1.2 MB at 10,000 paths, held to the end of the run
  followup_rounds(session, planner, ev, checks);

  finish_handshakes(handshakes, s, ev, notes);
  take_exchanges(session, ev, notes);
  std::string unreachable = ev.untrusted_stop || !ev.client_cert_stop.empty() ? "" : ev.unreachable();
  std::vector<std::string> leading = leading_notes(ev, unreachable, documented.cut_note);
  notes.insert(notes.begin(), leading.begin(), leading.end());

  auto rules = judge(ev, edition, registry, Mode::check, observer);
  report::Report rep = assemble(s, edition, session, ev, std::move(rules), std::move(notes));
  rep.leading_notes = leading.size();
  rep.unreachable = down(rep, unreachable);
  if (rep.unreachable) mark_down(rep);
  rep.base_url = s.base_url;
  rep.headline = ev.client_cert_stop;
  rep.openapi_url = ev.document.docs ? ev.document.url : s.openapi.value_or(s.base_url + "/openapi.json");
  rep.paths_probed = static_cast<int>(paths_probed);
  rep.left_out = std::move(documented.capped);
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
  acquire_document(session, ev, false);
  auto prepared = prepare(ev, edition, registry);
  judge_modules(ev, edition, registry);
  ev.exchanges = session.client.release_exchanges();
  auto rules = judge(ev, edition, registry, Mode::lint, observer);
  if (prepared.valid()) prepared.wait();  // done: judge waited for what it made
  report::Report rep = assemble(s, edition, session, ev, std::move(rules), {});
  rep.mode = "lint";
  rep.base_url = s.openapi.value_or("");
  rep.openapi_url = ev.document.docs ? ev.document.url : s.openapi;
  free_later(std::static_pointer_cast<void>(std::move(held)));
  if (observer) observer->target_done(rep);
  return rep;
}

}  // namespace adrprobe::engine
