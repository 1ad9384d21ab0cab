#include "engine/judge.hpp"

#include <fmt/format.h>

#include <set>
#include <stdexcept>

#include "engine/check.hpp"
#include "util/strings.hpp"

namespace adrprobe::engine {

using report::Verdict;

namespace {
constexpr const char* kNeedsLive = "needs a live API";
constexpr const char* kNotSelected = "not selected";
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
               : fmt::format("{} of {} checks pass ({}), the others do not apply", passed.size(), ids.size(),
                             join(names, ", "));
  }
  bool all_live = true;
  for (const auto& c : r.checks) all_live = all_live && c.verdict == Verdict::skip && c.message == kNeedsLive;
  if (all_live) return kNeedsLive;
  for (const auto& c : r.checks)
    if (c.verdict == r.verdict) return r.checks.size() == 1 ? c.message : c.id + ": " + c.message;
  return "";
}

report::RuleResult rule_result(const catalogue::Rule& rule) {
  report::RuleResult r;
  r.id = rule.id;
  r.aliases = rule.aliases;
  r.title = rule.title;
  r.kind = rule.kind;
  r.level = rule.level;
  r.url = rule.url;
  r.statement = rule.statement;
  r.review = rule.review;
  return r;
}

std::vector<report::RuleResult> judge(const Evidence& ev, const catalogue::Edition& edition, const Registry& registry,
                                      Mode mode, Observer* observer) {
  std::vector<report::RuleResult> out;
  Registry::Advice advice;  // what to change for a failing check (none without an advisor)
  if (registry.advisor) advice = registry.advisor(ev);
  for (const auto& rule : edition.rules) {
    report::RuleResult r = rule_result(rule);
    if (!ev.settings.selected(rule.id)) {
      // --rules: listed, not judged; counted nowhere (score, conclusion).
      r.verdict = Verdict::skip;
      r.summary = kNotSelected;
      out.push_back(std::move(r));
      continue;
    }
    if (rule.technical()) {
      for (const auto& ref : rule.checks) {
        const Check* check = registry.find_check(ref.id);
        if (!check) throw std::logic_error("check " + ref.id + " has no implementation");  // validate() forbids it
        if (mode == Mode::lint && !check->is_static())
          r.checks.push_back({ref.id, Verdict::skip, kNeedsLive, {}});
        else if (ev.untrusted_stop && !check->handshake_only())
          r.checks.push_back({ref.id, Verdict::error, "TLS certificate not trusted: rerun with --ca-file or --insecure", {}});
        else if (!ev.client_cert_stop.empty() && !check->handshake_only())
          r.checks.push_back({ref.id, Verdict::error, ev.client_cert_stop, {}});
        else r.checks.push_back(check->evaluate(ev, ref));
        if (auto& c = r.checks.back(); advice && (c.verdict == Verdict::fail || c.verdict == Verdict::warn))
          c.fix = advice(c);
        if (observer) observer->check_done(r.checks.back());
        // A check that probes documented paths lists the ones it could not probe.
        if (mode == Mode::check && check->per_path != PerPath::none && !ev.untrusted_stop &&
            ev.client_cert_stop.empty())
          for (const auto& n : ev.not_probed)
            if (n.has_get || check->per_path == PerPath::every)
              r.checks.push_back({ref.id, Verdict::skip, "not probed: " + n.text, {}});
      }
      r.verdict = report::aggregate(r.checks);
      r.summary = rule_summary(r);
    } else {
      r.verdict = Verdict::manual;
      for (const auto& name : rule.hints) {
        const HintProducer* producer = registry.find_hints(name);
        if (!producer) throw std::logic_error("hint producer " + name + " does not exist");  // validate() forbids it
        auto h = producer->produce(ev);
        r.hints.insert(r.hints.end(), h.begin(), h.end());
      }
      r.summary = r.hints.empty() ? "needs a reviewer"
                                  : fmt::format("needs a reviewer; {}", plural(r.hints.size(), "hint", "hints"));
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace adrprobe::engine
