// geo/bbox: the boxes of GE-8 and GE-9 (the central quarter of an extent,
// intersection with a tolerance, the axis swap of EPSG:4258) and the margins
// GE-9 compares feature sets with.
#include <doctest/doctest.h>

#include "geo/bbox.hpp"

using namespace adrprobe::geo;

TEST_CASE("boxes: the central quarter, intersection with a tolerance, the axis swap") {
  double extent[] = {4, 52, 6, 53};
  auto e = envelope_of_bbox(extent, 4);
  REQUIRE(e);
  Envelope q = central_quarter(*e);
  CHECK(bbox_value(q) == "4.5,52.25,5.5,52.75");
  CHECK(bbox_value(swap_axes(q)) == "52.25,4.5,52.75,5.5");
  double three_d[] = {4, 52, -10, 6, 53, 100};
  CHECK(bbox_value(*envelope_of_bbox(three_d, 6)) == "4,52,6,53");
  CHECK(bbox_value({5.2650749999999995, -0.0000000001, 1e-12, 52.123456789}) == "5.265075,0,0,52.123456789");
  double reversed[] = {6, 52, 4, 53};
  CHECK_FALSE(envelope_of_bbox(reversed, 4));
  CHECK_FALSE(envelope_of_bbox(extent, 3));
  Envelope point;
  point.add(5.5 + 1e-10, 52.5);
  CHECK(intersects(point, q));
  Envelope outside;
  outside.add(5.6, 52.5);
  CHECK_FALSE(intersects(outside, q));
  CHECK(well_outside(outside, q, 1e-4));
  CHECK_FALSE(intersects(Envelope{}, q));
}

TEST_CASE("boxes: well inside and well outside keep a margin from the edges; an empty box is neither") {
  Envelope b{4, 52, 6, 53, false};
  CHECK(well_inside({4.5, 52.5, 5, 52.6, false}, b, 1e-4));
  CHECK_FALSE(well_inside({4.00001, 52.5, 5, 52.6, false}, b, 1e-4));  // within the margin of the west edge
  CHECK(well_outside({7, 52, 8, 53, false}, b, 1e-4));
  CHECK_FALSE(well_outside({6.00001, 52, 8, 53, false}, b, 1e-4));  // touches within the margin
  CHECK_FALSE(well_inside(Envelope{}, b, 1e-4));
  CHECK_FALSE(well_outside(Envelope{}, b, 1e-4));
  CHECK_FALSE(intersects(Envelope{}, b));
  Envelope grown;
  grown.add(5, 52.5);
  grown.add(Envelope{4, 52, 4.5, 52.2, false});
  CHECK(bbox_value(grown) == "4,52,5,52.5");
}
