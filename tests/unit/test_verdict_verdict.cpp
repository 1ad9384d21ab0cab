// verdict: the words of a verdict and the order in which verdicts aggregate.
#include <doctest/doctest.h>

#include "verdict/verdict.hpp"

using namespace adrprobe;

TEST_CASE("verdicts: names both ways, severity fail > error > warn > pass > skip > manual") {
  for (Verdict v : {Verdict::pass, Verdict::warn, Verdict::fail, Verdict::error, Verdict::skip, Verdict::manual})
    CHECK(verdict_from_string(to_string(v)) == v);
  CHECK(verdict_from_string("FAIL") == std::nullopt);
  CHECK(verdict_from_string("") == std::nullopt);
  CHECK(severity(Verdict::fail) > severity(Verdict::error));
  CHECK(severity(Verdict::error) > severity(Verdict::warn));
  CHECK(severity(Verdict::warn) > severity(Verdict::pass));
  CHECK(severity(Verdict::pass) > severity(Verdict::skip));
  CHECK(severity(Verdict::skip) > severity(Verdict::manual));
  CHECK(worst(Verdict::pass, Verdict::warn) == Verdict::warn);
  CHECK(worst(Verdict::fail, Verdict::error) == Verdict::fail);
  CHECK(worst(Verdict::skip, Verdict::manual) == Verdict::skip);
  CheckResult r{"NT-1", Verdict::fail, "GET /v1/a/ served (200)", {3}};
  CHECK(r.locations.empty());
  CHECK(r.exchanges == std::vector<int>{3});
}
