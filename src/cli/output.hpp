// Writes a finished report: the -o files and stdout, each in its format, with
// every secret masked first. Returns the exit status of CLI.md.
#pragma once
#include "cli/settings.hpp"
#include "report/redact.hpp"

namespace adrprobe::cli {

int write_report(report::Report& report, const Output& output, const report::Redactor& redactor);

}  // namespace adrprobe::cli
