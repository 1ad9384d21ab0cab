// The Geospatial module: its detector, the requests its checks share and
// what they read of the answers (checks/geo.hpp).
#include "checks/geo.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "http/media_type.hpp"
#include "oas/parse.hpp"
#include "oas/pointer.hpp"
#include "oas/walk.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::checks {
namespace geo_checks {
namespace {

using oas::Node;
using oas::Walker;

// The GeoJSON geometry names a schema or schema file may be named after.
bool geometry_name(std::string_view ref) {
  std::string name = to_lower(ref.substr(ref.find_last_of("/#") == std::string_view::npos ? 0 : ref.find_last_of("/#") + 1));
  if (auto dot = name.find('.'); dot != std::string::npos) name.resize(dot);
  if (name.find("geojson") != std::string::npos) return true;
  static const std::set<std::string> names{"geometry", "point", "multipoint", "linestring", "multilinestring",
                                           "polygon", "multipolygon", "geometrycollection"};
  return names.count(name) > 0;
}

// A schema's own `type` property enum names GeoJSON geometry types, beside coordinates or geometries.
bool geometry_shape(const Walker& w, const Node& schema) {
  Node props = w.member(schema, "properties");
  if (!props.is_object()) return false;
  Node type = w.member(props, "type");
  if (!type.is_object() || (!oas::contains(*props.value, "coordinates") && !oas::contains(*props.value, "geometries"))) return false;
  Node en = w.member(type, "enum");
  if (!en.is_array()) return false;
  for (const auto& v : en.value->GetArray())
    if (v.IsString() && geo::is_geometry_type(oas::str(v))) return true;
  return false;
}

// An alternative that is {"type": "null"}.
bool is_null_type(const Node& schema) { return oas::string_member(schema.value, "type") == "null"; }

bool nullable(const Walker& w, const Node& schema) {
  if (!schema.is_object()) return false;
  const oas::Value& o = *schema.value;
  if (const oas::Value* n = oas::find(o, "nullable"); n && n->IsBool() && n->GetBool()) return true;
  if (const oas::Value* types = oas::find(o, "type"); types && types->IsArray())
    for (const auto& t : types->GetArray())
      if (t.IsString() && oas::str(t) == "null") return true;
  for (const char* k : {"oneOf", "anyOf"}) {
    Node alts = w.member(schema, k);
    if (alts.is_array())
      for (std::size_t i = 0; i < alts.value->Size(); ++i) {
        Node a = w.deref(w.item(alts, i));
        if (is_null_type(a)) return true;
      }
  }
  return false;
}

// Where geometry stands in a schema: member names from the root, "[]" for
// array elements. Bounded: 6 levels, 200 places.
struct Places {
  const Walker& w;
  // Schemas (after $ref) whose members were walked without finding
  // geometry, with the least depth they were walked at: walked again at that
  // depth or deeper, they find nothing again. Shared by every response: most
  // name the same component schemas (10,000 responses of a large document
  // walked each of them again).
  std::unordered_map<const oas::Value*, int>& bare;
  std::vector<std::vector<std::string>> found;
  std::vector<bool> nulls;
  void walk(const Node& raw, std::vector<std::string>& at, int depth) {
    if (depth > 6 || found.size() >= 200 || !raw) return;
    Node s = w.deref(raw);
    // A schema in bare was asked is_geometry_schema() before, and was not:
    // of what that asks, only the name of raw's own $ref can differ now.
    bool known_bare = false;
    if (s.is_object())
      if (auto known = bare.find(s.value); known != bare.end() && known->second <= depth) known_bare = true;
    bool geometry = known_bare ? is_geometry_ref(raw) : is_geometry_schema(w, raw);
    if (geometry) {
      found.push_back(at);
      nulls.push_back(nullable(w, s));
      return;
    }
    if (!s.is_object() || known_bare) return;
    std::size_t before = found.size();
    members(s, at, depth);
    if (found.size() == before) {  // nothing found, and not for lack of room: found is below the cap
      auto [slot, fresh] = bare.try_emplace(s.value, depth);
      if (!fresh) slot->second = std::min(slot->second, depth);
    }
  }
  void members(const Node& s, std::vector<std::string>& at, int depth) {
    for (const char* k : {"allOf", "oneOf", "anyOf"}) {
      Node alts = w.member(s, k);
      if (alts.is_array())
        for (std::size_t i = 0; i < alts.value->Size() && i < 20; ++i) walk(w.item(alts, i), at, depth + 1);
    }
    Node items = w.child(s, "items");
    if (items) {
      at.push_back("[]");
      walk(items, at, depth + 1);
      at.pop_back();
    }
    Node props = w.member(s, "properties");
    if (props.is_object())
      for (const auto& m : props.value->GetObject()) {
        at.emplace_back(oas::key_of(m));
        walk(w.entry(props, m), at, depth + 1);
        at.pop_back();
      }
  }
};

// The schema of an operation's 200 JSON response (the first JSON content), or a null node.
Node response_schema(const Walker& w, const Node& op) {
  Node responses = w.member(op, "responses");
  if (!responses.is_object()) return {};
  Node r = w.member(responses, "200");
  if (!r.is_object()) return {};
  Node content = w.member(r, "content");
  if (!content.is_object()) return {};
  for (const auto& m : content.value->GetObject())
    if (http::is_json_media_type(oas::key_of(m))) return w.child(w.deref(w.entry(content, m)), "schema");
  return {};
}

bool has_query_parameter(const Walker& w, const oas::Operation& op, std::string_view name) {
  for (const auto& p : oas::effective_parameters(w, op))
    if (p.in == "query" && p.name == name) return true;
  return false;
}

struct GeoPaths {
  std::vector<GeoPath> paths;
  explicit GeoPaths(const oas::DocumentSet& docs) {
    Walker w(docs);
    std::unordered_map<const oas::Value*, int> bare;
    for (const auto& op : oas::all_operations(docs)) {
      if (op.method != "get" || paths.size() >= 200) continue;
      Node schema = response_schema(w, op.op);
      if (!schema) continue;
      Places places{w, bare, {}, {}};
      std::vector<std::string> at;
      places.walk(schema, at, 0);
      if (places.found.empty()) continue;
      GeoPath g;
      g.path = op.path;
      g.places = std::move(places.found);
      g.nullable = std::move(places.nulls);
      for (const auto& p : g.places) g.is_collection = g.is_collection || std::count(p.begin(), p.end(), "[]") > 0;
      g.documents_bbox = has_query_parameter(w, op, "bbox");
      paths.push_back(std::move(g));
    }
  }
};

std::string shown_path(std::string_view p) { return escape_control(truncate_utf8(p, 120)); }

}  // namespace

std::optional<std::string> collections_prefix(std::string_view path) {
  constexpr std::string_view tail = "/collections";
  if (path.size() < tail.size() || path.substr(path.size() - tail.size()) != tail) return std::nullopt;
  return std::string(path.substr(0, path.size() - tail.size()));
}

bool is_items_path(std::string_view path, bool feature) {
  std::vector<std::string> parts = split(path, '/');
  // ..., "collections", <segment>, "items"[, <feature>]
  std::size_t n = parts.size(), items = feature ? n - 2 : n - 1;
  if (n < 4 + (feature ? 1 : 0)) return false;
  return parts[items] == "items" && parts[items - 2] == "collections" && !parts[items - 1].empty() &&
         (!feature || !parts[n - 1].empty());
}

bool is_geometry_ref(const Node& raw) {
  // A $ref named after GeoJSON geometry counts even when its file is not at hand (geometryGeoJSON.yaml of OGC).
  auto ref = raw ? oas::string_member(raw.value, "$ref") : std::nullopt;
  return ref && geometry_name(*ref);
}

bool is_geometry_schema(const Walker& w, const Node& raw) {
  if (!raw) return false;
  if (is_geometry_ref(raw)) return true;
  Node s = w.deref(raw);
  if (!s.is_object()) return false;
  if (geometry_shape(w, s)) return true;
  for (const char* k : {"allOf", "oneOf", "anyOf"}) {
    Node alts = w.member(s, k);
    if (!alts.is_array()) continue;
    std::size_t geometry = 0, other = 0;
    for (std::size_t i = 0; i < alts.value->Size() && i < 20; ++i) {
      Node a = w.item(alts, i);
      Node d = w.deref(a);
      if (is_null_type(d)) continue;
      if (auto ref = oas::string_member(a.value, "$ref");
          (ref && geometry_name(*ref)) || (d.is_object() && geometry_shape(w, d)))
        ++geometry;
      else ++other;
    }
    // oneOf Point, Polygon, ... (or with null); allOf extending a geometry.
    if (geometry > 0 && (other == 0 || std::string_view(k) == "allOf")) return true;
  }
  return false;
}

const std::vector<GeoPath>& geo_paths(const Evidence& ev) {
  static const std::vector<GeoPath> none;
  return ev.document.docs ? ev.document.docs->derived<GeoPaths>().paths : none;
}

std::string shape(const Evidence& ev) {
  const engine::JudgedModule* m = ev.module("geo");
  return m ? m->shape : "";
}

std::optional<CheckResult> not_for(const Evidence& ev, const CheckRef& ref, std::string_view wanted) {
  std::string s = shape(ev);
  if (s.empty()) return CheckResult{ref.id, Verdict::skip, "no geospatial resource found", {}};
  if (!wanted.empty() && s != wanted)
    return CheckResult{ref.id, Verdict::skip,
                       wanted == "ogc" ? "OGC API Features only (this API is administrative)"
                                       : "administrative APIs only (this API is OGC API Features)", {}};
  return std::nullopt;
}

RequestSpec get_json(const std::string& url, std::string_view accept) {
  RequestSpec s = engine::probe_request("GET", url);
  s.extra_headers.emplace_back("Accept", std::string(accept));
  // Feature collections are larger than a probe's 8 KiB: read up to the
  // document limit (32 MiB); the validator reads them in one pass.
  s.body = engine::BodyLimit::document;
  return s;
}
RequestSpec collections_spec(const engine::Settings& s) { return get_json(s.base_url + "/collections", "application/json"); }
RequestSpec conformance_spec(const engine::Settings& s) { return get_json(s.base_url + "/conformance", "application/json"); }
RequestSpec crss_spec(const engine::Settings& s) { return get_json(s.base_url + "/crss", "application/json"); }
RequestSpec collection_spec(const engine::Settings& s, const std::string& id) {
  return get_json(s.base_url + "/collections/" + percent_encode(id), "application/json");
}
RequestSpec queryables_spec(const engine::Settings& s, const std::string& id) {
  return get_json(s.base_url + "/collections/" + percent_encode(id) + "/queryables", "application/schema+json, application/json");
}
std::string items_url(const engine::Settings& s, const std::string& id) {
  return s.base_url + "/collections/" + percent_encode(id) + "/items";
}
RequestSpec feature_spec(const engine::Settings& s, const std::string& id, const std::string& feature_id) {
  return get_json(items_url(s, id) + "/" + percent_encode(feature_id), "application/geo+json");
}

RequestSpec default_spec(const engine::Settings&, const GeoCollection& c) {
  if (c.ogc) return get_json(c.url + "?limit=10", "application/geo+json");
  return get_json(c.url, "application/json");
}
RequestSpec query_spec(const engine::Settings&, const GeoCollection& c, const std::string& query, bool body) {
  RequestSpec spec = c.ogc ? get_json(c.url + "?limit=10&" + query, "application/geo+json")
                           : get_json(c.url + (c.url.find('?') == std::string::npos ? "?" : "&") + query, "application/json");
  if (!body) spec.body = engine::BodyLimit::probe;
  return spec;
}
std::string crs_query(std::string_view uri) { return "crs=" + percent_encode(uri); }

bool unanswered(Findings& f, const Evidence& ev, const RequestSpec& spec) {
  const http::Exchange* e = ev.last(spec);
  if (!e) f.add(Verdict::error, fmt::format("GET {} was not sent (deadline or --max-requests)", escape_control(url_path(spec.url))));
  else if (e->error) f.add_error(*e);
  return !e || e->error;
}

std::string shown(std::string_view s) { return "'" + escape_control(truncate_utf8(s, 80)) + "'"; }

std::string request_text(const http::Exchange& e) {
  return fmt::format("{} {}", e.method, escape_control(truncate_utf8(percent_decode(url_path(e.url)), 200)));
}

JsonBody json_body(const Evidence& ev, const RequestSpec& spec, bool lenient_utf8) {
  JsonBody out;
  out.exchange = ev.last(spec);
  if (!out.exchange) {
    out.problem = fmt::format("GET {} was not sent", url_path(spec.url));
    return out;
  }
  const http::Exchange& e = *out.exchange;
  if (e.error) {
    out.problem = fmt::format("{}: {}", request_text(e), engine::transport_cause(*e.error));
    return out;
  }
  if (*e.status != 200) {
    out.problem = fmt::format("{} → {}", request_text(e), *e.status);
    return out;
  }
  if (e.body_truncated) {
    out.problem = fmt::format("{}: the body is larger than {} MiB", request_text(e), ev.settings.limits.max_document_bytes >> 20);
    return out;
  }
  const std::string& body = e.judged_body();
  std::string replaced;
  if (lenient_utf8 && !is_valid_utf8(body)) {
    replaced = replace_invalid_utf8(body, "\xEF\xBF\xBD");
    out.invalid_utf8 = true;
  }
  auto parsed = oas::parse_json(out.invalid_utf8 ? std::string_view(replaced) : std::string_view(body), ev.settings.limits);
  if (!parsed.ok) {
    out.problem = fmt::format("{}: not JSON ({})", request_text(e), escape_control(truncate_utf8(parsed.error, 120)));
    return out;
  }
  out.value = std::move(parsed.value);
  return out;
}

const std::string* answer_string(const oas::json* object, const char* key) {
  if (!object || !object->is_object()) return nullptr;
  auto it = object->find(key);
  return it != object->end() && it->is_string() ? &it->get_ref<const std::string&>() : nullptr;
}

namespace {

// The supported list of a collection object (its crs, "#/crs" standing for the global list).
void supported_list(const oas::json& collection, const View& v, GeoCollection& c) {
  auto it = collection.find("crs");
  if (it == collection.end() || !it->is_array()) {
    c.crs = v.global;
    c.listed = v.global_listed;
    return;
  }
  geo::CrsList own = geo::read_crs_list(*it);
  geo::CrsList out;
  out.total = own.total;
  out.first_bad = own.first_bad;
  out.bad_text = own.bad_text;
  for (const auto& e : own.entries) {
    if (e == "#/crs") {
      for (const auto& g : v.global.entries)
        if (!out.contains(g) && out.entries.size() < geo::CrsList::kKeptEntries) out.entries.push_back(g);
    } else if (!out.contains(e) && out.entries.size() < geo::CrsList::kKeptEntries) {
      out.entries.push_back(e);
    }
  }
  c.crs = std::move(out);
  c.listed = true;
}

std::optional<geo::Envelope> extent_of(const oas::json& collection) {
  const oas::json* p = &collection;
  for (const char* k : {"extent", "spatial", "bbox"}) {
    if (!p->is_object()) return std::nullopt;
    auto it = p->find(k);
    if (it == p->end()) return std::nullopt;
    p = &*it;
  }
  if (!p->is_array() || p->empty() || !(*p)[0].is_array()) return std::nullopt;
  const auto& b = (*p)[0];
  std::vector<double> values;
  for (const auto& n : b) {
    if (!n.is_number()) return std::nullopt;
    values.push_back(n.get<double>());
  }
  return geo::envelope_of_bbox(values.data(), values.size());
}

// The value at a place in a response, each element of an array for "[]": visits every geometry value.
template <typename Visit>
void at_place(const oas::json& v, const std::vector<std::string>& place, std::size_t i, std::string& pointer,
              std::size_t& budget, Visit& visit) {
  if (budget == 0) return;
  if (i == place.size()) {
    --budget;
    visit(v, pointer);
    return;
  }
  std::size_t len = pointer.size();
  if (place[i] == "[]") {
    if (!v.is_array()) return;
    for (std::size_t k = 0; k < v.size() && budget; ++k) {
      pointer += "/" + std::to_string(k);
      at_place(v[k], place, i + 1, pointer, budget, visit);
      pointer.resize(len);
    }
    return;
  }
  if (!v.is_object()) return;
  auto it = v.find(place[i]);
  if (it == v.end()) return;
  std::string token = replace_all(replace_all(place[i], "~", "~0"), "/", "~1");
  pointer += "/" + token;
  at_place(*it, place, i + 1, pointer, budget, visit);
  pointer.resize(len);
}

// A resource of an administrative collection, named by its id (or
// identificatie) when it has one, else by its pointer: two answers name the
// same resource alike (GE-9).
std::string resource_id(const oas::json& root, const std::string& pointer) {
  auto tokens = oas::pointer_tokens(pointer);
  const oas::json* r = tokens ? oas::lookup(root, *tokens) : nullptr;
  if (r && r->is_object())
    for (const char* k : {"id", "identificatie"})
      if (auto it = r->find(k); it != r->end() && (it->is_string() || it->is_number_integer()))
        return truncate_utf8(it->is_string() ? it->get<std::string>() : it->dump(), 200);
  return pointer;
}

}  // namespace

std::string View::left_out_note() const {
  if (collections_total <= probed.size()) return "";
  // The first three left out and the last: all of them in the details.
  std::vector<std::string> named(left_out.begin(), left_out.begin() + static_cast<long>(std::min<std::size_t>(3, left_out.size())));
  std::string names = join(named, ", ");
  if (left_out.size() > 4 || (left_out.size() == 4 && left_out_last != left_out.back())) names += ", …";
  if (left_out.size() > 3) names += ", " + left_out_last;
  return fmt::format("; {} more not probed (the first {} are): {}", collections_total - probed.size(), kCollections, names);
}

void View::name_left_out(CheckResult& r) const {
  if (left_out.empty()) return;
  // A pass message has the note already; a finding's message gets it at its end.
  if (r.verdict != Verdict::pass) r.message += left_out_note();
  r.details.push_back(fmt::format("collections not probed (module-geo.md: the first {} are): {}", kCollections,
                                  join(left_out, ", ")));
}

bool View::any_list() const {
  if (global_listed) return true;
  for (const auto& c : probed)
    if (c.listed) return true;
  return false;
}

geo::Validation features_of(const GeoCollection& c, const http::Exchange& e) {
  geo::ValidateOptions options;
  const std::string* crs = e.header("content-crs");
  options.crs84 = !crs || geo::is_crs84(geo::content_crs_name(*crs));
  if (c.ogc) return geo::validate_geojson(e.judged_body(), geo::Expect::feature_collection, options);
  // Administrative: each resource of the collection with the envelope of its embedded geometry.
  geo::Validation out;
  auto parsed = oas::parse_json(e.judged_body());
  if (!parsed.ok) {
    out.fault = geo::Fault{"", "not JSON: " + escape_control(truncate_utf8(parsed.error, 120)), true};
    return out;
  }
  std::size_t budget = 100000;
  for (std::size_t p = 0; p < c.places.size(); ++p) {
    const auto& place = c.places[p];
    // The resource is the value at the place's last "[]" (or the root).
    auto last = std::find(place.rbegin(), place.rend(), "[]");
    std::size_t member_depth = last == place.rend() ? 0 : static_cast<std::size_t>(place.rend() - last);
    std::string pointer;
    auto visit = [&](const oas::json& g, const std::string& at) {
      if (g.is_null() && c.nullable[p]) return;
      geo::Validation one = geo::validate_geojson(g.dump(-1, ' ', false, oas::json::error_handler_t::replace),
                                                  geo::Expect::geometry, options);
      if (one.fault && !out.fault) out.fault = geo::Fault{at + one.fault->pointer, one.fault->what, false};
      // The resource: the pointer up to its element index.
      std::string member;
      std::size_t slashes = 0;
      for (std::size_t k = 0; k < at.size() && member_depth; ++k)
        if (at[k] == '/' && ++slashes == member_depth + 1) {
          member = at.substr(0, k);
          break;
        }
      member = resource_id(parsed.value, member);
      auto it = std::find_if(out.kept.begin(), out.kept.end(), [&](const geo::FeatureFacts& f) { return f.id == member; });
      if (it == out.kept.end()) {
        out.kept.push_back({member, {}});
        it = out.kept.end() - 1;
        ++out.features;
      }
      it->envelope.add(one.envelope);
      out.envelope.add(one.envelope);
    };
    at_place(parsed.value, place, 0, pointer, budget, visit);
  }
  return out;
}

View view(const Evidence& ev) {
  View v;
  v.shape = shape(ev);
  const auto& s = ev.settings;
  if (v.shape == "ogc") {
    v.collections = json_body(ev, collections_spec(s), true);
    if (!v.collections.value) return v;
    const oas::json& root = *v.collections.value;
    if (root.is_object()) {
      if (auto it = root.find("crs"); it != root.end() && it->is_array()) {
        v.global = geo::read_crs_list(*it);
        v.global_listed = true;
      }
    }
    const oas::json* list = nullptr;
    if (root.is_object())
      if (auto it = root.find("collections"); it != root.end() && it->is_array()) list = &*it;
    if (!list) return v;
    v.collections_total = list->size();
    for (const auto& entry : *list) {
      if (!entry.is_object()) continue;
      const std::string* id = answer_string(&entry, "id");
      if (!id || id->empty()) continue;
      if (v.probed.size() >= kCollections) {
        v.left_out_last = escape_control(truncate_utf8(*id, 80));
        if (v.left_out.size() < 1000) v.left_out.push_back(v.left_out_last);
        continue;
      }
      GeoCollection c;
      c.name = *id;
      c.url = items_url(s, *id);
      // The collection's own resource when it answered, else its entry in /collections.
      JsonBody detail = json_body(ev, collection_spec(s, *id));
      const oas::json& obj = detail.value && detail.value->is_object() ? *detail.value : entry;
      supported_list(obj, v, c);
      c.extent = extent_of(obj);
      v.probed.push_back(std::move(c));
    }
  } else if (v.shape == "administrative") {
    v.collections = json_body(ev, crss_spec(s), true);
    if (v.collections.value && v.collections.value->is_object())
      if (auto it = v.collections.value->find("crs"); it != v.collections.value->end() && it->is_array()) {
        v.global = geo::read_crs_list(*it);
        v.global_listed = true;
      }
    for (const auto& g : geo_paths(ev))
      for (const auto& t : ev.targets)
        if (!t.is_base && t.path.template_path == g.path) {
          GeoCollection c;
          c.ogc = false;
          c.name = g.path;
          c.url = t.url;
          c.places = g.places;
          c.nullable = g.nullable;
          c.is_collection = g.is_collection;
          c.documents_bbox = g.documents_bbox;
          c.crs = v.global;
          c.listed = v.global_listed;
          v.probed.push_back(std::move(c));
          break;
        }
  }
  for (std::size_t i = 0; i < v.probed.size(); ++i) {
    const GeoCollection& c = v.probed[i];
    if (!c.is_collection) continue;
    const http::Exchange* e = ev.last(default_spec(s, c));
    if (!e || e->error || *e->status != 200 || e->body_truncated) continue;
    geo::Validation page = features_of(c, *e);
    if (page.features == 0) continue;
    v.first_with_features = static_cast<int>(i);
    v.first_page = std::move(page);
    break;
  }
  return v;
}

std::vector<std::string> crs_asked(const View& v) {
  const GeoCollection* c = v.subject();
  std::vector<std::string> out;
  if (!c || !c->listed) return {std::string(geo::kCrs84)};
  auto take = [&](auto pred) {
    for (const auto& e : c->crs.entries)
      if (out.size() < kCrsAsked && geo::is_http_uri(e) && pred(e) &&
          std::none_of(out.begin(), out.end(), [&](const std::string& o) { return geo::same_crs(o, e); }))
        out.push_back(e);
  };
  take([](const std::string& e) { return geo::is_crs84(e); });
  take([](const std::string& e) { long c = geo::epsg_code(e); return c == 4258 || c == 4937; });
  take([](const std::string& e) { long c = geo::epsg_code(e); return c == 28992 || c == 7415; });
  take([](const std::string&) { return true; });
  return out;
}

std::optional<geo::Envelope> box(const View& v) {
  const GeoCollection* c = v.subject();
  if (!c) return std::nullopt;
  if (c->extent) return geo::central_quarter(*c->extent);
  if (v.first_page.envelope.empty) return std::nullopt;
  return geo::central_quarter(v.first_page.envelope);
}

std::string other_crs(const View& v) {
  for (const auto& e : crs_asked(v))
    if (!geo::is_crs84(e)) return e;
  return "";
}

void plan_documented(Planner& p, const PlanInput& in, std::string_view by) {
  if (in.phase != 2 || !in.settings.live()) return;
  for (const auto& t : in.targets) {
    // As documented, after any prefix the document repeats from its server URL.
    std::string_view path = t.path.template_path;
    auto ends = [&](std::string_view tail) { return path.size() >= tail.size() && path.substr(path.size() - tail.size()) == tail; };
    if (ends("/collections")) p.add(collections_spec(in.settings), by);
    else if (ends("/conformance")) p.add(conformance_spec(in.settings), by);
    else if (ends("/crss")) p.add(crss_spec(in.settings), by);
  }
}

void plan_collections(Planner& p, const Evidence& ev, std::string_view by) {
  const auto& s = ev.settings;
  std::string sh = shape(ev);
  if (sh.empty() || !s.live()) return;
  p.add(sh == "ogc" ? collections_spec(s) : crss_spec(s), by);
  View v = view(ev);
  for (const auto& c : v.probed) {
    if (c.ogc) p.add(collection_spec(s, c.name), by);
    p.add(default_spec(s, c), by);
  }
}

void plan_run_documented(Planner& p, const PlanInput& in, const CheckRef& ref) { plan_documented(p, in, ref.id); }
void plan_followup_collections(Planner& p, const Evidence& ev, const CheckRef& ref, int) { plan_collections(p, ev, ref.id); }

}  // namespace geo_checks

using namespace geo_checks;

namespace {

// Calls stop(text) for each key and string value of v (its own text: no $ref
// followed) until it returns true. What searching v's JSON text found,
// without writing the text: a needle without a quote or a backslash stands in
// the JSON text within one key or string, as it stands in the value. open is
// the walk's room, kept from one call to the next.
template <class Stop>
void each_text(const oas::Value& v, std::vector<const oas::Value*>& open, Stop&& stop) {
  open.assign(1, &v);
  while (!open.empty()) {
    const oas::Value* n = open.back();
    open.pop_back();
    if (n->IsString()) {
      if (stop(oas::str(*n))) return;
    } else if (n->IsObject()) {
      for (const auto& m : n->GetObject()) {
        if (stop(oas::key_of(m))) return;
        open.push_back(&m.value);
      }
    } else if (n->IsArray()) {
      for (const auto& e : n->GetArray()) open.push_back(&e);
    }
  }
}

// "Content-Crs" (or lower case) quoted in the JSON text: the whole key or
// string, or the end of one after a quote (written \" in the text).
bool names_content_crs(std::string_view s) {
  for (std::string_view name : {"Content-Crs", "content-crs"})
    if (s == name || (s.size() > name.size() && s.ends_with(name) && s[s.size() - name.size() - 1] == '"')) return true;
  return false;
}

// A bbox, crs or bbox-crs query parameter or a Content-Crs header parameter
// (oas::may_have_parameter: most operations have none of them).
bool names_geo_parameter(std::string_view name, std::string_view in) {
  return (in == "query" && (name == "bbox" || name == "crs" || name == "bbox-crs")) ||
         (in == "header" && iequals(name, "Content-Crs"));
}

}  // namespace

std::optional<engine::JudgedModule> detect_geo(const Evidence& ev) {
  const oas::Value* paths = ev.doc_paths();
  if (!paths) return std::nullopt;
  Walker w(*ev.document.docs);
  bool geo_json = false;
  const std::vector<oas::Operation>& ops = oas::all_operations(*ev.document.docs);
  // What each operation's own text names, both read in one walk of it.
  std::vector<bool> with_geo_json(ops.size()), with_content_crs(ops.size());
  std::vector<const oas::Value*> open;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (!ops[i].op.value) continue;
    bool json = false, crs = false;
    each_text(*ops[i].op.value, open, [&](std::string_view s) {
      json = json || s.find("application/geo+json") != s.npos;
      crs = crs || names_content_crs(s);
      return json && crs;
    });
    with_geo_json[i] = json;
    with_content_crs[i] = crs;
    geo_json = geo_json || json;
  }
  // 1. OGC: /collections and /collections/<segment>/items (after the same
  // prefix, for a document that repeats its server's path in its paths).
  for (const auto& c : paths->GetObject()) {
    auto prefix = collections_prefix(oas::key_of(c));
    if (!prefix) continue;
    for (const auto& other : paths->GetObject()) {
      std::string_view p = oas::key_of(other);
      if (!p.starts_with(*prefix + "/collections/") || !is_items_path(p) ||
          std::count(p.begin() + static_cast<long>(prefix->size()), p.end(), '/') != 3)
        continue;
      return engine::JudgedModule{"geo",
                                  fmt::format("judged: {} and {} in the document{}", shown_path(oas::key_of(c)), shown_path(p),
                                              geo_json ? " and application/geo+json" : ""),
                                  "ogc"};
    }
  }
  // 2. Administrative: geometry in a GET response, a bbox/crs/bbox-crs query
  // parameter, a Content-Crs header, or application/geo+json.
  const auto& geo = geo_paths(ev);
  if (!geo.empty())
    return engine::JudgedModule{"geo", fmt::format("judged: GeoJSON geometry in the response of GET {}", shown_path(geo.front().path)),
                                "administrative"};
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const oas::Operation& op = ops[i];
    for (const auto& p : oas::may_have_parameter(*ev.document.docs, op, names_geo_parameter) ? oas::effective_parameters(w, op)
                                                                                             : std::vector<oas::Parameter>{}) {
      if (names_geo_parameter(p.name, p.in))
        return engine::JudgedModule{"geo", fmt::format("judged: {} {} parameter of {} {}", escape_control(p.name), p.in,
                                                       op.upper_method(), shown_path(op.path)),
                                    "administrative"};
    }
    if (with_content_crs[i])
      return engine::JudgedModule{"geo", fmt::format("judged: Content-Crs header of {} {}", op.upper_method(), shown_path(op.path)),
                                  "administrative"};
    if (with_geo_json[i])
      return engine::JudgedModule{"geo", fmt::format("judged: application/geo+json in {} {}", op.upper_method(), shown_path(op.path)),
                                  "administrative"};
  }
  return std::nullopt;
}

std::vector<std::string> geometric_context_hints(const Evidence& ev) {
  std::vector<std::string> out;
  if (!ev.document.docs) return out;
  Walker w(*ev.document.docs);
  for (const auto& op : oas::operations(w)) {
    std::string lower = to_lower(op.path);
    if (lower.find("_zoek") == std::string::npos && lower.find("search") == std::string::npos) continue;
    Node schema = w.deref(response_schema(w, op.op));
    // Members: the array itself, or the first array member of the object.
    Node items;
    if (schema.is_object()) {
      items = w.member(schema, "items");
      Node props = w.member(schema, "properties");
      if (!items && props.is_object())
        for (auto it = props.value->MemberBegin(); it != props.value->MemberEnd() && !items; ++it) {
          Node p = w.deref(w.entry(props, *it));
          if (p.is_object()) items = w.member(p, "items");
        }
    }
    if (!items.is_object()) continue;
    for (const char* k : {"oneOf", "anyOf"}) {
      Node alts = w.member(items, k);
      if (alts.is_array() && alts.value->Size() > 1) {
        out.push_back(fmt::format("{} {} returns members of {} types: say in each result which geometry it is (its geometric context)",
                                  op.upper_method(), shown_path(op.path), alts.value->Size()));
        break;
      }
    }
    if (out.size() >= 10) break;
  }
  return out;
}

}  // namespace adrprobe::checks
