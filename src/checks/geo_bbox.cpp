// The Geospatial module's spatial selection: /geo/bbox-query-parameter
// (GE-8), /geo/bbox-crs-query-parameter (GE-9),
// /geo/filter-crs-query-parameter (GE-10).
#include <fmt/format.h>

#include <map>

#include "checks/findings.hpp"
#include "checks/geo.hpp"
#include "oas/pointer.hpp"
#include "oas/walk.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::checks {
namespace {

using namespace geo_checks;

// The subject of GE-8 and GE-9, and its box; nullptr when there is none or
// (administrative) it documents no bbox.
struct Subject {
  const GeoCollection* c = nullptr;
  geo::Envelope b;
};
Subject subject(const View& v) {
  const GeoCollection* c = v.subject();
  auto b = box(v);
  if (!c || !b || !c->documents_bbox) return {};
  return {c, *b};
}

std::string bbox_query(const geo::Envelope& b) { return "bbox=" + geo::bbox_value(b); }

// The URI of CRS84 as the collection lists it (requests name a listed CRS as listed).
std::string crs84_of(const GeoCollection& c) {
  for (const auto& e : c.crs.entries)
    if (geo::same_crs(e, geo::kCrs84)) return e;
  return std::string(geo::kCrs84);
}
std::string etrs89_of(const GeoCollection& c) {
  for (const auto& e : c.crs.entries)
    if (geo::epsg_code(e) == 4258) return e;
  return "";
}

// The requests, in order: GE-8's box, GE-8's latitudes beyond the CRS, then
// GE-9's (when a CRS besides CRS84 is listed): bbox-crs CRS84 with crs=<other>,
// an unregistered bbox-crs, and the box with swapped axes in EPSG:4258.
enum Which { box8, beyond8, crs9, unregistered9, swapped9 };
std::map<Which, CrsRequested> requests_of(const Evidence& ev, const View& v) {
  std::map<Which, CrsRequested> out;
  Subject s = subject(v);
  if (!s.c) return out;
  const auto& set = ev.settings;
  out[box8] = {query_spec(set, *s.c, bbox_query(s.b)), ""};
  out[beyond8] = {query_spec(set, *s.c, bbox_query(kBeyondLatitudes), false), ""};
  std::string other = other_crs(v);
  if (other.empty()) return out;
  std::string crs84 = "bbox-crs=" + percent_encode(crs84_of(*s.c));
  out[crs9] = {query_spec(set, *s.c, bbox_query(s.b) + "&" + crs84 + "&" + crs_query(other), false), other};
  out[unregistered9] = {query_spec(set, *s.c, bbox_query(s.b) + "&bbox-crs=" + percent_encode(geo::kUnregistered), false),
                        std::string(geo::kUnregistered)};
  if (std::string etrs = etrs89_of(*s.c); !etrs.empty())
    out[swapped9] = {query_spec(set, *s.c, bbox_query(geo::swap_axes(s.b)) + "&bbox-crs=" + percent_encode(etrs)), ""};
  return out;
}

void plan_bbox(Planner& p, const Evidence& ev, const CheckRef& ref, int round) {
  plan_followup_collections(p, ev, ref, round);
  for (const auto& [which, r] : requests_of(ev, view(ev))) p.add(r.spec, ref.id);
}


// Why GE-8 cannot be asked: skip, or fail (administrative: no bbox documented).
std::optional<CheckResult> ge8_without(const Evidence& ev, const CheckRef& ref, const View& v) {
  if (auto skip = not_for(ev, ref, "")) return skip;
  const GeoCollection* c = v.subject();
  if (!c) {
    bool any_collection = false;
    for (const auto& p : v.probed) any_collection = any_collection || p.is_collection;
    return CheckResult{ref.id, Verdict::skip,
                       any_collection ? "no collection with features to ask" : "no collection (only single resources)", {}};
  }
  if (!c->documents_bbox) return CheckResult{ref.id, Verdict::fail, fmt::format("GET {}: no bbox parameter documented", shown(c->name)), {}};
  if (!box(v)) return CheckResult{ref.id, Verdict::skip, "no extent and no feature envelope to make a bbox from", {}};
  return std::nullopt;
}

CheckResult judge_ge8(const Evidence& ev, const CheckRef& ref) {
  View v = view(ev);
  if (auto stop = ge8_without(ev, ref, v)) return *stop;
  Subject s = subject(v);
  auto req = requests_of(ev, v);
  Findings f(ref.id);
  std::size_t returned = 0;
  if (!unanswered(f, ev, req[box8].spec)) {
    const http::Exchange& e = *ev.last(req[box8].spec);
    if (*e.status != 200) f.add(Verdict::fail, fmt::format("{} → {}", request_text(e), *e.status), {e.id});
    else {
      geo::Validation got = features_of(*s.c, e);
      returned = got.features;
      std::vector<std::string> outside;
      for (const auto& feature : got.kept)
        if (!feature.envelope.empty && !geo::intersects(feature.envelope, s.b)) outside.push_back(shown(feature.id));
      if (!outside.empty())
        f.add(Verdict::fail, fmt::format("{}: {} wholly outside the box: {}", request_text(e),
                                         plural(outside.size(), "feature", "features"), join(outside, ", ", 5)), {e.id});
      else f.add(Verdict::pass, "", {e.id});
    }
  }
  if (!unanswered(f, ev, req[beyond8].spec)) {
    const http::Exchange& e = *ev.last(req[beyond8].spec);
    if (*e.status == 400) f.add(Verdict::pass, "", {e.id});
    else f.add(Verdict::warn, fmt::format("{} → {}, not 400 for latitudes beyond the CRS (the module: an error shall be given)",
                                          request_text(e), *e.status), {e.id});
  }
  return f.result(fmt::format("bbox={} on {} returned {} within the box; latitudes beyond 90 refused with 400",
                              geo::bbox_value(s.b), shown(s.c->name), plural(returned, "feature", "features")));
}

// Lint: bbox documented on the geospatial collections.
CheckResult static_ge8(const Evidence& ev, const CheckRef& ref) {
  if (auto skip = not_for(ev, ref, "")) return *skip;
  if (auto stop = ev.without_paths(ref.id)) return *stop;
  oas::Walker w(*ev.document.docs);
  Findings f(ref.id);
  std::size_t collections = 0;
  bool ogc = shape(ev) == "ogc";
  for (const auto& op : oas::operations(w)) {
    if (op.method != "get") continue;
    bool collection = false;
    if (ogc) collection = is_items_path(op.path);
    else
      for (const auto& g : geo_paths(ev)) collection = collection || (g.path == op.path && g.is_collection);
    if (!collection) continue;
    ++collections;
    bool bbox = false;
    for (const auto& p : oas::effective_parameters(w, op)) bbox = bbox || (p.in == "query" && p.name == "bbox");
    std::string at = "/paths/" + oas::escape_token(op.path) + "/get";
    if (bbox) f.add(Verdict::pass, "", {}, at);
    else f.add_at(Verdict::fail, at, fmt::format("GET {}: no bbox parameter documented", escape_control(op.path)));
  }
  if (!collections) return {ref.id, Verdict::skip, "no geospatial collection documented (only single resources)", {}};
  return f.result(fmt::format("{} document bbox; the live part needs a live API",
                              plural(collections, "geospatial collection", "geospatial collections")));
}

// ---------------------------------------------------------------------------
// GE-9

CheckResult judge_ge9(const Evidence& ev, const CheckRef& ref) {
  if (auto skip = not_for(ev, ref, "")) return *skip;
  View v = view(ev);
  if (!v.any_list()) return {ref.id, Verdict::skip, "no CRS list: see /geo/crs-list", {}};
  Subject s = subject(v);
  if (!s.c) return {ref.id, Verdict::skip, "no bbox parameter: see /geo/bbox-query-parameter", {}};
  std::string other = other_crs(v);
  if (other.empty()) return {ref.id, Verdict::skip, "one CRS only", {}};
  auto req = requests_of(ev, v);
  Findings f(ref.id);
  if (!unanswered(f, ev, req[crs9].spec)) {
    const http::Exchange& e = *ev.last(req[crs9].spec);
    const std::string* crs = e.header("content-crs");
    if (*e.status != 200) f.add(Verdict::fail, fmt::format("{} → {}", request_text(e), *e.status), {e.id});
    else if (!crs || !geo::same_crs(geo::content_crs_name(*crs), other))
      f.add(Verdict::fail, fmt::format("{}: Content-Crs {}, not the requested {}", request_text(e), crs ? shown(*crs) : "absent", shown(other)), {e.id});
    else f.add(Verdict::pass, "", {e.id});
  }
  if (!unanswered(f, ev, req[unregistered9].spec)) {
    const http::Exchange& e = *ev.last(req[unregistered9].spec);
    if (*e.status == 400) f.add(Verdict::pass, "", {e.id});
    else f.add(Verdict::fail, fmt::format("{} → {}, not 400 for a bbox-crs no one registers (the module requires 400)", request_text(e), *e.status), {e.id});
  }
  if (req.count(swapped9) && !unanswered(f, ev, req[swapped9].spec)) {
    const http::Exchange& e = *ev.last(req[swapped9].spec);
    const http::Exchange* e8 = ev.last(req[box8].spec);
    if (*e.status != 200) f.add(Verdict::fail, fmt::format("{} → {}", request_text(e), *e.status), {e.id});
    else if (e8 && e8->status && *e8->status == 200) {
      // EPSG:4258 is latitude first: the swapped box is GE-8's box, so the same features.
      std::map<std::string, geo::Envelope> a, b;
      for (const auto& x : features_of(*s.c, *e8).kept) a[x.id] = x.envelope;
      for (const auto& x : features_of(*s.c, e).kept) b[x.id] = x.envelope;
      std::vector<std::string> differ;
      auto compare = [&](const auto& one, const auto& other_set) {
        for (const auto& [id, env] : one) {
          if (other_set.count(id) || env.empty) continue;
          bool near_edge = geo::intersects(env, s.b, 1e-4) && !geo::intersects(env, s.b, -1e-4);
          if (!near_edge) differ.push_back(shown(id));
        }
      };
      compare(a, b);
      compare(b, a);
      if (!differ.empty())
        f.add(Verdict::warn, fmt::format("axis order of bbox-crs not honoured? {} returned other features than bbox= in CRS84: {}",
                                         request_text(e), join(differ, ", ", 5)), {e8->id, e.id});
      else f.add(Verdict::pass, "", {e8->id, e.id});
    }
  }
  return f.result(fmt::format("bbox-crs with crs={} served, an unregistered bbox-crs refused with 400{}", shown(other),
                              req.count(swapped9) ? ", EPSG:4258's axis order (latitude first) honoured" : ""));
}

// ---------------------------------------------------------------------------
// GE-10

// /conformance lists OGC API Features part 3's filter class and CQL2's spatial functions.
bool spatial_filter_offered(const Evidence& ev) {
  JsonBody c = json_body(ev, conformance_spec(ev.settings));
  if (!c.value || !c.value->is_object()) return false;
  auto it = c.value->find("conformsTo");
  if (it == c.value->end() || !it->is_array()) return false;
  bool filter = false, spatial = false;
  for (const auto& u : *it) {
    if (!u.is_string()) continue;
    const std::string& s = u.get_ref<const std::string&>();
    filter = filter || s.rfind("http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/filter", 0) == 0;
    spatial = spatial || (s.rfind("http://www.opengis.net/spec/cql2/", 0) == 0 && s.find("spatial-functions") != std::string::npos);
  }
  return filter && spatial;
}

// The geometry property the queryables name ("geometry" when they do not say).
std::string geometry_property(const Evidence& ev, const GeoCollection& c) {
  JsonBody q = json_body(ev, queryables_spec(ev.settings, c.name));
  if (q.value && q.value->is_object())
    if (auto props = q.value->find("properties"); props != q.value->end() && props->is_object())
      for (auto it = props->begin(); it != props->end(); ++it) {
        if (!it->is_object()) continue;
        std::string dump = it->dump(-1, ' ', false, oas::json::error_handler_t::replace);
        if (it->value("x-ogc-role", "") == "primary-geometry" || it->value("format", "").rfind("geometry", 0) == 0 ||
            dump.find("geojson") != std::string::npos || dump.find("geometry") != std::string::npos)
          return it.key();
      }
  return "geometry";
}

std::vector<RequestSpec> filter_requests(const Evidence& ev, const View& v) {
  const GeoCollection* c = v.subject();
  auto b = box(v);
  if (!c || !c->ogc || !b || !ev.last(queryables_spec(ev.settings, c->name))) return {};
  std::string filter = fmt::format("S_INTERSECTS({},BBOX({}))", geometry_property(ev, *c), geo::bbox_value(*b));
  std::string common = "filter-lang=cql2-text&filter=" + percent_encode(filter) + "&filter-crs=";
  return {query_spec(ev.settings, *c, common + percent_encode(crs84_of(*c)), false),
          query_spec(ev.settings, *c, common + percent_encode(geo::kUnregistered), false)};
}

void plan_ge10(Planner& p, const Evidence& ev, const CheckRef& ref, int round) {
  plan_followup_collections(p, ev, ref, round);
  if (shape(ev) != "ogc" || !spatial_filter_offered(ev)) return;
  View v = view(ev);
  if (!v.subject()) return;
  p.add(queryables_spec(ev.settings, v.subject()->name), ref.id);
  for (const auto& spec : filter_requests(ev, v)) p.add(spec, ref.id);
}

CheckResult judge_ge10(const Evidence& ev, const CheckRef& ref) {
  if (auto skip = not_for(ev, ref, "")) return *skip;
  if (!spatial_filter_offered(ev)) return {ref.id, Verdict::skip, "no spatial filter offered", {}};
  View v = view(ev);
  if (!v.subject() || !v.subject()->ogc) return {ref.id, Verdict::skip, "no collection with features to ask", {}};
  auto specs = filter_requests(ev, v);
  if (specs.empty()) return {ref.id, Verdict::error, "the queryables and filter requests were not sent (deadline or --max-requests)", {}};
  Findings f(ref.id);
  if (!unanswered(f, ev, specs[0])) {
    const http::Exchange& e = *ev.last(specs[0]);
    if (*e.status != 200) f.add(Verdict::fail, fmt::format("{} → {}", request_text(e), *e.status), {e.id});
    else if (!e.header("content-crs")) f.add(Verdict::fail, fmt::format("{}: no Content-Crs", request_text(e)), {e.id});
    else f.add(Verdict::pass, "", {e.id});
  }
  if (!unanswered(f, ev, specs[1])) {
    const http::Exchange& e = *ev.last(specs[1]);
    if (*e.status == 400) f.add(Verdict::pass, "", {e.id});
    else f.add(Verdict::fail, fmt::format("{} → {}, not 400 for a filter-crs no one registers", request_text(e), *e.status), {e.id});
  }
  return f.result("a spatial filter with filter-crs CRS84 served with Content-Crs, an unregistered filter-crs refused with 400");
}

}  // namespace

namespace geo_checks {
std::vector<CrsRequested> bbox_requests(const Evidence& ev, const View& v) {
  std::vector<CrsRequested> out;
  for (auto& [which, r] : requests_of(ev, v)) out.push_back(std::move(r));
  return out;
}
}  // namespace geo_checks

extern const Check ge8{
    .id = "GE-8",
    .needs = requests,
    .title = "bbox selects features",
    .sends = "GET ...items?limit=10&bbox=<central quarter of the extent> on the first collection with features, then bbox=0,91,1,92 (administrative: the collection path, when it documents bbox)",
    .passes = "200 and every feature's envelope intersects the box: pass; non-200 or a feature wholly outside (named): fail; latitudes beyond 90 not 400: warn; administrative without a documented bbox: fail; no collection: skip. lint: bbox documented on the geospatial collections, else fail",
    .plan_run = plan_run_documented,
    .judge = judge_ge8,
    .judged_headers = {"content-crs"},
    .plan_followup = plan_bbox,
    .judge_static = static_ge8};
extern const Check ge9{
    .id = "GE-9",
    .needs = requests,
    .title = "bbox-crs is honoured",
    .sends = "on GE-8's collection: bbox=<b>&bbox-crs=<CRS84>&crs=<another listed CRS>, bbox-crs=EPSG/0/999999, and with EPSG 4258 listed bbox=<b swapped>&bbox-crs=<4258>",
    .passes = "200 with Content-Crs the requested CRS: pass, else fail; unregistered bbox-crs 400: pass, else fail; the swapped box returning other features: warn; one CRS only or no bbox: skip",
    .plan_run = plan_run_documented,
    .judge = judge_ge9,
    .judged_headers = {"content-crs"},
    .plan_followup = plan_bbox};
extern const Check ge10{
    .id = "GE-10",
    .needs = requests,
    .title = "filter-crs is honoured",
    .sends = "GET {base}/conformance (when documented), GET .../queryables, then items?filter-lang=cql2-text&filter=S_INTERSECTS(<geometry>,BBOX(<b>))&filter-crs=<CRS84>, and filter-crs=EPSG/0/999999",
    .passes = "200 with Content-Crs: pass, else fail; unregistered filter-crs 400: pass, else fail; no CQL2 spatial filter in /conformance: skip",
    .plan_run = plan_run_documented,
    .judge = judge_ge10,
    .judged_headers = {"content-crs"},
    .plan_followup = plan_ge10};

}  // namespace adrprobe::checks
