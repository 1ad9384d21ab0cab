// /core/doc-openapi (API-16): DO-1, DO-2, DO-3.
#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "checks/registry.hpp"
#include "checks/findings.hpp"
#include "oas/pointer.hpp"
#include "oas/walk.hpp"
#include "util/strings.hpp"

namespace adrprobe::checks {
namespace {

// A document value for a message: never throws on invalid UTF-8.
std::string shown(const oas::Value& v) { return oas::dump(v); }

CheckResult judge_do1(const Evidence& ev, const CheckRef& ref) {
  const oas::Value* doc = ev.doc();
  if (!doc) return ev.prerequisite(ref.id);
  if (!doc->IsObject()) return located({ref.id, Verdict::fail, "the document is not a JSON object", {}}, "");
  if (const oas::Value* sw = oas::find(*doc, "swagger"); sw && !oas::contains(*doc, "openapi"))
    return located({ref.id, Verdict::fail, fmt::format("swagger: {}: Swagger/OpenAPI 2, not OpenAPI 3 or later", shown(*sw)), {}},
                   "/swagger");
  const oas::Value* it = oas::find(*doc, "openapi");
  if (!it) return located({ref.id, Verdict::fail, "no 'openapi' field: not an OpenAPI 3 document", {}}, "");
  if (!it->IsString())
    return located({ref.id, Verdict::fail, fmt::format("openapi: {} is not a string", shown(*it)), {}}, "/openapi");
  static const std::regex version(R"(^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$)");
  const std::string v(oas::str(*it));
  std::smatch m;
  if (v.size() > 32 || !std::regex_match(v, m, version))
    return located({ref.id, Verdict::fail, fmt::format("openapi: \"{}\" is not MAJOR.MINOR.PATCH", v.substr(0, 40)), {}},
                   "/openapi");
  if (std::stol(m[1].str()) < 3)
    return located({ref.id, Verdict::fail, fmt::format("openapi: \"{}\": OpenAPI 3 or later is required", v), {}},
                   "/openapi");
  return {ref.id, Verdict::pass, fmt::format("openapi: \"{}\"", v), {}};
}

CheckResult judge_do2(const Evidence& ev, const CheckRef& ref) {
  if (!ev.doc()) return ev.prerequisite(ref.id);
  const auto& d = ev.document;
  std::size_t externals = d.docs->external_count();
  if (d.unresolved.empty())
    return {ref.id, Verdict::pass,
            fmt::format("every $ref resolves ({} external)", plural(externals, "document", "documents")),
            d.ref_exchanges};
  // One entry per target document that could not be had and its cause ("GET
  // https://x/common.yaml → 404" for 120 refs), else per target and cause (a
  // pointer that misses, a cycle); the first ref of each named; every ref in details.
  struct Group {
    std::string document, reason, ref;
    std::vector<const oas::Unresolved*> refs;
  };
  std::vector<Group> groups;
  bool all_transport = true;
  CheckResult out{ref.id, Verdict::fail, "", {}};
  for (const auto& u : d.unresolved) {
    all_transport = all_transport && u.transport_error;
    out.details.push_back(fmt::format("{} → '{}' ({})", u.where, u.ref, u.reason));
    // The $refs written in the root document ("#/paths/~1a/get/$ref"); one in another file is reached from one of those.
    if (u.where.rfind("#", 0) == 0) {
      std::string pointer = u.where.substr(1);
      if (std::none_of(out.locations.begin(), out.locations.end(), [&](const auto& l) { return l.pointer == pointer; }))
        out.locations.push_back({pointer, std::nullopt, ""});
    }
    for (int id : u.exchanges)
      if (std::find(out.exchanges.begin(), out.exchanges.end(), id) == out.exchanges.end()) out.exchanges.push_back(id);
    std::string target = u.document_failed ? "" : u.ref;
    auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
      return g.document == u.document && g.reason == u.reason && g.ref == target;
    });
    if (g == groups.end()) groups.push_back({u.document, u.reason, target, {&u}});
    else g->refs.push_back(&u);
  }
  out.verdict = all_transport ? Verdict::error : Verdict::fail;
  std::vector<std::string> parts;
  for (const auto& g : groups) {
    const auto& first = *g.refs.front();
    if (g.refs.size() == 1) {
      parts.push_back(fmt::format("{} → '{}' ({})", first.where, first.ref, g.reason));
      continue;
    }
    if (!g.ref.empty()) {  // one target, written the same way each time
      parts.push_back(fmt::format("'{}' ({}; {} $refs, the first at {})", g.ref, g.reason, g.refs.size(), first.where));
      continue;
    }
    // A document that could not be had: the cause names it, unless it says it already.
    std::string cause = g.reason.find(g.document) != std::string::npos ? g.reason : g.document + ": " + g.reason;
    parts.push_back(fmt::format("{} ({} $refs, the first at {})", cause, g.refs.size(), first.where));
  }
  std::string causes = groups.size() > 1 ? fmt::format(" ({} causes)", groups.size()) : "";
  std::string lead = fmt::format("{} not resolved{}: ", plural(d.unresolved.size(), "$ref", "$refs"), causes);
  out.message = lead + join_within(parts, Findings::kMessageBytes > lead.size() + 40 ? Findings::kMessageBytes - lead.size() : 40);
  return out;
}

CheckResult judge_do3(const Evidence& ev, const CheckRef& ref) {
  const oas::Value* doc = ev.doc();
  if (!doc) return ev.prerequisite(ref.id);
  const oas::Value* it = oas::find(*doc, "paths");
  if (!it) return located({ref.id, Verdict::fail, "no 'paths' in the document", {}}, "");
  if (!it->IsObject()) return located({ref.id, Verdict::fail, "'paths' is not an object", {}}, "/paths");
  if (it->ObjectEmpty()) return located({ref.id, Verdict::warn, "'paths' is empty: the API documents no resources", {}}, "/paths");
  std::vector<std::string> bad;
  std::vector<Location> where;
  for (const auto& p : it->GetObject())
    if (std::string_view key = oas::key_of(p); key.empty() || key.front() != '/') {
      bad.push_back("'" + std::string(key) + "'");
      where.push_back({"/paths/" + oas::escape_token(key), std::nullopt, ""});
    }
  if (!bad.empty()) {
    CheckResult out{ref.id, Verdict::fail, fmt::format("paths must begin with '/' (OpenAPI): {}", join(bad, ", ", 10)), {}};
    out.locations = std::move(where);
    return out;
  }
  return {ref.id, Verdict::pass, fmt::format("{} documented", plural(it->MemberCount(), "path", "paths")), {}};
}

CheckResult judge_ct1(const Evidence& ev, const CheckRef& ref) {
  const oas::Value* doc = ev.doc();
  if (!doc) return ev.prerequisite(ref.id);
  const oas::Value* info = oas::find(*doc, "info");
  bool info_object = info && info->IsObject();
  const oas::Value* contact = info_object ? oas::find(*info, "contact") : nullptr;
  if (!contact || !contact->IsObject())
    return located({ref.id, Verdict::fail, "no info.contact in the document", {}},
                   contact ? "/info/contact" : info_object ? "/info" : "");
  std::vector<std::string> missing;
  for (const char* field : {"name", "url", "email"}) {
    auto value = oas::string_member(contact, field);
    if (!value || value->empty()) missing.push_back(field);
  }
  if (!missing.empty())
    return located({ref.id, Verdict::fail, fmt::format("info.contact lacks {}", join(missing, ", ")), {}}, "/info/contact");
  return {ref.id, Verdict::pass,
          fmt::format("info.contact: {} <{}>, {}", *oas::string_member(contact, "name"),
                      *oas::string_member(contact, "email"), *oas::string_member(contact, "url")),
          {}};
}

}  // namespace

extern const Check do1{
    .id = "DO-1",
    .needs = document,
    .title = "Document is OpenAPI 3 or later",
    .sends = "nothing; reads {oas}.openapi",
    .passes = "a string MAJOR.MINOR.PATCH with MAJOR >= 3 (3.0.x, 3.1.x, 3.2.x) passes; missing, or swagger: \"2.0\", fails",
    .judge = judge_do1};
extern const Check do2{
    .id = "DO-2",
    .needs = document,
    .title = "Every $ref resolves",
    .sends = "external $refs fetched over HTTP(S) relative to the document URL, without user headers, recursively with cycle detection; local JSON pointers resolved with ~0, ~1 and percent decoding",
    .passes = "all refs resolve: pass; otherwise fail, grouping the unresolved refs by target document and cause (the first refs of each with the JSON pointer where they stand; every one in the JSON report's details)",
    .judge = judge_do2};
extern const Check do3{
    .id = "DO-3",
    .needs = document,
    .title = "Paths are defined",
    .sends = "nothing; reads {oas}.paths",
    .passes = "an object with at least one path passes; empty warn; missing fail",
    .judge = judge_do3};
extern const Check ct1{
    .id = "CT-1",
    .needs = document,
    .title = "info.contact names a contact",
    .sends = "nothing; reads {oas}.info.contact",
    .passes = "info.contact has name, url and email (non-empty strings): pass; any missing: fail",
    .judge = judge_ct1};

}  // namespace adrprobe::checks
