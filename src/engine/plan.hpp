// Which requests a run sends: pure functions from settings and the document's
// paths to request lists (no I/O here).
#pragma once
#include <string>
#include <vector>

#include "checks/context.hpp"

namespace adrprobe::engine {

enum class Phase1 { po1, po2, po3, base_get, base_head, base_slash, count };

// The requests that need no document: publication (PO), the base URL (VH-1, HM-1, NT-2).
std::vector<http::Request> phase_one(const checks::RunSettings& s, const std::string& origin);

// Requests for one documented path, in send order, with what each is for.
struct PathRequests {
  checks::ProbedPath probe;  // exchange ids are filled in after the run
  std::vector<http::Request> requests;
  // Position of each request's result: 0 GET, 1 HEAD, 2 GET with slash, then
  // (method, kind) for optional methods.
  std::vector<std::pair<std::string, char>> optional;  // kind 's' supported (HM-2), 'u' unsupported (HM-3)
};
PathRequests plan_path(const checks::RunSettings& s, const oas::PathPlan& path);

// Why a documented path is not probed, or "" when it is.
std::string not_probed_reason(const oas::PathPlan& path);

}  // namespace adrprobe::engine
