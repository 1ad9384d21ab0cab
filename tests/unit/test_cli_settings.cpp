// Options are validated once, before any request: every mistake is a UsageError (exit 2).
#include <doctest/doctest.h>

#include <filesystem>

#include "cli/settings.hpp"

using namespace adrprobe;
using cli::UsageError;

TEST_CASE("outputs: formats from the table; -o paths checked before the run; '-' is stdout") {
  cli::OutputArgs a;
  auto out = cli::to_output(a);
  REQUIRE(out.format);
  CHECK(out.format->name == "text");
  a.format = "pdf";
  CHECK_THROWS_AS(cli::to_output(a), UsageError);
  a.format = "junit";  // in the contract, not built yet
  CHECK_THROWS_WITH_AS(cli::to_output(a), doctest::Contains("not available"), UsageError);
  a.format = "";
  a.outputs = {"json=/nonexistent-dir/report.json"};
  CHECK_THROWS_WITH_AS(cli::to_output(a), doctest::Contains("does not exist"), UsageError);
  a.outputs = {"json=" + std::filesystem::temp_directory_path().string()};
  CHECK_THROWS_WITH_AS(cli::to_output(a), doctest::Contains("directory"), UsageError);
  a.outputs = {"json=-"};
  out = cli::to_output(a);
  CHECK(out.format == nullptr);  // stdout is the JSON report's
  a.format = "text";
  CHECK_THROWS_WITH_AS(cli::to_output(a), doctest::Contains("both write to stdout"), UsageError);
  a.format = "";
  a.outputs = {"json=-", "text=-"};
  CHECK_THROWS_AS(cli::to_output(a), UsageError);
  a.outputs = {};
  a.edition = "9.9";
  CHECK_THROWS_WITH_AS(cli::to_output(a), doctest::Contains("unknown edition"), UsageError);
  a.edition = "2.1.0";
  a.fail_on = "sometimes";
  CHECK_THROWS_AS(cli::to_output(a), UsageError);
}

TEST_CASE("settings: bounds, headers, parameters and documents") {
  cli::ProbeArgs a;
  auto s = cli::to_settings(a, "https://api.example.nl/v1");
  CHECK(s.live());
  CHECK(s.client.user_agent.rfind("adrprobe/", 0) == 0);
  CHECK_FALSE(s.client.allow_unsafe);
  a.allow_unsafe = true;
  CHECK(cli::to_settings(a, "https://h/v1").client.allow_unsafe);
  a.headers = {"X-Api-Key: geheim"};
  a.params = {"id=1"};
  s = cli::to_settings(a, "https://h/v1");
  CHECK(s.headers == std::vector<http::Header>{{"X-Api-Key", "geheim"}});
  CHECK(s.params.at("id") == "1");
  for (auto bad : std::vector<std::function<void(cli::ProbeArgs&)>>{
           [](cli::ProbeArgs& x) { x.timeout = 0; }, [](cli::ProbeArgs& x) { x.concurrency = 0; },
           [](cli::ProbeArgs& x) { x.rate = -1; }, [](cli::ProbeArgs& x) { x.deadline = 1e9; },
           [](cli::ProbeArgs& x) { x.max_paths = -1; }, [](cli::ProbeArgs& x) { x.openapi = "/nonexistent.yaml"; },
           [](cli::ProbeArgs& x) { x.ca_file = "/nonexistent.pem"; }, [](cli::ProbeArgs& x) { x.headers = {"nocolon"}; }}) {
    cli::ProbeArgs b;
    bad(b);
    CHECK_THROWS_AS(cli::to_settings(b, "https://h/v1"), UsageError);
  }
  CHECK_NOTHROW(cli::check_document_location("https://h/v1/openapi.yaml", "x"));
  CHECK_THROWS_AS(cli::check_document_location("/nonexistent/openapi.yaml", "x"), UsageError);
}

TEST_CASE("parsers: base URL, header, assignment, fail-on") {
  CHECK(cli::parse_base_url("https://api.example.nl/v1/") == "https://api.example.nl/v1");
  CHECK_THROWS_AS(cli::parse_base_url("ftp://h/v1"), UsageError);
  CHECK_THROWS_AS(cli::parse_base_url("https://h/v1?x=1"), UsageError);
  CHECK(cli::parse_header("Authorization:  Bearer x ") == http::Header{"Authorization", "Bearer x"});
  CHECK_THROWS_AS(cli::parse_header("Bad Name: x"), UsageError);
  CHECK(cli::parse_assignment("json=a=b", "-o") == std::pair<std::string, std::string>{"json", "a=b"});
  CHECK(cli::parse_fail_on("warn") == report::FailOn::warn);
  CHECK(cli::edition_list().find(" and ") != std::string::npos);
}
