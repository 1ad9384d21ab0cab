// util/semver: Semantic Versioning grammars.
#include <doctest/doctest.h>

#include "util/semver.hpp"

using namespace adrprobe;

TEST_CASE("semver: edition 1.0 accepts MAJOR.MINOR.PATCH only") {
  CHECK(is_semver("1.0.0", SemverGrammar::core));
  CHECK(is_semver("10.20.30", SemverGrammar::core));
  CHECK_FALSE(is_semver("1.0.0-rc.1", SemverGrammar::core));
  CHECK_FALSE(is_semver("1.0.0+build.5", SemverGrammar::core));
  CHECK_FALSE(is_semver("v1.2.3", SemverGrammar::core));
  CHECK_FALSE(is_semver("1.2", SemverGrammar::core));
  CHECK_FALSE(is_semver("01.2.3", SemverGrammar::core));
  CHECK_FALSE(is_semver("", SemverGrammar::core));
}

TEST_CASE("semver: edition 2.0.0 accepts the full SemVer 2.0.0 grammar") {
  CHECK(is_semver("1.0.0", SemverGrammar::full));
  CHECK(is_semver("1.0.0-rc.1", SemverGrammar::full));
  CHECK(is_semver("1.0.0-alpha.beta+exp.sha.5114f85", SemverGrammar::full));
  CHECK_FALSE(is_semver("v1.2.3", SemverGrammar::full));
  CHECK_FALSE(is_semver("1.2", SemverGrammar::full));
  CHECK_FALSE(is_semver("01.2.3", SemverGrammar::full));
  CHECK_FALSE(is_semver("1.0.0-01", SemverGrammar::full));  // numeric pre-release ids have no leading zero
  CHECK_FALSE(is_semver("1.0.0-", SemverGrammar::full));
}

TEST_CASE("semver: leading major") {
  CHECK(leading_major("1.4") == 1);
  CHECK(leading_major("12.0.0") == 12);
  CHECK_FALSE(leading_major("v1").has_value());
  CHECK_FALSE(leading_major("").has_value());
}
