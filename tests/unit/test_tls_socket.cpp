// The connections of the TLS handshakes, opened by libcurl: direct, with
// --resolve (an unroutable first address), and through a scripted proxy on
// 127.0.0.1; the proxy variables an https URL reads.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <string>
#include <thread>

#include "loopback.hpp"
#include "tls/socket.hpp"

using namespace adrprobe;

namespace {

tls::Environment proxy_env_of(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

// A listener on 127.0.0.1 taking one connection: reads up to the end of a
// request head (a proxy's CONNECT) or `first_bytes` bytes, answers `answer`,
// keeps what it received.
struct OneConnection {
  int listener = -1;
  int port = 0;
  std::string received;
  std::thread thread;

  explicit OneConnection(std::string answer, std::size_t first_bytes = 0) {
    listener = testing::listen_on_loopback(4, &port);
    thread = std::thread([this, answer = std::move(answer), first_bytes] {
      int fd = accept(listener, nullptr, nullptr);
      if (fd < 0) return;
      char c;
      while ((first_bytes ? received.size() < first_bytes : received.find("\r\n\r\n") == std::string::npos) &&
             read(fd, &c, 1) == 1)
        received += c;
      if (!answer.empty()) (void)!write(fd, answer.data(), answer.size());
      close(fd);
    });
  }
  void finish() {
    if (thread.joinable()) thread.join();
  }
  ~OneConnection() {
    shutdown(listener, SHUT_RDWR);
    finish();
    close(listener);
  }
  std::string url(const std::string& userinfo = "") const {
    return "http://" + userinfo + "127.0.0.1:" + std::to_string(port);
  }
};

tls::Route route_via(const std::string& proxy_url, const char* variable = "https_proxy") {
  tls::Route r;
  r.proxy = tls::describe_proxy(proxy_url);
  r.proxy->variable = variable;
  r.user_agent = "adrprobe/test";
  return r;
}

tls::Clock::time_point within_5s() { return tls::Clock::now() + std::chrono::seconds(5); }

int unused_local_port() {
  int port = 0;
  close(testing::listen_on_loopback(1, &port));
  return port;
}

}  // namespace

TEST_CASE("open_connection: a direct connection is the caller's, open and non-blocking") {
  OneConnection server("", 5);
  auto c = tls::open_connection("127.0.0.1", server.port, {}, within_5s());
  REQUIRE(c.fd >= 0);
  CHECK(c.error.empty());
  CHECK(c.proxy.empty());
  CHECK((fcntl(c.fd, F_GETFL) & O_NONBLOCK) != 0);
  CHECK(write(c.fd, "hello", 5) == 5);  // libcurl's cleanup left it open
  server.finish();
  CHECK(server.received == "hello");
  close(c.fd);
}

TEST_CASE("open_connection: a refused connection names host and port") {
  int port = unused_local_port();
  auto c = tls::open_connection("127.0.0.1", port, {}, within_5s());
  CHECK(c.fd < 0);
  CHECK(c.error == "cannot connect to 127.0.0.1:" + std::to_string(port) + ": Connection refused");
  CHECK_FALSE(c.proxy_failed);
}

TEST_CASE("open_connection: --resolve, the first address unroutable (IPv6 discard prefix), is fast") {
  OneConnection server("", 2);
  tls::Route r;
  r.resolve = {"api.example.test:" + std::to_string(server.port) + ":[100::1],127.0.0.1"};
  auto started = tls::Clock::now();
  auto c = tls::open_connection("api.example.test", server.port, r, within_5s());
  auto took = tls::Clock::now() - started;
  REQUIRE(c.fd >= 0);
  CHECK(took < std::chrono::seconds(4));  // not the 5 s the unroutable address would hold it
  CHECK(write(c.fd, "ok", 2) == 2);
  server.finish();
  CHECK(server.received == "ok");
  close(c.fd);
}

TEST_CASE("open_connection: a 2xx of the proxy opens the tunnel; CONNECT as libcurl sends it") {
  OneConnection proxy("HTTP/1.1 200 Connection established\r\n\r\n");
  auto c = tls::open_connection("127.0.0.1", 8443, route_via(proxy.url("us%40er:p%3Ass@")), within_5s());
  CHECK(c.fd >= 0);
  CHECK(c.error.empty());
  CHECK(c.proxy == proxy.url());
  if (c.fd >= 0) close(c.fd);
  proxy.finish();
  CHECK(proxy.received.rfind("CONNECT 127.0.0.1:8443 HTTP/1.1\r\n", 0) == 0);
  CHECK(proxy.received.find("Host: 127.0.0.1:8443\r\n") != std::string::npos);
  CHECK(proxy.received.find("User-Agent: adrprobe/test\r\n") != std::string::npos);
  CHECK(proxy.received.find("Proxy-Authorization: Basic dXNAZXI6cDpzcw==\r\n") != std::string::npos);  // us@er:p:ss
}

TEST_CASE("open_connection: a refusal says it was the proxy, with its status") {
  OneConnection proxy("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
  auto c = tls::open_connection("api.example.nl", 443, route_via(proxy.url()), within_5s());
  CHECK(c.fd < 0);
  CHECK(c.proxy_failed);
  CHECK(c.proxy == proxy.url());
  CHECK(c.error == "proxy " + proxy.url() + " refused CONNECT to api.example.nl:443: 403 Forbidden");
}

TEST_CASE("open_connection: 407 names the variable, never the password") {
  OneConnection proxy("HTTP/1.1 407 Proxy Authentication Required\r\n\r\n");
  auto c = tls::open_connection("api.example.nl", 443, route_via(proxy.url("user:hunter2-secret@"), "ALL_PROXY"), within_5s());
  CHECK(c.fd < 0);
  CHECK(c.error.find("407 Proxy Authentication Required") != std::string::npos);
  CHECK(c.error.find("(the user:password in ALL_PROXY were not accepted)") != std::string::npos);
  CHECK(c.error.find("hunter2") == std::string::npos);
}

TEST_CASE("open_connection: no proxy listening is the proxy's failure") {
  int port = unused_local_port();
  auto c = tls::open_connection("api.example.nl", 443, route_via("http://127.0.0.1:" + std::to_string(port)), within_5s());
  CHECK(c.fd < 0);
  CHECK(c.proxy_failed);
  CHECK(c.error == "cannot connect to proxy http://127.0.0.1:" + std::to_string(port) + ": Connection refused");
}

TEST_CASE("open_connection: an https:// proxy is refused for the handshakes, with the reason") {
  OneConnection proxy("", 1);  // reads the first byte of libcurl's TLS to it, then closes
  auto c = tls::open_connection("api.example.nl", 443, route_via("https://127.0.0.1:" + std::to_string(proxy.port)), within_5s());
  CHECK(c.fd < 0);
  CHECK(c.proxy_failed);
  CHECK(c.error.find("the TLS checks cannot run through an https:// proxy (https://127.0.0.1:") == 0);
  CHECK(c.error.find("the HTTP checks do go through it") != std::string::npos);
}

TEST_CASE("open_connection: no_proxy, applied by libcurl, sends the host direct") {
  OneConnection server("", 1);
  int unused = unused_local_port();
  const char* before = std::getenv("no_proxy");
  std::string saved = before ? before : "";
  setenv("no_proxy", "localhost, 127.0.0.0/8", 1);
  auto c = tls::open_connection("127.0.0.1", server.port, route_via("http://127.0.0.1:" + std::to_string(unused)), within_5s());
  if (before) setenv("no_proxy", saved.c_str(), 1);
  else unsetenv("no_proxy");
  REQUIRE(c.fd >= 0);
  CHECK(c.proxy.empty());
  CHECK(write(c.fd, "x", 1) == 1);
  server.finish();
  close(c.fd);
}

TEST_CASE("https_proxy_setting: https_proxy, then HTTPS_PROXY, all_proxy, ALL_PROXY; empty is unset") {
  auto p = tls::https_proxy_setting(proxy_env_of({{"https_proxy", "http://p1:3128"}, {"HTTPS_PROXY", "http://p2:3128"}}));
  REQUIRE(p);
  CHECK(p->shown == "http://p1:3128");
  CHECK(p->variable == "https_proxy");
  p = tls::https_proxy_setting(proxy_env_of({{"https_proxy", ""}, {"HTTPS_PROXY", "http://p2:3128"}}));
  REQUIRE(p);
  CHECK(p->variable == "HTTPS_PROXY");
  p = tls::https_proxy_setting(proxy_env_of({{"http_proxy", "http://web:80"}, {"ALL_PROXY", "socks5h://any:1081"}}));
  REQUIRE(p);
  CHECK(p->variable == "ALL_PROXY");
  CHECK(p->scheme == "socks5h");
  CHECK(p->port == 1081);
  p = tls::https_proxy_setting(proxy_env_of({{"all_proxy", "http://a:1"}, {"ALL_PROXY", "http://b:2"}}));
  REQUIRE(p);
  CHECK(p->shown == "http://a:1");
  CHECK_FALSE(tls::https_proxy_setting(proxy_env_of({{"http_proxy", "http://web:80"}, {"HTTP_PROXY", "http://w:1"}})));
  CHECK_FALSE(tls::https_proxy_setting(proxy_env_of({})));
}

TEST_CASE("describe_proxy: libcurl's defaults; the password is never shown") {
  auto p = tls::describe_proxy("proxy.example.nl");
  CHECK(p.scheme == "http");
  CHECK(p.port == 1080);
  CHECK(p.shown == "http://proxy.example.nl:1080");
  CHECK_FALSE(p.has_user);
  p = tls::describe_proxy("http://us%40er:p%3Ass@proxy.example.nl:3128/");
  CHECK(p.has_user);
  CHECK(p.shown == "http://proxy.example.nl:3128");
  CHECK(p.url == "http://us%40er:p%3Ass@proxy.example.nl:3128/");
  CHECK(tls::describe_proxy("http://[::1]:3128").shown == "http://[::1]:3128");
  CHECK(tls::describe_proxy("https://p").shown == "https://p:443");
  CHECK(tls::describe_proxy("socks5://p").shown == "socks5://p:1080");
}
