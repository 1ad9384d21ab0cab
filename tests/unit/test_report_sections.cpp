// The parts of a report every format shows apart: the edition's rules, then
// each module's with its own heading and count (module-geo.md).
#include <doctest/doctest.h>

#include "report/sections.hpp"
#include "report_sample.hpp"

using namespace adrprobe;
using report::Verdict;

TEST_CASE("sections: the edition's rules, then each module's with its own count; the edition keeps its score") {
  report::Report r = test::with_geo(test::ci_sample());
  auto sections = report::rule_sections(r);
  REQUIRE(sections.size() == 2);
  CHECK_FALSE(sections[0].is_module());
  CHECK(sections[0].rules.size() == 7);
  CHECK(sections[0].score.percent == r.score.percent);
  CHECK(sections[0].score.applicable == r.score.applicable);
  const auto& geo = sections[1];
  CHECK(geo.is_module());
  CHECK(report::module_heading(geo.module) == "Geospatial module 1.0.2");
  CHECK(geo.module.reason == "judged: /collections and application/geo+json in the document");
  REQUIRE(geo.rules.size() == 3);
  CHECK(geo.rules[0]->id == "/geo/crs-list");
  CHECK(geo.rules[2]->id == "/geo/geometric-context");
  CHECK(geo.score.pass == 1);
  CHECK(geo.score.fail == 1);
  CHECK(geo.score.applicable == 2);  // the functional rule is not counted
  CHECK(report::module_counts(geo) == "1 pass · 0 warn · 1 fail · 0 error of 2 applicable rules");
}

TEST_CASE("sections: no module, one section; a module rule of a module the report does not list gets one by its id") {
  report::Report r = test::ci_sample();
  CHECK(report::rule_sections(r).size() == 1);
  r.rules.push_back(test::technical("/sig/x", Verdict::pass, {}));
  r.rules.back().module = "sig";
  auto sections = report::rule_sections(r);
  REQUIRE(sections.size() == 2);
  CHECK(sections[1].module.id == "sig");
  CHECK(report::module_heading(sections[1].module) == "sig module");
  CHECK(sections[1].rules.size() == 1);
}

TEST_CASE("sections: a module judged but none of its rules selected (--rules) still has its section, empty") {
  report::Report r = test::ci_sample();
  r.modules.push_back({"geo", "Geospatial", "1.0.2", "judged: forced on (--modules geo)"});
  auto sections = report::rule_sections(r);
  REQUIRE(sections.size() == 2);
  CHECK(sections[1].rules.empty());
  CHECK(sections[1].score.applicable == 0);
}
