// Which server stack the evidence shows, and the advice for it
// (probes/fixes/<stack>.yaml): read from the exchanges the run already made
// and the description document, never from a request of its own.
#pragma once
#include <optional>
#include <vector>

#include "catalogue/catalogue.hpp"
#include "engine/check.hpp"

namespace adrprobe::checks {

// The stacks whose signatures the evidence shows: a response header of the API
// (Server, X-Powered-By), a 4xx/5xx body from the API (an error page), or a
// JSON pointer the document has (a generator's schema). Lowest rank first,
// then in catalogue order.
std::vector<const catalogue::Stack*> detect_stacks(const engine::Evidence& ev, const catalogue::Catalogue& cat);

// The fix for a check with that verdict: the first seen stack that has advice
// for it, else the generic advice, else none.
std::optional<Fix> fix_for(const std::vector<const catalogue::Stack*>& seen, const catalogue::Catalogue& cat,
                           const std::string& check, Verdict verdict = Verdict::fail);

// Registry::advisor: detects once, then gives each failing check its fix.
engine::Registry::Advice stack_advisor(const engine::Evidence& ev);

}  // namespace adrprobe::checks
