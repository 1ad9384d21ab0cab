// adrprobe lint FILE|URL: the static checks on a description document alone.
#include <fmt/format.h>

#include <fstream>
#include <memory>

#include "cli/command.hpp"
#include "cli/output.hpp"
#include "cli/progress.hpp"
#include "cli/settings.hpp"
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
  add_fetch_options(cmd, a->fetch);
  return {cmd, [a] {
            Output output = to_output(a->out);
            engine::Settings settings = to_settings(a->fetch, "");
            const std::string& doc = a->document;
            if (doc.rfind("http://", 0) == 0 || doc.rfind("https://", 0) == 0) {
              std::string error;
              if (!parse_url(doc, &error)) throw UsageError(fmt::format("'{}': {}", doc, error));
            } else if (std::ifstream probe(doc.rfind("file://", 0) == 0 ? doc.substr(7) : doc); !probe) {
              throw UsageError(fmt::format("'{}': cannot read the file", doc));
            }
            settings.openapi = doc;
            const auto& edition = edition_or_throw(a->out.edition);
            report::Redactor redactor(settings.headers);
            TerminalProgress progress(output, redactor);
            report::Report rep = engine::run_lint(settings, edition, &progress);
            return write_report(rep, output, redactor);
          }};
}

}  // namespace adrprobe::cli
