// What the clients of one batch share: the per-host rate limit (many
// government APIs sit behind one gateway host, and `--rate` is a promise to
// that host, not to each API) and one cap on the requests in flight across
// all targets. Thread-safe; each target's Client runs on its own thread.
#pragma once
#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <string>

namespace adrprobe::http {

class Gate {
 public:
  using Clock = std::chrono::steady_clock;
  // max_in_flight: requests in flight over all clients (0: no cap).
  explicit Gate(int max_in_flight = 0) : max_in_flight_(max_in_flight) {}
  // May a request to `host` start now? Yes: its rate slot (the next start to
  // that host `interval` later) and an in-flight place are taken, and
  // finished() must follow. No: `wait` is how long until the host's next slot
  // (or a short poll while every place is taken).
  //
  // `who` (a client) takes its turn: clients that were refused a host's slot
  // get its next ones in the order they first asked, so one target cannot
  // take every slot of a gateway while another waits (a client that stops
  // asking for a second leaves the line). nullptr takes no turn.
  bool try_start(const std::string& host, Clock::time_point now, Clock::duration interval, Clock::duration& wait,
                 const void* who = nullptr);
  // A request started through try_start is done (or was not sent after all).
  void finished();
  int in_flight() const;

 private:
  mutable std::mutex mutex_;
  int max_in_flight_;
  int in_flight_ = 0;
  std::map<std::string, Clock::time_point> next_slot_;
  struct Waiting {
    const void* who;
    Clock::time_point asked;  // last
  };
  std::map<std::string, std::deque<Waiting>> line_;  // per host, in the order they first asked
};

}  // namespace adrprobe::http
