// adrprobe demo: start the built-in reference API on 127.0.0.1, probe it, report, stop it.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "cli/command.hpp"
#include "cli/output.hpp"
#include "cli/settings.hpp"
#include "demo/reference_api.hpp"
#include "engine/run.hpp"

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
            // Trust the CA made for this run: a temporary file, removed however the run ends.
            struct TempFile {
              std::string path;
              ~TempFile() {
                if (!path.empty()) std::remove(path.c_str());
              }
            } ca;
            ProbeArgs probe;
            if (!api.ca_pem().empty()) {
              const char* tmpdir = std::getenv("TMPDIR");
              std::string tmpl = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/adrprobe-demo-ca-XXXXXX";
              int fd = mkstemp(tmpl.data());
              if (fd < 0) throw std::runtime_error("demo: cannot write the CA certificate to " + tmpl);
              ca.path = tmpl;
              (void)!write(fd, api.ca_pem().data(), api.ca_pem().size());
              close(fd);
              probe.ca_file = ca.path;
            }
            int status = run_and_report("demo", engine::run_check, to_settings(probe, base), output);
            api.stop();
            return status;
          }};
}

}  // namespace adrprobe::cli
