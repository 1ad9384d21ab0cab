// The connections of the TLS handshakes, opened by libcurl as it opens those of
// the HTTP requests: its resolver within the deadline, --resolve, happy eyeballs
// (IPv6 and IPv4 raced), and the proxy of the environment by libcurl's own rules
// (no_proxy, http:// proxies through CONNECT, socks). OpenSSL then speaks TLS on
// the socket libcurl connected.
#pragma once
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace adrprobe::tls {

using Clock = std::chrono::steady_clock;

// Milliseconds until deadline, rounded up (0 when it has passed).
int ms_left(Clock::time_point deadline);

// The proxy an https URL is given by the environment: the first set and
// non-empty one of https_proxy, HTTPS_PROXY, all_proxy, ALL_PROXY (the
// variables libcurl reads for https). Whether a host bypasses it (no_proxy)
// is libcurl's to decide, when it connects.
struct ProxySetting {
  std::string variable;  // "https_proxy", ...
  std::string url;       // as set (it may hold user:password)
  std::string shown;     // "http://proxy.example:3128": never the user or password
  std::string scheme;    // "http", "https", "socks5h", ... (no scheme: http, as libcurl)
  int port = 1080;       // libcurl's default proxy port (443 for https)
  bool has_user = false;
};

// Looks up an environment variable (nullptr when unset); the process's by default.
using Environment = std::function<const char*(const char*)>;
std::optional<ProxySetting> https_proxy_setting(const Environment& env);
std::optional<ProxySetting> https_proxy_setting();
// A proxy URL as shown: scheme://host:port, libcurl's defaults filled in.
ProxySetting describe_proxy(const std::string& url);

// How the handshakes reach the server: the way the HTTP requests do.
struct Route {
  std::vector<std::string> resolve;   // --resolve: curl's HOST:PORT:ADDR[,ADDR...]
  std::optional<ProxySetting> proxy;  // https_proxy_setting(); libcurl applies no_proxy
  std::string user_agent;             // of a proxy's CONNECT request
};

struct Connection {
  int fd = -1;                 // connected, non-blocking; the caller's to close. -1: not connected
  std::string error;           // why not ("cannot connect to api.example.nl:443: Connection refused")
  std::string proxy;           // the proxy it went through (ProxySetting::shown); empty: direct
  bool proxy_failed = false;   // the proxy, not the server, stopped it: `error` says so
};

// A TCP connection to host:port (through the proxy when libcurl takes it) within
// the deadline. A proxy over https:// is refused (libcurl would hold a TLS layer
// to the proxy on the socket: ARCHITECTURE.md, "Decisions"). Never throws.
Connection open_connection(const std::string& host, int port, const Route& route, Clock::time_point deadline);

}  // namespace adrprobe::tls
