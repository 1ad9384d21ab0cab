// The terminal's view of a run: a live progress line on a TTY stderr, or with
// -v a log line per request. Nothing in a pipe or with -q.
#pragma once
#include "cli/settings.hpp"
#include "engine/observer.hpp"
#include "report/redact.hpp"

namespace adrprobe::cli {

class TerminalProgress : public engine::Observer {
 public:
  TerminalProgress(const Output& output, const report::Redactor& redactor);
  ~TerminalProgress() override;
  void request_done(const http::Exchange& e, std::size_t done, std::size_t planned) override;
  void target_done(const report::Report&) override { clear(); }

 private:
  void clear();
  const report::Redactor& redactor_;
  bool verbose_;
  bool live_;  // a progress line on a terminal
  bool shown_ = false;
};

}  // namespace adrprobe::cli
