// Options are validated once, before any request: every mistake is a UsageError (exit 2).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "cli/settings.hpp"
#include "report/formats.hpp"
#include "util/strings.hpp"

using namespace adrprobe;
using cli::UsageError;

TEST_CASE("outputs: formats from the table; -o paths checked before the run; '-' is stdout") {
  cli::OutputArgs a;
  auto out = cli::to_output(a);
  REQUIRE(out.format);
  CHECK(out.format->name == "text");
  a.format = "pdf";
  CHECK_THROWS_AS(cli::to_output(a), UsageError);
  for (const auto& f : report::formats()) {  // every format of the contract is built
    a.format = std::string(f.name);
    CHECK(cli::to_output(a).format->name == f.name);
  }
  a.format = "";
  a.outputs = {"json=/nonexistent-dir/report.json"};
  CHECK_THROWS_WITH_AS(cli::to_output(a), doctest::Contains("does not exist"), UsageError);
  a.outputs = {"json=" + std::filesystem::temp_directory_path().string()};
  CHECK_THROWS_WITH_AS(cli::to_output(a), doctest::Contains("directory"), UsageError);
  // two formats to one file: one would overwrite the other
  auto same = (std::filesystem::temp_directory_path() / "adrprobe-same-file.out").string();
  a.outputs = {"html=" + same, "json=" + same};
  CHECK_THROWS_WITH_AS(cli::to_output(a), doctest::Contains("write the same file"), UsageError);
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

TEST_CASE("editions: an alias or latest resolves to the catalogue that judges it; the name asked is kept") {
  cli::OutputArgs a;
  a.edition = "2.0.1";
  auto out = cli::to_output(a);
  REQUIRE(out.edition);
  CHECK(out.edition->edition == "2.0.0");
  CHECK(out.edition_asked == "2.0.1");
  a.edition = "latest";
  CHECK(cli::to_output(a).edition->edition == "2.2.0");
  CHECK(cli::edition_or_throw("2.0.2").edition == "2.0.0");
  CHECK_THROWS_WITH_AS(cli::edition_or_throw("2.0.3"), doctest::Contains("2.0.1, 2.0.2"), UsageError);
  std::string help = cli::edition_help();
  CHECK(help.find("2.0.1 and 2.0.2 are judged as 2.0.0 (editorial changes only)") != std::string::npos);
  CHECK(help.find("latest is 2.2.0") != std::string::npos);
}

TEST_CASE("a base URL without a scheme: https:// suggested when it looks like a host") {
  CHECK_THROWS_WITH_AS(cli::parse_base_url("api.example.nl/v1"),
                       doctest::Contains("did you mean https://api.example.nl/v1?"), UsageError);
  CHECK_THROWS_WITH_AS(cli::parse_base_url("localhost:8080/v1"),
                       doctest::Contains("did you mean https://localhost:8080/v1?"), UsageError);
  for (const char* text : {"notaurl", "http//127.0.0.1/v1", "./v1", "a..b/v1"}) {
    CAPTURE(text);
    try {
      cli::parse_base_url(text);
      FAIL("no error");
    } catch (const UsageError& e) {
      std::string what = e.what();
      CHECK(what.find("has no scheme") != std::string::npos);
      CHECK(what.find("did you mean") == std::string::npos);
      CHECK(what.find(text) != std::string::npos);
    }
  }
  CHECK_THROWS_WITH_AS(cli::parse_base_url("user:geheim@api.example.nl/v1"), doctest::Contains("user:***@"),
                       UsageError);
  CHECK_THROWS_WITH_AS(cli::check_document_location("api.example.nl/v1/openapi.json", "x"),
                       doctest::Contains("did you mean https://api.example.nl/v1/openapi.json?"), UsageError);
  try {
    cli::check_document_location("missing-openapi.yaml", "x");
    FAIL("no error");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()).find("did you mean") == std::string::npos);  // a file name, not a host
  }
}

TEST_CASE("--user-agent replaces adrprobe/<version>; one line") {
  cli::ProbeArgs a;
  CHECK(cli::to_settings(a, "https://h/v1").client.user_agent.rfind("adrprobe/", 0) == 0);
  a.user_agent = "audit-bot/2 (+https://example.nl)";
  CHECK(cli::to_settings(a, "https://h/v1").client.user_agent == "audit-bot/2 (+https://example.nl)");
  a.user_agent = "a\r\nX-Injected: 1";
  CHECK_THROWS_AS(cli::to_settings(a, "https://h/v1"), UsageError);
}

namespace {
std::string temp_file(const std::string& body) {
  char path[] = "/tmp/adrprobe-headers-XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  REQUIRE(write(fd, body.data(), body.size()) == static_cast<ssize_t>(body.size()));
  close(fd);
  return path;
}
// The message of the UsageError f throws ("" when none).
template <class F>
std::string usage_error(F f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("${VAR} in a header value is read from the environment; an unset one is named, no value ever shown") {
  setenv("ADRPROBE_TEST_KEY", "geheim-uit-env", 1);
  unsetenv("ADRPROBE_TEST_UNSET");
  CHECK(cli::expand_env("Bearer ${ADRPROBE_TEST_KEY}", "-H X") == "Bearer geheim-uit-env");
  CHECK(cli::expand_env("${ADRPROBE_TEST_KEY}-${ADRPROBE_TEST_KEY}", "-H X") == "geheim-uit-env-geheim-uit-env");
  CHECK(cli::expand_env("no variables $HOME {x} $", "-H X") == "no variables $HOME {x} $");
  std::string e = usage_error([] { cli::expand_env("a${ADRPROBE_TEST_UNSET}", "-H X-Api-Key"); });
  CHECK(e == "-H X-Api-Key: the environment variable ADRPROBE_TEST_UNSET is not set");
  for (const char* bad : {"${", "${}", "${1X}", "${A-B}", "${OPEN"}) {
    CAPTURE(bad);
    CHECK(usage_error([&] { cli::expand_env(bad, "-H X"); }).find("variable name") != std::string::npos);
  }
  setenv("ADRPROBE_TEST_TWO_LINES", "a\r\nInjected: 1", 1);
  CHECK(usage_error([] { cli::expand_env("${ADRPROBE_TEST_TWO_LINES}", "-H X"); }).find("more than one line") !=
        std::string::npos);

  cli::ProbeArgs a;
  a.headers = {"Authorization: Bearer ${ADRPROBE_TEST_KEY}"};
  auto s = cli::to_settings(a, "https://h/v1");
  CHECK(s.headers == std::vector<http::Header>{{"Authorization", "Bearer geheim-uit-env"}});
  a.headers = {"X-Api-Key: ${ADRPROBE_TEST_UNSET}"};
  e = usage_error([&] { cli::to_settings(a, "https://h/v1"); });
  CHECK(e.find("ADRPROBE_TEST_UNSET") != std::string::npos);
  unsetenv("ADRPROBE_TEST_KEY");
  unsetenv("ADRPROBE_TEST_TWO_LINES");
}

TEST_CASE("--header-file: one 'Name: value' a line, comments and blank lines skipped, errors name the line only") {
  setenv("ADRPROBE_TEST_TOKEN", "tok-uit-env-123", 1);
  std::string path = temp_file(
      "# API keys for the nightly run\r\n"
      "\n"
      "X-Api-Key: file-secret-value-1\r\n"
      "   # indented comment\n"
      "Authorization: Bearer ${ADRPROBE_TEST_TOKEN}\n"
      "X-Note: a # is part of a value\n");
  auto headers = cli::read_header_file(path);
  CHECK(headers == std::vector<http::Header>{{"X-Api-Key", "file-secret-value-1"},
                                             {"Authorization", "Bearer tok-uit-env-123"},
                                             {"X-Note", "a # is part of a value"}});
  // With -H: both become the run's headers (and so the Redactor's secrets).
  cli::ProbeArgs a;
  a.headers = {"X-Trace: 1"};
  a.header_files = {path};
  auto s = cli::to_settings(a, "https://h/v1");
  REQUIRE(s.headers.size() == 4);
  CHECK(s.headers[0].first == "X-Trace");
  CHECK(s.headers[2].second == "Bearer tok-uit-env-123");
  std::remove(path.c_str());

  path = temp_file("X-Ok: 1\n\nthis line has no colon secret-in-line\n");
  std::string e = usage_error([&] { cli::read_header_file(path); });
  CHECK(e.find("line 3") != std::string::npos);
  CHECK(e.find("secret-in-line") == std::string::npos);
  std::remove(path.c_str());
  path = temp_file("Bad Name: secret-in-line\n");
  e = usage_error([&] { cli::read_header_file(path); });
  CHECK(e.find("line 1") != std::string::npos);
  CHECK(e.find("secret-in-line") == std::string::npos);
  std::remove(path.c_str());
  path = temp_file("\nX-Key: ${ADRPROBE_TEST_NOT_SET_ANYWHERE}\n");
  e = usage_error([&] { cli::read_header_file(path); });
  CHECK(e.find("line 2") != std::string::npos);
  CHECK(e.find("ADRPROBE_TEST_NOT_SET_ANYWHERE is not set") != std::string::npos);
  std::remove(path.c_str());
  CHECK(usage_error([] { cli::read_header_file("/nonexistent/headers.txt"); }).find("cannot read") != std::string::npos);
  CHECK_FALSE(usage_error([] { cli::read_header_file("/tmp"); }).empty());  // a directory
  unsetenv("ADRPROBE_TEST_TOKEN");
}

TEST_CASE("--resolve: curl's HOST:PORT:ADDR[,ADDR...], checked before the run; into the client settings") {
  for (const char* good : {"api.example.nl:443:192.0.2.10", "api.example.nl:443:[2001:db8::1],192.0.2.10",
                           "localhost:8443:[100::1],127.0.0.1", "+api.example.nl:443:2001:db8::1", "*:443:127.0.0.1"}) {
    INFO(good);
    CHECK_NOTHROW(cli::check_resolve_entry(good));
  }
  for (const char* bad : {"api.example.nl", "api.example.nl:443", "api.example.nl:443:", ":443:192.0.2.1",
                          "api.example.nl:0:192.0.2.1", "api.example.nl:https:192.0.2.1",
                          "api.example.nl:70000:192.0.2.1", "api.example.nl:443:not-an-address",
                          "api.example.nl:443:192.0.2.1,,192.0.2.2", "api.example.nl:443:[::1"}) {
    INFO(bad);
    CHECK_THROWS_WITH_AS(cli::check_resolve_entry(bad), doctest::Contains("--resolve '"), UsageError);
  }
  cli::ProbeArgs a;
  a.resolve = {"api.example.nl:443:[100::1],127.0.0.1"};
  auto s = cli::to_settings(a, "https://api.example.nl/v1");
  CHECK(s.client.resolve == a.resolve);
  a.resolve = {"api.example.nl:443"};
  CHECK_THROWS_AS(cli::to_settings(a, "https://api.example.nl/v1"), UsageError);
}

TEST_CASE("--rules: ids or aliases of the edition, any case, in the edition's order; unknown names are usage errors") {
  const auto& e = cli::edition_or_throw("2.0.0");
  auto chosen = cli::select_rules(e, "/core/semver, api-48");
  REQUIRE(chosen.size() == 2);
  CHECK(chosen[0] == "/core/no-trailing-slash");  // API-48, first in the edition
  CHECK(chosen[1] == "/core/semver");
  CHECK_THROWS_AS(cli::select_rules(e, "/core/nonsense"), UsageError);
  CHECK_THROWS_AS(cli::select_rules(e, " , "), UsageError);
  cli::OutputArgs a;
  a.rules = "/core/semver";
  CHECK(cli::to_output(a).rules == std::vector<std::string>{"/core/semver"});
  a.checklist = "long";
  CHECK_THROWS_AS(cli::to_output(a), UsageError);
  a.checklist = "full";
  CHECK(cli::to_output(a).file.checklist_full);
}

TEST_CASE("the command line as given: quoted for a shell, every -H value masked however it is written") {
  std::vector<std::string> args{"adrprobe", "check", "https://u:pw@api.example.nl/v1", "-H", "X-Api-Key: s3cr3t",
                                "-HAuthorization: Bearer abc", "--header=Cookie: a=b", "--header", "X-Two: it's",
                                "-qH", "X-Key: v", "-vHX-Three: w'x", "--rules", "/core/semver,API-48"};
  // The values as the parser took them.
  std::vector<std::string> secrets{"X-Api-Key: s3cr3t", "Authorization: Bearer abc", "Cookie: a=b", "X-Two: it's",
                                   "X-Key: v", "X-Three: w'x"};
  std::vector<char*> argv;
  for (auto& s : args) argv.push_back(s.data());
  cli::record_command_line(static_cast<int>(argv.size()), argv.data(), secrets);
  const std::string& line = cli::command_line();
  CHECK(line == "adrprobe check 'https://u:***@api.example.nl/v1' -H 'X-Api-Key: ***' '-HAuthorization: ***' "
                "'--header=Cookie: ***' --header 'X-Two: ***' -qH 'X-Key: ***' '-vHX-Three: ***' "
                "--rules /core/semver,API-48");
  CHECK(line.find("s3cr3t") == std::string::npos);
  CHECK(line.find("Bearer") == std::string::npos);
  CHECK(line.find(":pw@") == std::string::npos);
  CHECK(line.find("it") == std::string::npos);
  // A value that is no option's stays, though it is spelled like one.
  std::vector<std::string> plain{"adrprobe", "check", "https://api.example.nl/v1", "--user-agent", "X-Key: v2"};
  argv.clear();
  for (auto& s : plain) argv.push_back(s.data());
  cli::record_command_line(static_cast<int>(argv.size()), argv.data(), secrets);
  CHECK(cli::command_line() == "adrprobe check https://api.example.nl/v1 --user-agent 'X-Key: v2'");
}

TEST_CASE("--rules takes a module's rule ids after the edition's; --modules geo needs an edition with its rule") {
  const auto& cat = catalogue::Catalogue::builtin();
  const auto& e = *cat.edition("2.2.0");
  CHECK(cli::select_rules(e, "/GEO/crs-list,/core/semver") == std::vector<std::string>{"/core/semver", "/geo/crs-list"});
  CHECK_THROWS_WITH_AS(cli::select_rules(*cat.edition("1.0"), "/geo/crs-list"), doctest::Contains("has no rule"),
                       cli::UsageError);
  CHECK(cli::modules_or_throw(e, "auto") == "auto");
  CHECK(cli::modules_or_throw(*cat.edition("1.0"), "none") == "none");
  CHECK_THROWS_WITH_AS(cli::modules_or_throw(*cat.edition("1.0"), "geo"),
                       "--modules geo with --edition 1.0: edition 1.0 has no rule /core/geospatial requiring the "
                       "Geospatial module",
                       cli::UsageError);
  CHECK_THROWS_WITH_AS(cli::modules_or_throw(e, "signing"), "--modules signing: give auto, none, geo", cli::UsageError);
}
