// adrprobe demo: start the built-in reference API on 127.0.0.1, probe it, report, stop it.
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <stdexcept>

#include "cli/command.hpp"
#include "cli/output.hpp"
#include "cli/options.hpp"
#include "demo/reference_api.hpp"
#include "engine/run.hpp"
#include "util/temp_file.hpp"

namespace adrprobe::cli {

Command demo_command(CLI::App& parent) {
  struct Args {
    std::string profile = "conformant";
    OutputArgs out;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = parent.add_subcommand("demo", "Start the built-in reference API on 127.0.0.1, probe it, report, stop it");
  cmd->add_option("--profile", a->profile, "conformant (default) or broken: a deliberately non-conformant API")
      ->check(CLI::IsMember({"conformant", "broken"}))
      ->capture_default_str();
  add_output_options(cmd, a->out);
  return {cmd, [a] {
            Output output = to_output(a->out);
            demo::ReferenceApi api(a->profile == "broken" ? demo::Profile::broken : demo::Profile::conformant);
            std::string base = api.start();
            if (!a->out.quiet) fmt::print(stderr, "adrprobe demo: reference API ({}) serving at {}\n", a->profile, base);
            // Trust the CA made for this run: a file in $TMPDIR (else /tmp), removed however the run ends.
            std::optional<TempFile> ca;
            ProbeArgs probe;
            if (!api.ca_pem().empty()) {
              try {
                ca.emplace("adrprobe-demo-ca-", api.ca_pem());
              } catch (const std::runtime_error& e) {
                throw UsageError(std::string("demo: the CA certificate: ") + e.what());
              }
              probe.ca_file = ca->path();
            }
            int status = run_and_report("demo", engine::run_check, to_settings(probe, base), output);
            api.stop();
            return status;
          }};
}

}  // namespace adrprobe::cli
