// Run: orchestration only. catalogue → plan → requests → evidence → verdicts → report.
#pragma once
#include "catalogue/catalogue.hpp"
#include "engine/check.hpp"
#include "engine/observer.hpp"
#include "engine/settings.hpp"
#include "report/model.hpp"

namespace adrprobe::engine {

// adrprobe check: probes the live API at settings.base_url with the checks of
// `registry` that the edition names (checks::registry() is the real one).
report::Report run_check(const Settings& settings, const catalogue::Edition& edition, const Registry& registry,
                         Observer* observer = nullptr);
// adrprobe lint: the static checks on the document at settings.openapi (a file or URL).
report::Report run_lint(const Settings& settings, const catalogue::Edition& edition, const Registry& registry,
                        Observer* observer = nullptr);
// The time now, RFC 3339 UTC ("2026-11-23T02:00:00Z"), as reports give it.
std::string now_rfc3339();

// The first note of a run --max-requests cut: how many documented paths were
// left out, naming the first of them (the JSON report lists every one).
std::string max_requests_note(std::size_t max_requests, const std::vector<std::string>& left_out);

// A report whose target is down (Report::unreachable): every technical rule
// `error` ("not judged: the target is down") but one that fails by what needed
// no answer (TS-1 on http://), which keeps its `fail`; the score recomputed.
void mark_down(report::Report& report);

}  // namespace adrprobe::engine
