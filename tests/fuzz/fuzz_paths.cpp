// oas/paths: which documented paths are probed, with which concrete path.
// Input as fuzz_refs (control NUL root NUL d1 ...: deadline, limits and
// documents); the control part after its first two bytes holds --param
// values, one "name=value" a line.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "fuzz.hpp"
#include "oas/paths.hpp"
#include "util/strings.hpp"

using namespace adrprobe;
using namespace adrprobe::oas;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Documents input(fuzz::as_text(data, size));
  Limits limits = input.limits();
  auto root = parse_any_document(input.root, limits);
  if (!root.ok) {
    if (std::getenv("FUZZ_VERBOSE")) std::fprintf(stderr, "%s: root not loaded: %s\n", "fuzz_paths", root.error.c_str());
    return 0;
  }
  std::map<std::string, std::string> params;
  if (input.control.size() > 2)
    for (const auto& line : split(input.control.substr(2), '\n'))
      if (auto eq = line.find('='); eq != std::string::npos) params[line.substr(0, eq)] = line.substr(eq + 1);

  DocumentSet docs(fuzz::Documents::root_url, std::move(root.doc), limits);
  long budget_us = input.deadline_us();
  auto deadline = budget_us < 0 ? DocumentSet::Clock::time_point::max()
                                : DocumentSet::Clock::now() + std::chrono::microseconds(budget_us);
  (void)docs.resolve_all([&](const std::vector<std::string>& urls) { return input.fetch(urls); }, deadline);
  auto plans = enumerate_paths(docs, params);

  const Value* paths = find(docs.root(), "paths");
  std::size_t documented = paths && paths->IsObject() ? paths->MemberCount() : 0;
  FUZZ_ASSERT(plans.size() == documented);
  if (std::getenv("FUZZ_VERBOSE"))  // what a seed reaches
    for (const auto& plan : plans)
      std::fprintf(stderr, "fuzz_paths: %s -> %s (%zu methods, %zu missing)\n", plan.template_path.c_str(),
                   plan.concrete.c_str(), plan.methods.size(), plan.missing.size());
  for (const auto& plan : plans) {
    for (const auto& m : plan.methods) FUZZ_ASSERT(!m.empty() && m == to_upper(m));
    for (const auto& name : plan.missing) FUZZ_ASSERT(plan.template_path.find("{" + name + "}") != std::string::npos);
    // Without parameters the concrete path is the documented one (or none:
    // a path item that does not resolve has no operations either).
    if (plan.missing.empty() && plan.template_path.find_first_of("{}") == std::string::npos)
      FUZZ_ASSERT(plan.concrete == plan.template_path || (plan.concrete.empty() && plan.methods.empty()));
    if (!plan.missing.empty()) FUZZ_ASSERT(plan.concrete.empty() && !plan.probed());
    if (plan.probed()) FUZZ_ASSERT(!plan.concrete.empty() && plan.concrete.front() == '/');
  }
  return 0;
}
