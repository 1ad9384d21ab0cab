// cli/options: the shared options bound to CLI11, their choices in --help and their messages.
#include <doctest/doctest.h>

#include <algorithm>

#include "cli/options.hpp"
#include "util/strings.hpp"

using namespace adrprobe;
using adrprobe::cli::UsageError;

TEST_CASE("help and option checks: choices listed from the catalogue and the format table, clear messages") {
  for (const char* name : {"check", "lint", "demo"}) {
    CAPTURE(name);
    CLI::App app;
    cli::OutputArgs out;
    auto* cmd = app.add_subcommand(name);
    cli::add_output_options(cmd, out);
    std::string help = cmd->help();
    CHECK(help.find("{1.0,2.0.0,2.0.1,2.0.2,2.1.0,2.2.0,latest}") != std::string::npos);
    // the formats built so far, from the format table
    CHECK(help.find("{" + replace_all(report::format_names(), ", ", ",") + "}") != std::string::npos);
    CHECK(help.find("{fail,warn,regressed,never}") != std::string::npos);
    CHECK(help.find("Exit status") != std::string::npos);
    CHECK_THROWS_WITH_AS(app.parse(std::vector<std::string>{"3.0", "--edition", name}),
                         doctest::Contains("unknown edition '3.0'"), CLI::ValidationError);
  }
  auto parse = [](std::vector<std::string> args) {
    CLI::App app;
    cli::OutputArgs out;
    cli::add_output_options(app.add_subcommand("check"), out);
    std::reverse(args.begin(), args.end());  // CLI11 takes the arguments last first
    args.push_back("check");
    app.parse(args);
    return out;
  };
  CHECK(parse({"--edition", "2.0.2"}).edition == "2.0.2");
  CHECK(parse({"--edition", "latest", "-f", "json", "-o", "text=-"}).format == "json");
  CHECK_THROWS_WITH_AS(parse({"-f", "pdf"}), doctest::Contains(("unknown format 'pdf' (available: " + report::format_names() + ")").c_str()),
                       CLI::ValidationError);
  CHECK(parse({"-f", "openmetrics"}).format == "openmetrics");
  CHECK_THROWS_WITH_AS(parse({"-o", "pdf=x.pdf"}), doctest::Contains("unknown format 'pdf'"), CLI::ValidationError);
  CHECK_THROWS_WITH_AS(parse({"--fail-on", "sometimes"}), doctest::Contains("fail, warn, regressed or never"),
                       CLI::ValidationError);
}
