// Media types and problem details bodies (RFC 9457) in the responses a server
// sent: parsers of server input, kept apart from the checks that use them
// (EH-2, DT-5) so they can be fuzzed on their own.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "http/exchange.hpp"
#include "oas/limits.hpp"

namespace adrprobe::http {

inline constexpr const char* kProblemJson = "application/problem+json";
inline constexpr const char* kProblemXml = "application/problem+xml";
inline constexpr const char* kProblemNs = "urn:ietf:rfc:7807";  // RFC 9457 Appendix B

// The media type of a Content-Type value or a content key: type/subtype,
// parameters dropped, trimmed, as written ("application/problem+json; charset=utf-8").
std::string media_type(std::string_view value);
// application/problem+json or application/problem+xml, case-insensitively.
bool is_problem(std::string_view value);
// application/json or application/*+json, case-insensitively.
bool is_json_media_type(std::string_view value);

// Why one received error response is not a problem details object (empty: it is).
struct ProblemJudgement {
  std::vector<std::string> fails;
  bool truncated = false;
};
// Judges e's Content-Type and body (e.status must be set): the media type,
// then a body that parses (JSON within limits; XML with pugixml) with status
// equal to the HTTP status, title and detail.
ProblemJudgement judge_problem(const Exchange& e, const oas::Limits& limits);

}  // namespace adrprobe::http
