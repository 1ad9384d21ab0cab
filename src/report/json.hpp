// JSON shared by the JSON-based formats (json, gitlab, sarif), and the JSON
// report read back: what --baseline, `adrprobe diff` and `adrprobe summary`
// need of an earlier report.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "report/model.hpp"

namespace adrprobe::report {

// Pretty-printed (2 spaces), newline at the end. Server text comes out as valid,
// escaped UTF-8: invalid UTF-8 replaced (never a throw), C0 controls, DEL and
// the C1 controls (U+0080..U+009F, which some terminals obey) as \u escapes.
std::string dump_json(const nlohmann::ordered_json& j);

// The score object of report.schema.json (the report's and each summary row's).
nlohmann::ordered_json score_json(const Score& score);

// Reads the target, edition, time, score, rules (with their checks and
// hints) and notes of a JSON report; exchanges and TLS facts are not read.
// Throws std::runtime_error saying what is wrong when `text` is not an
// adrprobe-report/1 report.
Report parse_json_report(const std::string& text);

}  // namespace adrprobe::report
