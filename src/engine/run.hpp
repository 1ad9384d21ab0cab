// One run of `adrprobe check`: catalogue → plan → requests → evidence → verdicts → report.
#pragma once
#include <functional>
#include <string>

#include "catalogue/catalogue.hpp"
#include "checks/context.hpp"
#include "http/client.hpp"
#include "report/model.hpp"

namespace adrprobe::engine {

struct RunOptions {
  checks::RunSettings settings;
  http::ClientSettings client;  // its deadline is set from deadline_s at the start of the run
  double deadline_s = 600;
  std::string tool_version;
  // Called after each exchange (progress, -v log); may be empty.
  std::function<void(const http::Exchange&, std::size_t done, std::size_t queued)> on_exchange;
};

report::Report run_check(const RunOptions& options, const catalogue::Edition& edition);

// Judges a document fetch (PO-1, --openapi, external $refs) and parses the body into *out.
checks::DocumentFetch judge_document(const std::deque<http::Exchange>& exchanges, const http::Result& result,
                                     const oas::Limits& limits, oas::json* out);

// Turns evidence into verdicts for every rule of the edition.
std::vector<report::RuleResult> judge(const checks::Context& ctx);

}  // namespace adrprobe::engine
