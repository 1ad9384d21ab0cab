// Regression tests for behaviour found wrong in review.
#include <doctest/doctest.h>

#include <string>

#include "report/redact.hpp"
#include "report/render.hpp"

using namespace adrprobe;

TEST_CASE("redaction: a short value echoed whole is masked; lowercase percent-encoding too") {
  report::Report r;
  http::Exchange e;
  e.id = 1;
  e.url = "https://h/v1";
  e.response_headers = {{"x-echo-x-key", "ab1"}, {"x-echo-auth", "tok%2fen-value%2f1"}};
  r.exchanges.push_back(e);
  report::Redactor({{"X-Key", "ab1"}, {"Authorization", "tok/en-value/1"}}).apply(r);
  std::string out = report::render_json(r);
  CHECK(out.find("ab1") == std::string::npos);
  CHECK(out.find("tok") == std::string::npos);
}
