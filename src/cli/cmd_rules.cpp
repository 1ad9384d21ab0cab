// adrprobe rules: the rule catalogue of an edition, with each check and
// whether `lint` runs it (static) or it needs a live API; --module: a module's.
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "checks/registry.hpp"
#include "cli/command.hpp"
#include "cli/options.hpp"
#include "util/strings.hpp"

namespace adrprobe::cli {
namespace {

const char* kind_of(const std::string& id) {
  const checks::Check* c = checks::find_check(id);
  return c && c->is_static() ? "static" : "live";
}

nlohmann::ordered_json rule_json(const catalogue::Rule& r) {
  nlohmann::ordered_json jr{{"id", r.id},       {"aliases", r.aliases}, {"kind", r.kind},
                            {"level", r.level}, {"title", r.title},     {"statement", r.statement},
                            {"url", r.url}};
  std::vector<std::string> ids;
  for (const auto& c : r.checks) ids.push_back(c.id);
  jr["checks"] = ids;
  if (!r.checks.empty()) {
    std::vector<std::string> static_ids;
    for (const auto& c : r.checks)
      if (std::string(kind_of(c.id)) == "static") static_ids.push_back(c.id);
    jr["static_checks"] = static_ids;
  }
  if (!r.review.empty()) jr["review"] = r.review;
  if (!r.decisions.empty()) jr["decisions"] = r.decisions;
  return jr;
}

void print_rule_text(const catalogue::Rule& r) {
  fmt::print("\n{}  [{}]  {} {}\n  {}\n  {}\n", r.id, join(r.aliases, ", "), r.kind, r.level, r.title, r.url);
  fmt::print("  {}\n", trim(r.statement));
  for (const auto& c : r.checks) {
    const checks::Check* check = checks::find_check(c.id);
    if (!check) {  // a module whose checks this build lacks (validate() leaves it out)
      fmt::print("  - {}: not in this build\n", c.id);
      continue;
    }
    fmt::print("  - {} ({}): {}\n", c.id, kind_of(c.id), check->title);
    fmt::print("      sends:  {}\n      passes: {}\n", check->sends, check->passes);
  }
  if (!r.review.empty()) fmt::print("  review: {}\n", trim(r.review));
  for (const auto& d : r.decisions) fmt::print("  decision: {}\n", d);
}

// adrprobe rules --module geo: the module's rules, and the editions it is judged beside.
int print_module(const std::string& id, const std::string& format) {
  const auto& cat = catalogue::Catalogue::builtin();
  const catalogue::Module* m = cat.module(id);
  if (!m) {
    std::vector<std::string> ids;
    for (const auto& known : cat.modules()) ids.push_back(known.id);
    throw UsageError(fmt::format("rules --module: no module '{}' (available: {})", escape_control(id), join(ids, ", ")));
  }
  std::vector<std::string> editions;
  for (const auto& name : cat.edition_names())
    if (const auto* judged = cat.edition(name)->module(id)) editions.push_back(name + " (" + judged->rule + ")");
  std::size_t technical = 0;
  for (const auto& r : m->rules) technical += r.technical();
  if (format == "json") {
    nlohmann::ordered_json j{{"module", m->id},  {"title", m->title},   {"version", m->version},
                             {"name", m->name},  {"source", m->source}, {"required_by", m->required_by},
                             {"editions", editions}};
    j["rules"] = nlohmann::ordered_json::array();
    for (const auto& r : m->rules) j["rules"].push_back(rule_json(r));
    fmt::print("{}\n", j.dump(2));
    return Exit::ok;
  }
  if (format != "text") throw UsageError("rules: -f expects text or json");
  fmt::print("{} ({} rules: {} technical, {} functional)\n{}\n", m->name, m->rules.size(), technical,
             m->rules.size() - technical, m->source);
  fmt::print("Judged beside editions {} (--modules auto: when the API shows it; --modules {}: always)\n",
             join(editions, ", "), m->id);
  fmt::print("Checks marked static need only the document: `adrprobe lint` runs them.\n");
  for (const auto& r : m->rules) print_rule_text(r);
  return Exit::ok;
}

int print_rules(const std::string& edition_name, const std::string& format) {
  const auto& edition = edition_or_throw(edition_name);
  if (format == "json") {
    nlohmann::ordered_json j;
    j["edition"] = edition.edition;
    if (edition_name != edition.edition) j["edition_asked"] = edition_name;
    if (!edition.aliases.empty()) j["aliases"] = edition.aliases;
    j["name"] = edition.name;
    j["source"] = edition.source;
    if (!edition.extends.empty()) j["extends"] = edition.extends;
    if (const auto* t = catalogue::Catalogue::builtin().ncsc(edition.ncsc))
      j["tls_guidelines"] = {{"version", t->version}, {"title", t->title}, {"file", "probes/ncsc-tls-" + t->version + ".yaml"}};
    for (const auto& r : edition.rules) j["rules"].push_back(rule_json(r));
    fmt::print("{}\n", j.dump(2));
    return Exit::ok;
  }
  if (format != "text") throw UsageError("rules: -f expects text or json");
  std::size_t technical = 0;
  for (const auto& r : edition.rules) technical += r.technical();
  if (edition_name != edition.edition) fmt::print("--edition {}: ", edition_name);
  fmt::print("{} ({} rules: {} technical, {} functional)\n{}\n", edition.name, edition.rules.size(), technical,
             edition.rules.size() - technical, edition.source);
  if (!edition.extends.empty()) fmt::print("extends edition {}\n", edition.extends);
  if (const auto* t = catalogue::Catalogue::builtin().ncsc(edition.ncsc))
    fmt::print("TS-2..TS-4 judge by: {} (probes/ncsc-tls-{}.yaml)\n", t->title, t->version);
  if (!edition.aliases.empty())
    fmt::print("{} are judged by this catalogue too: {}\n", join(edition.aliases, ", "), edition.aliases_note);
  fmt::print("Checks marked static need only the document: `adrprobe lint` runs them.\n");
  for (const auto& r : edition.rules) print_rule_text(r);
  return Exit::ok;
}

}  // namespace

Command rules_command(CLI::App& parent) {
  struct Args {
    std::string edition = "2.0.0", format = "text", module;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = parent.add_subcommand("rules", "List the rule catalogue of an edition, and which checks are static");
  cmd->add_option("--edition", a->edition, fmt::format("{} (default 2.0.0)", edition_help()))
      ->check(edition_validator());
  cmd->add_option("--module", a->module,
                  "List a module of the rules instead (geo: the Geospatial module), and the editions it is judged beside");
  cmd->add_option("-f,--format", a->format, "text (default) or json")->check(CLI::IsMember({"text", "json"}));
  cmd->footer("Exit status: 0, or 2 for a usage error.");
  return {cmd, [a] { return a->module.empty() ? print_rules(a->edition, a->format) : print_module(a->module, a->format); }};
}

}  // namespace adrprobe::cli
