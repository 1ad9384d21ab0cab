// The proxy libcurl would use for the base URL, chosen by libcurl's own
// environment rules, and an HTTP CONNECT tunnel through it, so that adrprobe's
// own TLS handshakes take the same way as its HTTP probes.
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "tls/socket.hpp"

namespace adrprobe::tls {

struct Proxy {
  std::string variable;        // where it came from: "https_proxy", "ALL_PROXY", ...
  std::string scheme;          // "http" is tunnelled; any other is kept with `error`
  std::string host;            // without brackets
  int port = 1080;             // libcurl's default proxy port
  std::string user, password;  // percent-decoded; the password is never shown
  std::string shown;           // "http://proxy.example:3128": never the user or password
  std::string error;           // why the handshakes cannot go through it (scheme, syntax)
};

// Looks up an environment variable (nullptr when unset); the process's by default.
using Environment = std::function<const char*(const char*)>;

// libcurl's rules (lib/url.c, 7.88): for an https URL the first set and
// non-empty one of https_proxy, HTTPS_PROXY, all_proxy, ALL_PROXY (http_proxy
// for http URLs, never HTTP_PROXY); none when no_proxy (else NO_PROXY) matches
// the host. An empty variable counts as unset, as in libcurl.
std::optional<Proxy> proxy_for(const std::string& scheme, const std::string& host, const Environment& env);
std::optional<Proxy> proxy_for(const std::string& scheme, const std::string& host);

// libcurl's no_proxy matching (lib/noproxy.c): "*" is every host; otherwise a
// list separated by commas and blanks of host names, which match the name and
// its subdomains (leading and trailing dots ignored), and IP addresses, which
// match the same address or, with "/bits", the network.
bool no_proxy_matches(const std::string& host, const std::string& no_proxy);

// A proxy URL as libcurl reads it: no scheme is http, no port is 1080,
// user and password percent-decoded.
Proxy parse_proxy(const std::string& text);

// "CONNECT host:port HTTP/1.1" with Host, Proxy-Authorization (Basic, when
// the proxy has a user) and User-Agent: what libcurl sends to open a tunnel.
std::string connect_request(const Proxy& proxy, const std::string& host, int port, const std::string& user_agent);

// A TCP connection to host:port through the proxy: connects to the proxy,
// sends CONNECT and expects a 2xx. Returns the socket, or -1 with *error
// saying that it was the proxy ("proxy http://p:3128 refused CONNECT to
// api.example.nl:443: 403 Forbidden").
int connect_through(const Proxy& proxy, const std::string& host, int port, const std::string& user_agent,
                    Clock::time_point deadline, std::string* error);

}  // namespace adrprobe::tls
