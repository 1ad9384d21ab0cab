// The one table of checks: adding a check is one line here (plus its
// place in an edition file, its source file and its unit test). The order is the
// order in which checks plan their requests, which is the order they are sent.
// A check used by no edition is allowed (an edition to come may use it).
#include <fmt/format.h>

#include <set>

#include "checks/geo.hpp"
#include "checks/registry.hpp"
#include "checks/stack.hpp"

// X(variable): each check is defined in checks/<family>.cpp as
// `extern const Check <variable>`.
#define ADRPROBE_CHECKS(X) \
  X(po1) X(po2) X(po3)                        /* publish_openapi.cpp */ \
  X(do1) X(do2) X(do3) X(ct1)                 /* doc_openapi.cpp */ \
  X(sv1) X(uv1) X(uv2) X(uv3)                 /* versioning.cpp */ \
  X(vh1) X(vh2) X(vh3) X(vh4)                 /* version_header.cpp */ \
  X(hm0) X(hm1)                               /* http_methods.cpp */ \
  X(nt1) X(nt2)                               /* trailing_slash.cpp */ \
  X(hm2) X(hm3)                               /* http_methods.cpp */ \
  X(ts1) X(ts2) X(ts3) X(ts4) X(ts5) X(ts6) X(ts7) /* transport.cpp */ \
  X(kc1) X(kc2)                               /* kebab_case.cpp */ \
  X(qk1)                                      /* query_keys.cpp */ \
  X(dt1) X(dt2) X(dt3) X(dt4) X(dt5)          /* date_time.cpp */ \
  X(eh1) X(eh2) X(ei1)                        /* error_handling.cpp */ \
  X(ge1) X(ge2) X(ge3) X(ge4) X(ge5) X(ge6) X(ge7) /* geo_crs.cpp */ \
  X(ge8) X(ge9) X(ge10)                       /* geo_bbox.cpp */ \
  X(ge11) X(ge12) X(ge13) X(ge14) X(ge15)     /* geo_geojson.cpp */

namespace adrprobe::checks {

#define ADRPROBE_DECLARE(name) extern const Check name;
ADRPROBE_CHECKS(ADRPROBE_DECLARE)
#undef ADRPROBE_DECLARE

const engine::Registry& registry() {
#define ADRPROBE_ENTRY(name) &name,
  static const engine::Registry r{{ADRPROBE_CHECKS(ADRPROBE_ENTRY)}, hint_producers(), stack_advisor, {{"geo", detect_geo}}};
#undef ADRPROBE_ENTRY
  return r;
}

const Check* find_check(std::string_view id) { return registry().find_check(id); }

const HintProducer* find_hints(std::string_view name) { return registry().find_hints(name); }

namespace {

// The problems of a list of rules (an edition's, a module's): each check id
// has an implementation, each parameter is one its check understands, each
// hint producer exists. `where`: "edition 2.0.0", "module geo".
void validate_rules(const engine::Registry& reg, const std::string& where, const std::vector<catalogue::Rule>& rules,
                    std::vector<std::string>& problems) {
  for (const auto& rule : rules) {
    for (const auto& ref : rule.checks) {
      const Check* c = reg.find_check(ref.id);
      if (!c) {
        problems.push_back(fmt::format("{} rule {}: unknown check {}", where, rule.id, ref.id));
        continue;
      }
      for (const auto& [param, value] : ref.params) {
        const Param* known = nullptr;
        for (const auto& p : c->params)
          if (p.name == param) known = &p;
        if (!known) {
          problems.push_back(fmt::format("{} rule {}: check {} has no parameter '{}'", where, rule.id, ref.id, param));
          continue;
        }
        bool ok = false;
        for (auto v : known->values) ok = ok || v == value;
        if (!ok)
          problems.push_back(
              fmt::format("{} rule {}: check {} parameter '{}' cannot be '{}'", where, rule.id, ref.id, param, value));
      }
    }
    for (const auto& h : rule.hints)
      if (!reg.find_hints(h)) problems.push_back(fmt::format("{} rule {}: unknown hint producer '{}'", where, rule.id, h));
  }
}

}  // namespace

std::vector<std::string> validate(const catalogue::Catalogue& cat) { return validate(cat, registry()); }

std::vector<std::string> validate(const catalogue::Catalogue& cat, const engine::Registry& reg) {
  std::vector<std::string> problems;
  std::set<std::string_view> ids;
  for (const Check* c : reg.checks) {
    if (!ids.insert(c->id).second) problems.push_back(fmt::format("check {} is registered twice", c->id));
    if (!c->judge) problems.push_back(fmt::format("check {} has no judge", c->id));
    if (c->needs == 0) problems.push_back(fmt::format("check {} does not say what it needs", c->id));
    if (c->title.empty() || c->sends.empty() || c->passes.empty())
      problems.push_back(fmt::format("check {} does not say what it sends and what passes", c->id));
  }
  for (const auto& h : reg.hints)
    for (auto id : h.uses)
      if (!reg.find_check(id)) problems.push_back(fmt::format("hint producer {} uses unknown check {}", h.name, id));
  for (const auto& name : cat.edition_names())
    validate_rules(reg, "edition " + name, cat.edition(name)->rules, problems);
  // A module is offered when the registry has its detector (the line its
  // checks add beside theirs): then every check of it must be implemented. A
  // module the registry has no detector for is data waiting for its checks:
  // never judged (--modules refuses it), so nothing of it can be missing.
  for (const auto& d : reg.modules) {
    const catalogue::Module* m = cat.module(d.module);
    if (!m) {
      problems.push_back(fmt::format("module detector {} has no module in the catalogue", d.module));
      continue;
    }
    if (!d.detect) problems.push_back(fmt::format("module {} has a detector without a function", d.module));
    validate_rules(reg, "module " + m->id, m->rules, problems);
  }
  return problems;
}

}  // namespace adrprobe::checks
