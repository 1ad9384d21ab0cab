// The catalogue, the check registry, the hint producers and the edition
// parameters are one whole: every id has exactly one implementation.
#include <doctest/doctest.h>

#include <set>

#include "checks/registry.hpp"
#include "util/strings.hpp"

using namespace adrprobe;

TEST_CASE("every check of every edition has one implementation, and every implementation a catalogue entry") {
  const auto& cat = catalogue::Catalogue::builtin();
  auto problems = checks::validate(cat);
  CAPTURE(join(problems, "\n"));
  CHECK(problems.empty());
  // Every registered check is used by some edition or module.
  std::set<std::string> used;
  for (const auto& name : cat.edition_names())
    for (const auto& rule : cat.edition(name)->rules)
      for (const auto& ref : rule.checks) used.insert(ref.id);
  for (const auto& m : cat.modules())
    for (const auto& rule : m.rules)
      for (const auto& ref : rule.checks) used.insert(ref.id);
  for (const auto* c : checks::registry().checks) CHECK(used.count(std::string(c->id)));
}

TEST_CASE("an unknown check id, hint producer or parameter is an error, never a silent skip") {
  auto cat = catalogue::Catalogue::load({
      {"e.yaml", R"(edition: "9"
name: Nine
source: https://nine.example
semver: full
rules:
  - {id: /r, aliases: [], kind: technical, level: MUST, title: R, checks: [NT-1, XX-9, {id: NT-1, colour: red}, {id: TS-5, missing: fial}]}
  - {id: /f, aliases: [], kind: functional, level: MUST, title: F, checks: [], review: r, hints: [crystal-ball]}
)"},
  });
  std::string all = join(checks::validate(cat), "\n");
  CHECK(all.find("unknown check XX-9") != std::string::npos);
  CHECK(all.find("no parameter 'colour'") != std::string::npos);
  CHECK(all.find("unknown hint producer 'crystal-ball'") != std::string::npos);
  CHECK(all.find("parameter 'missing' cannot be 'fial'") != std::string::npos);
}

TEST_CASE("static checks need nothing but the document") {
  std::set<std::string> statics;
  for (const auto* c : checks::registry().checks)
    if (c->is_static()) statics.insert(std::string(c->id));
  // probes.md, `adrprobe lint`: DO-1..3, SV-1, NT-1, HM-0, UV-2, UV-3 and the contact check;
  // for 2.2.0 also KC-1, KC-2, QK-1, DT-1..DT-4, EH-1 and EI-1; the Geospatial
  // module's request-side rules GE-13..GE-15 (module-geo.md: the tool sends no body).
  CHECK(statics == std::set<std::string>{"CT-1", "DO-1", "DO-2", "DO-3", "HM-0", "NT-1", "SV-1", "UV-2", "UV-3", "KC-1",
                                         "KC-2", "QK-1", "DT-1", "DT-2", "DT-3", "DT-4", "EH-1", "EI-1",
                                         "GE-13", "GE-14", "GE-15"});
}

namespace {
CheckResult judge_nothing(const engine::Evidence&, const catalogue::CheckRef& ref) {
  return {ref.id, Verdict::pass, "", {}};
}
std::optional<engine::JudgedModule> see_nothing(const engine::Evidence&) { return std::nullopt; }
const engine::Check fake_ge{.id = "GE-1", .needs = engine::document, .title = "t", .sends = "s", .passes = "p",
                            .judge = judge_nothing};
}  // namespace

TEST_CASE("a module with a detector has every check implemented; one without a detector is not offered") {
  const auto& cat = catalogue::Catalogue::builtin();
  REQUIRE(cat.module("geo"));
  // The edition's checks and hints alone: the module's own are left out.
  engine::Registry without;
  for (const auto* c : checks::registry().checks)
    if (c->id.substr(0, 3) != "GE-") without.checks.push_back(c);
  for (const auto& h : checks::registry().hints)
    if (h.name != "geometric-context") without.hints.push_back(h);
  CHECK(checks::validate(cat, without).empty());
  engine::Registry with = without;
  with.modules = {{"geo", see_nothing}};
  with.checks.push_back(&fake_ge);
  std::string all = join(checks::validate(cat, with), "\n");
  CHECK(all.find("module geo rule /geo/crs-list: unknown check") == std::string::npos);  // GE-1 is there
  CHECK(checks::validate(cat).empty());  // the real registry has every check and hint of the module
  CHECK(all.find("module geo rule /geo/storage-crs: unknown check GE-2") != std::string::npos);
  CHECK(all.find("unknown hint producer 'geometric-context'") != std::string::npos);
  engine::Registry stray = without;
  stray.modules = {{"signing", see_nothing}};
  CHECK(join(checks::validate(cat, stray), "\n").find("module detector signing has no module") != std::string::npos);
}
