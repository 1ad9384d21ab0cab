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

TEST_CASE("sarif: the conclusion is the run's first property bag, before the artifacts and the results") {
  auto j = nlohmann::ordered_json::parse(report::render("sarif", test::ci_sample()));
  const auto& run = j["runs"][0];
  std::vector<std::string> keys;
  for (auto it = run.begin(); it != run.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"tool", "properties", "artifacts", "results"});
  const auto& properties = run["properties"];
  REQUIRE_FALSE(properties.empty());
  CHECK(properties.begin().key() == "conclusion");
  CHECK(properties["conclusion"]["conforms"] == false);
  CHECK(properties["conclusion"]["must_failed"] == 2);
  CHECK(properties["conclusion"]["text"].get<std::string>().rfind("Does not conform to 2.2.0", 0) == 0);
  CHECK(properties["state"] == "up");
}

TEST_CASE("sarif: a down target is one result, level error, target down: <cause>") {
  auto r = test::down(test::ci_sample());
  r.notes = {"could not reach https://api.example.nl/v1: connection refused"};
  auto j = nlohmann::json::parse(report::render("sarif", r));
  const auto& run = j["runs"][0];
  REQUIRE(run["results"].size() == 1);
  const auto& result = run["results"][0];
  CHECK(result["level"] == "error");
  CHECK(result["ruleId"] == "adrprobe/down");
  CHECK(result["message"]["text"] == "target down: could not reach https://api.example.nl/v1: connection refused");
  REQUIRE(run["tool"]["driver"]["rules"].size() == 1);
  CHECK(run["tool"]["driver"]["rules"][result["ruleIndex"].get<std::size_t>()]["id"] == "adrprobe/down");
  CHECK(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "https://api.example.nl/v1/openapi.json");
  CHECK(run["properties"]["conclusion"]["conforms"].is_null());
  CHECK(run["properties"]["state"] == "down");
  // The same fingerprint whatever the cause, night after night; another target has its own.
  std::string print = result["partialFingerprints"]["adrprobeFinding/v1"];
  r.notes = {"could not reach https://api.example.nl/v1: timed out"};
  CHECK(nlohmann::json::parse(report::render("sarif", r))["runs"][0]["results"][0]["partialFingerprints"]["adrprobeFinding/v1"] ==
        print);
  r.name = "bag";
  CHECK(nlohmann::json::parse(report::render("sarif", r))["runs"][0]["results"][0]["partialFingerprints"]["adrprobeFinding/v1"] !=
        print);
}

TEST_CASE("sarif: a module's failing check is a result like the edition's, its rule /geo/..., properties.module geo") {
  auto j = nlohmann::json::parse(report::render("sarif", test::with_geo(test::ci_sample())));
  const auto& run = j["runs"][0];
  const auto& rules = run["tool"]["driver"]["rules"];
  REQUIRE(rules.size() == 5);
  const auto& d = rules[4];
  CHECK(d["id"] == "GE-1");
  CHECK(d["name"] == "/geo/crs-list");
  CHECK(d["properties"]["rule"] == "/geo/crs-list");
  CHECK(d["properties"]["module"] == "geo");
  CHECK(d["properties"]["level"] == "MUST");
  CHECK_FALSE(rules[0]["properties"].contains("module"));  // the edition's rules name no module
  const auto& results = run["results"];
  REQUIRE(results.size() == 5);
  const auto& r = results[4];
  CHECK(r["ruleId"] == "GE-1");
  CHECK(r["ruleIndex"] == 4);
  CHECK(r["level"] == "error");
  CHECK(r["properties"]["rule"] == "/geo/crs-list");
  CHECK(r["properties"]["module"] == "geo");
  CHECK(r["properties"]["evidence"][0] == "GET https://api.example.nl/v1/a/ → 200");
  CHECK_FALSE(results[0]["properties"].contains("module"));
  // The run names the module judged, its version and why.
  REQUIRE(run["properties"]["modules"].size() == 1);
  CHECK(run["properties"]["modules"][0] == nlohmann::json{{"id", "geo"},
                                                           {"title", "Geospatial"},
                                                           {"version", "1.0.2"},
                                                           {"reason", "judged: /collections and application/geo+json in the document"}});
  // Without one, no `modules` property.
  CHECK_FALSE(nlohmann::json::parse(report::render("sarif", test::ci_sample()))["runs"][0]["properties"].contains("modules"));
}
