// What a run tells whoever watches it: the terminal progress line and the -v
// request log today, a batch over many targets later.
#pragma once
#include <cstddef>

#include "http/exchange.hpp"
#include "verdict/verdict.hpp"

namespace adrprobe::report {
struct Report;
}

namespace adrprobe::engine {

struct Observer {
  virtual ~Observer() = default;
  // A request finished (or failed); planned counts what is known so far.
  virtual void request_done(const http::Exchange&, std::size_t /*done*/, std::size_t /*planned*/) {}
  // A check was judged.
  virtual void check_done(const CheckResult&) {}
  // The report of one target is complete.
  virtual void target_done(const report::Report&) {}
};

}  // namespace adrprobe::engine
