// Requests declared by key. A check says what it needs sent (a RequestSpec);
// the planner sends identical requests once, whoever asked for them, and the
// evidence hands each check its results back by the same key.
#pragma once
#include <deque>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/settings.hpp"
#include "http/client.hpp"
#include "oas/paths.hpp"

namespace adrprobe::engine {

enum class BodyLimit { probe, document };

struct RequestSpec {
  std::string method = "GET";
  std::string url;
  bool user_headers = true;                 // the -H headers (the public document is fetched without them)
  std::vector<http::Header> extra_headers;  // e.g. Origin
  int max_redirects = 0;                    // 0: redirects are recorded, not followed
  BodyLimit body = BodyLimit::probe;        // probe: 8 KiB kept; document: the document size limit

  // Identical requests have identical keys.
  std::string key() const;
};

// A probe with the user's headers, redirects not followed.
RequestSpec probe_request(std::string method, std::string url);
// A description document: public (no -H), redirects followed (max 5), read up to the document limit.
RequestSpec document_request(std::string url);

// A resource the live checks probe: the base URL, or a documented path whose
// parameters could be filled in.
struct Target {
  bool is_base = false;
  oas::PathPlan path;  // empty for the base URL
  std::string url;
  // The base URL, or a documented path with a GET operation: what NT-2, HM-1
  // and the GET-based checks probe. HM-2 and HM-3 probe every target.
  bool has_get() const { return is_base || path.has_get(); }
};

// The target of a documented path whose parameters could be filled in (a
// documented "/" is the base URL itself).
Target documented_target(const Settings& settings, const oas::PathPlan& plan);

// The HTTP request a spec stands for, with the run's headers and limits.
http::Request build_request(const Settings& settings, const RequestSpec& spec);

class Planner {
 public:
  explicit Planner(const Settings& settings) : settings_(settings) {}

  // Declares a request on behalf of check `by`. A request already declared,
  // in this batch or an earlier one, is not added again.
  void add(const RequestSpec& spec, std::string_view by);
  // Requests declared since the last take().
  std::size_t size() const { return batch_.size(); }
  // Forgets the requests declared after size() was n (a target over budget).
  void truncate(std::size_t n);
  // The batch to send, in declaration order, with each request's key; clears it.
  std::deque<std::pair<std::string, http::Request>> take();
  // The run plans nothing more: the keys it remembered are let go.
  void forget() { known_ = {}; }

 private:
  const Settings& settings_;
  // Every key ever declared, with its number in declaration order: below
  // taken_ it was taken already, else it is batch_[number - taken_] (so
  // take() marks a whole batch taken without touching a key).
  std::unordered_map<std::string, std::size_t> known_;
  std::size_t taken_ = 0;
  // Not yet taken. A deque: a wide API declares tens of thousands of
  // requests, and a vector would hold two copies of them while it grows.
  std::deque<std::pair<std::string, http::Request>> batch_;
};

}  // namespace adrprobe::engine
