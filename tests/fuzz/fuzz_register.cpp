// batch/targets: a register (TARGETS.yaml) is parsed or refused with a
// message (std::runtime_error), never a crash, whatever its YAML (bombs, deep
// nesting, wrong types) or its bytes. Parsing is deterministic. A register
// that parses is UTF-8, its names and stems are unique and its stems are file
// names; ${VAR} survives in header values exactly as written (the
// placeholder used while YAML reads the text never leaks) and is nowhere else.
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>

#include "batch/targets.hpp"
#include "fuzz.hpp"
#include "util/strings.hpp"

using namespace adrprobe;

namespace {

std::string fields(const std::vector<batch::Target>& targets) {
  std::string out;
  for (const auto& t : targets) {
    out += std::to_string(t.index) + '\0' + t.name + '\0' + t.base_url + '\0' + t.stem + '\0';
    for (const auto& [k, v] : t.options) out += k + '=' + v + '\1';
    for (const auto& [k, v] : t.headers) out += k + '=' + v + '\2';
    for (const auto& [k, v] : t.params) out += k + '=' + v + '\3';
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(fuzz::as_text(data, size));
  // The placeholders are an exact round trip of any text.
  batch::EnvPlaceholders env(text);
  FUZZ_ASSERT(env.restore(env.protect(text)) == text);

  std::vector<batch::Target> first;
  std::string error;
  try {
    first = batch::parse_targets(text, "t.yaml");
  } catch (const std::runtime_error& e) {  // YAML::Exception is one too
    error = e.what();
    FUZZ_ASSERT(error.rfind("t.yaml", 0) == 0);  // names the file
  }
  try {
    auto again = batch::parse_targets(text, "t.yaml");
    FUZZ_ASSERT(error.empty());
    FUZZ_ASSERT(fields(again) == fields(first));
  } catch (const std::runtime_error& e) {
    FUZZ_ASSERT(error == e.what());
  }
  if (!error.empty()) return 0;

  FUZZ_ASSERT(is_valid_utf8(text));
  FUZZ_ASSERT(!first.empty());
  // (YAML's escapes could spell it: only a text without them is sure not to.)
  bool mark_possible = text.find("Zadrprobeenv") != std::string::npos || text.find('\\') != std::string::npos;
  std::set<std::string> names, stems;
  for (const auto& t : first) {
    FUZZ_ASSERT(names.insert(t.name).second);
    FUZZ_ASSERT(stems.insert(t.stem).second);
    FUZZ_ASSERT(!t.stem.empty() && t.stem.front() != '.' && t.stem.find('/') == std::string::npos);
    FUZZ_ASSERT(!t.base_url.empty());
    // ${ only where it is expanded: header values
    FUZZ_ASSERT(t.name.find("${") == std::string::npos && t.base_url.find("${") == std::string::npos);
    for (const auto& [k, v] : t.options) FUZZ_ASSERT(v.find("${") == std::string::npos);
    for (const auto& [k, v] : t.params) FUZZ_ASSERT(k.find("${") == std::string::npos && v.find("${") == std::string::npos);
    for (const auto& [k, v] : t.headers) {
      FUZZ_ASSERT(k.find("${") == std::string::npos);
      if (!mark_possible) FUZZ_ASSERT(v.find("Zadrprobeenv") == std::string::npos);
    }
  }
  return 0;
}
