// Semantic Versioning checks as the editions of the design rules read them.
#pragma once
#include <optional>
#include <string>

namespace adrprobe {

enum class SemverGrammar {
  core,  // edition 1.0: MAJOR.MINOR.PATCH only
  full,  // edition 2.0.0 and later: SemVer 2.0.0 (pre-release and build allowed)
};

bool is_semver(const std::string& text, SemverGrammar grammar);
// Leading digits of a version ("1.4" -> 1, "v1" -> nullopt).
std::optional<long> leading_major(const std::string& version);
SemverGrammar parse_semver_grammar(const std::string& name);  // "core" | "full"

}  // namespace adrprobe
