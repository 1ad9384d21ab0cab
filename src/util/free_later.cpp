#include "util/free_later.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>

namespace adrprobe {
namespace {

struct Freer {
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<std::shared_ptr<void>> queue;

  Freer() {
    std::thread([this] {
      std::unique_lock lock(mutex);
      while (true) {
        wake.wait(lock, [this] { return !queue.empty(); });
        std::shared_ptr<void> next = std::move(queue.front());
        queue.pop_front();
        lock.unlock();
        next.reset();  // the destructor runs here, without the lock
        lock.lock();
      }
    }).detach();
  }
};

}  // namespace

void free_later(std::shared_ptr<void> object) {
  static Freer* const freer = [] {
    try {
      return new Freer;  // never destroyed (above)
    } catch (const std::system_error&) {
      return static_cast<Freer*>(nullptr);  // no thread to be had: each object is freed at once
    }
  }();
  if (!freer) return;  // `object` goes here
  {
    std::lock_guard lock(freer->mutex);
    freer->queue.push_back(std::move(object));
  }
  freer->wake.notify_one();
}

}  // namespace adrprobe
