// The one seam between the engine and the checks. A check is one unit: it
// declares the requests it needs (by key, through the Planner) and judges
// from the evidence it looks up by those same keys. The engine defines the
// interface and runs whatever Registry it is given; each real check lives in
// checks/<family>.cpp and has one line in checks/registry.cpp, which gives
// the engine the real Registry (checks::registry()).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalogue/catalogue.hpp"
#include "engine/evidence.hpp"
#include "engine/planner.hpp"
#include "verdict/verdict.hpp"

namespace adrprobe::engine {

using catalogue::CheckRef;

// What a check needs to be judged. `lint` runs the checks that need nothing
// but the document.
enum Need : unsigned {
  document = 1u << 0,   // reads the description document
  base_url = 1u << 1,   // reads the base URL (no request)
  requests = 1u << 2,   // sends HTTP requests, or reads the responses the run received
  handshake = 1u << 3,  // reads the TLS handshakes
};

// What a check may plan from in one phase of a run: phase 1 before the
// document is known, phase 2 after it (targets are then the probed
// documented paths).
struct PlanInput {
  const Settings& settings;
  const std::string& origin;  // the run's random Origin for CORS probes
  int phase;
  const std::vector<Target>& targets;
};

// An edition parameter a check understands, and the values it takes.
struct Param {
  std::string_view name;
  std::vector<std::string_view> values;
};
// Which documented paths a check probes (and lists as skip when they could not be probed).
enum class PerPath { none, with_get, every };

struct Check {
  std::string_view id{};
  unsigned needs = 0;
  // What `adrprobe rules` shows: a short name, what it sends, which outcome gives which verdict.
  std::string_view title{}, sends{}, passes{};
  // Probes documented paths: the ones it could not probe are listed under it
  // as skip (with_get: only paths with a GET operation; every: all paths).
  PerPath per_path = PerPath::none;
  // Edition parameters the check understands (probes/edition-*.yaml: {id: TS-5, missing: fail}).
  std::vector<Param> params{};
  // Requests for the run as a whole (once per phase); nullptr when none.
  void (*plan_run)(Planner&, const PlanInput&, const CheckRef&) = nullptr;
  // Requests for one probed target (the base URL in phase 1, each documented path in phase 2).
  void (*plan_target)(Planner&, const Settings&, const Target&, const CheckRef&) = nullptr;
  CheckResult (*judge)(const Evidence&, const CheckRef&) = nullptr;
  // The response headers the judge reads (lower case): every evidence line of
  // its result shows them, present or "(none)" (CheckResult::judged_headers).
  std::vector<std::string_view> judged_headers{};
  // Requests that depend on earlier answers (a module's checks: /collections,
  // then each collection's items, then one feature and the CRS requests):
  // after phase 2 is answered, the run gives every check that has one rounds
  // 3, 4, ... with the evidence so far, until a round plans nothing new (at
  // most 6 rounds, within the deadline and --max-requests). A check looks up
  // earlier answers by the keys it planned, as its judge does.
  void (*plan_followup)(Planner&, const Evidence&, const CheckRef&, int round) = nullptr;
  // What `lint` judges of a live check from the document alone (module-geo.md,
  // "lint": GE-4's documented Content-Crs, GE-8's documented bbox); nullptr:
  // lint says "needs a live API".
  CheckResult (*judge_static)(const Evidence&, const CheckRef&) = nullptr;
  // Makes what the judge reads of the document and shares with other checks
  // (DT-1..DT-5's walk of every Schema Object), so that the run can make it
  // on another core while it does other work (engine::prepare); nullptr: none.
  void (*prepare)(const Evidence&) = nullptr;

  // judge, with the declared judged headers on the result: what the engine
  // (and a unit test) calls.
  CheckResult evaluate(const Evidence& ev, const CheckRef& ref) const {
    CheckResult r = judge(ev, ref);
    if (!judged_headers.empty()) r.judged_headers.assign(judged_headers.begin(), judged_headers.end());
    return r;
  }

  bool is_static() const { return needs == document; }
  // Judged from the TLS handshakes alone: still judged when the certificate is not trusted.
  bool handshake_only() const { return (needs & handshake) && !(needs & requests); }
};

// Evidence for a functional rule: hints for a reviewer, never a verdict.
struct HintProducer {
  std::string_view name;
  std::vector<std::string> (*produce)(const Evidence&);
  // Checks whose requests the hints are made from: a run plans them (with
  // default parameters) even when no rule of the edition lists them, so their
  // responses are evidence (2.2.0's http-methods hints read HM-0..HM-3's).
  std::vector<std::string_view> uses{};
};

// A module of the rules (probes/module-*.yaml): whether the API shows what the
// module is about, from the description document (the run's "modules" stage,
// before the documented paths are planned; lint too). nullopt: not shown.
struct ModuleDetector {
  std::string_view module;  // "geo"
  std::optional<JudgedModule> (*detect)(const Evidence&) = nullptr;
};

// The checks and hint producers a run may use, in planning order (the order
// requests are sent). checks::registry() is the real one; an engine test
// gives its own.
struct Registry {
  std::vector<const Check*> checks;
  std::vector<HintProducer> hints;
  // What to change for a failing or warning check, for the stack the evidence
  // shows (checks/stack.cpp): made once per judgement; nullptr gives no advice.
  using Advice = std::function<std::optional<Fix>(const CheckResult&)>;
  Advice (*advisor)(const Evidence&) = nullptr;
  // The modules' detectors (probes/module-*.yaml), one per module.
  std::vector<ModuleDetector> modules{};

  const Check* find_check(std::string_view id) const {
    for (const Check* c : checks)
      if (c->id == id) return c;
    return nullptr;
  }
  const HintProducer* find_hints(std::string_view name) const {
    for (const auto& h : hints)
      if (h.name == name) return &h;
    return nullptr;
  }
};

}  // namespace adrprobe::engine
