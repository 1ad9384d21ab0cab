#include "checks/base_url.hpp"

namespace adrprobe::checks {

RequestSpec base_get(const engine::Settings& settings) { return engine::probe_request("GET", settings.base_url); }

void plan_base_get(Planner& planner, const PlanInput& in, const CheckRef& ref) {
  if (in.phase == 1) planner.add(base_get(in.settings), ref.id);
}

int base_get_id(const Evidence& ev) {
  const http::Result* r = ev.result(base_get(ev.settings));
  return r ? r->last() : 0;
}

}  // namespace adrprobe::checks
