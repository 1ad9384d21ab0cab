// The checks' side of the seam (engine/check.hpp): the real registry, and the
// names every checks/<family>.cpp uses to define its checks.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "catalogue/catalogue.hpp"
#include "engine/check.hpp"

namespace adrprobe::checks {

using catalogue::CheckRef;
using engine::Check;
using engine::Evidence;
using engine::HintProducer;
using engine::Param;
using engine::PerPath;
using engine::PlanInput;
using engine::Planner;
using engine::RequestSpec;
using engine::Target;
using engine::Need;
using engine::document;
using engine::base_url;
using engine::requests;
using engine::handshake;

// Every check and hint producer (checks/registry.cpp, checks/hints.cpp).
const engine::Registry& registry();
const std::vector<HintProducer>& hint_producers();
const Check* find_check(std::string_view id);
const HintProducer* find_hints(std::string_view name);

// Ties the catalogue to the code: every check id of every edition has exactly
// one implementation, every hint producer exists,
// every edition parameter is one its check understands. Returns the problems.
// A module (probes/module-*.yaml) is checked when the registry has its
// detector (Registry::modules): without one it is not offered at all.
std::vector<std::string> validate(const catalogue::Catalogue& catalogue);
// The same against another registry (a test's).
std::vector<std::string> validate(const catalogue::Catalogue& catalogue, const engine::Registry& registry);

// Whether the start of an error body reads like a stack trace (Python's
// traceback, a Java or .NET exception, PHP's "Stack trace:", SQLSTATE[, an
// ORA- code): one pass over the text, no std::regex on server text.
bool looks_like_stack_trace(std::string_view body);

}  // namespace adrprobe::checks
