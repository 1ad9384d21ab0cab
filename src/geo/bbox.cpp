#include "geo/bbox.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace adrprobe::geo {

void Envelope::add(double x, double y) {
  if (empty) {
    min_x = max_x = x;
    min_y = max_y = y;
    empty = false;
    return;
  }
  min_x = std::min(min_x, x), max_x = std::max(max_x, x);
  min_y = std::min(min_y, y), max_y = std::max(max_y, y);
}

void Envelope::add(const Envelope& other) {
  if (other.empty) return;
  add(other.min_x, other.min_y);
  add(other.max_x, other.max_y);
}

bool intersects(const Envelope& a, const Envelope& b, double tolerance) {
  if (a.empty || b.empty) return false;
  return a.min_x <= b.max_x + tolerance && b.min_x <= a.max_x + tolerance && a.min_y <= b.max_y + tolerance &&
         b.min_y <= a.max_y + tolerance;
}

bool well_inside(const Envelope& a, const Envelope& b, double margin) {
  if (a.empty || b.empty) return false;
  return a.min_x > b.min_x + margin && a.max_x < b.max_x - margin && a.min_y > b.min_y + margin &&
         a.max_y < b.max_y - margin;
}

bool well_outside(const Envelope& a, const Envelope& b, double margin) {
  if (a.empty || b.empty) return false;
  return a.max_x < b.min_x - margin || a.min_x > b.max_x + margin || a.max_y < b.min_y - margin ||
         a.min_y > b.max_y + margin;
}

Envelope central_quarter(const Envelope& b) {
  if (b.empty) return b;
  double w = (b.max_x - b.min_x) / 4, h = (b.max_y - b.min_y) / 4;
  return {b.min_x + w, b.min_y + h, b.max_x - w, b.max_y - h, false};
}

Envelope swap_axes(const Envelope& b) { return {b.min_y, b.min_x, b.max_y, b.max_x, b.empty}; }

namespace {
// At most 9 decimals (a millimetre in degrees), trailing zeros dropped: the
// box's edges move by at most 5e-10, within GE-8's tolerance of 1e-9.
std::string decimal(double v) {
  std::string s = fmt::format("{:.9f}", v);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}
}  // namespace

std::string bbox_value(const Envelope& b) {
  return fmt::format("{},{},{},{}", decimal(b.min_x), decimal(b.min_y), decimal(b.max_x), decimal(b.max_y));
}

std::optional<Envelope> envelope_of_bbox(const double* v, std::size_t count) {
  if (count != 4 && count != 6) return std::nullopt;
  for (std::size_t i = 0; i < count; ++i)
    if (!std::isfinite(v[i])) return std::nullopt;
  std::size_t half = count / 2;
  Envelope e{v[0], v[1], v[half], v[half + 1], false};
  if (e.min_x > e.max_x || e.min_y > e.max_y) return std::nullopt;
  return e;
}

}  // namespace adrprobe::geo
