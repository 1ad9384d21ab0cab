// /core/date-time/format and /core/date-time/date-omit-time-portion (2.2.0): DT-1..DT-4 (document), DT-5 (live).
#include <fmt/format.h>

#include "checks/check.hpp"

namespace adrprobe::checks {
namespace {

CheckResult not_yet(const Evidence&, const CheckRef& ref) { return {ref.id, Verdict::skip, "not implemented yet", {}}; }

}  // namespace

// /core/date-time/timezone (functional): DT-1's date-time-local and time
// formats and DT-5's non-UTC response values, as hints.
std::vector<std::string> timezone_hints(const Evidence&) { return {}; }

extern const Check dt1{
    .id = "DT-1",
    .needs = document,
    .title = "Date and time formats are date, date-time or time-local",
    .sends = "nothing (static); reads every format in the schemas",
    .passes = "only date, date-time, time-local among the date/time formats: pass; else fail",
    .judge = not_yet};
extern const Check dt2{
    .id = "DT-2",
    .needs = document,
    .title = "Date and time formats are on type string",
    .sends = "nothing (static); reads the schemas with a date/time format",
    .passes = "type string: pass; another type fail; no type warn",
    .judge = not_yet};
extern const Check dt3{
    .id = "DT-3",
    .needs = document,
    .title = "Date-named fields have a format",
    .sends = "nothing (static); reads date-named string fields",
    .passes = "a format: pass; none: fail (strong name) or warn (weak name)",
    .judge = not_yet};
extern const Check dt4{
    .id = "DT-4",
    .needs = document,
    .title = "Date-named fields omit the time portion",
    .sends = "nothing (static); reads date-named string fields",
    .passes = "no date-time format: pass; else fail (strong name) or warn (weak name)",
    .judge = not_yet};
extern const Check dt5{
    .id = "DT-5",
    .needs = requests | document,
    .title = "Date and time values in responses follow the grammar",
    .sends = "nothing of its own; reads the JSON 2xx responses to the GETs of documented paths",
    .passes = "every value matches its format: pass; a value that does not: fail; a [zone] suffix: warn; nothing judged: skip",
    .judge = not_yet};

}  // namespace adrprobe::checks
