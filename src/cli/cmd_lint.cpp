// adrprobe lint FILE|URL: the static checks on a description document alone.
#include <fmt/format.h>

#include <memory>

#include "cli/command.hpp"
#include "cli/output.hpp"
#include "cli/options.hpp"
#include "engine/run.hpp"
#include "util/url.hpp"

namespace adrprobe::cli {

Command lint_command(CLI::App& parent) {
  struct Args {
    std::string document;
    OutputArgs out;
    ProbeArgs fetch;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = parent.add_subcommand(
      "lint", "Run the static checks on a description document (a file or URL, JSON or YAML) without a live API");
  cmd->add_option("DOCUMENT", a->document, "OpenAPI document: a file, or an http(s) URL")->required();
  add_output_options(cmd, a->out);
  add_modules_option(cmd, a->out.modules);
  add_fetch_options(cmd, a->fetch);
  return {cmd, [a] {
            Output output = to_output(a->out);
            engine::Settings settings = to_settings(a->fetch, "");
            check_document_location(a->document, fmt::format("'{}'", mask_url_password(a->document)));
            settings.openapi = a->document;
            return run_and_report("lint", engine::run_lint, settings, output);
          }};
}

}  // namespace adrprobe::cli
