// Bounding boxes as GE-8 and GE-9 use them (module-geo.md): the envelope of
// a geometry, intersection with a tolerance, the central quarter of an
// extent, and the axis swap of a bbox in EPSG:4258 (latitude first).
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace adrprobe::geo {

// min_x/max_x: the first axis of the positions (longitude in CRS84).
struct Envelope {
  double min_x = 0, min_y = 0, max_x = 0, max_y = 0;
  bool empty = true;
  void add(double x, double y);
  void add(const Envelope& other);
};

// Whether a and b share a point, each widened by tolerance.
bool intersects(const Envelope& a, const Envelope& b, double tolerance = 1e-9);
// Whether a lies wholly inside b shrunk by margin on every side: not near any of b's edges.
bool well_inside(const Envelope& a, const Envelope& b, double margin);
// Whether a lies wholly outside b widened by margin.
bool well_outside(const Envelope& a, const Envelope& b, double margin);
// The central quarter: half the width and half the height, same centre.
Envelope central_quarter(const Envelope& b);
// The same box with its axes swapped (lon/lat → lat/lon).
Envelope swap_axes(const Envelope& b);
// "minx,miny,maxx,maxy" as a bbox query value (at most 9 decimals).
std::string bbox_value(const Envelope& b);
// An OGC extent.spatial.bbox[0] entry: 4 numbers (2D) or 6 (3D: minx, miny,
// minz, maxx, maxy, maxz), finite, min <= max; nullopt otherwise.
std::optional<Envelope> envelope_of_bbox(const double* values, std::size_t count);

}  // namespace adrprobe::geo
