// The options the report-writing commands share, bound to CLI11 (only the
// cmd_*.cpp files and main.cpp see CLI11; settings.hpp turns the values
// into engine::Settings and output choices).
#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include <type_traits>

#include "cli/push.hpp"
#include "cli/settings.hpp"
#include "util/strings.hpp"

namespace adrprobe::cli {

void add_output_options(CLI::App* cmd, OutputArgs& out);
void add_probe_options(CLI::App* cmd, ProbeArgs& args);
// --timeout, --deadline, --ca-file, --insecure, --user-agent: how any request is sent.
void add_transport_options(CLI::App* cmd, ProbeArgs& args);
// -H and --header-file.
void add_header_options(CLI::App* cmd, ProbeArgs& args);
// --concurrency and --rate.
void add_pace_options(CLI::App* cmd, ProbeArgs& args);
// The subset that applies to a document alone: --timeout, --deadline, --ca-file, --insecure, --ref-hosts,
// --user-agent.
void add_fetch_options(CLI::App* cmd, ProbeArgs& args);
// --oauth2-token-url, --oauth2-client-id, --oauth2-client-secret,
// --oauth2-scope, --oauth2-auth (check, batch, register; add_probe_options adds them).
void add_oauth2_options(CLI::App* cmd, OAuth2Args& args);
// --pushgateway and --register-name (summary, batch); `register_default` says
// where the name comes from without --register-name. The push's headers are
// the command's own option.
void add_push_options(CLI::App* cmd, PushArgs& args, const std::string& register_default);
// --edition's check: the choices in --help, "unknown edition ..." for a wrong one.
CLI::Validator edition_validator();
// --modules auto|none|<module> (check, lint; batch has its own help text).
void add_modules_option(CLI::App* cmd, std::string& modules,
                        const std::string& help_prefix = "Modules of the rules judged beside the edition");

// A number option's transform (->transform: before every check; an int, long
// long or double option): decimal, and within its type (parse_decimal), else a
// usage error naming the option. CLI11 alone reads "0x50" as 80 and "010" as
// 8, and takes 99999999999999999999 as the largest long long without a word.
template <class T>
CLI::Validator decimal() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        T number{};
        std::string why = parse_decimal(value, number);
        // CLI11 reads the text again, with base 0: a whole number goes on in plain digits.
        if (why.empty() && std::is_integral_v<T>) value = std::to_string(number);
        return why;
      },
      "");
}

}  // namespace adrprobe::cli
