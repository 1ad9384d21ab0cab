#include "http/media_type.hpp"

#include "util/strings.hpp"

namespace adrprobe::http {

std::string media_type(std::string_view value) { return trim(value.substr(0, value.find(';'))); }

bool is_json_media_type(std::string_view value) {
  std::string m = to_lower(media_type(value));
  return m == "application/json" || (m.rfind("application/", 0) == 0 && m.size() > 17 && m.ends_with("+json"));
}

}  // namespace adrprobe::http
