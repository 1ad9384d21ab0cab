// The progress line is for a person at a terminal: never in a pipe, never with -q.
#include <doctest/doctest.h>

#include <cstdio>
#include <unistd.h>

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <sstream>

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

TEST_CASE("progress: the -v request log masks secrets, then shows server text escaped") {
  cli::OutputArgs args;
  args.verbose = true;
  cli::Output output = cli::to_output(args);
  report::Redactor redactor(std::vector<http::Header>{{"X-Api-Key", "geheim-1234"}});
  std::ostringstream log;
  auto saved = spdlog::default_logger();
  auto logger = std::make_shared<spdlog::logger>("test", std::make_shared<spdlog::sinks::ostream_sink_mt>(log));
  logger->set_pattern("%v");
  logger->set_level(spdlog::level::debug);
  spdlog::set_default_logger(logger);
  {
    cli::TerminalProgress progress(output, redactor);
    http::Exchange e;
    e.id = 7;
    e.method = "GET";
    e.url = "https://h/v1/x\x1b]0;pwned\x07?k=geheim-1234";
    e.error = "bad \xff reply";
    progress.request_done(e, 1, 1);
  }
  spdlog::set_default_logger(saved);
  std::string out = log.str();
  CHECK(out.find("#7 GET https://h/v1/x\\x1b]0;pwned\\x07?k=*** → bad \\xff reply") != std::string::npos);
  CHECK(out.find('\x1b') == std::string::npos);
  CHECK(out.find("geheim") == std::string::npos);
}

TEST_CASE("progress: the live line names the check and the request, secrets masked, escaped, cut to the width") {
  report::Redactor redactor(std::vector<http::Header>{{"X-Api-Key", "geheim-1234"}});
  redactor.add_url("https://auditor:url-passw0rd@h/v1");
  http::Exchange e;
  e.id = 12;
  e.method = "GET";
  e.url = "https://api.example.nl/v1/gebouwen/";
  e.purpose = "NT-2";
  CHECK(cli::progress_line(e, 12, 40, redactor, 100) == "probing: 12/40 requests · NT-2 GET /v1/gebouwen/");
  // a request made for several checks, a query, no path
  e.purpose = "VH-1,HM-1";
  e.url = "https://api.example.nl/v1?x=1";
  CHECK(cli::progress_line(e, 1, 2, redactor, 100) == "probing: 1/2 requests · VH-1,HM-1 GET /v1?x=1");
  e.url = "https://api.example.nl";
  CHECK(cli::progress_line(e, 1, 2, redactor, 100) == "probing: 1/2 requests · VH-1,HM-1 GET /");
  // secrets: a header value in the query, the URL's password (never shown: only the path is)
  e.purpose = "PO-1 (with -H)";
  e.url = "https://auditor:url-passw0rd@h/v1/openapi.json?key=geheim-1234&p=url-passw0rd";
  auto line = cli::progress_line(e, 3, 9, redactor, 200);
  CAPTURE(line);
  CHECK(line == "probing: 3/9 requests · PO-1 (with -H) GET /v1/openapi.json?key=***&p=***");
  // server text (a Location the client followed) made visible
  e.purpose = "NT-2";
  e.url = "https://h/v1/x\x1b]0;pwned\x07\xff";
  line = cli::progress_line(e, 1, 1, redactor, 200);
  CHECK(line == "probing: 1/1 requests · NT-2 GET /v1/x\\x1b]0;pwned\\x07\\xff");
  // cut to the width, on a character boundary
  e.url = "https://h/v1/" + std::string(300, 'a') + "é";
  for (std::size_t width : {20u, 60u, 98u}) {
    line = cli::progress_line(e, 100, 4000, redactor, width);
    CAPTURE(line);
    CHECK(line.size() <= width);
    CHECK(line.rfind("probing: 100/4000", 0) == 0);
  }
  // no purpose or method: the counts alone
  http::Exchange bare;
  CHECK(cli::progress_line(bare, 0, 0, redactor, 100) == "probing: 0/0 requests");
}
