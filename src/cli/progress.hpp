// The terminal's view of a run: a live progress line on a TTY stderr, or with
// -v a log line per request. Nothing in a pipe or with -q.
#pragma once
#include <string>

#include "cli/settings.hpp"
#include "engine/observer.hpp"
#include "report/redact.hpp"

namespace adrprobe::cli {

// The live line after a request: "probing: 12/40 requests · NT-2 GET /v1/gebouwen/"
// (the check that asked for it, the method and the URL's path and query),
// secrets masked, server text made visible, at most `width` bytes.
std::string progress_line(const http::Exchange& e, std::size_t done, std::size_t planned,
                          const report::Redactor& redactor, std::size_t width);

// The -v log line of a request: "#12 GET https://… → 301 (4 ms) [NT-2 …]",
// secrets masked first (a value is matched as given), then server text made visible.
std::string request_log_line(const http::Exchange& e, const report::Redactor& redactor);

// Bytes a live line on stderr may take: the terminal's columns less one (a
// full line would wrap, and "\r\x1b[K" erases only the last row); 100 when unknown.
std::size_t live_line_width();

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
