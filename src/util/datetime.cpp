#include "util/datetime.hpp"

#include <cctype>

namespace adrprobe::datetime {
namespace {


bool digits(std::string_view s, std::size_t pos, std::size_t n) {
  if (pos + n > s.size()) return false;
  for (std::size_t i = pos; i < pos + n; ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}
int number(std::string_view s, std::size_t pos, std::size_t n) {
  int v = 0;
  for (std::size_t i = pos; i < pos + n; ++i) v = v * 10 + (s[i] - '0');
  return v;
}
bool leap(int y) { return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0); }

// YYYY-MM-DD at the start of s: false when the shape is wrong; calendar says
// whether it is a real date.
bool full_date(std::string_view s, bool& calendar) {
  if (!(digits(s, 0, 4) && s.size() >= 10 && s[4] == '-' && digits(s, 5, 2) && s[7] == '-' && digits(s, 8, 2)))
    return false;
  static constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int y = number(s, 0, 4), m = number(s, 5, 2), d = number(s, 8, 2);
  calendar = m >= 1 && m <= 12 && d >= 1 && d <= days[m - 1] + (m == 2 && leap(y) ? 1 : 0);
  return true;
}

enum class TimeShape { ok, no_seconds, bad };
// HH:MM:SS[.frac] at pos (RFC 3339 partial-time); pos moves past it.
TimeShape partial_time(std::string_view s, std::size_t& pos, bool& valid) {
  if (!(digits(s, pos, 2) && pos + 5 <= s.size() && s[pos + 2] == ':' && digits(s, pos + 3, 2))) return TimeShape::bad;
  int h = number(s, pos, 2), m = number(s, pos + 3, 2);
  if (!(pos + 8 <= s.size() && s[pos + 5] == ':' && digits(s, pos + 6, 2))) return TimeShape::no_seconds;
  int sec = number(s, pos + 6, 2);
  valid = h <= 23 && m <= 59 && sec <= 60;  // 60: a leap second
  pos += 8;
  if (pos < s.size() && s[pos] == '.') {
    if (!digits(s, pos + 1, 1)) return TimeShape::bad;
    ++pos;
    while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) ++pos;
  }
  return TimeShape::ok;
}

}  // namespace


Judged judge_date(std::string_view v) {
  bool calendar = false;
  if (!full_date(v, calendar)) return {{"not YYYY-MM-DD"}, "", ""};
  if (v.size() > 10)
    return {{v[10] == 'T' || v[10] == 't' || v[10] == ' ' ? "a time portion after the date" : "not YYYY-MM-DD"}, "", ""};
  if (!calendar) return {{"not a calendar date"}, "", ""};
  return {};
}

Judged judge_date_time(std::string_view v) {
  Judged out;
  const std::vector<std::string> shape{"not an RFC 3339 date-time"};
  bool calendar = false;
  if (!full_date(v, calendar)) return {shape, "", ""};
  if (!calendar) out.problems.push_back("not a calendar date");
  if (v.size() == 10) {
    out.problems.push_back("no time");
    return out;
  }
  if (v[10] == 't') out.problems.push_back("lowercase t");
  else if (v[10] == ' ') out.problems.push_back("a space instead of T");
  else if (v[10] != 'T') return {shape, "", ""};
  std::size_t pos = 11;
  bool valid = false;
  switch (partial_time(v, pos, valid)) {
    case TimeShape::bad: return {shape, "", ""};
    case TimeShape::no_seconds: out.problems.push_back("no seconds"); return out;
    case TimeShape::ok: break;
  }
  if (!valid) out.problems.push_back("not a valid time");
  if (pos == v.size() || v[pos] == '[') {
    out.problems.push_back("no offset");
  } else if (v[pos] == 'Z') {
    ++pos;
  } else if (v[pos] == 'z') {
    out.problems.push_back("lowercase z");
    ++pos;
  } else if ((v[pos] == '+' || v[pos] == '-') && digits(v, pos + 1, 2) && pos + 6 <= v.size() && v[pos + 3] == ':' &&
             digits(v, pos + 4, 2)) {
    std::string_view offset = v.substr(pos, 6);
    if (number(v, pos + 1, 2) > 23 || number(v, pos + 4, 2) > 59) out.problems.push_back("not a valid offset");
    else if (offset == "-00:00") out.problems.push_back("offset -00:00");
    else if (offset != "+00:00") out.offset = std::string(offset);
    pos += 6;
  } else {
    return {shape, "", ""};
  }
  // RFC 9557 suffixes: [Europe/Amsterdam], [!u-ca=iso8601], ...
  std::size_t suffix_start = pos;
  while (pos < v.size()) {
    std::size_t close = v.find(']', pos);
    if (v[pos] != '[' || close == std::string_view::npos) return {shape, "", ""};
    std::string_view inner = v.substr(pos + 1, close - pos - 1);
    if (!inner.empty() && inner.front() == '!') inner.remove_prefix(1);
    if (inner.empty() || inner.find('[') != std::string_view::npos) return {shape, "", ""};
    pos = close + 1;
  }
  out.suffix = std::string(v.substr(suffix_start));
  return out;
}

Judged judge_time_local(std::string_view v) {
  std::size_t pos = 0;
  bool valid = false;
  TimeShape t = partial_time(v, pos, valid);
  if (t == TimeShape::no_seconds) return {{"no seconds"}, "", ""};
  if (t == TimeShape::bad) return {{"not HH:MM:SS"}, "", ""};
  if (pos < v.size())
    return {{v[pos] == 'Z' || v[pos] == 'z' || v[pos] == '+' || v[pos] == '-' ? "an offset" : "not HH:MM:SS"}, "", ""};
  if (!valid) return {{"not a valid time"}, "", ""};
  return {};
}


}  // namespace adrprobe::datetime
