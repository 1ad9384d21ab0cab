// batch, diff, summary: in the contract (CLI.md), not built yet: exit 2 with a clear message.
#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/settings.hpp"

namespace adrprobe::cli {

std::vector<Command> planned_commands(CLI::App& parent) {
  std::vector<Command> out;
  for (auto [name, what] : {std::pair{"batch", "Probe many APIs from a TARGETS.yaml (not available in this version)"},
                            std::pair{"diff", "Compare two JSON reports (not available in this version)"},
                            std::pair{"summary", "Merge batch output directories (not available in this version)"}}) {
    auto* cmd = parent.add_subcommand(name, what);
    cmd->allow_extras();
    std::string n = name;
    out.push_back({cmd, [n]() -> int {
                     throw UsageError(fmt::format("'{}' is not available in adrprobe {} yet", n, ADRPROBE_VERSION));
                   }});
  }
  return out;
}

}  // namespace adrprobe::cli
