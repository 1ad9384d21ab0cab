// Small string helpers shared by every layer.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace adrprobe {

std::string to_lower(std::string_view s);
std::string to_upper(std::string_view s);
std::string trim(std::string_view s);
std::vector<std::string> split(std::string_view s, char sep);
bool starts_with_ci(std::string_view s, std::string_view prefix);
bool iequals(std::string_view a, std::string_view b);
// Joins items with sep; a list longer than max_items ends in ", … (+N more)".
std::string join(const std::vector<std::string>& items, std::string_view sep, std::size_t max_items = 0);
std::string percent_decode(std::string_view s);
// Percent-encodes everything outside RFC 3986 unreserved characters.
std::string percent_encode(std::string_view s);
// Replaces every occurrence of needle in s.
std::string replace_all(std::string s, std::string_view needle, std::string_view with);
// Replaces bytes that are not valid UTF-8 with '?' (server text on a terminal).
std::string sanitize_utf8(std::string_view s);
// At most max_bytes, cut at a character boundary, "..." appended when cut.
std::string truncate_utf8(std::string_view s, std::size_t max_bytes);
// "1 path" / "2 paths"
std::string plural(std::size_t n, std::string_view one, std::string_view many);

}  // namespace adrprobe
