// The Geospatial module's GeoJSON rules: /geo/geojson-response (GE-11),
// /geo/embed-geojson-geometry-response (GE-12), and the request-side rules
// judged on the document alone, the tool never sending a body:
// /geo/geojson-request (GE-13), /geo/embed-geojson-geometry-request (GE-14),
// /geo/content-crs-request-header (GE-15).
#include <fmt/format.h>

#include "checks/findings.hpp"
#include "checks/geo.hpp"
#include "http/media_type.hpp"
#include "oas/pointer.hpp"
#include "oas/walk.hpp"
#include "util/strings.hpp"

namespace adrprobe::checks {
namespace {

using namespace geo_checks;
using oas::Node;
using oas::Walker;

std::string at(const geo::Fault& fault) { return fault.pointer.empty() ? "the body" : fault.pointer; }

// One response judged as GeoJSON of the kind expected: status, media type, validity.
void judge_geojson(Findings& f, const Evidence& ev, const RequestSpec& spec, const GeoCollection& c, geo::Expect expect,
                   std::string_view media) {
  if (unanswered(f, ev, spec)) return;
  const http::Exchange& e = *ev.last(spec);
  std::string req = request_text(e);
  if (*e.status != 200) return f.add(Verdict::fail, fmt::format("{} → {}", req, *e.status), {e.id});
  const std::string* ct = e.header("content-type");
  std::string type = ct ? to_lower(http::media_type(*ct)) : "";
  bool media_ok = media == "json" ? http::is_json_media_type(type) : type == media;
  if (!media_ok)
    return f.add(Verdict::fail, fmt::format("{}: Content-Type {}, not {}", req, ct ? shown(*ct) : "absent",
                                            media == "json" ? "application/json" : std::string(media)), {e.id});
  if (e.body_truncated)
    return f.add(Verdict::warn, fmt::format("{}: larger than {} MiB, not validated", req, ev.settings.limits.max_document_bytes >> 20), {e.id});
  geo::Validation v;
  if (c.ogc) {
    geo::ValidateOptions options;
    const std::string* crs = e.header("content-crs");
    options.crs84 = !crs || geo::is_crs84(geo::content_crs_name(*crs));
    v = geo::validate_geojson(e.judged_body(), expect, options);
  } else {
    v = features_of(c, e);
  }
  if (v.fault) f.add(Verdict::fail, fmt::format("{}: at {}: {}", req, at(*v.fault), v.fault->what), {e.id});
  else f.add(Verdict::pass, "", {e.id});
}

// ---------------------------------------------------------------------------
// GE-11 (OGC)

void plan_ge11(Planner& p, const Evidence& ev, const CheckRef& ref, int round) {
  plan_followup_collections(p, ev, ref, round);
  View v = view(ev);
  for (const auto& c : v.probed) {
    const http::Exchange* e = ev.last(default_spec(ev.settings, c));
    if (!c.ogc || !e || e->error || *e->status != 200 || e->body_truncated) continue;
    geo::Validation page = features_of(c, *e);
    if (!page.kept.empty() && !page.kept.front().id.empty()) p.add(feature_spec(ev.settings, c.name, page.kept.front().id), ref.id);
  }
}

CheckResult judge_ge11(const Evidence& ev, const CheckRef& ref) {
  if (auto skip = not_for(ev, ref, "ogc")) return *skip;
  View v = view(ev);
  if (v.probed.empty()) return {ref.id, Verdict::skip, "no collection read: see /geo/crs-list", {}};
  Findings f(ref.id);
  std::size_t features = 0;
  for (const auto& c : v.probed) {
    RequestSpec page = default_spec(ev.settings, c);
    judge_geojson(f, ev, page, c, geo::Expect::feature_collection, "application/geo+json");
    const http::Exchange* e = ev.last(page);
    if (!e || e->error || *e->status != 200 || e->body_truncated) continue;
    geo::Validation fc = features_of(c, *e);
    if (fc.kept.empty() || fc.kept.front().id.empty()) continue;
    ++features;
    judge_geojson(f, ev, feature_spec(ev.settings, c.name, fc.kept.front().id), c, geo::Expect::feature, "application/geo+json");
  }
  CheckResult r = f.result(fmt::format("items of {} and {} are application/geo+json and valid GeoJSON{}",
                                       plural(v.probed.size(), "collection", "collections"),
                                       plural(features, "feature", "features"), v.left_out_note()));
  v.name_left_out(r);
  return r;
}

// ---------------------------------------------------------------------------
// GE-12 (administrative)

CheckResult judge_ge12(const Evidence& ev, const CheckRef& ref) {
  if (auto skip = not_for(ev, ref, "administrative")) return *skip;
  View v = view(ev);
  if (v.probed.empty()) return {ref.id, Verdict::skip, "no documented path with geometry could be probed", {}};
  Findings f(ref.id);
  for (const auto& c : v.probed) judge_geojson(f, ev, default_spec(ev.settings, c), c, geo::Expect::geometry, "json");
  return f.result(fmt::format("{} with geometry are JSON with valid GeoJSON geometry",
                              plural(v.probed.size(), "documented path", "documented paths")));
}

// ---------------------------------------------------------------------------
// GE-13..GE-15: request bodies with geometry, on the document.

bool geometry_named(std::string_view key) {
  std::string k = to_lower(key);
  return k.rfind("geom", 0) == 0 || k == "coordinates" || k == "locatie" || k == "location";
}

// What a request body of one operation says of geometry.
struct Body {
  std::string where;        // "POST /gebouwen"
  std::string pointer;      // of the operation in the root document
  bool geo_json_media = false;   // content has application/geo+json
  bool geometry = false;    // a property is geometry (GeoJSON schema or named so)
  std::vector<std::string> not_geojson;  // geometry-named properties whose schema is no GeoJSON geometry
  bool crs_member = false;  // the body schema has a crs member
  bool content_crs = false; // a Content-Crs header parameter is documented
};

void scan_schema(const Walker& w, const Node& raw, Body& b, int depth) {
  if (depth > 6 || !raw) return;
  if (is_geometry_schema(w, raw)) {
    b.geometry = true;
    return;
  }
  Node s = w.deref(raw);
  if (!s.is_object()) return;
  for (const char* k : {"allOf", "oneOf", "anyOf"}) {
    Node alts = w.member(s, k);
    if (alts.is_array())
      for (std::size_t i = 0; i < alts.value->Size() && i < 20; ++i) scan_schema(w, w.item(alts, i), b, depth + 1);
  }
  if (Node items = w.child(s, "items")) scan_schema(w, items, b, depth + 1);
  Node props = w.member(s, "properties");
  if (!props.is_object()) return;
  for (const auto& m : props.value->GetObject()) {
    std::string_view key = oas::key_of(m);
    if (key == "crs") b.crs_member = true;
    Node p = w.entry(props, m);
    if (geometry_named(key) && !is_geometry_schema(w, p)) {
      Node d = w.deref(p);
      // A geometry-named object that nests a GeoJSON geometry is judged by its members.
      Body inner;
      scan_schema(w, p, inner, depth + 1);
      if (!inner.geometry) {
        b.geometry = true;
        b.not_geojson.push_back(escape_control(truncate_utf8(key, 60)));
        continue;
      }
    }
    scan_schema(w, p, b, depth + 1);
  }
}

std::vector<Body> bodies(const Evidence& ev) {
  std::vector<Body> out;
  Walker w(*ev.document.docs);
  for (const auto& op : oas::operations(w)) {
    if (op.method != "post" && op.method != "put" && op.method != "patch") continue;
    Node rb = w.member(op.op, "requestBody");
    Node content = w.member(rb, "content");
    if (!content.is_object()) continue;
    Body b;
    b.where = fmt::format("{} {}", op.upper_method(), escape_control(truncate_utf8(op.path, 120)));
    b.pointer = "/paths/" + oas::escape_token(op.path) + "/" + std::string(op.method);
    for (const auto& m : content.value->GetObject()) {
      if (to_lower(http::media_type(oas::key_of(m))) == "application/geo+json") b.geo_json_media = b.geometry = true;
      Node media = w.deref(w.entry(content, m));
      scan_schema(w, w.child(media, "schema"), b, 0);
    }
    for (const auto& p : oas::effective_parameters(w, op))
      if (p.in == "header" && iequals(p.name, "Content-Crs")) b.content_crs = true;
    if (b.geometry) out.push_back(std::move(b));
    if (out.size() >= 1000) break;
  }
  return out;
}

constexpr const char* kNotLive = "the live part is not tested: the tool never sends a body";

template <typename Judge>
CheckResult judge_bodies(const Evidence& ev, const CheckRef& ref, std::string_view wanted, const char* passes, Judge judge) {
  if (auto skip = not_for(ev, ref, wanted)) return *skip;
  if (auto stop = ev.without_paths(ref.id)) return *stop;
  std::vector<Body> all = bodies(ev);
  if (all.empty()) return {ref.id, Verdict::pass, fmt::format("no request carries geometry ({})", kNotLive), {}};
  Findings f(ref.id);
  for (const auto& b : all) {
    std::string problem = judge(b);
    if (problem.empty()) f.add(Verdict::pass, "", {}, b.pointer);
    else f.add_at(Verdict::fail, b.pointer, fmt::format("{}: {}", b.where, problem));
  }
  CheckResult r = f.result(fmt::format("{} {} ({})", plural(all.size(), "request body with geometry", "request bodies with geometry"), passes, kNotLive));
  if (r.verdict != Verdict::pass) r.message += fmt::format(" ({})", kNotLive);
  return r;
}

CheckResult judge_ge13(const Evidence& ev, const CheckRef& ref) {
  return judge_bodies(ev, ref, "ogc", "accept application/geo+json",
                      [](const Body& b) { return b.geo_json_media ? "" : "the request body does not accept application/geo+json"; });
}

CheckResult judge_ge14(const Evidence& ev, const CheckRef& ref) {
  return judge_bodies(ev, ref, "administrative", "hold GeoJSON geometry", [](const Body& b) -> std::string {
    if (b.not_geojson.empty()) return "";
    return fmt::format("geometry {} is no GeoJSON geometry schema", join(b.not_geojson, ", ", 5));
  });
}

CheckResult judge_ge15(const Evidence& ev, const CheckRef& ref) {
  return judge_bodies(ev, ref, "", "say their CRS", [](const Body& b) -> std::string {
    if (b.content_crs || b.crs_member) return "";
    return "no Content-Crs header parameter and no crs member in the body";
  });
}

}  // namespace

extern const Check ge11{
    .id = "GE-11",
    .needs = requests,
    .title = "Features are GeoJSON",
    .sends = "GET {base}/collections/{id}/items?limit=10 and the first feature, Accept: application/geo+json, for the first 10 collections",
    .passes = "200, Content-Type application/geo+json, a valid FeatureCollection and Feature (RFC 7946): pass; else fail with the JSON pointer of the first fault; administrative: skip",
    .plan_run = plan_run_documented,
    .judge = judge_ge11,
    .judged_headers = {"content-type", "content-crs"},
    .plan_followup = plan_ge11};
extern const Check ge12{
    .id = "GE-12",
    .needs = requests,
    .title = "Embedded geometry is GeoJSON",
    .sends = "GET each probed documented path whose 200 response schema holds geometry, Accept: application/json",
    .passes = "200 JSON and every declared geometry a valid GeoJSON geometry (or null where allowed): pass; else fail with the JSON pointer of the first fault; OGC: skip",
    .plan_run = plan_run_documented,
    .judge = judge_ge12,
    .judged_headers = {"content-type", "content-crs"},
    .plan_followup = plan_followup_collections};
extern const Check ge13{
    .id = "GE-13",
    .needs = document,
    .title = "Request bodies with geometry accept GeoJSON",
    .sends = "nothing (static); reads POST, PUT and PATCH request bodies",
    .passes = "each body with geometry accepts application/geo+json, or none carries geometry: pass; else fail; administrative: skip",
    .judge = judge_ge13};
extern const Check ge14{
    .id = "GE-14",
    .needs = document,
    .title = "Geometry in request bodies is GeoJSON",
    .sends = "nothing (static); reads POST, PUT and PATCH request bodies",
    .passes = "each geometry in a request body is a GeoJSON geometry schema, or none carries geometry: pass; else fail; OGC: skip",
    .judge = judge_ge14};
extern const Check ge15{
    .id = "GE-15",
    .needs = document,
    .title = "Request bodies with geometry say their CRS",
    .sends = "nothing (static); reads POST, PUT and PATCH operations",
    .passes = "a Content-Crs header parameter or a crs member for each body with geometry, or none carries geometry: pass; else fail",
    .judge = judge_ge15};

}  // namespace adrprobe::checks
