// The Geospatial module (probes/module-geo-1.0.yaml, module-geo.md): its
// detector, and what the checks GE-1..GE-15 (geo_crs.cpp, geo_bbox.cpp,
// geo_geojson.cpp) share: the requests they plan and judge by the same spec
// functions, and what they read of the answers.
//
// Requests come in rounds: phase 2 sends what the document names
// (/collections, /conformance, /crss when documented); follow-up round 3
// whatever needs the module's shape (the administrative paths with geometry,
// /crss undocumented), round 4 each collection and its first page of items,
// round 5 one feature and the CRS, bbox and filter requests on the first
// collection with features. Every round plans everything the evidence so far
// allows; the planner sends each request once.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "checks/findings.hpp"
#include "checks/registry.hpp"
#include "geo/bbox.hpp"
#include "geo/crs.hpp"
#include "geo/geojson.hpp"
#include "oas/json.hpp"

namespace adrprobe::checks {

// Whether the document shows geospatial content (module-geo.md, "When the
// module is judged"): the OGC shape first, then the administrative one, with
// why ("/collections and /collections/{collectionId}/items in the document").
std::optional<engine::JudgedModule> detect_geo(const Evidence& ev);

// /geo/geometric-context (functional): documented search operations whose
// results mix types of resource.
std::vector<std::string> geometric_context_hints(const Evidence& ev);

namespace geo_checks {

// At most this many collections are probed (module-geo.md: the first 10).
inline constexpr std::size_t kCollections = 10;
// At most this many CRSs of the supported list are asked for (GE-5).
inline constexpr std::size_t kCrsAsked = 5;

// "ogc", "administrative", or "" (module not judged, or forced on an API
// showing none).
std::string shape(const Evidence& ev);
// skip "OGC API Features only" / "administrative APIs only", or the module's
// own skip, when the check does not apply to this shape; nullopt when it does.
std::optional<CheckResult> not_for(const Evidence& ev, const CheckRef& ref, std::string_view wanted);

// ---- requests (GET, the user's headers, read up to the document size limit)
RequestSpec get_json(const std::string& url, std::string_view accept);
RequestSpec collections_spec(const engine::Settings& s);
RequestSpec conformance_spec(const engine::Settings& s);
RequestSpec crss_spec(const engine::Settings& s);
RequestSpec collection_spec(const engine::Settings& s, const std::string& id);
RequestSpec queryables_spec(const engine::Settings& s, const std::string& id);
// {base}/collections/{id}/items
std::string items_url(const engine::Settings& s, const std::string& id);
RequestSpec feature_spec(const engine::Settings& s, const std::string& id, const std::string& feature_id);

// A JSON body within the document limits, or why there is none.
struct JsonBody {
  const http::Exchange* exchange = nullptr;  // the last of the request's chain; nullptr: not sent
  std::optional<oas::json> value;            // when the answer was 200 with a JSON body
  std::string problem;                       // else why: "GET /collections → 404", "not JSON: ..."
  bool invalid_utf8 = false;                 // read with invalid UTF-8 replaced (lenient_utf8)
};
// lenient_utf8: a body that is no UTF-8 is read with each invalid sequence
// replaced by U+FFFD (and says so), so a CRS list's entries can be named.
JsonBody json_body(const Evidence& ev, const RequestSpec& spec, bool lenient_utf8 = false);
// An answer's object[key] when it is a string, else nullptr (oas::string_member
// reads the description document).
const std::string* answer_string(const oas::json* object, const char* key);

// A request not sent (error) or without an answer (its transport error) as a finding; true when so.
bool unanswered(Findings& f, const Evidence& ev, const RequestSpec& spec);
// "GET /v1/collections/a/items?limit=10" for messages (path and query, server text escaped).
std::string request_text(const http::Exchange& e);
// A server value cut short with control characters escaped, in quotes.
std::string shown(std::string_view s);

// Where geospatial resources are: a collection of features (OGC) or a
// documented path whose resources embed geometry (administrative).
struct GeoCollection {
  std::string name;           // the collection's id, or the documented path
  std::string url;            // items (OGC), or the path's URL (administrative)
  bool ogc = true;
  bool documents_bbox = true;  // administrative: a bbox query parameter is documented
  // Where the geometry of each resource stands in a response (administrative):
  // member names from the root, "[]" for each element of an array.
  std::vector<std::vector<std::string>> places;
  std::vector<bool> nullable;  // per place: the schema allows null
  bool is_collection = true;   // administrative: an array of resources, or an object holding one
  // The supported CRS list (its own crs, "#/crs" standing for the global
  // list, else the global list); listed: whether the API gives one at all.
  geo::CrsList crs;
  bool listed = false;
  std::optional<geo::Envelope> extent;  // OGC extent.spatial.bbox[0]
};

// Everything the evidence says so far: the collections probed, their
// supported lists, and which one has features (the one GE-5, GE-8, GE-9 and
// GE-10 ask). Made by each judge and planner from the evidence (cheap: the
// big responses are read by the streaming validator).
struct View {
  std::string shape;
  JsonBody collections;          // OGC: /collections; administrative: /crss
  geo::CrsList global;           // its crs array
  bool global_listed = false;    // it has one
  std::vector<GeoCollection> probed;  // OGC: the first 10 collections; administrative: the paths with geometry
  std::size_t collections_total = 0;  // OGC: collections listed
  std::vector<std::string> left_out;  // OGC: the ids of the collections after the first 10 (at most 1,000)
  std::string left_out_last;          // and the last of them
  // "40 more collections not probed (the first 10 are)", "" when none; and the
  // detail line naming them (and the note at the end of a finding's message),
  // for the checks that probe each collection.
  std::string left_out_note() const;
  void name_left_out(CheckResult& r) const;
  int first_with_features = -1;       // index into probed, -1 when none (yet)
  geo::Validation first_page;         // its default response, validated (OGC) or read (administrative)
  bool any_list() const;              // a supported list exists somewhere
  const GeoCollection* subject() const {
    return first_with_features < 0 ? nullptr : &probed[static_cast<std::size_t>(first_with_features)];
  }
};
View view(const Evidence& ev);

// The default (no crs) geospatial request of a collection: items?limit=10 (OGC, geo+json) or the path (administrative, json).
RequestSpec default_spec(const engine::Settings& s, const GeoCollection& c);
// The same with more query parameters (already encoded: "crs=http%3A...").
// body: false for a request judged by its status and headers alone (the CRS
// requests, the ones expecting 400), read as a probe (8 KiB kept), so a
// hostile server's large answers are kept only where a body is judged.
RequestSpec query_spec(const engine::Settings& s, const GeoCollection& c, const std::string& query, bool body = true);
// crs=<uri> for a query.
std::string crs_query(std::string_view uri);

// The CRSs GE-5 asks for, in order: CRS84 first, then ETRS89 and RD when
// listed, then the others, at most kCrsAsked; CRS84 alone without a list.
std::vector<std::string> crs_asked(const View& v);
// The features of an answer: validated as GeoJSON (OGC) or the members of an
// administrative collection with their embedded geometry.
geo::Validation features_of(const GeoCollection& c, const http::Exchange& e);
// GE-8's box: the central quarter of the extent, else of the first page's envelope.
std::optional<geo::Envelope> box(const View& v);
inline const geo::Envelope kBeyondLatitudes{0, 91, 1, 92, false};
// GE-9: the first CRS of the subject's list other than CRS84, "" when none.
std::string other_crs(const View& v);

// ---- planning, shared by the checks
// Phase 2: what the document names (/collections, /conformance, /crss).
void plan_documented(Planner& p, const PlanInput& in, std::string_view by);
// Follow-up rounds: the CRS list's resource (/collections or /crss), each
// collection (OGC) and the default request of each collection or path.
void plan_collections(Planner& p, const Evidence& ev, std::string_view by);
// Both, as a check's plan_run / plan_followup.
void plan_run_documented(Planner& p, const PlanInput& in, const CheckRef& ref);
void plan_followup_collections(Planner& p, const Evidence& ev, const CheckRef& ref, int round);

// A geospatial request and the CRS it asks for ("" when none): GE-4 judges
// the Content-Crs of every 200 among them.
struct CrsRequested {
  RequestSpec spec;
  std::string crs;
};
// GE-5's: crs=<uri> for each CRS asked, then the unregistered CRS last (geo_crs.cpp).
std::vector<CrsRequested> ge5_requests(const Evidence& ev, const View& v);
// GE-8's and GE-9's bbox requests (geo_bbox.cpp).
std::vector<CrsRequested> bbox_requests(const Evidence& ev, const View& v);

// The paths of the document whose GET returns geometry (administrative), with their places.
struct GeoPath {
  std::string path;  // template path
  std::vector<std::vector<std::string>> places;
  std::vector<bool> nullable;
  bool is_collection = false;
  bool documents_bbox = false;
};
const std::vector<GeoPath>& geo_paths(const Evidence& ev);

// OGC API Features paths as a document writes them, after any prefix it
// repeats from its server URL (QGIS Server documents /wfs3/collections with
// server http://host/wfs3/): the prefix before "/collections" when the path is
// <prefix>/collections, else nullopt.
std::optional<std::string> collections_prefix(std::string_view path);
// <prefix>/collections/<segment>/items (and with /{featureId} after it: feature).
bool is_items_path(std::string_view path, bool feature = false);

// Static reading of the document (GE-13..15, lint).
// Whether a schema (a Walker node, after $ref) is a GeoJSON geometry schema.
bool is_geometry_schema(const oas::Walker& w, const oas::Node& schema);
// The part of is_geometry_schema that reads no more than schema's own $ref: its name.
bool is_geometry_ref(const oas::Node& schema);

}  // namespace geo_checks
}  // namespace adrprobe::checks
