// http/problem: the Content-Type and body of an error response, judged as
// problem details (RFC 9457, JSON and XML). Input: status \0 content-type \0 body.
#include <cstdint>
#include <string>

#include "fuzz.hpp"
#include "checks/problem.hpp"
#include "util/strings.hpp"

using namespace adrprobe;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto parts = fuzz::split_parts(fuzz::as_text(data, size), 3);
  while (parts.size() < 3) parts.emplace_back();
  http::Exchange e;
  e.method = "GET";
  e.url = "https://api.example.nl/v1/x";
  int status = 400;
  for (char c : parts[0].substr(0, 3))
    if (c >= '0' && c <= '9') status = (status * 7 + (c - '0')) % 200 + 400;
  e.status = status;
  if (!parts[1].empty()) e.response_headers["content-type"] = std::string(parts[1]);
  e.body = std::string(parts[2].substr(0, 8192));
  e.body_truncated = parts[2].size() > 8192;
  oas::Limits limits;
  auto j = checks::judge_problem(e, limits);
  // Without a problem media type, or without a body, it is never a problem.
  if (!checks::is_problem(std::string(parts[1])) || e.body.empty()) FUZZ_ASSERT(!j.fails.empty() || j.truncated);
  // Every reason is valid UTF-8 that a report can carry.
  for (const auto& f : j.fails) {
    FUZZ_ASSERT(!f.empty());
    FUZZ_ASSERT(is_valid_utf8(f));
  }
  // The same judgement twice.
  auto again = checks::judge_problem(e, limits);
  FUZZ_ASSERT(again.fails == j.fails && again.truncated == j.truncated);
  return 0;
}
