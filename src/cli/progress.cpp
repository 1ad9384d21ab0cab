#include "cli/progress.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>

#include "util/strings.hpp"

namespace adrprobe::cli {

TerminalProgress::TerminalProgress(const Output& output, const report::Redactor& redactor)
    : redactor_(redactor), verbose_(output.verbose), live_(!output.quiet && !output.verbose && isatty(STDERR_FILENO)) {}

TerminalProgress::~TerminalProgress() { clear(); }

void TerminalProgress::clear() {
  if (shown_) fmt::print(stderr, "\r\x1b[K");
  std::fflush(stderr);
  shown_ = false;
}

void TerminalProgress::request_done(const http::Exchange& e, std::size_t done, std::size_t planned) {
  if (verbose_) {
    std::string what = e.error ? *e.error : std::to_string(e.status.value_or(0));
    // Secrets masked first (a value is matched as given), then server text made visible (\x1b).
    spdlog::debug("{}", escape_control(redactor_.apply(fmt::format("#{} {} {} → {} ({:.0f} ms) [{}]", e.id, e.method,
                                                                   e.url, what, e.duration_ms, e.purpose))));
  } else if (live_) {
    fmt::print(stderr, "\r\x1b[K  probing: {}/{} requests", done, planned);
    std::fflush(stderr);
    shown_ = true;
  }
}

}  // namespace adrprobe::cli
