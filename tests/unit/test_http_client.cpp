// The client itself keeps the read-only promise: whatever a check plans, an
// unsafe method or a request body never leaves the machine without --allow-unsafe.
#include <doctest/doctest.h>
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "http/client.hpp"

using namespace adrprobe;

namespace {
// A server on 127.0.0.1 that counts what reaches it.
struct CountingServer {
  httplib::Server server;
  std::atomic<int> hits{0};
  std::string last_method, last_body;
  int port = 0;
  std::thread thread;
  CountingServer() {
    auto handler = [this](const httplib::Request& req, httplib::Response& res) {
      ++hits;
      last_method = req.method;
      last_body = req.body;
      res.set_content("ok", "text/plain");
    };
    for (const char* m : {"GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"}) {
      if (std::string(m) == "GET") server.Get("/.*", handler);
      else if (std::string(m) == "POST") server.Post("/.*", handler);
      else if (std::string(m) == "PUT") server.Put("/.*", handler);
      else if (std::string(m) == "DELETE") server.Delete("/.*", handler);
      else if (std::string(m) == "PATCH") server.Patch("/.*", handler);
      else server.Options("/.*", handler);
    }
    port = server.bind_to_any_port("127.0.0.1");
    thread = std::thread([this] { server.listen_after_bind(); });
    while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~CountingServer() {
    server.stop();
    thread.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port) + "/v1/x"; }
};

http::Request request(const std::string& method, const std::string& url) {
  http::Request r;
  r.method = method;
  r.url = url;
  return r;
}
}  // namespace

TEST_CASE("safe mode: unsafe methods and bodies are refused by the client, never sent") {
  CountingServer server;
  http::ClientSettings cs;
  cs.rate = 0;
  http::Client client(cs);
  for (const char* m : {"POST", "PUT", "PATCH", "DELETE", "CONNECT"}) {
    CAPTURE(m);
    auto r = client.run_one(request(m, server.url()));
    const auto& e = client.exchange(r.last());
    REQUIRE(e.error);
    CHECK(e.error->find("needs --allow-unsafe") != std::string::npos);
    CHECK_FALSE(e.status);
  }
  http::Request with_body = request("GET", server.url());
  with_body.body = "{}";
  auto r = client.run_one(with_body);
  CHECK(client.exchange(r.last()).error->find("a request body needs --allow-unsafe") != std::string::npos);
  CHECK(server.hits == 0);
  // The safe methods go through.
  for (const char* m : {"GET", "HEAD", "OPTIONS"}) {
    auto ok = client.run_one(request(m, server.url()));
    CHECK(client.exchange(ok.last()).status == 200);
  }
  CHECK(server.hits == 3);
}

TEST_CASE("--allow-unsafe: the client sends unsafe methods, with their body") {
  CountingServer server;
  http::ClientSettings cs;
  cs.rate = 0;
  cs.allow_unsafe = true;
  http::Client client(cs);
  http::Request post = request("POST", server.url());
  post.body = R"({"a":1})";
  auto r = client.run_one(post);
  CHECK(client.exchange(r.last()).status == 200);
  CHECK(server.last_method == "POST");
  CHECK(server.last_body == R"({"a":1})");
  auto d = client.run_one(request("DELETE", server.url()));
  CHECK(client.exchange(d.last()).status == 200);
  CHECK(server.last_method == "DELETE");
}

TEST_CASE("safe methods") {
  CHECK(http::is_safe_method("TRACE"));
  CHECK_FALSE(http::is_safe_method("DELETE"));
}
