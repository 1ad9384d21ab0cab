#include "cli/output.hpp"

#include "cli/progress.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>

namespace adrprobe::cli {

int write_report(report::Report& rep, const Output& output, const report::Redactor& redactor) {
  redactor.apply(rep);
  int status = report::exit_status(rep, output.fail_on);
  auto to_stdout = [](const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); };
  for (const auto& [format, path] : output.files) {
    if (path == "-") {
      to_stdout(format->render(rep, output.file));
      continue;
    }
    std::ofstream f(path, std::ios::binary);
    f << format->render(rep, output.file);
    if (!f) {
      fmt::print(stderr, "adrprobe: error: cannot write {}\n", path);
      status = Exit::usage;
    }
  }
  if (output.format) to_stdout(output.format->render(rep, output.terminal));
  return status;
}

int run_and_report(Engine run, const engine::Settings& settings, const catalogue::Edition& edition, const Output& output) {
  report::Redactor redactor(settings.headers);
  redactor.add_url(settings.base_url);
  if (settings.openapi) redactor.add_url(*settings.openapi);
  TerminalProgress progress(output, redactor);
  report::Report rep = run(settings, edition, &progress);
  if (redactor.url_password())
    rep.notes.push_back(
        "a URL given carries a password: it is masked (user:***@) in this report, but credentials in URLs are "
        "discouraged (they end up in shell histories, process lists and logs); give them with -H or --header-file");
  return write_report(rep, output, redactor);
}

}  // namespace adrprobe::cli
