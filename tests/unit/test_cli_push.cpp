// The push of summary.prom: the Pushgateway group's URL, and the options
// checked before anything runs. The push itself is tested against Debian's
// Pushgateway (tests/integration/test_pushgateway.py).
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "cli/push.hpp"
#include "cli/settings.hpp"

using namespace adrprobe;

TEST_CASE("push: the group's URL, a name of other characters in the Pushgateway's base64url form") {
  const std::string base = "http://pg.example:9091";
  CHECK(cli::pushgateway_group_url(base, "apis") == base + "/metrics/job/adrprobe/register/apis");
  CHECK(cli::pushgateway_group_url(base, "Gemeente_API-s.v2~") ==
        base + "/metrics/job/adrprobe/register/Gemeente_API-s.v2~");
  // base64url without padding: "team a/apis" is dGVhbSBhL2FwaXM=
  CHECK(cli::pushgateway_group_url(base, "team a/apis") == base + "/metrics/job/adrprobe/register@base64/dGVhbSBhL2FwaXM");
  // '+' and '/' of base64 become '-' and '_': "a>>" is YT4+, "a?\?" is YT8/
  CHECK(cli::pushgateway_group_url(base, "a>>") == base + "/metrics/job/adrprobe/register@base64/YT4-");
  CHECK(cli::pushgateway_group_url(base, "a?\?") == base + "/metrics/job/adrprobe/register@base64/YT8_");
  CHECK(cli::pushgateway_group_url(base, "gemeente/%2F") ==
        base + "/metrics/job/adrprobe/register@base64/Z2VtZWVudGUvJTJG");
  CHECK(cli::pushgateway_group_url(base, "äpis") == base + "/metrics/job/adrprobe/register@base64/w6RwaXM");
  // dot segments would be resolved away on the way
  CHECK(cli::pushgateway_group_url(base, ".") == base + "/metrics/job/adrprobe/register@base64/Lg");
  CHECK(cli::pushgateway_group_url(base, "..") == base + "/metrics/job/adrprobe/register@base64/Li4");
  // behind a reverse proxy's prefix
  CHECK(cli::pushgateway_group_url("https://ops.example/pushgateway", "apis") ==
        "https://ops.example/pushgateway/metrics/job/adrprobe/register/apis");
}

TEST_CASE("push: --pushgateway is an http(s) base URL, without the group") {
  CHECK(cli::parse_pushgateway_url("http://pg.example:9091/") == "http://pg.example:9091");
  CHECK(cli::parse_pushgateway_url("https://ops.example/pushgateway/") == "https://ops.example/pushgateway");
  CHECK_THROWS_WITH_AS(cli::parse_pushgateway_url("ftp://pg.example/"), doctest::Contains("--pushgateway: "),
                       cli::UsageError);
  CHECK_THROWS_WITH_AS(cli::parse_pushgateway_url("http://pg.example:9091/?x=1"), doctest::Contains("no query"),
                       cli::UsageError);
  CHECK_THROWS_WITH_AS(cli::parse_pushgateway_url("http://pg.example:9091/metrics/job/adrprobe"),
                       doctest::Contains("adrprobe adds the group"), cli::UsageError);
  // an error never shows a password
  try {
    cli::parse_pushgateway_url("http://u:s3cret-pw@pg.example:9091/metrics/job/x");
    FAIL("accepted");
  } catch (const cli::UsageError& e) {
    CHECK(std::string(e.what()).find("s3cret-pw") == std::string::npos);
    CHECK(std::string(e.what()).find("u:***@") != std::string::npos);
  }
}

TEST_CASE("push: the register's name is a label value") {
  CHECK(cli::register_name_problem("apis") == "");
  CHECK(cli::register_name_problem("team a/äpis") == "");
  CHECK(cli::register_name_problem("") != "");
  CHECK(cli::register_name_problem("a\nb") != "");
  CHECK(cli::register_name_problem("a\x1b[31m") != "");
  CHECK(cli::register_name_problem(std::string("a\xff")) != "");
  CHECK(cli::register_name_problem("a\xe2\x80\xae") != "");  // U+202E reorders what follows
}

TEST_CASE("push: the options, checked before anything runs") {
  cli::PushArgs none;
  CHECK(cli::to_push(none, "-H", 10, "", "ua").url.empty());
  cli::PushArgs a;
  a.url = "http://127.0.0.1:9091/";
  a.headers = {"Authorization: Bearer ${ADRPROBE_TEST_PUSH_TOKEN}"};
  setenv("ADRPROBE_TEST_PUSH_TOKEN", "t0ken-value", 1);
  cli::Push push = cli::to_push(a, "-H", 3, "", "adrprobe/x");
  CHECK(push.url == "http://127.0.0.1:9091");
  CHECK(push.headers == std::vector<http::Header>{{"Authorization", "Bearer t0ken-value"}});
  CHECK(push.timeout_s == 3);
  CHECK(push.user_agent == "adrprobe/x");
  // a header's error names the option and the variable, never the value
  unsetenv("ADRPROBE_TEST_PUSH_TOKEN");
  CHECK_THROWS_WITH_AS(cli::to_push(a, "--pushgateway-header", 3, "", "ua"),
                       doctest::Contains("--pushgateway-header Authorization: the environment variable "
                                         "ADRPROBE_TEST_PUSH_TOKEN is not set"),
                       cli::UsageError);
  a.headers = {"no colon here s3cret"};
  try {
    cli::to_push(a, "--pushgateway-header", 3, "", "ua");
    FAIL("accepted");
  } catch (const cli::UsageError& e) {
    CHECK(std::string(e.what()).find("s3cret") == std::string::npos);
    CHECK(std::string(e.what()).find("--pushgateway-header") != std::string::npos);
  }
  a.headers.clear();
  CHECK_THROWS_WITH_AS(cli::to_push(a, "-H", 0, "", "ua"), doctest::Contains("--timeout"), cli::UsageError);
  CHECK_THROWS_WITH_AS(cli::to_push(a, "-H", 3, "/nonexistent/ca.pem", "ua"), doctest::Contains("--ca-file"),
                       cli::UsageError);
  a.register_name = "a\nb";
  CHECK_THROWS_WITH_AS(cli::to_push(a, "-H", 3, "", "ua"), doctest::Contains("--register-name"), cli::UsageError);
}

TEST_CASE("push: a push that fails is false, never an exception") {
  cli::Push push;
  push.url = "http://127.0.0.1:1";  // nothing listens on port 1
  push.timeout_s = 5;
  CHECK_FALSE(cli::push_summary(push, "apis", "# EOF\n"));
  CHECK_FALSE(cli::push_summary(push, "", "# EOF\n"));  // no register name: said, not pushed
}
