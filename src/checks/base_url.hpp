// GET {base}, redirects not followed: the one response VH-1..VH-3, TS-5 and
// TS-6 judge (and HM-1's GET of the base URL, merged by the planner).
#pragma once
#include "checks/registry.hpp"

namespace adrprobe::checks {

RequestSpec base_get(const engine::Settings& settings);
// plan_run of the checks that read it.
void plan_base_get(Planner& planner, const PlanInput& in, const CheckRef& ref);
// The id of its last exchange, 0 when it was not sent.
int base_get_id(const Evidence& ev);

}  // namespace adrprobe::checks
