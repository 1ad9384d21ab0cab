// GeoJSON (RFC 7946 section 3) as the Geospatial module judges it
// (module-geo.md, "Valid GeoJSON"): types, the nesting of coordinates each
// type requires, 2 or 3 numbers a position, at least 2 positions a
// LineString, rings of at least 4 positions closed, GeometryCollection's
// geometries, Feature and FeatureCollection members, and in CRS84 longitudes
// in [-180, 180] and latitudes in [-90, 90]. Winding order and the
// antimeridian are not judged.
//
// One pass over the text, no tree: a response of tens of MB is read at the
// speed of its bytes in memory that does not grow with it (a fixed stack of
// at most max_depth frames, plus the features' ids and envelopes kept), and
// no recursion, so 10^5 nested brackets end in a fault, not a stack
// overflow. The JSON grammar is checked as strictly as the document parser
// (RFC 8259, UTF-8), so a text this accepts is JSON.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "geo/bbox.hpp"

namespace adrprobe::geo {

enum class Expect { feature_collection, feature, geometry };

struct ValidateOptions {
  bool crs84 = true;                // positions in CRS84: lon/lat ranges judged
  std::size_t max_depth = 256;      // nesting of arrays and objects (the document parser's)
  std::size_t kept_features = 100000;  // ids and envelopes kept (10^6 features: the first ones)
};

// The first fault: where (a JSON pointer, "" for the whole text) and what.
// `what` quotes server text only cut short and with control characters
// escaped (escape_control), so it may go into any message.
struct Fault {
  std::string pointer;
  std::string what;
  bool syntax = false;  // not JSON at all (the rest of the text was not read)
};

struct FeatureFacts {
  std::string id;        // as written (a number's text), at most 200 bytes; "" when none
  Envelope envelope;     // of its geometry's positions (first two axes); empty for null geometry
};

struct Validation {
  std::optional<Fault> fault;
  std::size_t features = 0;            // Features read (a FeatureCollection's, or 1)
  std::vector<FeatureFacts> kept;      // the first kept_features of them
  Envelope envelope;                   // of every position read (first two axes)
  bool valid() const { return !fault; }
};

Validation validate_geojson(std::string_view text, Expect expect, const ValidateOptions& options = {});

// "Point", ... "MultiPolygon": how deep the positions stand in coordinates
// (Point 0, LineString 1, ...); -1 for GeometryCollection and unknown names.
int position_depth(std::string_view type);
bool is_geometry_type(std::string_view type);

}  // namespace adrprobe::geo
