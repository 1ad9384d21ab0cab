// SARIF 2.1.0 (OASIS) for code scanning of a description document in a
// repository (lint): one run, a result per technical check that failed,
// warned or could not be judged, located in the document file (the path as
// given to lint; the document URL for check) at the line of its JSON pointer.
//
// Levels: fail → error, warn → warning, error → note (the check could not be
// judged; nothing in the document to fix, but a reader should know).
//
// The conclusion (CLI.md: every format shows it first) is the run's property
// bag, the first member of the run after its required tool, so it precedes
// the results: it is no result (a code scanning service would open an alert
// for it). A down target is one result (ruleId adrprobe/down, level error,
// "target down: <cause>"), not the same transport error once per check.
//
// A module's rules (module-geo.md) give results like the edition's: their
// rule ids are the module's (`/geo/...`, in `name` and properties.rule), and
// properties.module ("geo") on the reporting descriptor and the result says
// which module; the run's properties list the modules judged (JSON `modules`).
#include <nlohmann/json.hpp>

#include <map>

#include "report/formats.hpp"
#include "report/json.hpp"
#include "util/strings.hpp"

namespace adrprobe::report {
namespace {

using json = nlohmann::ordered_json;

const char* level(Verdict v) {
  switch (v) {
    case Verdict::fail: return "error";
    case Verdict::warn: return "warning";
    default: return "note";
  }
}

// A path as a URI reference (RFC 3986): the characters a path may not hold
// literally percent-encoded, '/' kept.
std::string uri_of(const std::string& location) {
  if (location.find("://") != std::string::npos) return location;  // already a URL (check, or lint of a URL)
  std::vector<std::string> segments;
  for (const auto& segment : split(location, '/')) segments.push_back(percent_encode(segment));
  std::string out = join(segments, "/");  // an absolute path keeps its leading '/' (an empty first segment)
  return location.front() == '/' ? "file://" + out : out;
}

}  // namespace

std::string render_sarif(const Report& r, const RenderOptions&) {
  json rules = json::array();
  std::map<std::string, std::size_t> rule_index;
  json results = json::array();
  const std::string location = document_location(r);
  const std::string uri = location.empty() ? "" : uri_of(location);
  if (r.unreachable) {
    // Down: one result, as JUnit's one `down` case; no rule was judged.
    rules.push_back({{"id", kDownCheck},
                     {"name", "TargetDown"},
                     {"shortDescription", {{"text", "The target is down: neither the base URL nor the document answered"}}},
                     {"properties", {{"state", "down"}}}});
    json result{{"ruleId", kDownCheck},
                {"ruleIndex", 0},
                {"level", "error"},
                {"message", {{"text", "target down: " + down_cause(r)}}}};
    json locations = json::array();
    if (!uri.empty()) locations.push_back({{"physicalLocation", {{"artifactLocation", {{"uri", uri}}}}}});
    result["locations"] = std::move(locations);
    result["partialFingerprints"] = {{"adrprobeFinding/v1", down_fingerprint(r)}};
    result["properties"] = {{"state", "down"}};
    results.push_back(std::move(result));
  }
  for (const auto& rule : r.rules) {
    if (r.unreachable) break;
    if (rule.kind != "technical") continue;
    for (const auto& c : rule.checks) {
      if (c.verdict != Verdict::fail && c.verdict != Verdict::warn && c.verdict != Verdict::error) continue;
      // One reporting descriptor per check that produced a result.
      auto [it, added] = rule_index.emplace(c.id, rules.size());
      if (added) {
        json d{{"id", c.id},
               {"name", rule.id},
               {"shortDescription", {{"text", rule.title + " (" + rule.id + ")"}}}};
        if (!rule.statement.empty()) d["fullDescription"] = {{"text", trim(rule.statement)}};
        if (!rule.url.empty()) d["helpUri"] = rule.url;
        d["properties"] = {{"rule", rule.id}};
        if (!rule.module.empty()) d["properties"]["module"] = rule.module;
        if (!rule.level.empty()) d["properties"]["level"] = rule.level;
        rules.push_back(std::move(d));
      }
      json result{{"ruleId", c.id},
                  {"ruleIndex", it->second},
                  {"level", level(c.verdict)},
                  {"message", {{"text", c.message.empty() ? to_string(c.verdict) : c.message}}}};
      json locations = json::array();
      if (!uri.empty()) {
        // Every place of the finding, or the document itself for checks with none.
        std::vector<const Location*> places;
        for (const auto& l : c.locations) places.push_back(&l);
        if (places.empty()) places.push_back(nullptr);
        for (const Location* l : places) {
          json physical{{"artifactLocation", {{"uri", uri}}}};
          if (l && l->line) physical["region"] = {{"startLine", *l->line}};
          json loc{{"physicalLocation", physical}};
          if (l) {
            // A field in another file, reached through the root's $ref at pointer: named after both.
            loc["logicalLocations"] = json::array(
                {{{"fullyQualifiedName", l->target.empty() ? l->pointer : l->pointer + " → " + l->target}, {"kind", "member"}}});
            if (!l->target.empty()) loc["message"] = {{"text", l->target}};
          }
          locations.push_back(std::move(loc));
        }
      }
      result["locations"] = std::move(locations);
      result["partialFingerprints"] = {{"adrprobeFinding/v1", fingerprint(rule.id, c)}};
      json properties{{"rule", rule.id}, {"verdict", to_string(c.verdict)}};
      if (!rule.module.empty()) properties["module"] = rule.module;
      if (!c.locations.empty()) properties["pointer"] = c.locations.front().pointer;
      std::vector<std::string> evidence;
      for (int id : c.exchanges)
        if (const auto* e = find_exchange(r, id)) evidence.push_back(exchange_line(*e));
      if (!evidence.empty()) properties["evidence"] = evidence;
      if (rule.change) {
        properties["change"] = *rule.change;
        // SARIF's own field for a baseline: a new failure is "new", a rule that
        // got worse (or failed before and still does) "updated"/"unchanged".
        result["baselineState"] = *rule.change == "new-fail" ? "new" : *rule.change == "regressed" ? "updated" : "unchanged";
      }
      result["properties"] = std::move(properties);
      results.push_back(std::move(result));
    }
  }
  json driver{{"name", "adrprobe"},
              {"version", r.tool_version},
              {"semanticVersion", r.tool_version},
              {"informationUri", "https://gitdocumentatie.logius.nl/publicatie/api/adr/"},
              {"rules", rules}};
  json run{{"tool", {{"driver", driver}}}};
  // The conclusion first: before the artifacts and the results.
  run["properties"] = {{"conclusion", conclusion_json(conclude(r))}, {"edition", r.edition}, {"mode", r.mode},
                       {"state", state_of(r)}};
  if (!r.modules.empty()) {
    json modules = json::array();
    for (const auto& m : r.modules)
      modules.push_back({{"id", m.id}, {"title", m.title}, {"version", m.version}, {"reason", m.reason}});
    run["properties"]["modules"] = std::move(modules);
  }
  if (!uri.empty()) run["artifacts"] = json::array({{{"location", {{"uri", uri}}}}});
  run["results"] = std::move(results);
  json log{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"}, {"runs", json::array({run})}};
  return dump_json(log);
}

}  // namespace adrprobe::report
