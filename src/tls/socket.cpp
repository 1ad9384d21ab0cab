#include "tls/socket.hpp"

#include <curl/curl.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string_view>

#include "util/curl_opt.hpp"
#include "util/curl_url.hpp"

namespace adrprobe::tls {
namespace {

// What libcurl did on one connection, as its callbacks tell it.
struct ConnectLog {
  curl_socket_t keep = CURL_SOCKET_BAD;  // the socket handed to OpenSSL: libcurl's cleanup leaves it open
  std::vector<int> peer_ports;           // of every socket libcurl opened (the proxy's, or the server's)
  std::string proxy_status;              // the proxy's status line to CONNECT ("HTTP/1.1 403 Forbidden")
};

curl_socket_t connect_open_socket(void* user, curlsocktype, curl_sockaddr* a) {
  auto* log = static_cast<ConnectLog*>(user);
  int port = 0;
  if (a->family == AF_INET) port = ntohs(reinterpret_cast<const sockaddr_in*>(&a->addr)->sin_port);
  else if (a->family == AF_INET6) port = ntohs(reinterpret_cast<const sockaddr_in6*>(&a->addr)->sin6_port);
  log->peer_ports.push_back(port);
  int fd = socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
  return fd < 0 ? CURL_SOCKET_BAD : fd;
}

// libcurl closes the losers of happy eyeballs and, at cleanup, its connection:
// all but the socket kept for OpenSSL.
int connect_close_socket(void* user, curl_socket_t fd) {
  if (fd != static_cast<ConnectLog*>(user)->keep) close(fd);
  return 0;
}

std::size_t connect_header(char* data, std::size_t size, std::size_t n, void* user) {
  std::size_t len = size * n;
  std::string_view line(data, len);
  if (line.rfind("HTTP/", 0) == 0) {
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
    static_cast<ConnectLog*>(user)->proxy_status = std::string(line);
  }
  return len;
}

std::string bracketed_host(const std::string& host) {
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

// "403 Forbidden" of "HTTP/1.1 403 Forbidden"; the code alone without a status line.
std::string proxy_answer(const std::string& status_line, long code) {
  auto sp = status_line.find(' ');
  std::string answer = sp == std::string::npos ? "" : status_line.substr(sp + 1);
  if (answer.size() > 100) answer = answer.substr(0, 100) + "...";
  return answer.empty() ? std::to_string(code) : answer;
}

// Why a connection through the proxy failed, in the proxy's words where it gave any.
std::string tunnel_error(const ProxySetting& proxy, const std::string& target, CURLcode rc, long connect_code,
                        const std::string& status_line, const std::string& why) {
  std::string name = "proxy " + proxy.shown;
  if (connect_code >= 300 || (connect_code > 0 && connect_code < 200)) {
    std::string hint;
    if (connect_code == 407)
      hint = proxy.has_user ? fmt::format(" (the user:password in {} were not accepted)", proxy.variable)
                            : fmt::format(" (no user:password in {})", proxy.variable);
    return fmt::format("{} refused CONNECT to {}: {}{}", name, target, proxy_answer(status_line, connect_code), hint);
  }
  switch (rc) {
    case CURLE_COULDNT_RESOLVE_PROXY: return fmt::format("cannot resolve {} ({})", name, proxy.variable);
    case CURLE_COULDNT_CONNECT: return fmt::format("cannot connect to {}: {}", name, why);
    case CURLE_OPERATION_TIMEDOUT: return fmt::format("{} did not open a tunnel to {} in time", name, target);
    case CURLE_PROXY: return fmt::format("{} did not open a tunnel to {}: {}", name, target, why);
    default: return fmt::format("{} ({}): {}", name, proxy.variable, why);
  }
}

std::string direct_error(const std::string& host, const std::string& target, CURLcode rc, const std::string& why) {
  switch (rc) {
    case CURLE_COULDNT_RESOLVE_HOST: return fmt::format("cannot resolve {}", host);
    case CURLE_COULDNT_CONNECT: return fmt::format("cannot connect to {}: {}", target, why);
    case CURLE_OPERATION_TIMEDOUT: return fmt::format("cannot connect to {}: timed out", target);
    default: return fmt::format("cannot connect to {}: {}", target, why);
  }
}

}  // namespace

int ms_left(Clock::time_point deadline) {
  // Rounded up: a poll for it does not wake before the deadline, when a loop
  // that checks the deadline again would begin one more step.
  auto ms = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<decltype(ms)>(ms, 0, std::numeric_limits<int>::max()));
}

ProxySetting describe_proxy(const std::string& url) {
  ProxySetting p;
  p.url = url;
  UrlHandle u;
  // libcurl reads a proxy URL so (lib/url.c): schemes of its own, none is a guess.
  if (curl_url_set(u.h, CURLUPART_URL, url.c_str(), CURLU_NON_SUPPORT_SCHEME | CURLU_GUESS_SCHEME) != CURLUE_OK) {
    p.shown = "(unparsable)";
    return p;
  }
  p.scheme = u.get(CURLUPART_SCHEME).value_or("http");
  std::transform(p.scheme.begin(), p.scheme.end(), p.scheme.begin(), [](unsigned char c) { return std::tolower(c); });
  std::string host = u.get(CURLUPART_HOST).value_or("");
  p.has_user = u.get(CURLUPART_USER).has_value() || u.get(CURLUPART_PASSWORD).has_value();
  if (auto port = u.get(CURLUPART_PORT)) p.port = std::atoi(port->c_str());
  else p.port = p.scheme == "https" ? 443 : 1080;
  p.shown = fmt::format("{}://{}:{}", p.scheme, host, p.port);  // the host keeps its brackets
  return p;
}

std::optional<ProxySetting> https_proxy_setting(const Environment& env) {
  // libcurl (lib/url.c): <scheme>_proxy, its upper case, all_proxy, ALL_PROXY;
  // an empty variable is unset (curl_getenv).
  for (const char* name : {"https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"}) {
    const char* value = env(name);
    if (value && *value) {
      ProxySetting p = describe_proxy(value);
      p.variable = name;
      return p;
    }
  }
  return std::nullopt;
}

std::optional<ProxySetting> https_proxy_setting() {
  return https_proxy_setting([](const char* name) -> const char* { return std::getenv(name); });
}

Connection open_connection(const std::string& host, int port, const Route& route, Clock::time_point deadline) {
  Connection c;
  if (const std::string& problem = init_curl(); !problem.empty()) {
    c.error = problem;
    return c;
  }
  // Declared before the handle: libcurl's cleanup calls connect_close_socket with it.
  ConnectLog log;
  char errbuf[CURL_ERROR_SIZE] = {0};
  curl_slist* list = nullptr;
  for (const auto& entry : route.resolve) list = curl_slist_append(list, entry.c_str());
  std::unique_ptr<curl_slist, void (*)(curl_slist*)> resolve(list, curl_slist_free_all);
  std::unique_ptr<CURL, void (*)(CURL*)> easy(curl_easy_init(), curl_easy_cleanup);
  if (!easy) {
    c.error = "libcurl: cannot create a handle";
    return c;
  }
  CURL* e = easy.get();
  std::string target = fmt::format("{}:{}", bracketed_host(host), port);
  // A bare connection: http:// with CONNECT_ONLY makes libcurl stop once connected,
  // without TLS of its own; HTTPPROXYTUNNEL has an http(s) proxy open a CONNECT tunnel.
  std::string url = "http://" + target + "/";
  long ms = std::max(1, ms_left(deadline));
  try {
    set_opt(e, CURLOPT_URL, url.c_str());
    set_opt(e, CURLOPT_PROTOCOLS_STR, "http");
    set_opt(e, CURLOPT_CONNECT_ONLY, 1L);
    set_opt(e, CURLOPT_NOSIGNAL, 1L);
    set_opt(e, CURLOPT_CONNECTTIMEOUT_MS, ms);
    set_opt(e, CURLOPT_TIMEOUT_MS, ms);
    set_opt(e, CURLOPT_ERRORBUFFER, errbuf);
    set_opt(e, CURLOPT_OPENSOCKETFUNCTION, connect_open_socket);
    set_opt(e, CURLOPT_OPENSOCKETDATA, static_cast<void*>(&log));
    set_opt(e, CURLOPT_CLOSESOCKETFUNCTION, connect_close_socket);
    set_opt(e, CURLOPT_CLOSESOCKETDATA, static_cast<void*>(&log));
    set_opt(e, CURLOPT_HEADERFUNCTION, connect_header);
    set_opt(e, CURLOPT_HEADERDATA, static_cast<void*>(&log));
    if (!route.user_agent.empty()) set_opt(e, CURLOPT_USERAGENT, route.user_agent.c_str());
    if (list) set_opt(e, CURLOPT_RESOLVE, list);
    // The proxy an https URL takes: for this http:// URL libcurl would read
    // http_proxy. "" is no proxy at all. libcurl applies no_proxy either way.
    set_opt(e, CURLOPT_PROXY, route.proxy ? route.proxy->url.c_str() : "");
    set_opt(e, CURLOPT_HTTPPROXYTUNNEL, 1L);
  } catch (const CurlOptionError& err) {
    c.error = err.what();
    return c;
  }
  CURLcode rc = curl_easy_perform(e);
  long connect_code = 0;
  curl_easy_getinfo(e, CURLINFO_HTTP_CONNECTCODE, &connect_code);
  bool proxied = false;
  if (route.proxy) {
#if LIBCURL_VERSION_NUM >= 0x080700
    long used = 0;
    curl_easy_getinfo(e, CURLINFO_USED_PROXY, &used);
    proxied = used != 0;
#else
    // Before 8.7 libcurl does not say whether no_proxy sent the host direct:
    // a CONNECT answered, an error only a proxy gives, or a socket opened to the
    // proxy's port (when the server's differs) tell.
    const int proxy_port = route.proxy->port;
    proxied = connect_code != 0 || rc == CURLE_COULDNT_RESOLVE_PROXY || rc == CURLE_PROXY ||
              (proxy_port != port &&
               std::find(log.peer_ports.begin(), log.peer_ports.end(), proxy_port) != log.peer_ports.end());
#endif
  }
  if (proxied) c.proxy = route.proxy->shown;
  if (proxied && route.proxy->scheme == "https") {
    // The socket would carry libcurl's TLS to the proxy: OpenSSL cannot speak
    // to the server on it. libcurl closes it.
    c.proxy_failed = true;
    c.error = fmt::format("the TLS checks cannot run through an https:// proxy ({} from {}): libcurl holds the TLS "
                          "connection to the proxy; the HTTP checks do go through it",
                          route.proxy->shown, route.proxy->variable);
    return c;
  }
  if (rc == CURLE_OK) {
    curl_socket_t fd = CURL_SOCKET_BAD;
    if (curl_easy_getinfo(e, CURLINFO_ACTIVESOCKET, &fd) != CURLE_OK || fd == CURL_SOCKET_BAD) {
      c.error = "libcurl connected but gave no socket";
      return c;
    }
    log.keep = fd;  // OpenSSL's from now on
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    c.fd = fd;
    return c;
  }
  long os_errno = 0;
  curl_easy_getinfo(e, CURLINFO_OS_ERRNO, &os_errno);
  std::string why = os_errno > 0 ? std::strerror(static_cast<int>(os_errno))
                    : errbuf[0]  ? std::string(errbuf)
                                 : std::string(curl_easy_strerror(rc));
  c.proxy_failed = proxied;
  c.error = proxied ? tunnel_error(*route.proxy, target, rc, connect_code, log.proxy_status, why)
                    : direct_error(host, target, rc, why);
  return c;
}

}  // namespace adrprobe::tls
