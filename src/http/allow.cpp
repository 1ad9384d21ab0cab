#include "http/allow.hpp"

#include "util/strings.hpp"

namespace adrprobe::http {

std::set<std::string> parse_allow(const std::string& value) {
  std::set<std::string> out;
  for (const auto& token : split(value, ',')) {
    auto t = trim(token);
    if (!t.empty()) out.insert(to_upper(t));
  }
  return out;
}

}  // namespace adrprobe::http
