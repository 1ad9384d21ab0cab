// One recorded HTTP request and its response: the evidence every check points at.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace adrprobe::http {

using Header = std::pair<std::string, std::string>;

struct Exchange {
  int id = 0;
  std::string method;
  std::string url;
  std::vector<Header> request_headers;  // as sent (redacted only when rendered)
  std::optional<int> status;            // nullopt: no response (transport error)
  // Names lower case; repeated headers joined with ", ".
  std::map<std::string, std::string> response_headers;
  double duration_ms = 0;
  std::optional<std::string> error;  // transport error, "deadline reached", ...
  std::string body;                  // kept up to the request's body limit
  bool body_truncated = false;       // the body was longer than the limit
  bool to_api = true;                // sent to the API under test (not an external $ref host)
  std::string purpose;               // which check asked for it (for -v logs)

  const std::string* header(const std::string& lower_name) const {
    auto it = response_headers.find(lower_name);
    return it == response_headers.end() ? nullptr : &it->second;
  }
  bool is_redirect() const { return status && *status >= 300 && *status < 400; }
  bool is_success() const { return status && *status >= 200 && *status < 300; }
};

}  // namespace adrprobe::http
