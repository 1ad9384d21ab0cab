// The stages of a run, each a function: engine/run.cpp lists them in the order
// they run (acquire, plan, send, modules, follow-up rounds, judge, assemble);
// what each needs and gives is here.
#pragma once
#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "catalogue/catalogue.hpp"
#include "engine/check.hpp"
#include "engine/evidence.hpp"
#include "engine/observer.hpp"
#include "engine/planner.hpp"
#include "engine/settings.hpp"
#include "report/model.hpp"

namespace adrprobe::engine {

// The checks a run plans, in registry order (the order requests are sent), with their parameters.
using PlannedChecks = std::vector<std::pair<const Check*, catalogue::CheckRef>>;

// The requests of one run: the client and when the run began.
struct Session {
  Session(const Settings& settings, Observer* observer);
  // "send": what the planner holds goes out, each result filed under its key.
  // The last batch of a run lets the planner's memory of keys go first.
  void send(Planner& planner, Evidence& ev, bool last = false);
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  http::Client client;
};

// On the heap: freed whole at the end of the run, its document's derived
// views too, on another thread (free_later) while the report is written.
std::shared_ptr<Evidence> start_evidence(const Settings& s, const catalogue::Edition& edition);

// The checks of the edition's selected rules and of the modules the run
// judges (Evidence::modules, once known). A check a hint producer uses and no
// rule lists is planned with default parameters.
PlannedChecks planned_checks(const catalogue::Edition& edition, const Registry& registry, const Evidence& ev);

// "modules": each module the edition carries is judged when --modules names
// it or, with auto, when its detector sees it in the document (Evidence::modules).
void judge_modules(Evidence& ev, const catalogue::Edition& edition, const Registry& registry);

// The TLS handshakes of an https base URL, begun in parallel with the HTTP
// probes; taken in (graded, an untrusted certificate noted) by finish_handshakes.
std::future<tls::Facts> start_handshakes(const Settings& s, Session& session, Evidence& ev);
void finish_handshakes(std::future<tls::Facts>& facts, const Settings& s, Evidence& ev, std::vector<std::string>& notes);

// Phase two's targets: the documented paths within --max-paths and
// --max-requests, each planned with every check; the notes of what was left out.
struct DocumentedPlan {
  std::vector<Target> targets;
  std::vector<std::string> capped;  // documented paths --max-requests left out
  std::string cut_note;             // a note shown first, when capped is not empty
};
DocumentedPlan plan_documented(Session& session, Planner& planner, Evidence& ev, const PlannedChecks& checks,
                               std::vector<std::string>& notes);

// "follow-up rounds": rounds 3, 4, ... of Check::plan_followup with the
// answers so far, until one plans nothing new, at most kFollowupRounds,
// within the deadline and --max-requests. The planner forgets its keys after.
inline constexpr int kFollowupRounds = 6;
void followup_rounds(Session& session, Planner& planner, Evidence& ev, const PlannedChecks& checks);

// The exchanges taken from the client into the evidence, with what they show
// of a client certificate and of leaving {base}.
void take_exchanges(Session& session, Evidence& ev, std::vector<std::string>& notes);

// What concerns the whole report, shown first: the target unreachable, a
// wrong base URL, --max-requests' cut.
std::vector<std::string> leading_notes(const Evidence& ev, const std::string& unreachable, const std::string& cut_note);

// "assemble": the report of a run, evidence and verdicts together.
report::Report assemble(const Settings& s, const catalogue::Edition& edition, Session& session, Evidence& ev,
                        std::vector<report::RuleResult> rules, std::vector<std::string> notes);

}  // namespace adrprobe::engine
