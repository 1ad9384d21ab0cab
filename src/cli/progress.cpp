#include "cli/progress.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>

#include "util/strings.hpp"

namespace adrprobe::cli {

std::string progress_line(const http::Exchange& e, std::size_t done, std::size_t planned,
                          const report::Redactor& redactor, std::size_t width) {
  std::string line = fmt::format("probing: {}/{} requests", done, planned);
  // Masked on the whole URL first (a password sits in its userinfo), then
  // only the path and query: the host is the run's.
  std::string url = redactor.apply(e.url);
  if (auto scheme = url.find("://"); scheme != std::string::npos) {
    auto path = url.find_first_of("/?#", scheme + 3);
    url = path == std::string::npos ? "/" : url.substr(path);
  }
  std::string what = trim(fmt::format("{} {} {}", e.purpose, e.method, url));
  if (!what.empty()) line += " · " + redactor.apply(what);
  return truncate_utf8(escape_control(line), width);
}

std::size_t live_line_width() {
  winsize ws{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10) return ws.ws_col - 1;
  return 100;
}

TerminalProgress::TerminalProgress(const Output& output, const report::Redactor& redactor)
    : redactor_(redactor), verbose_(output.verbose), live_(!output.quiet && !output.verbose && isatty(STDERR_FILENO)) {}

TerminalProgress::~TerminalProgress() { clear(); }

void TerminalProgress::clear() {
  if (shown_) fmt::print(stderr, "\r\x1b[K");
  std::fflush(stderr);
  shown_ = false;
}

std::string request_log_line(const http::Exchange& e, const report::Redactor& redactor) {
  std::string what = e.error ? *e.error : std::to_string(e.status.value_or(0));
  return escape_control(redactor.apply(
      fmt::format("#{} {} {} → {} ({:.0f} ms) [{}]", e.id, e.method, e.url, what, e.duration_ms, e.purpose)));
}

void TerminalProgress::request_done(const http::Exchange& e, std::size_t done, std::size_t planned) {
  if (verbose_) {
    spdlog::debug("{}", request_log_line(e, redactor_));
  } else if (live_) {
    fmt::print(stderr, "\r\x1b[K  {}", progress_line(e, done, planned, redactor_, live_line_width() - 2));
    std::fflush(stderr);
    shown_ = true;
  }
}

}  // namespace adrprobe::cli
