#include "util/semver.hpp"

#include <regex>
#include <stdexcept>

namespace adrprobe {

bool is_semver(const std::string& text, SemverGrammar grammar) {
  // The regular expressions of semver.org, section "Is there a suggested regular expression".
  static const std::regex core(R"(^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$)");
  static const std::regex full(
      R"(^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*))"
      R"((?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?)"
      R"((?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$)");
  if (text.size() > 256) return false;
  return std::regex_match(text, grammar == SemverGrammar::core ? core : full);
}

std::optional<long> leading_major(const std::string& version) {
  std::size_t n = 0;
  while (n < version.size() && n < 18 && version[n] >= '0' && version[n] <= '9') ++n;
  if (n == 0) return std::nullopt;
  return std::stol(version.substr(0, n));
}

SemverGrammar parse_semver_grammar(const std::string& name) {
  if (name == "core") return SemverGrammar::core;
  if (name == "full") return SemverGrammar::full;
  throw std::runtime_error("unknown semver grammar '" + name + "' (expected core or full)");
}

}  // namespace adrprobe
