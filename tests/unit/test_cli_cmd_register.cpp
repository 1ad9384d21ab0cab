// cli/cmd_register: `adrprobe register` checks everything it is given before
// its first request (CLI.md: exit 2 on a usage error, nothing written).
// Paging, the written file and hostile answers are tested against real
// servers in tests/integration/test_register.py.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/options.hpp"

using namespace adrprobe;
using adrprobe::cli::UsageError;

namespace {
// Parses `register ARGS...` and runs it; what the run throws comes out.
int run_register(std::vector<std::string> args) {
  CLI::App app;
  cli::Command command = cli::register_command(app);
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments last first
  args.push_back("register");
  app.parse(args);
  return command.run();
}
}  // namespace

TEST_CASE("register: options are checked before any request") {
  // Port 9 of loopback: nothing is ever asked there, each case fails before.
  const std::string from = "http://127.0.0.1:9/api/v1";
  CHECK_THROWS_WITH_AS(run_register({"--from", from, "--status", "retired"}),
                       doctest::Contains("retired APIs are never written"), UsageError);
  CHECK_THROWS_WITH_AS(run_register({"--from", from, "--status", "active,bogus"}),
                       doctest::Contains("--status 'active,bogus'"), UsageError);
  CHECK_THROWS_WITH_AS(run_register({"--from", from, "--organisation", ""}),
                       doctest::Contains("--organisation: give the organisation's URI"), UsageError);
  CHECK_THROWS_AS(run_register({"--from", "ftp://127.0.0.1/api"}), UsageError);
  CHECK_THROWS_WITH_AS(run_register({"--from", from, "--merge", "/nonexistent/apis.yaml"}),
                       doctest::Contains("--merge /nonexistent/apis.yaml"), UsageError);
}
