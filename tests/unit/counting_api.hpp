// An API served in-process on 127.0.0.1 for the run tests (cpp-httplib): GET
// and OPTIONS answered by the handler given, every request counted as
// "METHOD /path"; and the settings of a quick run against it.
#pragma once
#include <httplib.h>

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "engine/settings.hpp"

namespace adrprobe::testing {

struct CountingApi {
  using Handler = std::function<void(const httplib::Request&, httplib::Response&)>;
  explicit CountingApi(const Handler& answer) {
    server.set_logger([this](const httplib::Request& req, const httplib::Response&) {
      std::lock_guard<std::mutex> lock(mutex);
      ++seen[req.method + " " + req.path];
    });
    server.Get(".*", answer);
    server.Options(".*", answer);
    port = server.bind_to_any_port("127.0.0.1");
    thread = std::thread([this] { server.listen_after_bind(); });
    while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~CountingApi() {
    server.stop();
    thread.join();
  }
  std::string base() const { return "http://127.0.0.1:" + std::to_string(port) + "/v1"; }
  int count(const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex);
    return seen.count(what) ? seen[what] : 0;
  }

  httplib::Server server;
  std::mutex mutex;
  std::map<std::string, int> seen;  // "METHOD /path" -> count
  int port = 0;
  std::thread thread;
};

// A run against it: no rate limit, short timeouts.
inline engine::Settings quick_run(const std::string& base) {
  engine::Settings s;
  s.base_url = base;
  s.client.rate = 0;
  s.client.timeout_s = 5;
  s.deadline_s = 30;
  s.tool_version = "test";
  return s;
}

}  // namespace adrprobe::testing
