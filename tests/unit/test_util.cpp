#include <doctest/doctest.h>

#include "http/allow.hpp"
#include "http/client.hpp"
#include "util/semver.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

using namespace adrprobe;

TEST_CASE("semver: edition 1.0 accepts MAJOR.MINOR.PATCH only") {
  CHECK(is_semver("1.0.0", SemverGrammar::core));
  CHECK(is_semver("10.20.30", SemverGrammar::core));
  CHECK_FALSE(is_semver("1.0.0-rc.1", SemverGrammar::core));
  CHECK_FALSE(is_semver("1.0.0+build.5", SemverGrammar::core));
  CHECK_FALSE(is_semver("v1.2.3", SemverGrammar::core));
  CHECK_FALSE(is_semver("1.2", SemverGrammar::core));
  CHECK_FALSE(is_semver("01.2.3", SemverGrammar::core));
  CHECK_FALSE(is_semver("", SemverGrammar::core));
}

TEST_CASE("semver: edition 2.0.0 accepts the full SemVer 2.0.0 grammar") {
  CHECK(is_semver("1.0.0", SemverGrammar::full));
  CHECK(is_semver("1.0.0-rc.1", SemverGrammar::full));
  CHECK(is_semver("1.0.0-alpha.beta+exp.sha.5114f85", SemverGrammar::full));
  CHECK_FALSE(is_semver("v1.2.3", SemverGrammar::full));
  CHECK_FALSE(is_semver("1.2", SemverGrammar::full));
  CHECK_FALSE(is_semver("01.2.3", SemverGrammar::full));
  CHECK_FALSE(is_semver("1.0.0-01", SemverGrammar::full));  // numeric pre-release ids have no leading zero
  CHECK_FALSE(is_semver("1.0.0-", SemverGrammar::full));
}

TEST_CASE("semver: leading major") {
  CHECK(leading_major("1.4") == 1);
  CHECK(leading_major("12.0.0") == 12);
  CHECK_FALSE(leading_major("v1").has_value());
  CHECK_FALSE(leading_major("").has_value());
}

TEST_CASE("url: parse keeps the path as given") {
  auto u = parse_url("https://api.example.nl/v1/gebouwen/");
  REQUIRE(u);
  CHECK(u->scheme == "https");
  CHECK(u->host == "api.example.nl");
  CHECK(u->port == 443);
  CHECK(u->path == "/v1/gebouwen/");
  CHECK(u->segments() == std::vector<std::string>{"v1", "gebouwen"});
  auto v6 = parse_url("http://[::1]:8080/v1");
  REQUIRE(v6);
  CHECK(v6->host == "::1");
  CHECK(v6->port == 8080);
}

TEST_CASE("url: malformed input is rejected with a reason") {
  std::string error;
  CHECK_FALSE(parse_url("notaurl", &error));
  CHECK_FALSE(error.empty());
  CHECK_FALSE(parse_url("http://", &error));
  CHECK_FALSE(parse_url("http://exa mple.nl/v1", &error));
  CHECK_FALSE(parse_url("", &error));
}

TEST_CASE("url: relative resolution (RFC 3986)") {
  CHECK(resolve_url("https://h/v1/openapi.json", "/v1") == "https://h/v1");
  CHECK(resolve_url("https://h/v1/openapi.json", "schemas/a.yaml") == "https://h/v1/schemas/a.yaml");
  CHECK(resolve_url("https://h/v1/openapi.json", "../common.json") == "https://h/common.json");
  CHECK(resolve_url("https://h/v1/openapi.json", "https://other/x.json") == "https://other/x.json");
  CHECK(resolve_url("file:///tmp/a/openapi.json", "/") == "file:///");  // libcurl says file://(nil)
  CHECK(resolve_url("file:///tmp/a/openapi.json", "../b.yaml") == "file:///tmp/b.yaml");
  CHECK(strip_trailing_slash("https://h/v1/") == "https://h/v1");
  CHECK(url_path("https://h/v1/a/?q=1") == "/v1/a/?q=1");
}

TEST_CASE("url: under {base} is the same origin and a path at or below base's") {
  CHECK(under_base("https://h/v1", "https://h/v1"));
  CHECK(under_base("https://h/v1/", "https://h/v1"));
  CHECK(under_base("https://h/v1/openapi.json", "https://h/v1"));
  CHECK(under_base("https://H:443/v1/a/b", "https://h/v1"));
  CHECK_FALSE(under_base("https://h/v10", "https://h/v1"));
  CHECK_FALSE(under_base("https://h/schemas/common.yaml", "https://h/v1"));
  CHECK_FALSE(under_base("http://h/v1/a", "https://h/v1"));
  CHECK_FALSE(under_base("https://h:8443/v1/a", "https://h/v1"));
  CHECK_FALSE(under_base("https://other/v1/a", "https://h/v1"));
  CHECK(under_base("https://h/anything", "https://h"));
  CHECK_FALSE(under_base("not a url", "https://h/v1"));
}

TEST_CASE("strings: percent coding and joins") {
  CHECK(percent_decode("a%20b%7E") == "a b~");
  CHECK(percent_decode("100%") == "100%");
  CHECK(percent_decode("%zz") == "%zz");
  CHECK(percent_encode("a b/c") == "a%20b%2Fc");
  CHECK(join({"a", "b", "c"}, ", ", 2) == "a, b, … (+1 more)");
  CHECK(plural(1, "path", "paths") == "1 path");
  CHECK(plural(2, "path", "paths") == "2 paths");
}

TEST_CASE("Allow header parsing") {
  auto a = http::parse_allow("GET, head,OPTIONS ,, ");
  CHECK(a == std::set<std::string>{"GET", "HEAD", "OPTIONS"});
  CHECK(http::parse_allow("").empty());
  CHECK(http::is_safe_method("TRACE"));
  CHECK_FALSE(http::is_safe_method("DELETE"));
}
