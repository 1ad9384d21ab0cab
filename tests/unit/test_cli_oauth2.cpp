// OAuth 2.0 client credentials: the settings checked before anything runs
// and the token endpoint's answer read. The token fetch itself is tested
// against a real authorisation server (tests/integration/test_oauth2.py).
#include <doctest/doctest.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "cli/oauth2.hpp"

using namespace adrprobe;

namespace {

std::string usage_error(const cli::OAuth2Args& args, cli::OAuth2Names names = cli::OAuth2Names::options) {
  try {
    cli::to_oauth2(args, names);
    return "(no error)";
  } catch (const cli::UsageError& e) {
    return e.what();
  }
}

std::string answer_error(int status, const std::string& body, bool cut = false) {
  try {
    cli::read_token_answer(status, body, cut);
    return "(no error)";
  } catch (const std::runtime_error& e) {
    return e.what();
  }
}

}  // namespace

TEST_CASE("oauth2 settings: nothing given is none; the endpoint, id and secret are checked, the secret never shown") {
  CHECK_FALSE(cli::to_oauth2({}, cli::OAuth2Names::options).enabled());
  cli::OAuth2Args ok{"https://auth.example.nl/token", "client", "s3cret-value", "read write", ""};
  auto o = cli::to_oauth2(ok, cli::OAuth2Names::options);
  CHECK(o.enabled());
  CHECK(o.basic);
  CHECK(o.scope == "read write");
  CHECK(usage_error({"", "client", "s3cret-value", "", ""}).find("--oauth2-token-url is missing") == 0);
  CHECK(usage_error({"", "client", "", "", ""}, cli::OAuth2Names::batch_keys).find("oauth2: token_url is missing") == 0);
  CHECK(usage_error({"https://auth.example.nl/token", "", "s3cret-value", "", ""}).find("--oauth2-client-id is missing") == 0);
  CHECK(usage_error({"https://auth.example.nl/token", "c", "", "", ""}).find("--oauth2-client-secret is missing") == 0);
  // http only on loopback: the secret is sent there
  CHECK(usage_error({"http://auth.example.nl/token", "c", "s3cret-value", "", ""}).find("must be https") != std::string::npos);
  CHECK(usage_error({"http://127.0.0.1:8080/token", "c", "s3cret-value", "", ""}) == "(no error)");
  CHECK(usage_error({"http://[::1]:8080/token", "c", "s3cret-value", "", ""}) == "(no error)");
  CHECK(usage_error({"http://localhost/token", "c", "s3cret-value", "", ""}) == "(no error)");
  CHECK(usage_error({"https://auth.example.nl/token", "c", "s3cret-value", "", "digest"}) ==
        "--oauth2-auth: expected basic or post, not 'digest'");
  CHECK(!cli::to_oauth2({"https://a.example/t", "c", "s3cret-value", "", "post"}, cli::OAuth2Names::options).basic);
  std::string bad_line = usage_error({"https://a.example/t", "c", "line\nbreak-secret", "", ""});
  CHECK(bad_line.find("control characters") != std::string::npos);
  CHECK(bad_line.find("break-secret") == std::string::npos);
}

TEST_CASE("oauth2 settings: ${VAR} in the secret is read from the environment") {
  setenv("ADRPROBE_UT_OAUTH2", "from-the-env", 1);
  auto o = cli::to_oauth2({"https://a.example/t", "c", "${ADRPROBE_UT_OAUTH2}", "", ""}, cli::OAuth2Names::batch_keys);
  CHECK(o.client_secret == "from-the-env");
  unsetenv("ADRPROBE_UT_OAUTH2");
  CHECK(usage_error({"https://a.example/t", "c", "${ADRPROBE_UT_OAUTH2}", "", ""}, cli::OAuth2Names::batch_keys) ==
        "oauth2: client_secret: the environment variable ADRPROBE_UT_OAUTH2 is not set");
}

TEST_CASE("oauth2 settings: a batch file's keys over the command line's, one token per endpoint, client and scope") {
  cli::OAuth2Args line{"https://a.example/t", "c", "s", "", ""};
  auto merged = cli::with_keys(line, {{"client_id", "other"}, {"scope", "read"}});
  CHECK(merged.token_url == "https://a.example/t");
  CHECK(merged.client_id == "other");
  CHECK(merged.scope == "read");
  auto a = cli::to_oauth2({"https://a.example/t", "c", "s1", "read", ""}, cli::OAuth2Names::options);
  auto b = cli::to_oauth2({"https://a.example/t", "c", "s2", "read", "post"}, cli::OAuth2Names::options);
  auto c = cli::to_oauth2({"https://a.example/t", "c", "s1", "write", ""}, cli::OAuth2Names::options);
  CHECK(a.share_key() == b.share_key());
  CHECK(a.share_key() != c.share_key());
}

TEST_CASE("oauth2 token answer: the token and its lifetime") {
  auto t = cli::read_token_answer(200, R"({"access_token":"abc.def","token_type":"bearer","expires_in":300})", false);
  CHECK(t.token == "abc.def");
  CHECK(t.expires_in == 300);
  CHECK_FALSE(cli::read_token_answer(200, R"({"access_token":"abc"})", false).expires_in);
  CHECK(cli::read_token_answer(200, R"({"access_token":"abc","expires_in":"3600"})", false).expires_in == 3600);
}

TEST_CASE("oauth2 token answer: a refusal names the status and the OAuth error, escaped") {
  CHECK(answer_error(401, R"({"error":"invalid_client","error_description":"bad \u001b[31m client"})") ==
        "HTTP 401: invalid_client: bad \\x1b[31m client");
  CHECK(answer_error(400, R"({"error":"invalid_scope"})") == "HTTP 400: invalid_scope");
  CHECK(answer_error(200, R"({"error":"server_error"})") == "HTTP 200: server_error");
  CHECK(answer_error(503, "<html>down</html>") == "HTTP 503");
}

TEST_CASE("oauth2 token answer: bad answers are clear errors") {
  CHECK(answer_error(200, "<html>token</html>").find("HTTP 200, but the answer is not a JSON object") == 0);
  CHECK(answer_error(200, "[1]").find("not a JSON object") != std::string::npos);
  CHECK(answer_error(200, std::string(70000, ' '), true) == "HTTP 200: the answer is larger than 64 KiB, not a token response");
  CHECK(answer_error(200, R"({"token_type":"Bearer"})") == "HTTP 200, but the answer has no access_token");
  CHECK(answer_error(200, R"({"access_token":""})") == "HTTP 200, but the answer has no access_token");
  CHECK(answer_error(200, "{\"access_token\":\"" + std::string(cli::max_token + 1, 'a') + "\"}") ==
        "HTTP 200, but the access_token is 16385 bytes, more than 16 KiB");
  CHECK(answer_error(200, R"({"access_token":"a b"})").find("characters a bearer token cannot") != std::string::npos);
  CHECK(answer_error(200, R"({"access_token":"a\r\nX-Injected: 1"})").find("characters a bearer token cannot") != std::string::npos);
  CHECK(answer_error(200, R"({"access_token":"abc","token_type":"mac"})") == "HTTP 200, but the token_type is \"mac\", not Bearer");
  CHECK(answer_error(200, R"({"access_token":"abc","expires_in":-1})") ==
        "HTTP 200, but expires_in -1 is not a positive number of seconds");
  CHECK(answer_error(200, R"({"access_token":"abc","expires_in":0})").find("expires_in 0 is not") != std::string::npos);
  CHECK(answer_error(200, R"({"access_token":"abc","expires_in":"soon"})").find("not a positive number") != std::string::npos);
}
