// The JSON report (report.schema.json) read back: what --baseline, `adrprobe
// diff` and `adrprobe summary` need of an earlier report.
#pragma once
#include <string>

#include "report/model.hpp"

namespace adrprobe::report {

// Reads the target, edition, time, score, rules (with their checks and
// hints) and notes of a JSON report; exchanges and TLS facts are not read.
// Throws std::runtime_error saying what is wrong when `text` is not an
// adrprobe-report/1 report.
Report parse_json_report(const std::string& text);

}  // namespace adrprobe::report
