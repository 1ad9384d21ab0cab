// The Geospatial module's CRS rules: /geo/crs-list (GE-1), /geo/storage-crs
// (GE-2), /geo/default-crs (GE-3), /geo/content-crs-response-header (GE-4),
// /geo/crs-query-parameter (GE-5), /geo/preferred-crs (GE-6),
// /geo/ensemble-member-crs (GE-7).
#include <fmt/format.h>

#include "checks/findings.hpp"
#include "checks/geo.hpp"
#include "oas/pointer.hpp"
#include "oas/walk.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::checks {
namespace {

using namespace geo_checks;

// CRS URIs are not dereferenced: the module's "returns a GML document" needs the OGC register on the internet.
constexpr const char* kNotDereferenced = "CRS URIs not dereferenced (needs the OGC register on the internet)";


// ---------------------------------------------------------------------------
// GE-1: the CRS list.

CheckResult judge_ge1(const Evidence& ev, const CheckRef& ref) {
  if (auto skip = not_for(ev, ref, "")) return *skip;
  View v = view(ev);
  const char* resource = v.shape == "ogc" ? "/collections" : "/crss";
  const JsonBody& b = v.collections;
  std::vector<int> ids = b.exchange ? std::vector<int>{b.exchange->id} : std::vector<int>{};
  if (!b.exchange) return {ref.id, Verdict::error, fmt::format("GET {} was not sent (deadline or --max-requests)", resource), {}};
  if (b.exchange->error) return *ev.transport_error(ref.id, b.exchange->id);
  if (!b.value) return {ref.id, Verdict::fail, b.problem, ids};
  if (!v.global_listed)
    return {ref.id, Verdict::fail, fmt::format("{}: no crs array (OGC API Features part 2 lists the supported CRSs there)",
                                               request_text(*b.exchange)), ids};
  if (v.global.total == 0) return {ref.id, Verdict::fail, fmt::format("{}: the crs array is empty", request_text(*b.exchange)), ids};
  std::string utf8 = b.invalid_utf8 ? " (the body is not UTF-8: invalid bytes shown as U+FFFD)" : "";
  if (v.global.has_bad()) {
    std::vector<std::string> bad;
    for (const auto& [i, text] : v.global.bad) bad.push_back(fmt::format("{} {}", i, shown(text)));
    std::size_t more = v.global.bad_count - v.global.bad.size();
    return {ref.id, Verdict::fail,
            fmt::format("{}: crs {} {}{} {} no http(s) URI (a CRS is named by its URI, e.g. "
                        "http://www.opengis.net/def/crs/EPSG/0/28992){}",
                        request_text(*b.exchange), v.global.bad_count == 1 ? "entry" : "entries", join(bad, ", "),
                        more ? fmt::format(" and {} more", more) : "", v.global.bad_count == 1 ? "is" : "are", utf8),
            ids};
  }
  if (b.invalid_utf8) return {ref.id, Verdict::fail, fmt::format("{}: the body is not UTF-8 (RFC 8259)", request_text(*b.exchange)), ids};
  std::vector<std::string> first;
  for (std::size_t i = 0; i < v.global.entries.size() && i < 3; ++i) first.push_back(escape_control(truncate_utf8(v.global.entries[i], 80)));
  return {ref.id, Verdict::pass, fmt::format("{} lists {} ({}{}); {}", resource, plural(v.global.total, "CRS", "CRSs"),
                                             join(first, ", "), v.global.total > 3 ? ", …" : "", kNotDereferenced), ids};
}

// ---------------------------------------------------------------------------
// GE-2: storageCrs of each collection (OGC).

CheckResult judge_ge2(const Evidence& ev, const CheckRef& ref) {
  if (auto skip = not_for(ev, ref, "ogc")) return *skip;
  View v = view(ev);
  if (!v.collections.value) return {ref.id, Verdict::skip, "no collections read: see /geo/crs-list", {}};
  if (v.probed.empty()) return {ref.id, Verdict::skip, "/collections lists no collection", {}};
  Findings f(ref.id);
  for (const auto& c : v.probed) {
    JsonBody detail = json_body(ev, collection_spec(ev.settings, c.name));
    const oas::json* obj = detail.value && detail.value->is_object() ? &*detail.value : nullptr;
    std::vector<int> ids = detail.exchange ? std::vector<int>{detail.exchange->id} : std::vector<int>{};
    // The collection as /collections lists it, when its own resource did not answer.
    if (!obj)
      for (const auto& entry : (*v.collections.value)["collections"])
        if (entry.is_object() && entry.value("id", "") == c.name) obj = &entry, ids = {v.collections.exchange->id};
    std::string name = shown(c.name);
    const std::string* storage = answer_string(obj, "storageCrs");
    if (!storage) storage = answer_string(obj, "storageCRS");
    if (!storage) f.add(Verdict::fail, fmt::format("collection {} has no storageCrs", name), ids);
    else if (!c.crs.contains(*storage))
      f.add(Verdict::fail, fmt::format("collection {}: storageCrs {} is not in its crs list", name, shown(*storage)), ids);
    else f.add(Verdict::pass, "", ids);
  }
  CheckResult r = f.result(fmt::format("{} probed name a storageCrs from their crs list{}",
                                       plural(v.probed.size(), "collection", "collections"), v.left_out_note()));
  v.name_left_out(r);
  return r;
}

// ---------------------------------------------------------------------------
// GE-3 and GE-4: Content-Crs of the geospatial responses.

// The default responses GE-3 judges: each collection's first page and (OGC) one feature.
std::vector<RequestSpec> default_requests(const Evidence& ev, const View& v) {
  std::vector<RequestSpec> out;
  for (const auto& c : v.probed) {
    RequestSpec page = default_spec(ev.settings, c);
    out.push_back(page);
    if (!c.ogc) continue;
    const http::Exchange* e = ev.last(page);
    if (!e || e->error || *e->status != 200 || e->body_truncated) continue;
    geo::Validation fc = features_of(c, *e);
    if (!fc.kept.empty() && !fc.kept.front().id.empty()) out.push_back(feature_spec(ev.settings, c.name, fc.kept.front().id));
  }
  return out;
}

void plan_ge3(Planner& p, const Evidence& ev, const CheckRef& ref, int round) {
  plan_followup_collections(p, ev, ref, round);
  for (const auto& spec : default_requests(ev, view(ev))) p.add(spec, ref.id);
}

CheckResult judge_ge3(const Evidence& ev, const CheckRef& ref) {
  if (auto skip = not_for(ev, ref, "")) return *skip;
  View v = view(ev);
  Findings f(ref.id);
  std::size_t judged = 0;
  for (const auto& spec : default_requests(ev, v)) {
    if (unanswered(f, ev, spec)) continue;
    const http::Exchange& e = *ev.last(spec);
    if (*e.status != 200) continue;  // GE-11 and GE-12 judge the status
    ++judged;
    const std::string* crs = e.header("content-crs");
    if (!crs) f.add(Verdict::fail, fmt::format("{}: no Content-Crs (CRS84 is the default)", request_text(e)), {e.id});
    else if (!geo::is_crs84(geo::content_crs_name(*crs)))
      f.add(Verdict::fail, fmt::format("{}: Content-Crs {}, not CRS84 (requested without crs)", request_text(e), shown(*crs)), {e.id});
    else f.add(Verdict::pass, "", {e.id});
  }
  if (!judged && f.empty()) return {ref.id, Verdict::skip, "no geospatial response answered 200", {}};
  return f.result(fmt::format("{} without crs carry Content-Crs CRS84", plural(judged, "response", "responses")));
}

CheckResult judge_ge4(const Evidence& ev, const CheckRef& ref) {
  if (auto skip = not_for(ev, ref, "")) return *skip;
  View v = view(ev);
  std::vector<CrsRequested> all;
  for (auto& spec : default_requests(ev, v)) all.push_back({std::move(spec), ""});
  for (auto& r : ge5_requests(ev, v))
    if (r.crs != geo::kUnregistered) all.push_back(std::move(r));  // GE-5 judges its answer
  for (auto& r : bbox_requests(ev, v))
    if (r.crs != geo::kUnregistered) all.push_back(std::move(r));
  Findings f(ref.id);
  std::size_t judged = 0;
  for (const auto& [spec, asked] : all) {
    const http::Exchange* e = ev.last(spec);
    if (!e || e->error || *e->status != 200) continue;
    ++judged;
    const std::string* crs = e->header("content-crs");
    if (!crs) f.add(Verdict::fail, fmt::format("{}: no Content-Crs", request_text(*e)), {e->id});
    else if (!asked.empty() && !geo::same_crs(geo::content_crs_name(*crs), asked))
      f.add(Verdict::fail, fmt::format("{}: Content-Crs {}, not the requested {}", request_text(*e), shown(*crs), shown(asked)), {e->id});
    else f.add(Verdict::pass, "", {e->id});
  }
  if (!judged) return {ref.id, Verdict::skip, "no geospatial response answered 200", {}};
  return f.result(fmt::format("{} carry Content-Crs", plural(judged, "geospatial 200 response", "geospatial 200 responses")));
}

// Lint: Content-Crs documented as a response header of the geospatial GET operations.
CheckResult static_ge4(const Evidence& ev, const CheckRef& ref) {
  if (auto skip = not_for(ev, ref, "")) return *skip;
  if (auto stop = ev.without_paths(ref.id)) return *stop;
  oas::Walker w(*ev.document.docs);
  Findings f(ref.id);
  std::size_t ops = 0;
  for (const auto& op : oas::operations(w)) {
    if (op.method != "get") continue;
    bool geo = false;
    if (shape(ev) == "ogc") geo = is_items_path(op.path) || is_items_path(op.path, true);
    else
      for (const auto& g : geo_paths(ev)) geo = geo || g.path == op.path;
    if (!geo) continue;
    ++ops;
    oas::Node r = w.member(w.member(op.op, "responses"), "200");
    oas::Node headers = w.member(r, "headers");
    bool documented = false;
    if (headers.is_object())
      for (const auto& h : headers.value->GetObject()) documented = documented || iequals(oas::key_of(h), "Content-Crs");
    std::string at = "/paths/" + oas::escape_token(op.path) + "/get";
    if (documented) f.add(Verdict::pass, "", {}, at);
    else f.add_at(Verdict::warn, at, fmt::format("GET {}: Content-Crs not documented as a response header", escape_control(op.path)));
  }
  if (!ops) return {ref.id, Verdict::skip, "no geospatial GET operation documented", {}};
  return f.result(fmt::format("{} document Content-Crs; the live part needs a live API",
                              plural(ops, "geospatial GET operation", "geospatial GET operations")));
}

// ---------------------------------------------------------------------------
// GE-5: crs= for each listed CRS, and an unregistered one refused.

void plan_ge5(Planner& p, const Evidence& ev, const CheckRef& ref, int round) {
  plan_followup_collections(p, ev, ref, round);
  for (const auto& r : ge5_requests(ev, view(ev))) p.add(r.spec, ref.id);
}

CheckResult judge_ge5(const Evidence& ev, const CheckRef& ref) {
  if (auto skip = not_for(ev, ref, "")) return *skip;
  View v = view(ev);
  if (!v.subject()) return {ref.id, Verdict::skip, "no collection with features to ask", {}};
  std::vector<CrsRequested> asked = ge5_requests(ev, v);
  Findings f(ref.id);
  for (std::size_t i = 0; i < asked.size(); ++i) {
    if (unanswered(f, ev, asked[i].spec)) continue;
    const http::Exchange& e = *ev.last(asked[i].spec);
    bool unregistered = i + 1 == asked.size();
    if (unregistered) {
      if (*e.status == 400) f.add(Verdict::pass, "", {e.id});
      else f.add(Verdict::warn, fmt::format("{} → {}, not 400 for a CRS no one registers (OGC API Features part 2 requires 400)",
                                            request_text(e), *e.status), {e.id});
      continue;
    }
    const std::string* crs = e.header("content-crs");
    if (*e.status != 200) f.add(Verdict::fail, fmt::format("{} → {}", request_text(e), *e.status), {e.id});
    else if (!crs) f.add(Verdict::fail, fmt::format("{}: no Content-Crs", request_text(e)), {e.id});
    else if (!geo::same_crs(geo::content_crs_name(*crs), asked[i].crs))
      f.add(Verdict::fail, fmt::format("{}: Content-Crs {}", request_text(e), shown(*crs)), {e.id});
    else f.add(Verdict::pass, "", {e.id});
  }
  std::string list = v.subject()->listed ? "" : " (no CRS list: CRS84 alone asked)";
  return f.result(fmt::format("{} of {} served with crs= and Content-Crs, an unregistered CRS refused with 400{}",
                              plural(asked.size() - 1, "CRS", "CRSs"), shown(v.subject()->name), list));
}

// ---------------------------------------------------------------------------
// GE-6, GE-7: which CRSs the lists hold.

// Every CRS listed: the global list and each probed collection's.
std::vector<std::string> all_listed(const View& v) {
  std::vector<std::string> out = v.global.entries;
  for (const auto& c : v.probed)
    if (c.listed)
      for (const auto& e : c.crs.entries)
        if (out.size() < geo::CrsList::kKeptEntries * 2) out.push_back(e);
  return out;
}
bool holds(const std::vector<std::string>& list, std::initializer_list<long> codes) {
  for (const auto& e : list)
    for (long c : codes)
      if (geo::epsg_code(e) == c) return true;
  return false;
}
std::optional<CheckResult> without_list(const Evidence& ev, const CheckRef& ref, const View& v) {
  if (auto skip = not_for(ev, ref, "")) return skip;
  if (!v.any_list()) return CheckResult{ref.id, Verdict::skip, "no CRS list: see /geo/crs-list", {}};
  return std::nullopt;
}

CheckResult judge_ge6(const Evidence& ev, const CheckRef& ref) {
  View v = view(ev);
  if (auto skip = without_list(ev, ref, v)) return *skip;
  auto list = all_listed(v);
  if (holds(list, {4258, 4937, 28992, 7415}))
    return {ref.id, Verdict::pass, "the CRS list holds ETRS89 or RD (whether they are served is /geo/crs-query-parameter's)", {}};
  return {ref.id, Verdict::warn, "no ETRS89 or RD: Dutch data is exchanged in one of them when users need it", {}};
}

CheckResult judge_ge7(const Evidence& ev, const CheckRef& ref) {
  View v = view(ev);
  if (auto skip = without_list(ev, ref, v)) return *skip;
  auto list = all_listed(v);
  std::vector<std::string> missing;
  if (holds(list, {4258}) && !holds(list, {9067})) missing.push_back("ETRS89 (EPSG:4258) without ETRF2000 (EPSG:9067)");
  if (holds(list, {4937}) && !holds(list, {7931})) missing.push_back("ETRS89 3D (EPSG:4937) without ETRF2000 3D (EPSG:7931)");
  if (!missing.empty()) return {ref.id, Verdict::warn, join(missing, "; ") + ": ETRS89 is an ensemble, name a member beside it", {}};
  if (!holds(list, {4258, 4937})) return {ref.id, Verdict::pass, "no ensemble CRS listed", {}};
  return {ref.id, Verdict::pass, "ETRS89 is listed with its member ETRF2000", {}};
}

}  // namespace

namespace geo_checks {
std::vector<CrsRequested> ge5_requests(const Evidence& ev, const View& v) {
  const GeoCollection* c = v.subject();
  if (!c) return {};
  std::vector<CrsRequested> out;
  for (const auto& crs : crs_asked(v)) out.push_back({query_spec(ev.settings, *c, crs_query(crs), false), crs});
  out.push_back({query_spec(ev.settings, *c, crs_query(geo::kUnregistered), false), std::string(geo::kUnregistered)});
  return out;
}
}  // namespace geo_checks

extern const Check ge1{
    .id = "GE-1",
    .needs = requests,
    .title = "The supported CRSs are listed",
    .sends = "GET {base}/collections (OGC) or GET {base}/crss (administrative), Accept: application/json",
    .passes = "200 JSON with a non-empty crs array of http(s) URIs: pass; missing resource, no crs, empty, or an entry that is no URI: fail",
    .plan_run = plan_run_documented,
    .judge = judge_ge1,
    .plan_followup = plan_followup_collections};
extern const Check ge2{
    .id = "GE-2",
    .needs = requests,
    .title = "Each collection names its storage CRS",
    .sends = "GET {base}/collections and GET {base}/collections/{id} for the first 10 collections",
    .passes = "each has storageCrs (or storageCRS) in its crs list: pass; missing or not listed: fail; administrative: skip",
    .plan_run = plan_run_documented,
    .judge = judge_ge2,
    .plan_followup = plan_followup_collections};
extern const Check ge3{
    .id = "GE-3",
    .needs = requests,
    .title = "CRS84 is the default, said by Content-Crs",
    .sends = "GET {base}/collections/{id}/items?limit=10 and one feature per collection (OGC), or each documented path with geometry (administrative), without crs",
    .passes = "every 200 carries Content-Crs naming CRS84 or CRS84h: pass; absent or another CRS: fail",
    .plan_run = plan_run_documented,
    .judge = judge_ge3,
    .judged_headers = {"content-crs"},
    .plan_followup = plan_ge3};
extern const Check ge4{
    .id = "GE-4",
    .needs = requests,
    .title = "Geospatial responses carry Content-Crs",
    .sends = "nothing of its own: the responses of GE-3, GE-5, GE-8 and GE-9",
    .passes = "every 200 carries Content-Crs, the requested CRS when one was requested: pass; else fail. lint: Content-Crs documented as a response header of the geospatial GETs, else warn",
    .plan_run = plan_run_documented,
    .judge = judge_ge4,
    .judged_headers = {"content-crs"},
    .plan_followup = plan_ge3,
    .judge_static = static_ge4};
extern const Check ge5{
    .id = "GE-5",
    .needs = requests,
    .title = "Each listed CRS is served with crs=",
    .sends = "GET ...items?limit=10&crs=<uri> on the first collection with features, for at most 5 listed CRSs (CRS84, ETRS89, RD first), then crs=EPSG/0/999999",
    .passes = "200 with Content-Crs the requested CRS: pass; else fail; the unregistered CRS 400: pass, else warn",
    .plan_run = plan_run_documented,
    .judge = judge_ge5,
    .judged_headers = {"content-crs"},
    .plan_followup = plan_ge5};
extern const Check ge6{
    .id = "GE-6",
    .needs = requests,
    .title = "ETRS89 or RD is offered",
    .sends = "nothing of its own: the CRS lists GE-1 and GE-2 read",
    .passes = "a list holds EPSG 4258, 4937, 28992 or 7415: pass; else warn; no list: skip",
    .plan_run = plan_run_documented,
    .judge = judge_ge6,
    .plan_followup = plan_followup_collections};
extern const Check ge7{
    .id = "GE-7",
    .needs = requests,
    .title = "ETRF2000 beside ETRS89",
    .sends = "nothing of its own: the CRS lists GE-1 and GE-2 read",
    .passes = "ETRS89 listed with ETRF2000 (9067 2D, 7931 3D), or no ETRS89: pass; ETRS89 alone: warn; no list: skip",
    .plan_run = plan_run_documented,
    .judge = judge_ge7,
    .plan_followup = plan_followup_collections};

}  // namespace adrprobe::checks
