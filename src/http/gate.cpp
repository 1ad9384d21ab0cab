#include "http/gate.hpp"

#include <algorithm>

namespace adrprobe::http {

bool Gate::try_start(const std::string& host, Clock::time_point now, Clock::duration interval, Clock::duration& wait,
                     const void* who) {
  std::lock_guard lock(mutex_);
  if (max_in_flight_ > 0 && in_flight_ >= max_in_flight_) {
    wait = std::chrono::milliseconds(10);
    return false;
  }
  if (interval <= Clock::duration::zero()) {
    // No rate to keep (--rate 0): no slots to take, and no turns at them
    // (a line would make every client wait for the first one refused).
    ++in_flight_;
    return true;
  }
  auto& slot = next_slot_[host];
  auto& line = line_[host];
  // A client asks again well within a second while it waits (its loop wakes
  // every 100 ms at most): one that has not is gone, or done.
  std::erase_if(line, [&](const Waiting& w) { return now - w.asked > std::chrono::seconds(1) && w.who != who; });
  auto mine = std::find_if(line.begin(), line.end(), [&](const Waiting& w) { return w.who == who; });
  bool turn = !who || line.empty() || line.front().who == who;
  if (slot > now || !turn) {
    if (who && mine == line.end()) line.push_back({who, now});
    else if (who) mine->asked = now;
    wait = slot > now ? slot - now : std::chrono::milliseconds(1);
    return false;
  }
  if (mine != line.end()) line.erase(mine);
  if (line.empty()) line_.erase(host);
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
