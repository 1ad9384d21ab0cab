// adrprobe check BASE_URL: probe one live API.
#include <memory>

#include "cli/command.hpp"
#include "cli/output.hpp"
#include "cli/options.hpp"
#include "engine/run.hpp"

namespace adrprobe::cli {

Command check_command(CLI::App& parent) {
  struct Args {
    std::string base_url;
    OutputArgs out;
    ProbeArgs probe;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = parent.add_subcommand("check", "Probe one API and print a conformance report");
  cmd->add_option("BASE_URL", a->base_url, "Base URL with the major version, e.g. https://api.example.nl/v1")->required();
  add_output_options(cmd, a->out);
  add_modules_option(cmd, a->out.modules);
  add_probe_options(cmd, a->probe);
  return {cmd, [a] {
            // Everything is validated before the first request.
            Output output = to_output(a->out);
            engine::Settings settings = to_settings(a->probe, parse_base_url(a->base_url));
            // The token before the first request to the API: a refusal stops the run here.
            auto token = oauth2_token(a->probe.oauth2, settings);
            return run_and_report("check", engine::run_check, settings, output, token.get());
          }};
}

}  // namespace adrprobe::cli
