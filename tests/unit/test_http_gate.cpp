// http::Gate: the per-host rate slots and the cap on requests in flight that
// the clients of a batch share; alone, and under two real Clients on two
// threads against a local server.
#include <doctest/doctest.h>
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "http/client.hpp"
#include "http/gate.hpp"

using namespace adrprobe;
using namespace std::chrono_literals;
using Clock = http::Gate::Clock;

TEST_CASE("gate: one start per host per interval, the wait until the next slot") {
  http::Gate gate;
  auto t0 = Clock::now();
  Clock::duration wait{};
  CHECK(gate.try_start("a:80", t0, 100ms, wait));
  CHECK(gate.in_flight() == 1);
  CHECK_FALSE(gate.try_start("a:80", t0 + 30ms, 100ms, wait));
  CHECK(wait == 70ms);
  CHECK_FALSE(gate.try_start("a:80", t0 + 99ms, 100ms, wait));
  CHECK(wait == 1ms);
  // another host has its own slots
  CHECK(gate.try_start("b:80", t0 + 30ms, 100ms, wait));
  CHECK(gate.in_flight() == 2);
  // the slot is free at the interval; the next one is an interval after that start
  CHECK(gate.try_start("a:80", t0 + 100ms, 100ms, wait));
  CHECK_FALSE(gate.try_start("a:80", t0 + 150ms, 100ms, wait));
  CHECK(wait == 50ms);
  // a late start does not bank slots: one start, then the interval again
  CHECK(gate.try_start("a:80", t0 + 1000ms, 100ms, wait));
  CHECK_FALSE(gate.try_start("a:80", t0 + 1001ms, 100ms, wait));
  CHECK(wait == 99ms);
  CHECK(gate.in_flight() == 4);
  for (int i = 0; i < 4; ++i) gate.finished();
  CHECK(gate.in_flight() == 0);
  gate.finished();  // one too many never goes below zero
  CHECK(gate.in_flight() == 0);
}

TEST_CASE("gate: no interval (rate 0) never waits for a slot") {
  http::Gate gate;
  auto t0 = Clock::now();
  Clock::duration wait{};
  for (int i = 0; i < 50; ++i) CHECK(gate.try_start("a:80", t0, Clock::duration::zero(), wait));
  CHECK(gate.in_flight() == 50);
  // Nor for a turn: clients on threads read the clock at different times. One
  // whose reading is older than the last start is not put in a line that
  // every other client would then wait behind (a batch at --rate 0 ran 6x slower).
  int a = 0, b = 0, c = 0;
  CHECK(gate.try_start("h:80", t0 + 5ms, Clock::duration::zero(), wait, &a));
  CHECK(gate.try_start("h:80", t0, Clock::duration::zero(), wait, &b));
  CHECK(gate.try_start("h:80", t0 + 6ms, Clock::duration::zero(), wait, &c));
  CHECK(gate.try_start("h:80", t0 + 1ms, Clock::duration::zero(), wait, &a));
  CHECK(gate.in_flight() == 54);
}

TEST_CASE("gate: the in-flight cap holds over every host; a finished request frees a place") {
  http::Gate gate(2);
  auto t0 = Clock::now();
  Clock::duration wait{};
  CHECK(gate.try_start("a:80", t0, 0ms, wait));
  CHECK(gate.try_start("b:80", t0, 0ms, wait));
  CHECK_FALSE(gate.try_start("c:80", t0, 0ms, wait));
  CHECK(wait > 0ms);   // a short poll
  CHECK(wait <= 100ms);
  // a refused start took no rate slot: c may start at once when a place frees
  gate.finished();
  CHECK(gate.try_start("c:80", t0, 100ms, wait));
  CHECK_FALSE(gate.try_start("d:80", t0, 0ms, wait));
  gate.finished();
  gate.finished();
  CHECK(gate.in_flight() == 0);
  CHECK_FALSE(gate.try_start("c:80", t0 + 10ms, 100ms, wait));  // c's slot is still taken
  CHECK(wait == 90ms);
}

TEST_CASE("gate: try_start and finished from many threads keep the count") {
  http::Gate gate(3);
  std::atomic<int> max_seen{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      int started = 0;
      while (started < 200) {
        Clock::duration wait{};
        if (!gate.try_start("h:1", Clock::now(), Clock::duration::zero(), wait)) {
          std::this_thread::yield();
          continue;
        }
        ++started;
        int now = gate.in_flight();
        int prev = max_seen.load();
        while (now > prev && !max_seen.compare_exchange_weak(prev, now)) {
        }
        gate.finished();
      }
    });
  for (auto& t : threads) t.join();
  CHECK(gate.in_flight() == 0);
  CHECK(max_seen.load() <= 3);
  CHECK(max_seen.load() >= 1);
}

namespace {
// A server on 127.0.0.1 that notes when each request arrives and leaves, and
// how many it handles at once.
struct TimingServer {
  httplib::Server server;
  std::mutex mutex;
  std::vector<Clock::time_point> arrivals;
  int in_flight = 0, max_in_flight = 0;
  std::chrono::milliseconds hold{0};
  int port = 0;
  std::thread thread;
  TimingServer() {
    server.new_task_queue = [] { return new httplib::ThreadPool(8); };
    server.Get("/.*", [this](const httplib::Request&, httplib::Response& res) {
      {
        std::lock_guard lock(mutex);
        arrivals.push_back(Clock::now());
        max_in_flight = std::max(max_in_flight, ++in_flight);
      }
      std::this_thread::sleep_for(hold);
      {
        std::lock_guard lock(mutex);
        --in_flight;
      }
      res.set_content("ok", "text/plain");
    });
    port = server.bind_to_any_port("127.0.0.1");
    thread = std::thread([this] { server.listen_after_bind(); });
    while (!server.is_running()) std::this_thread::sleep_for(1ms);
  }
  ~TimingServer() {
    server.stop();
    thread.join();
  }
  std::string url(int i) const { return "http://127.0.0.1:" + std::to_string(port) + "/v1/r" + std::to_string(i); }
};

// Two clients, each on its own thread with its own requests, sharing `gate`.
std::vector<int> two_clients(TimingServer& server, const std::shared_ptr<http::Gate>& gate, double rate, int per_client) {
  std::vector<int> statuses;
  std::mutex m;
  auto work = [&](int offset) {
    http::ClientSettings cs;
    cs.rate = rate;
    cs.concurrency = 4;
    cs.gate = gate;
    http::Client client(cs);
    std::vector<http::Request> requests;
    for (int i = 0; i < per_client; ++i) {
      http::Request r;
      r.url = server.url(offset + i);
      requests.push_back(r);
    }
    auto results = client.run(requests);
    std::lock_guard lock(m);
    for (const auto& r : results) statuses.push_back(client.exchange(r.last()).status.value_or(0));
  };
  std::thread a(work, 0), b(work, 100);
  a.join();
  b.join();
  return statuses;
}
}  // namespace

TEST_CASE("gate: two clients on two threads share one host's rate") {
  TimingServer server;
  auto gate = std::make_shared<http::Gate>(0);
  const int per_client = 4;
  auto statuses = two_clients(server, gate, 10, per_client);  // 10/s to 127.0.0.1 over both clients
  CHECK(statuses == std::vector<int>(2 * per_client, 200));
  std::lock_guard lock(server.mutex);
  auto arrivals = server.arrivals;
  REQUIRE(arrivals.size() == 2 * per_client);
  std::sort(arrivals.begin(), arrivals.end());
  // one slot per 100 ms: 8 requests span at least 700 ms (a little slack for scheduling)
  auto span = std::chrono::duration_cast<std::chrono::milliseconds>(arrivals.back() - arrivals.front());
  CHECK(span.count() >= 650);
  // ~100 ms apart; one request held up on a loaded machine may arrive close to the next, not more
  int close = 0;
  for (std::size_t i = 1; i < arrivals.size(); ++i)
    close += std::chrono::duration_cast<std::chrono::milliseconds>(arrivals[i] - arrivals[i - 1]).count() < 50;
  CHECK(close <= 1);
  CHECK(gate->in_flight() == 0);
}

TEST_CASE("gate: with max_in_flight 1 the requests of two clients never overlap") {
  TimingServer server;
  server.hold = 30ms;  // long enough for an overlap to show
  auto gate = std::make_shared<http::Gate>(1);
  auto statuses = two_clients(server, gate, 0, 5);
  CHECK(statuses == std::vector<int>(10, 200));
  std::lock_guard lock(server.mutex);
  CHECK(server.arrivals.size() == 10);
  CHECK(server.max_in_flight == 1);
  CHECK(gate->in_flight() == 0);

  // the control: without the cap the same clients do overlap
  TimingServer free;
  free.hold = 100ms;
  auto open = std::make_shared<http::Gate>(0);
  two_clients(free, open, 0, 5);
  std::lock_guard lock2(free.mutex);
  CHECK(free.max_in_flight > 1);
}

TEST_CASE("gate: clients refused a host's slot get the next ones in the order they asked") {
  http::Gate gate;
  auto t0 = Clock::now();
  Clock::duration wait{};
  int a = 0, b = 0;  // two clients
  CHECK(gate.try_start("h:80", t0, 100ms, wait, &a));
  // both wait for the next slot; b asked first
  CHECK_FALSE(gate.try_start("h:80", t0 + 10ms, 100ms, wait, &b));
  CHECK_FALSE(gate.try_start("h:80", t0 + 20ms, 100ms, wait, &a));
  // at the slot, a asks first but it is b's turn
  CHECK_FALSE(gate.try_start("h:80", t0 + 100ms, 100ms, wait, &a));
  CHECK(wait == 1ms);
  CHECK(gate.try_start("h:80", t0 + 101ms, 100ms, wait, &b));
  // then a's
  CHECK_FALSE(gate.try_start("h:80", t0 + 150ms, 100ms, wait, &b));
  CHECK(gate.try_start("h:80", t0 + 201ms, 100ms, wait, &a));
  CHECK(gate.try_start("h:80", t0 + 302ms, 100ms, wait, &b));
  // a client that stopped asking (its run ended) leaves the line after a second
  CHECK_FALSE(gate.try_start("h:80", t0 + 310ms, 100ms, wait, &a));
  CHECK(gate.try_start("h:80", t0 + 1500ms, 100ms, wait, &b));
  // without a client, no turn is taken
  CHECK(gate.try_start("h:80", t0 + 1600ms, 100ms, wait));
}
