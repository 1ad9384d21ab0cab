// CRS names as the Geospatial module compares them (module-geo.md,
// "Requests"): a CRS is named by its URI; two names are the same CRS when
// they differ only in the angle brackets of a Content-Crs header, the
// http/https scheme, or the version segment of an authority's URI
// (EPSG/0/28992 and EPSG/9.6.2/28992). Pure functions on server text.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace adrprobe::geo {

inline constexpr std::string_view kCrs84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84";
inline constexpr std::string_view kCrs84h = "http://www.opengis.net/def/crs/OGC/0/CRS84h";
// No register has it: GE-5, GE-9 and GE-10 ask for it and expect 400.
inline constexpr std::string_view kUnregistered = "http://www.opengis.net/def/crs/EPSG/0/999999";
inline constexpr std::string_view kEtrs89 = "http://www.opengis.net/def/crs/EPSG/0/4258";

// What a name is compared by: without <...>, scheme and version segment
// ("opengis.net/def/crs/EPSG/28992" for any spelling of EPSG 28992). Names
// that are no http(s) URI keep their text (trimmed, brackets dropped).
std::string crs_key(std::string_view name);
bool same_crs(std::string_view a, std::string_view b);
// CRS84 or CRS84h.
bool is_crs84(std::string_view name);
// The EPSG code of an opengis.net EPSG URI ("…/EPSG/0/28992" → 28992), else 0.
long epsg_code(std::string_view name);
// An absolute http(s) URI with a host: ASCII (RFC 3986), no white space or control byte.
bool is_http_uri(std::string_view s);

// A crs array as a server gives it (OGC part 2 /collections, or /crss of an
// administrative API), read within bounds: a crs list of 10^6 entries costs
// the first kKeptEntries strings, the rest are counted.
struct CrsList {
  static constexpr std::size_t kKeptEntries = 1000;
  std::vector<std::string> entries;  // the first kKeptEntries, as written (strings only)
  std::size_t total = 0;             // entries in the array
  // The first entry that is no http(s) URI (a string that is not, or no
  // string at all): its index and the value as text; npos when none.
  std::size_t first_bad = static_cast<std::size_t>(-1);
  std::string bad_text;
  // The first kShownBad of them (index, value as text): a message names each.
  static constexpr std::size_t kShownBad = 3;
  std::vector<std::pair<std::size_t, std::string>> bad;
  std::size_t bad_count = 0;
  bool has_bad() const { return first_bad != static_cast<std::size_t>(-1); }
  // Whether a name is in the list (same_crs), among the entries kept.
  bool contains(std::string_view name) const;
};
// The array's entries; "#/crs" (OGC part 2: the global list) is an entry
// like any other here, the caller expands it.
CrsList read_crs_list(const nlohmann::ordered_json& array);

// The Content-Crs header value as a CRS name: trimmed, one pair of angle
// brackets dropped ("<http://…/CRS84>" → "http://…/CRS84").
std::string content_crs_name(std::string_view header);

}  // namespace adrprobe::geo
