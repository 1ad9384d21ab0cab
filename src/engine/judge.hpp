// Judge: rules × checks → verdicts, rule summaries and hints. Pure: it reads
// the evidence and the edition and sends nothing.
#pragma once
#include <future>
#include <vector>

#include "catalogue/catalogue.hpp"
#include "engine/check.hpp"
#include "engine/evidence.hpp"
#include "engine/observer.hpp"
#include "report/model.hpp"

namespace adrprobe::engine {

// lint: only the checks that need nothing but the document are judged; the
// others are skip ("needs a live API").
enum class Mode { check, lint };

// Whether --rules selects the rule: by its id, or a module's rule (module
// given) by the id of the edition's rule that requires the module.
bool selected(const Settings& settings, const catalogue::Rule& rule, const catalogue::Module* module = nullptr);

// A rule of the catalogue as the report shows it, before any verdict (skip).
report::RuleResult rule_result(const catalogue::Rule& rule);

std::vector<report::RuleResult> judge(const Evidence& ev, const catalogue::Edition& edition, const Registry& registry,
                                      Mode mode, Observer* observer = nullptr);

// "prepare": Check::prepare of the edition's selected static checks, each
// once, on a thread of its own, begun now and waited for by the future, when
// the run judges on more than one thread (judge_threads): the walk DT-1..DT-5
// share is made while detect_geo walks the operations. Nothing (no future)
// otherwise. What prepare made is there for judge; a prepare that fails is
// tried again there, and judge reports it.
std::future<void> prepare(const Evidence& ev, const catalogue::Edition& edition, const Registry& registry);

// One line for a rule: why it passes, or its worst finding.
std::string rule_summary(const report::RuleResult& rule);

}  // namespace adrprobe::engine
