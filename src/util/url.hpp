// URL parsing and relative resolution on libcurl's URL API (RFC 3986).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace adrprobe {

struct Url {
  std::string scheme;  // lower case: http, https, file
  std::string host;    // without brackets for IPv6
  int port = 0;        // explicit or the scheme's default
  std::string path;    // as given, never empty for http(s) ("/" at least)
  std::string query;   // without '?'
  std::string user;      // userinfo of https://user:password@host, as written (percent-encoded)
  std::string password;  // empty when there is none
  std::string full;    // normalised full URL

  // scheme://host[:port]
  std::string origin() const;
  // Path segments, without empty ones.
  std::vector<std::string> segments() const;
};

// Parses an absolute URL. On failure returns nullopt and sets *error.
std::optional<Url> parse_url(const std::string& text, std::string* error = nullptr);
// Resolves reference against base (RFC 3986 section 5). nullopt when it cannot.
std::optional<std::string> resolve_url(const std::string& base, const std::string& reference);
// Same scheme, host and port (headers may follow a redirect only then).
bool same_origin(const std::string& a, const std::string& b);
// url is under base: same origin, and url's path equal to base's path or below
// it ("/v1", "/v1/", "/v1/x" are under "/v1"; "/v10" and "/other" are not).
bool under_base(const std::string& url, const std::string& base);
// Base URL as the user gave it, without a trailing slash ("{base}" in probes.md).
std::string strip_trailing_slash(std::string url);
// text with the password of a URL's userinfo replaced by "***"
// ("https://user:secret@host/v1" -> "https://user:***@host/v1"). Works on the
// text as written, so on malformed URLs too (an error message may quote one).
std::string mask_url_password(std::string text);
// Path of an absolute URL (for short messages: "GET /v1/gebouwen/").
std::string url_path(const std::string& url);
// url_path without a parse, for the plain URLs a run mostly has (http or
// https, a host name or IPv4 address with an optional port, then only
// unreserved, sub-delimiter, ':', '@', '/', '?' and '#' characters); nullopt
// for any other URL, which url_path parses. The checks ask for the path of
// every exchange, several times over.
std::optional<std::string> plain_url_path(std::string_view url);

}  // namespace adrprobe
