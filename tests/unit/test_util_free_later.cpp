// free_later: what it is given is destroyed on another thread, in order.
#include <doctest/doctest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "util/free_later.hpp"

using namespace adrprobe;

namespace {
// Where and in which order the objects were destroyed.
struct Log {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<int> order;
  std::vector<std::thread::id> threads;
  bool wait_for(std::size_t n) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, std::chrono::seconds(10), [&] { return order.size() >= n; });
  }
};
struct Noted {
  Log* log;
  int n;
  Noted(Log* log, int n) : log(log), n(n) {}
  Noted(Noted&& other) noexcept : log(other.log), n(other.n) { other.log = nullptr; }
  ~Noted() {
    if (!log) return;  // moved from
    std::lock_guard lock(log->mutex);
    log->order.push_back(n);
    log->threads.push_back(std::this_thread::get_id());
    log->changed.notify_all();
  }
};
}  // namespace

TEST_CASE("free_later: destroys each object once, off the caller's thread, in the order given") {
  Log log;
  for (int i = 0; i < 100; ++i) free_later(Noted(&log, i));
  REQUIRE(log.wait_for(100));
  std::lock_guard lock(log.mutex);
  CHECK(log.order.size() == 100);
  for (int i = 0; i < 100; ++i) CHECK(log.order[static_cast<std::size_t>(i)] == i);
  for (const auto& id : log.threads) CHECK(id != std::this_thread::get_id());
}

TEST_CASE("free_later: callers on several threads at once (a batch's targets)") {
  Log log;
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&log, t] {
      for (int i = 0; i < 250; ++i) free_later(Noted(&log, t * 1000 + i));
    });
  for (auto& c : callers) c.join();
  REQUIRE(log.wait_for(1000));
  std::lock_guard lock(log.mutex);
  CHECK(log.order.size() == 1000);
  // Each caller's objects in the order it gave them.
  for (int t = 0; t < 4; ++t) {
    int last = -1;
    for (int n : log.order)
      if (n / 1000 == t) {
        CHECK(n > last);
        last = n;
      }
    CHECK(last == t * 1000 + 249);
  }
}
