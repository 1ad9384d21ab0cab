// Problem details bodies (RFC 9457) in the responses a server sent: the
// parser of server input behind EH-2 (checks/error_handling.cpp), a module of
// its own so it can be fuzzed on its own.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "http/exchange.hpp"
#include "http/media_type.hpp"
#include "oas/limits.hpp"

namespace adrprobe::checks {

inline constexpr const char* kProblemJson = "application/problem+json";
inline constexpr const char* kProblemXml = "application/problem+xml";
inline constexpr const char* kProblemNs = "urn:ietf:rfc:7807";  // RFC 9457 Appendix B

// application/problem+json or application/problem+xml, case-insensitively.
bool is_problem(std::string_view value);

// Why one received error response is not a problem details object (empty: it is).
struct ProblemJudgement {
  std::vector<std::string> fails;
  bool truncated = false;
};
// Judges e's Content-Type and body (e.status must be set): the media type,
// then a body that parses (JSON within limits; XML with pugixml) with status
// equal to the HTTP status, title and detail.
ProblemJudgement judge_problem(const http::Exchange& e, const oas::Limits& limits);

}  // namespace adrprobe::checks
