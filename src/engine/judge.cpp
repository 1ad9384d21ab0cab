#include "engine/judge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <locale>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <system_error>
#include <thread>

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

bool selected(const Settings& s, const catalogue::Rule& rule, const catalogue::Module* module) {
  return s.selected(rule.id) || (module && s.selected(module->rule));
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

namespace {

// One piece of judging: a check of a rule, or the hints of a functional rule's
// producer. Made in the order the rules list them, worked out (perhaps on
// several threads), then put together in that order.
struct Work {
  const Check* check = nullptr;  // with ref; else producer
  const CheckRef* ref = nullptr;
  const HintProducer* producer = nullptr;
  bool from_document = false;  // lint: the live check's judge_static
  // A check's result: given when the work is planned (unjudged()), else evaluated.
  std::optional<CheckResult> result;
  std::vector<std::string> hints;
  std::exception_ptr error;  // rethrown where the work is put in its place
};

// The verdict a check gets without being judged, or none when it is judged
// (evaluate): lint skips a live check; a stop (a certificate not trusted, a
// client certificate refused) is the error of every check but the handshake's.
std::optional<CheckResult> unjudged(const Check& check, const CheckRef& ref, const Evidence& ev, Mode mode) {
  if (mode == Mode::lint && !check.is_static()) {
    if (check.judge_static) return std::nullopt;  // what the document alone shows of it
    return CheckResult{ref.id, Verdict::skip, kNeedsLive, {}};
  }
  if (check.handshake_only()) return std::nullopt;
  if (ev.untrusted_stop)
    return CheckResult{ref.id, Verdict::error, "TLS certificate not trusted: rerun with --ca-file or --insecure", {}};
  if (!ev.client_cert_stop.empty()) return CheckResult{ref.id, Verdict::error, ev.client_cert_stop, {}};
  return std::nullopt;
}

// A rule the report lists: the edition's, then those of each module the run
// judges (module set). Not judged: a module forced on an API that shows none
// of what it is about (JudgedModule::shape ""): its rules skip.
struct Listed {
  const catalogue::Rule* rule;
  const catalogue::Module* module = nullptr;
  bool judged = true;
};

std::vector<Listed> listed_rules(const Evidence& ev, const catalogue::Edition& edition) {
  std::vector<Listed> out;
  for (const auto& rule : edition.rules) out.push_back({&rule});
  for (const auto& judged : ev.modules)
    if (const catalogue::Module* m = edition.module(judged.id))
      for (const auto& rule : m->rules) out.push_back({&rule, m, !judged.shape.empty()});
  return out;
}

// The work of the selected rules, in order: every check of a technical rule
// (the ones not judged too, so the rules are put together from it alone) and
// every hint producer of a functional one.
std::vector<Work> plan_work(const Evidence& ev, const std::vector<Listed>& listed, const Registry& registry, Mode mode) {
  std::vector<Work> work;
  for (const auto& [rule_ptr, module, judged] : listed) {
    const catalogue::Rule& rule = *rule_ptr;
    if (!selected(ev.settings, rule, module) || !judged) continue;
    if (rule.technical()) {
      for (const auto& ref : rule.checks) {
        const Check* check = registry.find_check(ref.id);
        if (!check) throw std::logic_error("check " + ref.id + " has no implementation");  // validate() forbids it
        auto given = unjudged(*check, ref, ev, mode);
        bool from_document = mode == Mode::lint && !check->is_static() && !given;
        work.push_back({check, &ref, nullptr, from_document, std::move(given), {}, {}});
      }
    } else {
      for (const auto& name : rule.hints) {
        const HintProducer* producer = registry.find_hints(name);
        if (!producer) throw std::logic_error("hint producer " + name + " does not exist");  // validate() forbids it
        work.push_back({nullptr, nullptr, producer, false, {}, {}, {}});
      }
    }
  }
  return work;
}

// Threads that judge at once: Settings::judges, or by default one for a
// short run, in a batch (its targets already have threads of their own) or on
// one core, else up to four for a run of a thousand records or paths.
int judge_threads(const Evidence& ev) {
  if (ev.settings.judges > 0) return ev.settings.judges;
  constexpr std::size_t kParallelFrom = 1000;
  unsigned cores = std::thread::hardware_concurrency();
  if (ev.settings.client.gate || cores < 2 || ev.exchanges.size() + ev.paths.size() < kParallelFrom) return 1;
  return static_cast<int>(std::min(cores, 4u));
}

// Does every piece of work, and makes the advice, on `threads` threads (this
// one among them), each taking the next piece. The checks only read the
// evidence; its caches take locks (oas::DocumentSet, http::HeaderLines).
void do_work(std::vector<Work>& work, const Evidence& ev, const Registry& registry, Registry::Advice& advice,
             std::exception_ptr& advice_error, int threads) {
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    while (true) {
      std::size_t i = next.fetch_add(1);
      if (i > work.size()) return;
      try {
        if (i == 0) {  // the advice reads every record: one piece, begun first
          if (registry.advisor) advice = registry.advisor(ev);
        } else if (Work& w = work[i - 1]; w.check) {
          if (!w.result) w.result = w.from_document ? w.check->judge_static(ev, *w.ref) : w.check->evaluate(ev, *w.ref);
        } else {
          w.hints = w.producer->produce(ev);
        }
      } catch (...) {
        (i == 0 ? advice_error : work[i - 1].error) = std::current_exception();
      }
    }
  };
  if (threads > 1) {
    // libstdc++ fills ctype<char>'s narrow() table on first use of each byte,
    // which the regexes the checks compile on first use read: filled here, so the
    // threads only read it (the same bytes, but a data race all the same).
    const auto& ctype = std::use_facet<std::ctype<char>>(std::locale());
    for (int c = 0; c < 256; ++c) ctype.narrow(static_cast<char>(c), '\0');
  }
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads && static_cast<std::size_t>(t) <= work.size(); ++t) {
    try {
      helpers.emplace_back(worker);
    } catch (const std::system_error&) {
      break;  // no more threads to be had (a limit on threads): this one does the rest
    }
  }
  worker();
  for (auto& h : helpers) h.join();
}

// The edition's rule that requires a module (/core/geospatial), once the
// module's rules are judged: technical with their worst verdict (manual ones
// aside) when the run judged the module, naming those that do not pass; else
// it stays manual, with one more hint saying why the module was not judged.
void judge_requiring_rule(std::vector<report::RuleResult>& rules, const catalogue::Module& m, const Evidence& ev) {
  auto it = std::find_if(rules.begin(), rules.end(), [&](const auto& r) { return r.id == m.rule && r.module.empty(); });
  if (it == rules.end() || it->summary == kNotSelected) return;
  report::RuleResult& r = *it;
  if (!ev.module(m.id)) {
    r.hints.push_back(ev.settings.modules == "none" ? fmt::format("the {} module was not judged (--modules none)", m.title)
                                                    : m.not_judged);
    r.summary = fmt::format("needs a reviewer; {}", plural(r.hints.size(), "hint", "hints"));
    return;
  }
  r.kind = "technical";
  r.hints.clear();
  r.review.clear();
  Verdict verdict = Verdict::skip;
  std::map<Verdict, std::vector<std::string>> by_verdict;
  std::size_t judged = 0;
  for (const auto& rule : rules) {
    if (rule.module != m.id || rule.verdict == Verdict::manual || rule.summary == kNotSelected) continue;
    verdict = report::worst(verdict, rule.verdict);
    by_verdict[rule.verdict].push_back(rule.id);
    if (rule.verdict != Verdict::skip) ++judged;
  }
  r.verdict = verdict;
  std::string module = fmt::format("{} module {}", m.title, m.version);
  std::vector<std::string> parts;
  for (Verdict v : {Verdict::fail, Verdict::error, Verdict::warn})
    if (by_verdict.count(v)) parts.push_back(fmt::format("{}: {}", report::to_string(v), join(by_verdict[v], ", ")));
  if (!parts.empty()) r.summary = fmt::format("{}: {}", module, join(parts, "; "));
  else if (judged) r.summary = fmt::format("{}: every judged rule passes ({} of them)", module, judged);
  else if (ev.module(m.id)->shape.empty()) r.summary = fmt::format("{}: {}", module, m.absent);
  else r.summary = fmt::format("{}: no rule of it could be judged", module);
}

}  // namespace

std::future<void> prepare(const Evidence& ev, const catalogue::Edition& edition, const Registry& registry) {
  if (judge_threads(ev) < 2) return {};
  std::vector<void (*)(const Evidence&)> steps;
  for (const auto& rule : edition.rules) {
    if (!rule.technical() || !selected(ev.settings, rule)) continue;
    for (const auto& ref : rule.checks)
      if (const Check* check = registry.find_check(ref.id); check && check->prepare && check->is_static() &&
                                                            std::find(steps.begin(), steps.end(), check->prepare) == steps.end())
        steps.push_back(check->prepare);
  }
  if (steps.empty()) return {};
  try {
    return std::async(std::launch::async, [&ev, steps] {
      for (auto step : steps) try {
          step(ev);
        } catch (...) {  // judge makes it again, and says why it fails
        }
    });
  } catch (const std::system_error&) {
    return {};  // no thread to be had: judge makes it
  }
}

std::vector<report::RuleResult> judge(const Evidence& ev, const catalogue::Edition& edition, const Registry& registry,
                                      Mode mode, Observer* observer) {
  std::vector<Listed> listed = listed_rules(ev, edition);
  std::vector<Work> work = plan_work(ev, listed, registry, mode);
  Registry::Advice advice;  // what to change for a failing check (none without an advisor)
  std::exception_ptr advice_error;
  do_work(work, ev, registry, advice, advice_error, judge_threads(ev));
  if (advice_error) std::rethrow_exception(advice_error);
  auto piece = work.begin();
  auto take = [&]() -> Work& {
    Work& w = *piece++;
    if (w.error) std::rethrow_exception(w.error);
    return w;
  };

  std::vector<report::RuleResult> out;
  std::size_t not_probed_gets = static_cast<std::size_t>(
      std::count_if(ev.not_probed.begin(), ev.not_probed.end(), [](const auto& n) { return n.has_get; }));
  for (const auto& [rule_ptr, module, judged] : listed) {
    const catalogue::Rule& rule = *rule_ptr;
    report::RuleResult r = rule_result(rule);
    if (module) r.module = module->id;
    if (!selected(ev.settings, rule, module) || !judged) {
      // --rules: listed, not judged; counted nowhere (score, conclusion).
      r.verdict = Verdict::skip;
      r.summary = judged ? kNotSelected : module->absent;
      out.push_back(std::move(r));
      continue;
    }
    if (rule.technical()) {
      // Room for every result at once: a check that probes documented paths
      // adds one per path not probed (13,332 of them for 3,333 such paths),
      // and a vector that doubles held both copies at the run's peak.
      bool lists_not_probed = mode == Mode::check && !ev.untrusted_stop && ev.client_cert_stop.empty();
      std::size_t room = 0;
      for (std::size_t i = 0; i < rule.checks.size(); ++i) {
        PerPath per_path = (piece + static_cast<std::ptrdiff_t>(i))->check->per_path;
        room += 1;
        if (lists_not_probed && per_path == PerPath::every) room += ev.not_probed.size();
        else if (lists_not_probed && per_path != PerPath::none) room += not_probed_gets;
      }
      r.checks.reserve(room);
      for (const auto& ref : rule.checks) {
        Work& w = take();
        const Check* check = w.check;
        r.checks.push_back(std::move(*w.result));
        if (auto& c = r.checks.back(); advice && (c.verdict == Verdict::fail || c.verdict == Verdict::warn)) {
          c.fix = advice(c);
          if (c.fix && c.fix->source == catalogue::FixAdvice::kRuleText) c.fix->source = rule.url;  // this edition's text
        }
        if (observer) observer->check_done(r.checks.back());
        // A check that probes documented paths lists the ones it could not probe.
        if (lists_not_probed && check->per_path != PerPath::none)
          for (const auto& n : ev.not_probed)
            if (n.has_get || check->per_path == PerPath::every)
              r.checks.push_back({ref.id, Verdict::skip, "not probed: " + n.text, {}});
      }
      r.verdict = report::aggregate(r.checks);
      r.summary = rule_summary(r);
    } else {
      r.verdict = Verdict::manual;
      for (std::size_t i = 0; i < rule.hints.size(); ++i) {
        auto& h = take().hints;
        r.hints.insert(r.hints.end(), std::make_move_iterator(h.begin()), std::make_move_iterator(h.end()));
      }
      r.summary = r.hints.empty() ? "needs a reviewer"
                                  : fmt::format("needs a reviewer; {}", plural(r.hints.size(), "hint", "hints"));
    }
    out.push_back(std::move(r));
  }
  for (const auto& m : edition.modules) judge_requiring_rule(out, m, ev);
  return out;
}

}  // namespace adrprobe::engine
