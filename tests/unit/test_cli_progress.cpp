// The progress line is for a person at a terminal: never in a pipe, never with -q.
#include <doctest/doctest.h>

#include <cstdio>
#include <unistd.h>

#include "cli/progress.hpp"

using namespace adrprobe;

TEST_CASE("progress: nothing on stderr when it is not a terminal") {
  cli::OutputArgs args;
  cli::Output output = cli::to_output(args);
  report::Redactor redactor(std::vector<http::Header>{});
  // Redirect stderr to a pipe (not a terminal) for the duration of the test.
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  int saved = dup(STDERR_FILENO);
  dup2(fds[1], STDERR_FILENO);
  {
    cli::TerminalProgress progress(output, redactor);
    http::Exchange e;
    e.id = 1;
    e.method = "GET";
    e.url = "https://h/v1";
    e.status = 200;
    progress.request_done(e, 1, 3);
  }
  std::fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  close(fds[1]);
  char buf[64];
  ssize_t n = read(fds[0], buf, sizeof buf);
  close(fds[0]);
  CHECK(n == 0);
}
