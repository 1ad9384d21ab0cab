// util/semver: the version strings of info.version and API-Version headers.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "fuzz.hpp"
#include "util/semver.hpp"

using namespace adrprobe;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(fuzz::as_text(data, size));
  bool core = is_semver(text, SemverGrammar::core);
  bool full = is_semver(text, SemverGrammar::full);
  // MAJOR.MINOR.PATCH is a SemVer 2.0.0 version too.
  FUZZ_ASSERT(!core || full);
  auto major = leading_major(text);
  if (major) {
    FUZZ_ASSERT(*major >= 0);
    FUZZ_ASSERT(!text.empty() && text[0] >= '0' && text[0] <= '9');
  }
  // A version starts with its major number.
  if (full) FUZZ_ASSERT(major.has_value());
  try {
    (void)parse_semver_grammar(text);
    FUZZ_ASSERT(text == "core" || text == "full");
  } catch (const std::runtime_error&) {
    FUZZ_ASSERT(text != "core" && text != "full");
  }
  return 0;
}
