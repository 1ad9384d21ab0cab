// Writes a finished report: the -o files and stdout, each in its format, with
// every secret masked first. Returns the exit status of CLI.md.
#pragma once
#include "cli/oauth2.hpp"
#include "cli/settings.hpp"
#include "engine/check.hpp"
#include "engine/observer.hpp"
#include "report/redact.hpp"

namespace adrprobe::cli {

// Each file through util/files.hpp's write_file; one that cannot be written
// is said on stderr, makes the status 2, and is added to `unwritten` (batch's
// summary links only what exists).
int write_report(report::Report& report, const Output& output, const report::Redactor& redactor,
                 std::vector<std::string>* unwritten = nullptr);

// The secrets of one run beside its headers, which the Redactor is made
// with: the password of each URL given, and the credentials of every proxy
// libcurl reads from the environment (http_proxy, https_proxy, all_proxy in
// either case: whichever libcurl takes for a URL, it sends it).
void add_run_secrets(report::Redactor& redactor, const engine::Settings& settings);
// The credentials of every proxy libcurl reads from the environment (add_run_secrets adds them too).
void add_proxy_secrets(report::Redactor& redactor);

// How a run is made (the report's `run`): command (check, lint, demo), the
// options that shape its verdicts, the library versions. Header names, never values.
report::RunInfo run_info(const std::string& command, const engine::Settings& settings, const Output& output);

// Runs one engine entry point (engine::run_check, engine::run_lint) for a
// command with the terminal's progress, on the edition output.edition, masks
// the secrets and writes every output.
using Engine = report::Report (*)(const engine::Settings&, const catalogue::Edition&, const engine::Registry&,
                                  engine::Observer*);
// `token`: the OAuth 2.0 token source the settings carry (its renewals are
// told to the Redactor), or nullptr.
int run_and_report(const std::string& command, Engine run, const engine::Settings& settings, const Output& output,
                   TokenSource* token = nullptr);

}  // namespace adrprobe::cli
