// oas/paths: which documented paths are probed, with which concrete path.
// Input as fuzz_refs (control NUL root NUL d1 ...); the control part after
// its first byte holds --param values, one "name=value" a line.
#include <cstdint>
#include <map>
#include <string>

#include "fuzz.hpp"
#include "oas/paths.hpp"
#include "util/strings.hpp"

using namespace adrprobe;
using namespace adrprobe::oas;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Documents input(fuzz::as_text(data, size));
  auto root = parse_any(input.root);
  if (!root.ok) return 0;
  std::map<std::string, std::string> params;
  if (input.control.size() > 1)
    for (const auto& line : split(input.control.substr(1), '\n'))
      if (auto eq = line.find('='); eq != std::string::npos) params[line.substr(0, eq)] = line.substr(eq + 1);

  DocumentSet docs(fuzz::Documents::root_url, std::move(root.value));
  (void)docs.resolve_all([&](const std::vector<std::string>& urls) { return input.fetch(urls); });
  auto plans = enumerate_paths(docs, params);

  const json& doc = docs.root();
  auto paths = doc.is_object() ? doc.find("paths") : doc.end();
  std::size_t documented = paths != doc.end() && paths->is_object() ? paths->size() : 0;
  FUZZ_ASSERT(plans.size() == documented);
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
