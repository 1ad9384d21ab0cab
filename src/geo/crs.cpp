#include "geo/crs.hpp"

#include <cctype>
#include <charconv>

#include "util/strings.hpp"

namespace adrprobe::geo {
namespace {

std::string_view without_brackets(std::string_view s) {
  s = trim_view(s);
  if (s.size() >= 2 && s.front() == '<' && s.back() == '>') s = trim_view(s.substr(1, s.size() - 2));
  return s;
}

// "http://" or "https://" in any case: its length, else 0.
std::size_t scheme_length(std::string_view s) {
  if (starts_with_ci(s, "http://")) return 7;
  if (starts_with_ci(s, "https://")) return 8;
  return 0;
}

}  // namespace

std::string crs_key(std::string_view name) {
  std::string_view s = without_brackets(name);
  std::size_t scheme = scheme_length(s);
  if (!scheme) return std::string(s);
  s.remove_prefix(scheme);
  // The host is case-insensitive; the path is compared as written.
  std::size_t slash = s.find('/');
  std::string key = to_lower(s.substr(0, slash));
  if (slash == std::string_view::npos) return key;
  std::vector<std::string> segments = split(s.substr(slash + 1), '/');
  // opengis.net/def/crs/<authority>/<version>/<code>: the version goes.
  bool register_uri = segments.size() == 5 && segments[0] == "def" && segments[1] == "crs";
  for (std::size_t i = 0; i < segments.size(); ++i)
    if (!(register_uri && i == 3)) key += "/" + segments[i];
  return key;
}

bool same_crs(std::string_view a, std::string_view b) { return crs_key(a) == crs_key(b); }

bool is_crs84(std::string_view name) { return same_crs(name, kCrs84) || same_crs(name, kCrs84h); }

long epsg_code(std::string_view name) {
  std::string key = crs_key(name);
  constexpr std::string_view prefix = "www.opengis.net/def/crs/EPSG/";
  if (key.rfind(prefix, 0) != 0) return 0;
  std::string_view code = std::string_view(key).substr(prefix.size());
  long out = 0;
  auto [end, ec] = std::from_chars(code.data(), code.data() + code.size(), out);
  return ec == std::errc{} && end == code.data() + code.size() && out > 0 ? out : 0;
}

bool is_http_uri(std::string_view s) {
  std::size_t scheme = scheme_length(s);
  if (!scheme || s.size() == scheme || s[scheme] == '/') return false;
  for (unsigned char c : s)
    if (c <= 0x20 || c >= 0x7f || c == '<' || c == '>' || c == '"') return false;
  return true;
}

bool CrsList::contains(std::string_view name) const {
  for (const auto& e : entries)
    if (same_crs(e, name)) return true;
  return false;
}

CrsList read_crs_list(const nlohmann::ordered_json& array) {
  CrsList out;
  if (!array.is_array()) return out;
  out.total = array.size();
  std::size_t i = 0;
  for (const auto& v : array) {
    bool good = v.is_string() && is_http_uri(v.get_ref<const std::string&>());
    // "#/crs" stands for the global list (OGC part 2): no URI, not a fault.
    if (v.is_string() && v.get_ref<const std::string&>() == "#/crs") good = true;
    if (!good) {
      ++out.bad_count;
      if (out.bad.size() < CrsList::kShownBad) {
        // At most 200 bytes of the value: a 1 MB entry is not copied whole.
        std::string text = v.is_string() ? truncate_utf8(v.get_ref<const std::string&>(), 200)
                                         : truncate_utf8(v.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace), 200);
        out.bad.emplace_back(i, text);
      }
      if (!out.has_bad()) out.first_bad = i, out.bad_text = out.bad.front().second;
    }
    if (v.is_string() && out.entries.size() < CrsList::kKeptEntries) out.entries.push_back(v.get_ref<const std::string&>());
    ++i;
  }
  return out;
}

std::string content_crs_name(std::string_view header) { return std::string(without_brackets(header)); }

}  // namespace adrprobe::geo
