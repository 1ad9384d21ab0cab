#include "tls/proxy.hpp"
#include "util/curl_url.hpp"
#include "util/url.hpp"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <fmt/format.h>
#include <openssl/evp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

namespace adrprobe::tls {
namespace {

bool iequal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

bool blank(char c) { return c == ' ' || c == '\t'; }

// A set, non-empty environment variable (libcurl's curl_getenv treats empty as unset).
const char* lookup(const Environment& env, const char* name) {
  const char* v = env(name);
  return v && *v ? v : nullptr;
}

// The address `ip` lies in network/bits (bits 0: the same address), as libcurl compares.
bool cidr_match(int family, const std::string& ip, const std::string& network, unsigned bits) {
  unsigned char a[16], n[16];
  if (inet_pton(family, ip.c_str(), a) != 1 || inet_pton(family, network.c_str(), n) != 1) return false;
  unsigned size = family == AF_INET ? 4 : 16;
  if (bits == 0 || bits == size * 8) return std::memcmp(a, n, size) == 0;
  if (bits > size * 8) return false;
  unsigned bytes = bits / 8, rest = bits % 8;
  if (std::memcmp(a, n, bytes) != 0) return false;
  if (rest) {
    unsigned char mask = static_cast<unsigned char>(0xff << (8 - rest));
    if ((a[bytes] ^ n[bytes]) & mask) return false;
  }
  return true;
}

std::string base64(const std::string& in) {
  std::vector<unsigned char> out(4 * ((in.size() + 2) / 3) + 1);
  int n = EVP_EncodeBlock(out.data(), reinterpret_cast<const unsigned char*>(in.data()), static_cast<int>(in.size()));
  return std::string(reinterpret_cast<const char*>(out.data()), static_cast<std::size_t>(n));
}

std::string bracketed(const std::string& host) {
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}


// Reads the proxy's answer up to the end of its header, never beyond it
// (what follows belongs to the tunnelled connection).
bool read_head(int fd, Clock::time_point deadline, std::string* head, std::string* error) {
  constexpr std::size_t kLimit = 16 * 1024;
  char buf[4096];
  while (true) {
    ssize_t n = recv(fd, buf, sizeof buf, MSG_PEEK);
    if (n > 0) {
      std::string seen = *head + std::string(buf, static_cast<std::size_t>(n));
      auto end = seen.find("\r\n\r\n", head->size() >= 3 ? head->size() - 3 : 0);
      std::size_t take = end == std::string::npos ? static_cast<std::size_t>(n) : end + 4 - head->size();
      ssize_t got = recv(fd, buf, take, 0);
      if (got != static_cast<ssize_t>(take)) {
        *error = "read error";
        return false;
      }
      head->append(buf, take);
      if (end != std::string::npos) return true;
      if (head->size() > kLimit) {
        *error = "an answer header over 16 KiB";
        return false;
      }
      continue;
    }
    if (n == 0) {
      *error = "closed the connection";
      return false;
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, ms_left(deadline)) != 1) {
        *error = "timed out";
        return false;
      }
      continue;
    }
    *error = strerror(errno);
    return false;
  }
}

}  // namespace

bool no_proxy_matches(const std::string& host_in, const std::string& no_proxy) {
  if (host_in.empty() || no_proxy.empty()) return false;
  if (no_proxy == "*") return true;
  std::string host = host_in;
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  unsigned char buf[16];
  int family = inet_pton(AF_INET, host.c_str(), buf) == 1    ? AF_INET
               : inet_pton(AF_INET6, host.c_str(), buf) == 1 ? AF_INET6
                                                             : 0;
  if (!family && host.back() == '.') host.pop_back();  // a trailing dot in the name is ignored
  std::size_t i = 0;
  while (i < no_proxy.size()) {
    while (i < no_proxy.size() && blank(no_proxy[i])) ++i;
    std::size_t start = i;
    while (i < no_proxy.size() && !blank(no_proxy[i]) && no_proxy[i] != ',') ++i;
    std::string token = no_proxy.substr(start, i - start);
    if (!token.empty()) {
      bool match = false;
      if (!family) {
        if (token.back() == '.') token.pop_back();
        if (!token.empty() && token.front() == '.') token.erase(0, 1);
        if (token.size() == host.size()) match = iequal(token, host);
        else if (token.size() < host.size())
          match = host[host.size() - token.size() - 1] == '.' &&
                  iequal(token, std::string_view(host).substr(host.size() - token.size()));
      } else {
        unsigned bits = 0;
        auto slash = token.find('/');
        if (slash != std::string::npos) {
          bits = static_cast<unsigned>(std::atoi(token.c_str() + slash + 1));
          token.resize(slash);
        }
        match = cidr_match(family, host, token, bits);
      }
      if (match) return true;
    }
    while (i < no_proxy.size() && blank(no_proxy[i])) ++i;
    if (i < no_proxy.size() && no_proxy[i] != ',') break;  // libcurl stops at anything else
    while (i < no_proxy.size() && no_proxy[i] == ',') ++i;
  }
  return false;
}

Proxy parse_proxy(const std::string& text) {
  Proxy p;
  UrlHandle u;
  if (curl_url_set(u.h, CURLUPART_URL, text.c_str(), CURLU_NON_SUPPORT_SCHEME | CURLU_GUESS_SCHEME) != CURLUE_OK) {
    p.shown = "(unparsable)";
    p.error = "not a proxy URL libcurl can use";
    return p;
  }
  std::string scheme = u.get(CURLUPART_SCHEME).value_or("http");
  std::transform(scheme.begin(), scheme.end(), scheme.begin(), [](unsigned char c) { return std::tolower(c); });
  p.scheme = scheme;
  p.host = u.get(CURLUPART_HOST, CURLU_URLDECODE).value_or("");
  if (p.host.size() > 2 && p.host.front() == '[') p.host = p.host.substr(1, p.host.size() - 2);
  auto user = u.get(CURLUPART_USER, CURLU_URLDECODE);
  auto password = u.get(CURLUPART_PASSWORD, CURLU_URLDECODE);
  if (user || password) {
    p.user = user.value_or("");
    p.password = password.value_or("");
  }
  if (auto port = u.get(CURLUPART_PORT)) p.port = std::atoi(port->c_str());
  else p.port = scheme == "https" ? 443 : 1080;
  p.shown = fmt::format("{}://{}:{}", scheme, bracketed(p.host), p.port);
  if (scheme != "http") {
    bool known = scheme == "https" || scheme.rfind("socks", 0) == 0;
    p.error = known ? fmt::format("a {}:// proxy cannot tunnel adrprobe's own TLS handshakes (only http:// can)", scheme)
                    : fmt::format("libcurl does not know the proxy scheme {}://", scheme);
  }
  return p;
}

std::optional<Proxy> proxy_for(const std::string& scheme_in, const std::string& host, const Environment& env) {
  std::string scheme = scheme_in;
  std::transform(scheme.begin(), scheme.end(), scheme.begin(), [](unsigned char c) { return std::tolower(c); });
  const char* no_proxy = lookup(env, "no_proxy");
  if (!no_proxy) no_proxy = lookup(env, "NO_PROXY");
  if (no_proxy && no_proxy_matches(host, no_proxy)) return std::nullopt;
  std::string lower = scheme + "_proxy";
  std::string upper = lower;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  std::vector<std::string> names{lower};
  if (lower != "http_proxy") names.push_back(upper);  // never HTTP_PROXY (CGI's HTTP_ header namespace)
  names.insert(names.end(), {"all_proxy", "ALL_PROXY"});
  for (const auto& name : names)
    if (const char* value = lookup(env, name.c_str())) {
      Proxy p = parse_proxy(value);
      p.variable = name;
      return p;
    }
  return std::nullopt;
}

std::optional<Proxy> proxy_for(const std::string& scheme, const std::string& host) {
  return proxy_for(scheme, host, [](const char* name) -> const char* { return std::getenv(name); });
}

std::string connect_request(const Proxy& proxy, const std::string& host, int port, const std::string& user_agent) {
  std::string target = fmt::format("{}:{}", bracketed(host), port);
  std::string r = fmt::format("CONNECT {} HTTP/1.1\r\nHost: {}\r\n", target, target);
  if (!proxy.user.empty() || !proxy.password.empty())
    r += "Proxy-Authorization: Basic " + base64(proxy.user + ":" + proxy.password) + "\r\n";
  if (!user_agent.empty()) r += "User-Agent: " + user_agent + "\r\n";
  return r + "\r\n";
}

int connect_through(const Proxy& proxy, const std::string& host, int port, const std::string& user_agent,
                    Clock::time_point deadline, std::string* error) {
  if (!proxy.error.empty()) {
    *error = fmt::format("proxy {} ({}): {}", proxy.shown, proxy.variable, proxy.error);
    return -1;
  }
  std::string name = "proxy " + proxy.shown;
  int fd = connect_tcp(proxy.host, proxy.port, deadline, error, name);
  if (fd < 0) return -1;
  std::string target = fmt::format("{}:{}", bracketed(host), port);
  auto fail = [&](const std::string& why) {
    *error = why;
    close(fd);
    return -1;
  };
  std::string why;
  if (!send_all(fd, connect_request(proxy, host, port, user_agent), deadline, &why))
    return fail(fmt::format("{}: cannot send CONNECT to {}: {}", name, target, why));
  std::string head;
  if (!read_head(fd, deadline, &head, &why)) {
    if (why == "timed out") return fail(fmt::format("{} did not answer CONNECT to {} in time", name, target));
    return fail(fmt::format("{} gave no answer to CONNECT to {}: {}", name, target, why));
  }
  // "HTTP/1.1 403 Forbidden"
  std::string status_line = head.substr(0, head.find("\r\n"));
  int status = 0;
  std::string reason;
  if (status_line.rfind("HTTP/", 0) == 0) {
    auto sp = status_line.find(' ');
    if (sp != std::string::npos && status_line.size() >= sp + 4) {
      std::string code = status_line.substr(sp + 1, 3);
      if (std::all_of(code.begin(), code.end(), [](unsigned char c) { return std::isdigit(c); }))
        status = std::stoi(code);
      reason = sp + 4 < status_line.size() ? status_line.substr(sp + 5) : "";
    }
  }
  if (!status) return fail(fmt::format("{} gave no HTTP answer to CONNECT to {}", name, target));
  if (status >= 200 && status < 300) {
    error->clear();
    return fd;
  }
  if (reason.size() > 100) reason = reason.substr(0, 100) + "...";
  std::string answer = reason.empty() ? std::to_string(status) : fmt::format("{} {}", status, reason);
  std::string hint;
  if (status == 407)
    hint = proxy.user.empty() ? fmt::format(" (no user:password in {})", proxy.variable)
                              : fmt::format(" (the user:password in {} were not accepted)", proxy.variable);
  return fail(fmt::format("{} refused CONNECT to {}: {}{}", name, target, answer, hint));
}

}  // namespace adrprobe::tls
