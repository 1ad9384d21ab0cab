// JUnit XML: the mapping of every verdict, warn under both --fail-on levels,
// unique test names, and server text that XML cannot hold as it is.
#include <doctest/doctest.h>

#include <pugixml.hpp>
#include <set>

#include "report/formats.hpp"
#include "report_sample.hpp"

using namespace adrprobe;

namespace {
struct Parsed {
  pugi::xml_document doc;
  std::string text;
};
void parse(Parsed& p, report::FailOn fail_on = report::FailOn::fail) {
  report::RenderOptions options;
  options.fail_on = fail_on;
  p.text = report::render("junit", test::ci_sample(), options);
  auto result = p.doc.load_string(p.text.c_str());
  REQUIRE_MESSAGE(result, result.description());
}
pugi::xml_node testcase(const Parsed& p, const std::string& rule) {
  for (auto tc : p.doc.child("testsuites").child("testsuite").children("testcase"))
    if (std::string(tc.attribute("name").value()).rfind(rule + " ", 0) == 0) return tc;
  return {};
}
}  // namespace

TEST_CASE("junit: one suite, one uniquely named testcase per technical rule") {
  Parsed p;
  parse(p);
  auto suites = p.doc.child("testsuites");
  REQUIRE(suites);
  auto suite = suites.child("testsuite");
  CHECK(std::string(suite.attribute("name").value()) == "adrprobe 2.2.0 https://api.example.nl/v1");
  CHECK(std::string(suite.attribute("timestamp").value()) == "2025-01-02T03:04:05Z");
  CHECK(std::string(suite.attribute("time").value()) == "1.234");
  std::set<std::string> names;
  int cases = 0;
  for (auto tc : suite.children("testcase")) {
    ++cases;
    CHECK(names.insert(tc.attribute("name").value()).second);
    CHECK(std::string(tc.attribute("classname").value()) == "adrprobe.2.2.0");
  }
  CHECK(cases == 6);  // the functional rule is no test case
  CHECK(names.count("/core/failing Title of /core/failing"));
  CHECK(suite.attribute("tests").as_int() == 6);
  CHECK(suite.attribute("failures").as_int() == 2);
  CHECK(suite.attribute("errors").as_int() == 1);
  CHECK(suite.attribute("skipped").as_int() == 1);
  CHECK(suites.attribute("tests").as_int() == 6);
  CHECK(std::string(suite.child("system-out").text().get()).find("1 functional rule for a reviewer") != std::string::npos);
}

TEST_CASE("junit: fail, error, skip, pass") {
  Parsed p;
  parse(p);
  auto failing = testcase(p, "/core/failing");
  REQUIRE(failing.child("failure"));
  std::string text = failing.child("failure").text().get();
  CHECK(std::string(failing.child("failure").attribute("message").value()).rfind("NT-2: GET /v1/a/ served (200)", 0) == 0);
  CHECK(text.find("evidence: #1 GET https://api.example.nl/v1/a/ → 200") != std::string::npos);
  CHECK(text.find("change: new failure") != std::string::npos);
  auto kebab = testcase(p, "/core/kebab").child("failure");
  CHECK(std::string(kebab.text().get()).find("at /paths/~1fooBar (line 12)") != std::string::npos);
  auto error = testcase(p, "/core/erroring").child("error");
  REQUIRE(error);
  CHECK(std::string(error.text().get()).find("GET https://api.example.nl/v1 ✗ Connection refused") != std::string::npos);
  CHECK(testcase(p, "/core/skipped").child("skipped"));
  auto passing = testcase(p, "/core/passing");
  CHECK_FALSE(passing.first_child());
}

TEST_CASE("junit: warn fails only under --fail-on warn") {
  Parsed normal;
  parse(normal);
  auto warn = testcase(normal, "/core/warning");
  CHECK_FALSE(warn.child("failure"));
  CHECK(std::string(warn.child("system-out").text().get()).find("VH-2 warn: API-Version 1 not full") != std::string::npos);
  Parsed strict;
  parse(strict, report::FailOn::warn);
  warn = testcase(strict, "/core/warning");
  REQUIRE(warn.child("failure"));
  CHECK(std::string(warn.child("failure").attribute("type").value()) == "warn");
  CHECK(strict.doc.child("testsuites").child("testsuite").attribute("failures").as_int() == 3);
  Parsed never;
  parse(never, report::FailOn::never);
  CHECK_FALSE(testcase(never, "/core/warning").child("failure"));
}

TEST_CASE("junit: server text is escaped; XML 1.0 gets no control character") {
  Parsed p;
  parse(p);
  // pugixml escapes the markup: the text reads back as written.
  std::string message = testcase(p, "/core/failing").child("failure").attribute("message").value();
  CHECK(message.find("<img src=x onerror=alert(1)> & [link]") != std::string::npos);
  CHECK(p.text.find("<img") == std::string::npos);
  // "]]>" may stand in an attribute, never in text (XML 1.0, CharData).
  CHECK(p.text.find(") ]]&gt; `code`") != std::string::npos);
  CHECK(message.find(" ]]> `code`") != std::string::npos);
  // Control characters and invalid UTF-8 made visible, U+FFFF too.
  CHECK(message.find("\\x1b]0;pwned\\x07 \\xff \\uFFFF") != std::string::npos);
  for (char c : p.text) {
    auto u = static_cast<unsigned char>(c);
    CHECK_FALSE((u < 0x20 && u != '\n' && u != '\t' && u != '\r'));
  }
  CHECK(p.text.find("\xEF\xBF\xBF") == std::string::npos);
  CHECK(p.text.find('\xff') == std::string::npos);
}

TEST_CASE("junit: the conclusion's properties come first, for a down batch target too") {
  auto names_and_values = [](const std::string& text) {
    pugi::xml_document doc;
    REQUIRE(doc.load_string(text.c_str()));
    std::vector<std::pair<std::string, std::string>> out;
    for (auto p : doc.child("testsuites").child("testsuite").child("properties").children("property"))
      out.emplace_back(p.attribute("name").value(), p.attribute("value").value());
    return out;
  };
  const std::vector<std::string> first{"conclusion.conforms", "conclusion.must_failed",      "conclusion.should_failed",
                                       "conclusion.warned",   "conclusion.errors",          "conclusion.functional_pending",
                                       "conclusion.text"};
  auto props = names_and_values(report::render("junit", test::ci_sample()));
  REQUIRE(props.size() > first.size());
  for (std::size_t i = 0; i < first.size(); ++i) CHECK(props[i].first == first[i]);
  CHECK(props[0].second == "false");
  CHECK(props[1].second == "2");  // /core/failing and /core/kebab: no stated level counts as MUST
  CHECK(props[6].second.rfind("Does not conform to 2.2.0", 0) == 0);
  CHECK(props[7].first == "edition");

  report::Report down = test::down(test::ci_sample());
  down.name = "weg";
  down.owner = "Team Basis";
  down.labels = {{"domain", "adressen"}};
  props = names_and_values(report::render("junit", down));
  REQUIRE(props.size() > first.size());
  for (std::size_t i = 0; i < first.size(); ++i) CHECK(props[i].first == first[i]);
  CHECK(props[0].second == "null");
  CHECK(props[6].second.find("the target is down") != std::string::npos);
  CHECK(props.back().first == "label.domain");
}

TEST_CASE("junit: under --fail-on regressed only a change fails; a known failure is skipped, since when it is known") {
  auto render_doc = [](const report::Report& r, report::FailOn fail_on, pugi::xml_document& doc) {
    report::RenderOptions options;
    options.fail_on = fail_on;
    std::string text = report::render("junit", r, options);
    REQUIRE(doc.load_string(text.c_str()));
    return doc.child("testsuites").child("testsuite");
  };
  auto find = [](pugi::xml_node suite, const std::string& rule) {
    for (auto tc : suite.children("testcase"))
      if (std::string(tc.attribute("name").value()).rfind(rule + " ", 0) == 0) return tc;
    return pugi::xml_node{};
  };
  auto property = [](pugi::xml_node tc, const char* name) {
    return std::string(tc.child("properties").find_child_by_attribute("property", "name", name).attribute("value").value());
  };
  report::Report r = test::ci_sample();
  r.compared = true;
  r.rules[1].change = "new-fail";  // /core/failing
  r.rules[1].failing_since = "2025-01-02T03:04:05Z";
  r.rules[2].change = "unchanged";  // /core/kebab: failing as in the baseline
  r.rules[2].failing_since = "2024-12-20T03:04:05Z";
  r.rules[3].change = "unchanged";  // /core/erroring
  r.rules[4].change = "regressed";  // /core/warning: pass → warn

  pugi::xml_document doc;
  auto suite = render_doc(r, report::FailOn::regressed, doc);
  auto failing = find(suite, "/core/failing");
  REQUIRE(failing.child("failure"));
  CHECK(std::string(failing.child("failure").attribute("message").value()).rfind("new-fail: NT-2: ", 0) == 0);
  CHECK(property(failing, "change") == "new-fail");
  CHECK(property(failing, "failing_since") == "2025-01-02T03:04:05Z");
  // The properties come first in the case (as pytest writes them), then the result.
  CHECK(std::string(failing.first_child().name()) == "properties");
  auto kebab = find(suite, "/core/kebab");
  CHECK_FALSE(kebab.child("failure"));
  REQUIRE(kebab.child("skipped"));
  CHECK(std::string(kebab.child("skipped").attribute("message").value()) ==
        "known failure since 2024-12-20T03:04:05Z: KC-1: /fooBar: not kebab-case (/paths/~1fooBar)");
  CHECK(std::string(kebab.child("system-out").text().get()).find("at /paths/~1fooBar (line 12)") != std::string::npos);
  CHECK(property(kebab, "change") == "unchanged");
  CHECK(property(kebab, "failing_since") == "2024-12-20T03:04:05Z");
  auto erroring = find(suite, "/core/erroring");
  REQUIRE(erroring.child("skipped"));
  CHECK(std::string(erroring.child("skipped").attribute("message").value()) ==
        "no change since the baseline: TS-1: connection refused");
  auto warning = find(suite, "/core/warning");
  REQUIRE(warning.child("failure"));  // regressed: what makes the night red
  CHECK(std::string(warning.child("failure").attribute("message").value()).rfind("regressed: VH-2: ", 0) == 0);
  CHECK(suite.attribute("failures").as_int() == 2);
  CHECK(suite.attribute("errors").as_int() == 0);
  CHECK(suite.attribute("skipped").as_int() == 3);  // kebab, erroring, and /core/skipped as always

  // Under fail nothing changes but the message, which says the same.
  suite = render_doc(r, report::FailOn::fail, doc);
  kebab = find(suite, "/core/kebab");
  REQUIRE(kebab.child("failure"));
  CHECK(std::string(kebab.child("failure").attribute("message").value()).rfind("known failure since 2024-12-20T03:04:05Z: KC-1", 0) == 0);
  CHECK(find(suite, "/core/erroring").child("error"));
  CHECK_FALSE(find(suite, "/core/warning").child("failure"));
  CHECK(suite.attribute("failures").as_int() == 2);
  CHECK(suite.attribute("errors").as_int() == 1);
  CHECK(suite.attribute("skipped").as_int() == 1);

  // No baseline under regressed: nothing is news (the exit status is 0), and the message says why.
  report::Report first = test::ci_sample();
  first.rules[1].change.reset();
  first.rules[1].failing_since = "2025-01-02T03:04:05Z";
  suite = render_doc(first, report::FailOn::regressed, doc);
  failing = find(suite, "/core/failing");
  REQUIRE(failing.child("skipped"));
  CHECK(std::string(failing.child("skipped").attribute("message").value())
            .rfind("failing since 2025-01-02T03:04:05Z, no baseline to compare with: NT-2: ", 0) == 0);
  CHECK(suite.attribute("failures").as_int() == 0);
}

TEST_CASE("junit: a down target's one case says since when; under regressed it fails only the night it went down") {
  report::Report down = test::ci_sample();
  down.unreachable = true;
  down.notes = {"could not reach https://api.example.nl/v1: connection refused"};
  down.down_since = "2025-01-01T03:04:05Z";
  down.compared = true;
  auto one_case = [](const report::Report& r, report::FailOn fail_on, pugi::xml_document& doc) {
    report::RenderOptions options;
    options.fail_on = fail_on;
    std::string text = report::render("junit", r, options);
    REQUIRE(doc.load_string(text.c_str()));
    auto suite = doc.child("testsuites").child("testsuite");
    CHECK(std::string(suite.child("properties").find_child_by_attribute("property", "name", "down_since")
                          .attribute("value").value()) == "2025-01-01T03:04:05Z");
    return suite.child("testcase");
  };
  pugi::xml_document doc;
  auto tc = one_case(down, report::FailOn::regressed, doc);
  REQUIRE(tc.child("skipped"));
  CHECK(std::string(tc.child("skipped").attribute("message").value()) ==
        "known failure since 2025-01-01T03:04:05Z: down: could not reach https://api.example.nl/v1: connection refused");
  tc = one_case(down, report::FailOn::fail, doc);
  REQUIRE(tc.child("error"));
  CHECK(std::string(tc.child("error").attribute("message").value()) ==
        "down: could not reach https://api.example.nl/v1: connection refused (down since 2025-01-01T03:04:05Z)");
  down.went_down = true;
  tc = one_case(down, report::FailOn::regressed, doc);
  REQUIRE(tc.child("error"));
  CHECK(std::string(tc.child("properties").find_child_by_attribute("property", "name", "change").attribute("value").value()) ==
        "down");
}

TEST_CASE("junit: a module's rules are test cases of class <target>.geo after the edition's; the suite names the module") {
  report::Report r = test::with_geo(test::ci_sample());
  r.name = "bag";
  pugi::xml_document doc;
  std::string text = report::render("junit", r);
  REQUIRE(doc.load_string(text.c_str()));
  auto suite = doc.child("testsuites").child("testsuite");
  std::vector<std::pair<std::string, std::string>> cases;
  for (auto tc : suite.children("testcase")) cases.emplace_back(tc.attribute("name").value(), tc.attribute("classname").value());
  REQUIRE(cases.size() == 8);  // 6 technical rules of the edition, 2 of the module; functional rules are no cases
  CHECK(cases[5].second == "adrprobe.bag");
  CHECK(cases[6] == std::pair<std::string, std::string>{"/geo/crs-list Title of /geo/crs-list", "adrprobe.bag.geo"});
  CHECK(cases[7] == std::pair<std::string, std::string>{"/geo/storage-crs Title of /geo/storage-crs", "adrprobe.bag.geo"});
  auto crs = suite.find_child_by_attribute("testcase", "classname", "adrprobe.bag.geo");
  CHECK(std::string(crs.child("failure").attribute("message").value()).rfind("GE-1: /collections: crs entry", 0) == 0);
  CHECK(suite.attribute("tests").as_int() == 8);
  CHECK(suite.attribute("failures").as_int() == 3);
  auto property = [&](const char* name) {
    return std::string(suite.child("properties").find_child_by_attribute("property", "name", name).attribute("value").value());
  };
  CHECK(property("module.geo") == "Geospatial module 1.0.2");
  CHECK(property("module.geo.reason") == "judged: /collections and application/geo+json in the document");
  std::string out = suite.child("system-out").text().get();
  CHECK(out.find("2 functional rules for a reviewer (not test cases)") != std::string::npos);
  CHECK(out.find("Geospatial module 1.0.2: 1 pass · 0 warn · 1 fail · 0 error of 2 applicable rules") != std::string::npos);
  // Without a name: adrprobe.<edition>.geo.
  r.name.reset();
  CHECK(report::render("junit", r).find("classname=\"adrprobe.2.2.0.geo\"") != std::string::npos);
}
