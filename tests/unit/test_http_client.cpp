// The client itself keeps the read-only promise: whatever a check plans, an
// unsafe method or a request body never leaves the machine without --allow-unsafe.
#include <doctest/doctest.h>
#include <httplib.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <deque>
#include <map>
#include <thread>
#include <vector>

#include "http/client.hpp"
#include "loopback.hpp"

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

namespace {
// A raw HTTP/1.1 server on 127.0.0.1 that breaks framing as Django's development
// server does: its HEAD answers carry a body, and the connection stays open.
// Optionally an empty "Allow:" header on every answer.
struct HeadBodyServer {
  int listener = -1, port = 0;
  std::atomic<bool> stop{false};
  std::atomic<int> connections{0}, requests{0};
  std::thread thread;
  HeadBodyServer() {
    listener = testing::listen_on_loopback(16, &port);
    thread = std::thread([this] { serve(); });
  }
  ~HeadBodyServer() {
    stop = true;
    thread.join();
    ::close(listener);
  }
  void serve() {
    std::vector<pollfd> fds{{listener, POLLIN, 0}};
    std::map<int, std::string> pending;
    while (!stop) {
      if (::poll(fds.data(), fds.size(), 20) <= 0) continue;
      for (std::size_t i = 0; i < fds.size(); ++i) {
        if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        if (fds[i].fd == listener) {
          int c = ::accept(listener, nullptr, nullptr);
          if (c >= 0) fds.push_back({c, POLLIN, 0}), ++connections;
          continue;
        }
        char buf[4096];
        ssize_t n = ::recv(fds[i].fd, buf, sizeof buf, 0);
        if (n <= 0) {
          ::close(fds[i].fd);
          pending.erase(fds[i].fd);
          fds.erase(fds.begin() + static_cast<long>(i));
          break;
        }
        auto& in = pending[fds[i].fd];
        in.append(buf, static_cast<std::size_t>(n));
        for (auto end = in.find("\r\n\r\n"); end != std::string::npos; end = in.find("\r\n\r\n")) {
          ++requests;
          std::string body = "{\"ok\":true}";
          std::string head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                             std::to_string(body.size()) + "\r\n\r\n";
          in.erase(0, end + 4);
          // The body follows in a write of its own (after HEAD too), once the client has read the head.
          ::send(fds[i].fd, head.data(), head.size(), MSG_NOSIGNAL);
          std::this_thread::sleep_for(std::chrono::milliseconds(30));
          ::send(fds[i].fd, body.data(), body.size(), MSG_NOSIGNAL);
        }
      }
    }
    for (auto& f : fds)
      if (f.fd != listener) ::close(f.fd);
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port) + "/v1/x"; }
};
}  // namespace

TEST_CASE("a request that fails on a reused connection after a HEAD with a body is retried once, fresh, as one exchange") {
  HeadBodyServer server;
  http::ClientSettings cs;
  cs.rate = 0;
  cs.concurrency = 1;  // one connection, reused from request to request
  http::Client client(cs);
  auto results = client.run({request("GET", server.url()), request("HEAD", server.url()), request("GET", server.url()),
                             request("HEAD", server.url()), request("GET", server.url())});
  REQUIRE(results.size() == 5);
  CHECK(client.exchanges().size() == 5);  // a retried request keeps its one exchange
  for (const auto& r : results) {
    REQUIRE(r.chain.size() == 1);
    const auto& e = client.exchange(r.last());
    INFO(e.method << " #" << e.id << ": " << e.error.value_or(""));
    CHECK_FALSE(e.error);
    CHECK(e.status == 200);
  }
  CHECK(server.connections >= 2);  // each GET after a HEAD went out again on a fresh connection
}

TEST_CASE("identical response header lines are kept once; a changed copy gets lines of its own") {
  CountingServer server;
  http::Client client(http::ClientSettings{});
  std::deque<http::Request> plan;
  for (int i = 0; i < 3; ++i) plan.push_back(request("GET", server.url()));
  auto results = client.run_queue(std::move(plan));
  REQUIRE(results.size() == 3);
  const auto& first = client.exchange(results[0].last()).response_headers;
  REQUIRE_FALSE(first.empty());
  CHECK(first.identity() != nullptr);
  for (const auto& r : results) CHECK(client.exchange(r.last()).response_headers.identity() == first.identity());
  CHECK(*client.exchange(results[2].last()).header("content-type") == "text/plain");

  http::HeaderLines changed = first;  // a copy shares the lines until it changes them
  CHECK(changed.identity() == first.identity());
  changed.add("set-cookie", "a=1");
  changed.add("set-cookie", "b=2");
  CHECK(changed.identity() != first.identity());
  CHECK(first.count("set-cookie") == 0);
  CHECK(*changed.value("set-cookie") == "a=1\nb=2");
  CHECK(changed.size() == first.size() + 2);
}

TEST_CASE("HeaderLines: copy on write through every way of changing it") {
  http::HeaderLines a{{"allow", "GET"}, {"allow", "HEAD"}};
  CHECK(*a.value("allow") == "GET, HEAD");
  http::HeaderLines b = a;
  b["allow"] = "POST";  // operator[] changes the first line
  CHECK(*a.value("allow") == "GET, HEAD");  // the joined value of the original is kept
  CHECK(*b.value("allow") == "POST, HEAD");
  http::HeaderLines c = a;
  for (auto& [name, value] : c) value = "X";  // non-const iteration detaches
  CHECK(a.values("allow") == std::vector<std::string_view>{"GET", "HEAD"});
  CHECK(c.values("allow") == std::vector<std::string_view>{"X", "X"});
  http::HeaderLines d = a;
  d.clear();
  CHECK(d.empty());
  CHECK(d.begin() == d.end());
  CHECK(a.size() == 2);
  CHECK(http::HeaderLines{} == http::HeaderLines{});
  CHECK(a == http::HeaderLines{{"allow", "GET"}, {"allow", "HEAD"}});
}

TEST_CASE("two senders: every request sent once, the records in the plan's order, redirects followed, one progress call at a time") {
  httplib::Server server;
  server.Get(R"(/r/(\d+))", [](const httplib::Request& req, httplib::Response& res) {
    res.set_redirect("/x/" + req.matches[1].str(), 302);
  });
  server.Get(R"(/x/(\d+))", [](const httplib::Request& req, httplib::Response& res) {
    res.set_content(req.matches[1].str(), "text/plain");
  });
  int port = server.bind_to_any_port("127.0.0.1");
  std::thread thread([&] { server.listen_after_bind(); });
  while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::string base = "http://127.0.0.1:" + std::to_string(port);

  http::ClientSettings cs;
  cs.rate = 0;
  cs.concurrency = 6;
  cs.senders = 2;
  {
  // (Each client in a scope of its own, so its kept-alive connections are
  // closed before the next one and before the server stops.)
  http::Client client(cs);
  std::size_t calls = 0, last_done = 0;
  bool in_order = true;
  client.on_exchange = [&](const http::Exchange&, std::size_t done, std::size_t) {
    ++calls;  // no lock here: the client calls one at a time
    in_order = in_order && done == last_done + 1;
    last_done = done;
  };
  std::vector<http::Request> plan;
  for (int i = 0; i < 600; ++i) {
    if (i % 7 == 0) {
      auto r = request("GET", base + "/r/" + std::to_string(i));
      r.max_redirects = 1;
      plan.push_back(r);
    } else if (i % 11 == 0) {
      plan.push_back(request("DELETE", base + "/x/" + std::to_string(i)));  // refused, never sent
    } else {
      plan.push_back(request(i % 2 ? "GET" : "HEAD", base + "/x/" + std::to_string(i)));
    }
  }
  auto results = client.run(plan);
  REQUIRE(results.size() == plan.size());
  int previous = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    CAPTURE(i);
    const auto& chain = results[i].chain;
    REQUIRE(!chain.empty());
    CHECK(chain.front() > previous);  // first exchanges numbered in the plan's order
    previous = chain.front();
    const auto& first = client.exchange(chain.front());
    CHECK(first.url == plan[i].url);
    CHECK(first.method == plan[i].method);
    if (plan[i].method == "DELETE") {
      CHECK(first.error->find("needs --allow-unsafe") != std::string::npos);
    } else if (i % 7 == 0) {
      REQUIRE(chain.size() == 2);
      CHECK(first.status == 302);
      const auto& hop = client.exchange(chain.back());
      CHECK(hop.url == base + "/x/" + std::to_string(i));
      CHECK(hop.status == 200);
      CHECK(hop.body == std::to_string(i));
    } else {
      CHECK(chain.size() == 1);
      CHECK(first.status == 200);
      CHECK(first.body == (plan[i].method == "GET" ? std::to_string(i) : ""));
    }
  }
  for (std::size_t id = 1; id <= client.exchanges().size(); ++id) CHECK(client.exchange(static_cast<int>(id)).id == static_cast<int>(id));
  CHECK(calls == client.exchanges().size());
  CHECK(in_order);
  }

  // The request cap holds over both senders.
  {
  http::ClientSettings capped = cs;
  capped.max_exchanges = 100;
  http::Client small(capped);
  std::vector<http::Request> many;
  for (int i = 0; i < 400; ++i) many.push_back(request("GET", base + "/x/" + std::to_string(i)));
  auto out = small.run(many);
  std::size_t sent = 0;
  for (const auto& e : small.exchanges()) sent += e.status.has_value();
  CHECK(sent == 100);
  CHECK(small.exchanges().size() == 400);
  CHECK(small.exchange(out.back().last()).error->find("--max-requests 100") != std::string::npos);
  }  // every client gone before the server stops (it waits out kept-alive connections)
  server.stop();
  thread.join();
}

TEST_CASE("two senders: the deadline ends both, every request accounted for") {
  httplib::Server server;
  server.Get("/.*", [](const httplib::Request&, httplib::Response& res) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    res.set_content("late", "text/plain");
  });
  int port = server.bind_to_any_port("127.0.0.1");
  std::thread thread([&] { server.listen_after_bind(); });
  while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  http::ClientSettings cs;
  cs.rate = 0;
  cs.concurrency = 4;
  cs.senders = 2;
  // 40 requests of 1 s each over 4 connections would take 10 s: the deadline
  // leaves room for the first of each connection on a loaded machine.
  cs.deadline = http::Clock::now() + std::chrono::milliseconds(2500);
  http::Client client(cs);
  std::vector<http::Request> plan;
  for (int i = 0; i < 40; ++i) plan.push_back(request("GET", "http://127.0.0.1:" + std::to_string(port) + "/s" + std::to_string(i)));
  auto started = http::Clock::now();
  auto results = client.run(plan);
  CHECK(http::Clock::now() - started < std::chrono::seconds(7));
  REQUIRE(results.size() == 40);
  std::size_t answered = 0, cut = 0;
  for (const auto& r : results) {
    const auto& e = client.exchange(r.last());
    if (e.status) ++answered;
    else if (e.error && *e.error == "deadline reached") ++cut;
  }
  CHECK(answered >= 4);  // the first of each connection came back in time
  CHECK(answered + cut == 40);
  CHECK(cut > 0);
  server.stop();
  thread.join();
}

TEST_CASE("two senders: one host's rate holds over both") {
  CountingServer server;
  http::ClientSettings cs;
  cs.rate = 200;  // one start every 5 ms
  cs.concurrency = 8;
  cs.senders = 2;
  http::Client client(cs);
  std::vector<http::Request> plan(41, request("GET", server.url()));
  auto started = http::Clock::now();
  auto results = client.run(plan);
  auto took = http::Clock::now() - started;
  CHECK(took >= std::chrono::milliseconds(200));  // 40 intervals after the first start
  CHECK(server.hits == 41);
  for (const auto& r : results) CHECK(client.exchange(r.last()).status == 200);
}

TEST_CASE("transport errors: libcurl 7.88's stale getpeername() message gives way to what ended the transfer") {
  // 55 CURLE_SEND_ERROR, 35 CURLE_SSL_CONNECT_ERROR, 7 CURLE_COULDNT_CONNECT
  CHECK(http::transport_error(55, "getpeername() failed with errno 107: Transport endpoint is not connected", EPIPE) ==
        "Failed sending data to the peer: Broken pipe");
  CHECK(http::transport_error(35, "getpeername() failed with errno 107: Transport endpoint is not connected", 0) ==
        "SSL connect error (the connection was reset as it was made)");
  CHECK(http::transport_error(35, "getsockname() failed with errno 22: Invalid argument", ENOTCONN) ==
        "SSL connect error (the connection was reset as it was made)");
  // the others as libcurl says them, without what differs from one failure to the next
  CHECK(http::transport_error(7, "Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server",
                              ECONNREFUSED) == "Failed to connect to 127.0.0.1 port 9: Connection refused");
  CHECK(http::transport_error(28, "", 0) == "Timeout was reached");
}
