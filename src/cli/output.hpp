// Writes a finished report: the -o files and stdout, each in its format, with
// every secret masked first. Returns the exit status of CLI.md.
#pragma once
#include "cli/settings.hpp"
#include "engine/observer.hpp"
#include "report/redact.hpp"

namespace adrprobe::cli {

int write_report(report::Report& report, const Output& output, const report::Redactor& redactor);

// Runs one engine entry point (engine::run_check, engine::run_lint) with the
// terminal's progress, masks the secrets and writes every output.
using Engine = report::Report (*)(const engine::Settings&, const catalogue::Edition&, engine::Observer*);
int run_and_report(Engine run, const engine::Settings& settings, const catalogue::Edition& edition, const Output& output);

}  // namespace adrprobe::cli
