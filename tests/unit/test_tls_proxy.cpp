// The proxy the TLS handshakes take: libcurl's environment rules and no_proxy
// matching, and the CONNECT tunnel against a scripted proxy on 127.0.0.1.
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <map>
#include <string>
#include <thread>

#include "tls/proxy.hpp"

using namespace adrprobe;
using tls::no_proxy_matches;

namespace {

tls::Environment env_of(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

// One connection on 127.0.0.1: reads the request head, answers `answer`,
// keeps what it received.
struct ScriptedProxy {
  int listener = -1;
  int port = 0;
  std::string received;
  std::thread thread;

  explicit ScriptedProxy(std::string answer) {
    listener = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    REQUIRE(listen(listener, 4) == 0);
    socklen_t len = sizeof addr;
    getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
    port = ntohs(addr.sin_port);
    thread = std::thread([this, answer = std::move(answer)] {
      int fd = accept(listener, nullptr, nullptr);
      if (fd < 0) return;
      char c;
      while (received.find("\r\n\r\n") == std::string::npos && read(fd, &c, 1) == 1) received += c;
      if (!answer.empty()) (void)!write(fd, answer.data(), answer.size());
      close(fd);
    });
  }
  // Waits for the connection to end; `received` is complete after it.
  void finish() {
    if (thread.joinable()) thread.join();
  }
  ~ScriptedProxy() {
    finish();
    close(listener);
  }
  tls::Proxy proxy(const std::string& userinfo = "") const {
    tls::Proxy p = tls::parse_proxy("http://" + userinfo + "127.0.0.1:" + std::to_string(port));
    p.variable = "https_proxy";
    return p;
  }
};

tls::Clock::time_point soon() { return tls::Clock::now() + std::chrono::seconds(5); }

}  // namespace

TEST_CASE("no_proxy: host names match themselves and their subdomains, as libcurl") {
  CHECK(no_proxy_matches("api.example.nl", "api.example.nl"));
  CHECK(no_proxy_matches("api.example.nl", "example.nl"));
  CHECK(no_proxy_matches("api.example.nl", ".example.nl"));
  CHECK(no_proxy_matches("API.Example.NL", "example.nl"));
  CHECK(no_proxy_matches("api.example.nl.", "example.nl."));
  CHECK_FALSE(no_proxy_matches("api.notexample.nl", "example.nl"));
  CHECK_FALSE(no_proxy_matches("example.nl", "api.example.nl"));
  CHECK(no_proxy_matches("api.example.nl", "localhost, internal.test ,example.nl"));
  CHECK(no_proxy_matches("api.example.nl", "localhost,,example.nl"));
  CHECK(no_proxy_matches("anything", "*"));
  CHECK_FALSE(no_proxy_matches("anything", "*.example.nl"));  // only a lone * is a wildcard
  CHECK_FALSE(no_proxy_matches("api.example.nl", ""));
}

TEST_CASE("no_proxy: IP addresses match exactly or by CIDR; names do not match addresses") {
  CHECK(no_proxy_matches("127.0.0.1", "127.0.0.1"));
  CHECK(no_proxy_matches("127.0.0.1", "127.0.0.0/8"));
  CHECK(no_proxy_matches("10.1.2.3", "192.168.0.0/16, 10.0.0.0/8"));
  CHECK_FALSE(no_proxy_matches("127.0.0.1", "127.0.0.2"));
  CHECK_FALSE(no_proxy_matches("11.0.0.1", "10.0.0.0/8"));
  CHECK_FALSE(no_proxy_matches("127.0.0.1", "localhost"));  // libcurl does not resolve
  CHECK(no_proxy_matches("::1", "::1"));
  CHECK(no_proxy_matches("[::1]", "::1"));
  CHECK(no_proxy_matches("2001:db8::5", "2001:db8::/32"));
  CHECK_FALSE(no_proxy_matches("2001:db9::5", "2001:db8::/32"));
}

TEST_CASE("proxy_for: https_proxy, then HTTPS_PROXY, all_proxy, ALL_PROXY; empty is unset") {
  auto p = tls::proxy_for("https", "api.example.nl", env_of({{"https_proxy", "http://p1:3128"}, {"HTTPS_PROXY", "http://p2:3128"}}));
  REQUIRE(p);
  CHECK(p->host == "p1");
  CHECK(p->variable == "https_proxy");

  p = tls::proxy_for("https", "api.example.nl", env_of({{"https_proxy", ""}, {"HTTPS_PROXY", "http://p2:3128"}}));
  REQUIRE(p);
  CHECK(p->variable == "HTTPS_PROXY");

  p = tls::proxy_for("https", "api.example.nl", env_of({{"http_proxy", "http://web:80"}, {"ALL_PROXY", "http://any:8080"}}));
  REQUIRE(p);
  CHECK(p->variable == "ALL_PROXY");
  CHECK(p->port == 8080);

  p = tls::proxy_for("https", "api.example.nl", env_of({{"all_proxy", "http://a:1"}, {"ALL_PROXY", "http://b:2"}}));
  REQUIRE(p);
  CHECK(p->host == "a");

  CHECK_FALSE(tls::proxy_for("https", "api.example.nl", env_of({{"http_proxy", "http://web:80"}})));
  CHECK_FALSE(tls::proxy_for("https", "api.example.nl", env_of({})));
  // http URLs: http_proxy, never HTTP_PROXY
  CHECK(tls::proxy_for("http", "api.example.nl", env_of({{"http_proxy", "http://web:80"}})));
  CHECK_FALSE(tls::proxy_for("http", "api.example.nl", env_of({{"HTTP_PROXY", "http://web:80"}})));
}

TEST_CASE("proxy_for: no_proxy (else NO_PROXY) sends a host direct") {
  std::map<std::string, std::string> vars{{"https_proxy", "http://p:3128"}, {"no_proxy", "example.nl"}};
  CHECK_FALSE(tls::proxy_for("https", "api.example.nl", env_of(vars)));
  CHECK(tls::proxy_for("https", "api.example.org", env_of(vars)));
  vars = {{"https_proxy", "http://p:3128"}, {"NO_PROXY", "127.0.0.0/8"}};
  CHECK_FALSE(tls::proxy_for("https", "127.0.0.1", env_of(vars)));
  vars = {{"https_proxy", "http://p:3128"}, {"no_proxy", "other.nl"}, {"NO_PROXY", "example.nl"}};
  CHECK(tls::proxy_for("https", "api.example.nl", env_of(vars)));  // the lower-case one counts
  // loopback is not bypassed unless no_proxy says so (libcurl has no such default)
  CHECK(tls::proxy_for("https", "127.0.0.1", env_of({{"https_proxy", "http://p:3128"}})));
  CHECK(tls::proxy_for("https", "localhost", env_of({{"https_proxy", "http://p:3128"}})));
}

TEST_CASE("parse_proxy: libcurl's defaults; the password is never shown") {
  auto p = tls::parse_proxy("proxy.example.nl");
  CHECK(p.scheme == "http");
  CHECK(p.port == 1080);
  CHECK(p.error.empty());
  CHECK(p.shown == "http://proxy.example.nl:1080");

  p = tls::parse_proxy("http://us%40er:p%3Ass@proxy.example.nl:3128/");
  CHECK(p.user == "us@er");
  CHECK(p.password == "p:ss");
  CHECK(p.shown == "http://proxy.example.nl:3128");

  p = tls::parse_proxy("http://[::1]:3128");
  CHECK(p.host == "::1");
  CHECK(p.shown == "http://[::1]:3128");

  for (const char* other : {"socks5://p:1080", "socks5h://p:1080", "https://p:443"}) {
    auto q = tls::parse_proxy(other);
    INFO(other);
    CHECK(q.error.find("only http:// can") != std::string::npos);
  }
}

TEST_CASE("connect_request: CONNECT with Host, Basic Proxy-Authorization, User-Agent") {
  auto p = tls::parse_proxy("http://Aladdin:open%20sesame@p:3128");
  std::string r = tls::connect_request(p, "api.example.nl", 443, "adrprobe/0.2.0");
  CHECK(r == "CONNECT api.example.nl:443 HTTP/1.1\r\nHost: api.example.nl:443\r\n"
             "Proxy-Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==\r\n"
             "User-Agent: adrprobe/0.2.0\r\n\r\n");
  auto plain = tls::parse_proxy("http://p:3128");
  CHECK(tls::connect_request(plain, "::1", 8443, "") == "CONNECT [::1]:8443 HTTP/1.1\r\nHost: [::1]:8443\r\n\r\n");
}

TEST_CASE("connect_through: a 2xx opens the tunnel") {
  ScriptedProxy proxy("HTTP/1.1 200 Connection established\r\n\r\n");
  std::string error;
  int fd = tls::connect_through(proxy.proxy(), "127.0.0.1", 8443, "adrprobe/test", soon(), &error);
  CHECK(fd >= 0);
  CHECK(error.empty());
  if (fd >= 0) close(fd);
  proxy.finish();
  CHECK(proxy.received.rfind("CONNECT 127.0.0.1:8443 HTTP/1.1\r\nHost: 127.0.0.1:8443\r\n", 0) == 0);
}

TEST_CASE("connect_through: a refusal says it was the proxy, with its status") {
  ScriptedProxy proxy("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
  std::string error;
  CHECK(tls::connect_through(proxy.proxy(), "api.example.nl", 443, "", soon(), &error) < 0);
  CHECK(error == "proxy http://127.0.0.1:" + std::to_string(proxy.port) + " refused CONNECT to api.example.nl:443: 403 Forbidden");
}

TEST_CASE("connect_through: 407 names the variable, never the password") {
  ScriptedProxy proxy("HTTP/1.1 407 Proxy Authentication Required\r\n\r\n");
  std::string error;
  CHECK(tls::connect_through(proxy.proxy("user:hunter2-secret@"), "api.example.nl", 443, "", soon(), &error) < 0);
  CHECK(error.find("407 Proxy Authentication Required") != std::string::npos);
  CHECK(error.find("https_proxy") != std::string::npos);
  CHECK(error.find("hunter2") == std::string::npos);
  proxy.finish();
  CHECK(proxy.received.find("Proxy-Authorization: Basic dXNlcjpodW50ZXIyLXNlY3JldA==") != std::string::npos);
}

TEST_CASE("connect_through: no proxy listening, a closed connection, or no HTTP answer") {
  std::string error;
  {
    ScriptedProxy closed("");
    CHECK(tls::connect_through(closed.proxy(), "h", 443, "", soon(), &error) < 0);
    CHECK(error.find("proxy http://127.0.0.1:") == 0);
    CHECK(error.find("closed the connection") != std::string::npos);
  }
  {
    ScriptedProxy garbage("SSH-2.0-OpenSSH\r\n\r\n");
    CHECK(tls::connect_through(garbage.proxy(), "h", 443, "", soon(), &error) < 0);
    CHECK(error.find("gave no HTTP answer to CONNECT to h:443") != std::string::npos);
  }
  int port;
  {
    ScriptedProxy gone("HTTP/1.1 200 OK\r\n\r\n");
    port = gone.port;
    std::string e;
    int fd = tls::connect_through(gone.proxy(), "h", 443, "", soon(), &e);
    if (fd >= 0) close(fd);
  }
  tls::Proxy p = tls::parse_proxy("http://127.0.0.1:" + std::to_string(port));
  CHECK(tls::connect_through(p, "h", 443, "", soon(), &error) < 0);
  CHECK(error == "cannot connect to proxy http://127.0.0.1:" + std::to_string(port) + ": Connection refused");

  tls::Proxy socks = tls::parse_proxy("socks5://127.0.0.1:1080");
  socks.variable = "ALL_PROXY";
  CHECK(tls::connect_through(socks, "h", 443, "", soon(), &error) < 0);
  CHECK(error.find("proxy socks5://127.0.0.1:1080 (ALL_PROXY): a socks5:// proxy cannot tunnel") == 0);
}
