// geo/geojson and geo/crs: the GeoJSON validator and the CRS list reader on
// server text. Input: the first byte picks what the text is expected to be
// (a FeatureCollection, a Feature, a geometry; CRS84 or not); the rest is a
// response body.
#include <cstdint>
#include <string>

#include "fuzz.hpp"
#include "geo/crs.hpp"
#include "geo/geojson.hpp"
#include "oas/parse.hpp"
#include "util/strings.hpp"

using namespace adrprobe;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text = fuzz::as_text(data + 1, size - 1);
  geo::ValidateOptions options;
  options.crs84 = data[0] & 4;
  options.kept_features = 16;
  auto expect = static_cast<geo::Expect>(data[0] % 3);
  geo::Validation v = geo::validate_geojson(text, expect, options);
  FUZZ_ASSERT(v.kept.size() <= v.features && v.kept.size() <= 16);
  if (v.fault) {
    // A fault's text goes into messages as it is: valid UTF-8, no control character, bounded.
    FUZZ_ASSERT(is_valid_utf8(v.fault->what) && is_valid_utf8(v.fault->pointer));
    FUZZ_ASSERT(escape_control(v.fault->pointer) == v.fault->pointer);
    FUZZ_ASSERT(v.fault->pointer.size() <= 203);
  }
  for (const auto& f : v.kept) FUZZ_ASSERT(f.id.size() <= 203 && is_valid_utf8(f.id));

  // What the document parser reads as JSON, the validator reads too (its
  // grammar is RFC 8259's, as strict; the parser refuses 1e999 besides, which
  // the validator reads as a number and calls not finite where it judges it).
  // (A NUL byte ends nlohmann's input early: no comparison then.)
  auto parsed = oas::parse_json(text);
  if (parsed.ok && text.find('\0') == std::string_view::npos) FUZZ_ASSERT(!v.fault || !v.fault->syntax);
  if (!parsed.ok) return 0;

  // The CRS list reader on any array, and the names it keeps.
  const oas::json* array = &parsed.value;
  if (parsed.value.is_object())
    if (auto it = parsed.value.find("crs"); it != parsed.value.end()) array = &*it;
  geo::CrsList list = geo::read_crs_list(*array);
  FUZZ_ASSERT(list.entries.size() <= geo::CrsList::kKeptEntries && list.entries.size() <= list.total);
  FUZZ_ASSERT(list.bad.size() <= geo::CrsList::kShownBad && list.bad.size() <= list.bad_count);
  for (const auto& e : list.entries) {
    FUZZ_ASSERT(geo::same_crs(e, e));
    FUZZ_ASSERT(geo::same_crs(geo::crs_key(e), e) || !geo::is_http_uri(e));
    (void)geo::epsg_code(e);
    (void)geo::content_crs_name("<" + e + ">");
  }
  return 0;
}
