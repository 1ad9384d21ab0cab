// JSON output shared by the JSON-based formats (json, gitlab, sarif).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace adrprobe::report {

// Pretty-printed (2 spaces), newline at the end. Server text comes out as valid,
// escaped UTF-8: invalid UTF-8 replaced (never a throw), C0 controls, DEL and
// the C1 controls (U+0080..U+009F, which some terminals obey) as \u escapes.
std::string dump_json(const nlohmann::ordered_json& j);

}  // namespace adrprobe::report
