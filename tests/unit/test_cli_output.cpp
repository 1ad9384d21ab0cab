// Writing a finished report: files in their formats, secrets masked first, exit status.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "cli/output.hpp"

using namespace adrprobe;

TEST_CASE("write_report: every file written, no secret in any, the exit status of CLI.md") {
  char dir[] = "/tmp/adrprobe-output-XXXXXX";
  REQUIRE(mkdtemp(dir));
  std::string json_path = std::string(dir) + "/r.json", text_path = std::string(dir) + "/r.txt";
  cli::OutputArgs args;
  args.outputs = {"json=" + json_path, "text=" + text_path};
  args.quiet = true;
  cli::Output output = cli::to_output(args);
  output.format = nullptr;  // nothing on stdout in this test
  report::Report rep;
  rep.base_url = "https://h/v1";
  report::RuleResult rule;
  rule.id = "/r";
  rule.kind = "technical";
  rule.verdict = report::Verdict::fail;
  rule.checks = {{"X-1", report::Verdict::fail, "echoed geheim-token-123", {}}};
  rep.rules = {rule};
  report::Redactor redactor(std::vector<http::Header>{{"X-Api-Key", "geheim-token-123"}});
  CHECK(cli::write_report(rep, output, redactor) == 1);
  for (const auto& path : {json_path, text_path}) {
    std::ifstream in(path);
    std::stringstream body;
    body << in.rdbuf();
    CHECK(body.str().find("/r") != std::string::npos);
    CHECK(body.str().find("geheim") == std::string::npos);
    std::remove(path.c_str());
  }
  std::remove(dir);
}

TEST_CASE("run_info: the command, the options that shape the verdicts, the libraries; header names, never values") {
  cli::OutputArgs args;
  args.edition = "2.0.2";
  cli::Output output = cli::to_output(args);
  cli::ProbeArgs probe;
  probe.headers = {"X-Api-Key: geheim-token-123"};
  probe.timeout = 5;
  probe.insecure = true;
  probe.ref_hosts = "any";
  engine::Settings settings = cli::to_settings(probe, "https://h/v1");
  report::RunInfo info = cli::run_info("check", settings, output);
  CHECK(info.command == "check");
  CHECK(info.edition_asked == "2.0.2");
  CHECK(info.edition_note == "editorial changes only");
  CHECK(info.timeout_s == 5);
  CHECK(info.insecure);
  CHECK_FALSE(info.ca_file);
  CHECK(info.ref_hosts == "any");
  CHECK(info.header_names == std::vector<std::string>{"X-Api-Key"});
  CHECK(info.libraries.count("libcurl"));
  CHECK(info.libraries.count("openssl"));
  args.edition = "latest";
  CHECK(cli::run_info("lint", settings, cli::to_output(args)).edition_note.empty());  // latest is no alias
}
