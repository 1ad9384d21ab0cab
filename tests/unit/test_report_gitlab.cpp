// GitLab Code Quality: one finding per failing, warning or erroring check,
// with a stable, unique fingerprint and a location.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "report/formats.hpp"
#include "report_sample.hpp"

using namespace adrprobe;

TEST_CASE("gitlab: the findings, their severity and location") {
  auto report = test::ci_sample();
  auto j = nlohmann::json::parse(report::render("gitlab", report));
  REQUIRE(j.is_array());
  CHECK(j.size() == 5);  // the conclusion (it does not conform); NT-2, KC-1 fail; TS-1 error; VH-2 warn
  CHECK(j[0]["check_name"] == "adrprobe/conclusion");
  std::set<std::string> fingerprints;
  std::map<std::string, nlohmann::json> by_check;
  for (const auto& f : j) {
    for (const char* key : {"description", "check_name", "fingerprint", "severity", "location"}) CHECK(f.contains(key));
    CHECK(f["fingerprint"].get<std::string>().size() == 64);
    CHECK(fingerprints.insert(f["fingerprint"]).second);
    by_check[f["check_name"]] = f;
  }
  CHECK(by_check["NT-2"]["severity"] == "major");
  CHECK(by_check["VH-2"]["severity"] == "minor");
  CHECK(by_check["TS-1"]["severity"] == "info");
  // check: the document URL; a located finding at its line, others at line 1.
  CHECK(by_check["KC-1"]["location"]["path"] == "https://api.example.nl/v1/openapi.json");
  CHECK(by_check["KC-1"]["location"]["lines"]["begin"] == 12);
  CHECK(by_check["NT-2"]["location"]["lines"]["begin"] == 1);
  CHECK(by_check["KC-1"]["description"].get<std::string>().rfind("/core/kebab KC-1: /fooBar", 0) == 0);
  // JSON carries the server's text escaped, never a raw control character.
  std::string nt2 = by_check["NT-2"]["description"];
  CHECK(nt2.find("\x1b") != std::string::npos);  // the JSON escape \u001b read back
  // lint: the path as given.
  report.mode = "lint";
  report.base_url = "api/openapi.yaml";
  report.openapi_url = "file:///repo/api/openapi.yaml";
  auto lint = nlohmann::json::parse(report::render("gitlab", report));
  CHECK(lint[0]["location"]["path"] == "api/openapi.yaml");
}

TEST_CASE("gitlab: fingerprints are stable across runs and differ between findings") {
  auto a = test::ci_sample();
  auto b = test::ci_sample();
  b.generated_at = "2030-01-01T00:00:00Z";
  b.duration_ms = 99;
  CHECK(report::render("gitlab", a) == report::render("gitlab", b));
  report::CheckResult c{"KC-1", report::Verdict::fail, "m", {}};
  report::CheckResult d = c;
  d.locations = {{"/paths/~1a", std::nullopt, ""}};
  CHECK(report::fingerprint("/core/kebab", c) != report::fingerprint("/core/kebab", d));
  CHECK(report::fingerprint("/core/kebab", c) != report::fingerprint("/core/other", c));
  CHECK(report::fingerprint("/core/kebab", c) == report::fingerprint("/core/kebab", c));
  // two targets of a batch: two findings
  CHECK(report::fingerprint("/core/kebab", c, "a https://h/v1") != report::fingerprint("/core/kebab", c, "b https://h/v1"));
}

TEST_CASE("gitlab: no findings is an empty array") {
  report::Report r;
  r.rules = {test::technical("/core/passing", report::Verdict::pass, {{"PA-1", report::Verdict::pass, "fine", {}}})};
  CHECK(nlohmann::json::parse(report::render("gitlab", r)) == nlohmann::json::array());
}

TEST_CASE("gitlab: conformance not shown is the first finding, info, its fingerprint of the target and conforms") {
  auto report = test::ci_sample();  // two MUST rules fail
  auto j = nlohmann::json::parse(report::render("gitlab", report));
  REQUIRE(j.size() == 5);  // the conclusion and the four findings
  const auto& first = j[0];
  CHECK(first["check_name"] == "adrprobe/conclusion");
  CHECK(first["severity"] == "info");
  CHECK(first["description"].get<std::string>().rfind("Does not conform to 2.2.0: 2 MUST rules fail", 0) == 0);
  CHECK(first["location"]["path"] == "https://api.example.nl/v1/openapi.json");
  CHECK(first["location"]["lines"]["begin"] == 1);
  std::string print = first["fingerprint"];
  CHECK(print.size() == 64);
  // Another MUST rule failing changes the text, not the finding: the rule's own finding is the new one.
  report.rules[0].verdict = report::Verdict::fail;
  report.rules[0].checks[0].verdict = report::Verdict::fail;
  auto more = nlohmann::json::parse(report::render("gitlab", report));
  CHECK(more[0]["fingerprint"] == print);
  CHECK(more[0]["description"] != first["description"]);
  // Not established (no MUST failure, an error): another finding, so the widget shows the change.
  auto unknown = test::ci_sample();
  for (auto& rule : unknown.rules)
    if (rule.verdict == report::Verdict::fail) {
      rule.verdict = report::Verdict::pass;
      for (auto& c : rule.checks) c.verdict = report::Verdict::pass;
    }
  auto u = nlohmann::json::parse(report::render("gitlab", unknown));
  REQUIRE(u.size() == 3);  // the conclusion, TS-1 error, VH-2 warn
  CHECK(u[0]["check_name"] == "adrprobe/conclusion");
  CHECK(u[0]["description"].get<std::string>().rfind("Conformance to 2.2.0 could not be established", 0) == 0);
  CHECK(u[0]["fingerprint"] != print);
  // Two targets of a batch: two conclusions.
  report.name = "bag";
  CHECK(nlohmann::json::parse(report::render("gitlab", report))[0]["fingerprint"] != print);
}

TEST_CASE("gitlab: a conforming target gets no conclusion finding; a down target is one finding") {
  report::Report ok;
  ok.edition = "2.2.0";
  ok.rules = {test::technical("/core/passing", report::Verdict::pass, {{"PA-1", report::Verdict::pass, "fine", {}}}),
              test::technical("/core/warning", report::Verdict::warn, {{"VH-2", report::Verdict::warn, "not full", {}}})};
  auto j = nlohmann::json::parse(report::render("gitlab", ok));
  REQUIRE(j.size() == 1);
  CHECK(j[0]["check_name"] == "VH-2");

  auto down = test::down(test::ci_sample());
  down.notes = {"could not reach https://api.example.nl/v1: connection refused"};
  auto d = nlohmann::json::parse(report::render("gitlab", down));
  REQUIRE(d.size() == 1);
  CHECK(d[0]["check_name"] == "adrprobe/down");
  CHECK(d[0]["severity"] == "major");
  std::string text = d[0]["description"];
  CHECK(text.rfind("target down: could not reach https://api.example.nl/v1: connection refused — Conformance to 2.2.0 could "
                   "not be established: the target is down",
                   0) == 0);
  CHECK(d[0]["location"]["path"] == "https://api.example.nl/v1/openapi.json");
  std::string print = d[0]["fingerprint"];
  down.notes = {"could not reach https://api.example.nl/v1: timed out"};
  CHECK(nlohmann::json::parse(report::render("gitlab", down))[0]["fingerprint"] == print);
}

TEST_CASE("gitlab: a module's failing check is a finding like the edition's, named by its /geo rule") {
  auto j = nlohmann::json::parse(report::render("gitlab", test::with_geo(test::ci_sample())));
  REQUIRE(j.size() == 6);  // the five of the edition's sample, then GE-1 of /geo/crs-list
  const auto& f = j[5];
  CHECK(f["check_name"] == "GE-1");
  CHECK(f["severity"] == "major");
  CHECK(f["description"].get<std::string>().rfind("/geo/crs-list GE-1: /collections: crs entry EPSG:28992 is no URI", 0) == 0);
  CHECK(f["fingerprint"].get<std::string>().size() == 64);
  for (std::size_t i = 0; i < 5; ++i) CHECK(f["fingerprint"] != j[i]["fingerprint"]);
}
