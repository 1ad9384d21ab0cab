// util/datetime: the grammars DT-5 judges response values by.
#include <doctest/doctest.h>

#include "util/datetime.hpp"

using namespace adrprobe::datetime;

namespace {
bool good(const Judged& j) { return j.problems.empty(); }
std::string first(const Judged& j) { return j.problems.empty() ? "" : j.problems.front(); }
}  // namespace

TEST_CASE("date: YYYY-MM-DD and a real calendar date") {
  CHECK(good(judge_date("2022-03-10")));
  CHECK(good(judge_date("2024-02-29")));
  CHECK(first(judge_date("2023-02-29")) == "not a calendar date");
  CHECK(first(judge_date("1900-02-29")) == "not a calendar date");
  CHECK(good(judge_date("2000-02-29")));
  CHECK(first(judge_date("2022-03-10T00:00:00Z")) == "a time portion after the date");
  CHECK(first(judge_date("10-03-2022")) == "not YYYY-MM-DD");
  CHECK(first(judge_date("")) == "not YYYY-MM-DD");
}

TEST_CASE("date-time: uppercase T and Z, an offset, never -00:00; suffixes and other offsets apart") {
  CHECK(good(judge_date_time("2022-03-10T12:15:50Z")));
  CHECK(good(judge_date_time("2022-03-10T12:15:50.123Z")));
  CHECK(good(judge_date_time("2022-03-10T12:15:50+00:00")));
  auto amsterdam = judge_date_time("2022-03-10T12:15:50+01:00[Europe/Amsterdam]");
  CHECK(good(amsterdam));
  CHECK(amsterdam.offset == "+01:00");
  CHECK(amsterdam.suffix == "[Europe/Amsterdam]");
  CHECK(first(judge_date_time("2022-03-10T12:15:50")) == "no offset");
  CHECK(first(judge_date_time("2022-03-10t12:15:50Z")) == "lowercase t");
  CHECK(first(judge_date_time("2022-03-10T12:15:50z")) == "lowercase z");
  CHECK(first(judge_date_time("2022-03-10T12:15:50-00:00")) == "offset -00:00");
  CHECK(first(judge_date_time("2022-03-10T12:15Z")) == "no seconds");
  CHECK(first(judge_date_time("2022-03-10")) == "no time");
  CHECK(first(judge_date_time("2022-13-10T12:15:50Z")) == "not a calendar date");
  CHECK(first(judge_date_time("2022-03-10T25:15:50Z")) == "not a valid time");
  CHECK(first(judge_date_time("yesterday")) == "not an RFC 3339 date-time");
}

TEST_CASE("time-local: HH:MM:SS[.frac] without an offset") {
  CHECK(good(judge_time_local("12:15:50")));
  CHECK(good(judge_time_local("23:59:60.5")));
  CHECK(first(judge_time_local("12:15")) == "no seconds");
  CHECK(first(judge_time_local("12:15:50Z")) == "an offset");
  CHECK(first(judge_time_local("12:15:50+01:00")) == "an offset");
  CHECK(first(judge_time_local("24:00:00")) == "not a valid time");
  CHECK(first(judge_time_local("noon")) == "not HH:MM:SS");
}
