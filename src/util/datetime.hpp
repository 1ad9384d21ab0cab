// The date/time grammars of ADR 2.2.0's /core/date-time/format (DT-5), for
// values a server sent: hand-written, never std::regex (its recursion
// overflows the stack on long strings). Fuzzed in tests/fuzz/fuzz_datetime.cpp.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace adrprobe::datetime {

struct Judged {
  std::vector<std::string> problems;  // each breaks the grammar (fail)
  std::string suffix;                 // an RFC 9557 suffix (warn)
  std::string offset;                 // an offset other than Z, +00:00 and -00:00 (a timezone hint)
};

// format date: YYYY-MM-DD, a real calendar date.
Judged judge_date(std::string_view v);
// format date-time: RFC 3339 with an uppercase T and Z and an offset other than
// -00:00; an RFC 9557 suffix ([Europe/Amsterdam]) goes to suffix.
Judged judge_date_time(std::string_view v);
// format time-local: HH:MM:SS[.frac], no offset.
Judged judge_time_local(std::string_view v);

}  // namespace adrprobe::datetime
