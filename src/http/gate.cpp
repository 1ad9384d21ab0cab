#include "http/gate.hpp"

#include <algorithm>

namespace adrprobe::http {

bool Gate::try_start(const std::string& host, Clock::time_point now, Clock::duration interval, Clock::duration& wait) {
  std::lock_guard lock(mutex_);
  if (max_in_flight_ > 0 && in_flight_ >= max_in_flight_) {
    wait = std::chrono::milliseconds(10);
    return false;
  }
  auto& slot = next_slot_[host];
  if (slot > now) {
    wait = slot - now;
    return false;
  }
  slot = now + interval;
  ++in_flight_;
  return true;
}

void Gate::finished() {
  std::lock_guard lock(mutex_);
  in_flight_ = std::max(0, in_flight_ - 1);
}

int Gate::in_flight() const {
  std::lock_guard lock(mutex_);
  return in_flight_;
}

}  // namespace adrprobe::http
