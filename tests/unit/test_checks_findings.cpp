#include <doctest/doctest.h>

#include "checks/findings.hpp"

using namespace adrprobe;
using report::Verdict;

TEST_CASE("findings: one entry per check, worst first") {
  checks::Findings f("NT-2");
  f.add(Verdict::pass, "", {1});
  f.add(Verdict::warn, "GET /a/ → 401", {2});
  f.add(Verdict::fail, "GET /b/ served (200)", {3});
  auto r = f.result("all good");
  CHECK(r.verdict == Verdict::fail);
  CHECK(r.message.rfind("GET /b/ served (200)", 0) == 0);
  CHECK(r.exchanges == std::vector<int>{3, 2});
  checks::Findings ok("NT-2");
  ok.add(Verdict::pass, "", {1});
  ok.add(Verdict::skip, "not probed: /x/{id}");
  auto r2 = ok.result("1 URL answered 404");
  CHECK(r2.verdict == Verdict::pass);
  CHECK(r2.message == "1 URL answered 404; not probed: /x/{id}");
  checks::Findings none("HM-0");
  CHECK(none.result("nothing to warn about").verdict == Verdict::pass);  // nothing found is a pass
}
