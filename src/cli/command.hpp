// A command of the CLI: its subcommand (options bound) and what runs when it
// was chosen. One file per command (cli/cmd_<name>.cpp); main.cpp lists them.
#pragma once
#include <CLI/CLI.hpp>

#include <functional>

namespace adrprobe::cli {

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;  // returns the exit status; throws UsageError for exit 2
};

Command check_command(CLI::App& parent);
Command lint_command(CLI::App& parent);
Command demo_command(CLI::App& parent);
Command rules_command(CLI::App& parent);
Command batch_command(CLI::App& parent);
Command diff_command(CLI::App& parent);
Command summary_command(CLI::App& parent);
Command register_command(CLI::App& parent);

}  // namespace adrprobe::cli
