// util/url: URL parsing and relative resolution.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "util/url.hpp"

using namespace adrprobe;

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
  CHECK(resolve_url("file:///tmp/a/openapi.json", "/") == "file:///");  // libcurl says file://(nil)
  CHECK(resolve_url("file:///tmp/a/openapi.json", "../b.yaml") == "file:///tmp/b.yaml");
  CHECK(resolve_url("https://h/v1/openapi.json", "/v1") == "https://h/v1");
  CHECK(resolve_url("https://h/v1/openapi.json", "schemas/a.yaml") == "https://h/v1/schemas/a.yaml");
  CHECK(resolve_url("https://h/v1/openapi.json", "../common.json") == "https://h/common.json");
  CHECK(resolve_url("https://h/v1/openapi.json", "https://other/x.json") == "https://other/x.json");
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
  // The textual fast path agrees with the parse: what a parse would rewrite is parsed.
  CHECK(under_base("https://h/v1?q=1", "https://h/v1"));
  CHECK(under_base("https://h/v1#top", "https://h/v1"));
  bool dotted = under_base("https://h/v1/../x", "https://h/v1");
  CHECK(dotted == (parse_url("https://h/v1/../x")->path.rfind("/v1", 0) == 0));
  CHECK_FALSE(under_base("https://h.evil.example/v1", "https://h"));
  CHECK_FALSE(under_base("https://h@evil.example/v1", "https://h"));
  bool with_slash = under_base("https://h/v1/a", "https://h/v1/");
  CHECK(with_slash);
}

TEST_CASE("url: userinfo parts; the password masked in any text") {
  auto u = parse_url("https://user:p%40ss@api.example.nl/v1");
  REQUIRE(u);
  CHECK(u->user == "user");
  CHECK(u->password == "p%40ss");
  CHECK(u->host == "api.example.nl");
  CHECK(parse_url("https://api.example.nl/v1")->password.empty());
  CHECK(mask_url_password("https://user:secret@h/v1") == "https://user:***@h/v1");
  CHECK(mask_url_password("'http://user:se@cret@h:8080' is not valid") == "'http://user:***@h:8080' is not valid");
  CHECK(mask_url_password("http://user@h/v1 and https://h/a:b@c") == "http://user@h/v1 and https://h/a:b@c");
  CHECK(mask_url_password("a http://x:y@h b https://z:w@k") == "a http://x:***@h b https://z:***@k");
  CHECK(mask_url_password("no url at all: x@y") == "no url at all: x@y");
}

TEST_CASE("url_path: the plain-URL shortcut gives what a parse gives, or leaves the URL to the parse") {
  auto parsed_path = [](const std::string& url) {
    auto p = parse_url(url);
    return p ? (p->query.empty() ? p->path : p->path + "?" + p->query) : url;
  };
  std::vector<std::string> urls = {
      "http://127.0.0.1:8080/v1/collectie1", "https://api.example.nl/v1/", "https://api.example.nl/v1//",
      "https://api.example.nl", "https://api.example.nl?x=1", "https://api.example.nl#frag", "http://h/a?b=1#c?d",
      "http://h/a/./b/../c", "http://h:65535/a", "http://h:65536/a", "http://h:0/a", "http://h:080/a", "http://h:/a",
      "http://h/a?", "http://h/a?#", "http://h/a:b@c", "http://user@h/a", "http://user:pw@h/a", "HTTP://h/a",
      "http://[::1]:8/a", "http://h/%2e%2e/a", "http://h/a b", "http://h/caf\xc3\xa9", "http://h\\a", "ftp://h/a",
      "http:///a", "http://-/a", "http://a..b/x", "http://h/a;b=c,d!$&'()*+", "http://h?a/b", "http://h#a/b"};
  for (const auto& url : urls) {
    CAPTURE(url);
    CHECK(url_path(url) == parsed_path(url));
    if (auto plain = plain_url_path(url)) CHECK(*plain == parsed_path(url));
  }
  // Random URLs from the characters the shortcut takes and a few it must not.
  std::mt19937 random(20261127);
  const std::string alphabet = "ab09-._~/!$&'()*+,;=:@?#%[] \\";
  int shortcut = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string url = (i % 2 ? "http://" : "https://");
    if (i % 3) url += std::string("ab.0-").substr(random() % 5) + (i % 5 ? "" : ":" + std::to_string(random() % 70000));
    std::size_t n = random() % 24;
    for (std::size_t k = 0; k < n; ++k) url += alphabet[random() % alphabet.size()];
    CAPTURE(url);
    auto plain = plain_url_path(url);
    if (plain) {
      ++shortcut;
      CHECK(*plain == parsed_path(url));
    }
  }
  CHECK(shortcut > 1000);  // the shortcut is taken, not only refused
}
