// util/datetime: the date, date-time and time-local grammars DT-5 judges the
// values of server responses by.
#include <cstdint>
#include <string>

#include "fuzz.hpp"
#include "util/datetime.hpp"

using namespace adrprobe;

namespace {
bool is_digit(char c) { return c >= '0' && c <= '9'; }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(fuzz::as_text(data, size));
  auto date = datetime::judge_date(text);
  auto date_time = datetime::judge_date_time(text);
  auto time = datetime::judge_time_local(text);
  // A good date is exactly YYYY-MM-DD with a real month and day.
  if (date.problems.empty()) {
    FUZZ_ASSERT(text.size() == 10 && text[4] == '-' && text[7] == '-');
    for (int i : {0, 1, 2, 3, 5, 6, 8, 9}) FUZZ_ASSERT(is_digit(text[static_cast<std::size_t>(i)]));
    int month = (text[5] - '0') * 10 + (text[6] - '0'), day = (text[8] - '0') * 10 + (text[9] - '0');
    FUZZ_ASSERT(month >= 1 && month <= 12 && day >= 1 && day <= 31);
    // ... and is no date-time or time.
    FUZZ_ASSERT(!date_time.problems.empty());
    FUZZ_ASSERT(!time.problems.empty());
  }
  // A good date-time starts with a good date, has an uppercase T, and ends in
  // Z or an offset (then maybe a suffix); never the offset -00:00.
  if (date_time.problems.empty()) {
    FUZZ_ASSERT(text.size() >= 20 && text[10] == 'T');
    FUZZ_ASSERT(datetime::judge_date(text.substr(0, 10)).problems.empty());
    std::string core = text.substr(0, text.size() - date_time.suffix.size());
    FUZZ_ASSERT(!core.ends_with("-00:00"));
    FUZZ_ASSERT(core.back() == 'Z' || (core.size() >= 6 && core[core.size() - 3] == ':'));
    if (!date_time.offset.empty()) FUZZ_ASSERT(core.ends_with(date_time.offset));
    FUZZ_ASSERT(date_time.suffix.empty() || date_time.suffix.front() == '[');
  }
  // A good time-local is HH:MM:SS[.frac] and nothing else.
  if (time.problems.empty()) {
    FUZZ_ASSERT(text.size() >= 8 && text[2] == ':' && text[5] == ':');
    for (char c : text) FUZZ_ASSERT(is_digit(c) || c == ':' || c == '.');
  }
  return 0;
}
