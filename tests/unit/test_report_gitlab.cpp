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
  CHECK(j.size() == 4);  // NT-2, KC-1 fail; TS-1 error; VH-2 warn
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
