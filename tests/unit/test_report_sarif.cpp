// SARIF 2.1.0: the log's shape, rules, results with levels and locations.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "report/formats.hpp"
#include "report_sample.hpp"

using namespace adrprobe;

TEST_CASE("sarif: one run, its driver, the rules that produced results") {
  auto j = nlohmann::json::parse(report::render("sarif", test::ci_sample()));
  CHECK(j["version"] == "2.1.0");
  CHECK(j["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json");
  REQUIRE(j["runs"].size() == 1);
  const auto& run = j["runs"][0];
  CHECK(run["tool"]["driver"]["name"] == "adrprobe");
  CHECK(run["tool"]["driver"]["version"] == "0.3.0");
  const auto& rules = run["tool"]["driver"]["rules"];
  REQUIRE(rules.size() == 4);
  CHECK(rules[0]["id"] == "NT-2");
  CHECK(rules[0]["helpUri"] == "https://gitdocumentatie.logius.nl/publicatie/api/adr/#core/failing");
  CHECK(rules[0]["shortDescription"]["text"] == "Title of /core/failing (/core/failing)");
  const auto& results = run["results"];
  REQUIRE(results.size() == 4);
  std::map<std::string, nlohmann::json> by_rule;
  for (const auto& r : results) {
    CHECK(rules[r["ruleIndex"].get<std::size_t>()]["id"] == r["ruleId"]);
    CHECK(r["partialFingerprints"]["adrprobeFinding/v1"].get<std::string>().size() == 64);
    by_rule[r["ruleId"]] = r;
  }
  CHECK(by_rule["NT-2"]["level"] == "error");
  CHECK(by_rule["VH-2"]["level"] == "warning");
  CHECK(by_rule["TS-1"]["level"] == "note");
  CHECK(by_rule["NT-2"]["properties"]["evidence"][0] == "GET https://api.example.nl/v1/a/ → 200");
  CHECK(by_rule["NT-2"]["properties"]["change"] == "new failure");
  const auto& kc = by_rule["KC-1"]["locations"][0];
  CHECK(kc["physicalLocation"]["artifactLocation"]["uri"] == "https://api.example.nl/v1/openapi.json");
  CHECK(kc["physicalLocation"]["region"]["startLine"] == 12);
  CHECK(kc["logicalLocations"][0]["fullyQualifiedName"] == "/paths/~1fooBar");
  CHECK_FALSE(by_rule["NT-2"]["locations"][0]["physicalLocation"].contains("region"));
}

TEST_CASE("sarif: lint points at the file as given, as a URI reference") {
  auto r = test::ci_sample();
  r.mode = "lint";
  r.base_url = "specs/my api.yaml";
  auto j = nlohmann::json::parse(report::render("sarif", r));
  CHECK(j["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "specs/my%20api.yaml");
  r.base_url = "/abs/api.yaml";
  j = nlohmann::json::parse(report::render("sarif", r));
  CHECK(j["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "file:///abs/api.yaml");
}
