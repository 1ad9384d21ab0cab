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
