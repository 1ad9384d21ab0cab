#include "engine/planner.hpp"

#include <fmt/format.h>

#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::engine {

std::string RequestSpec::key() const {
  std::string k = fmt::format("{} {} h={} r={} b={}", method, url, user_headers ? 1 : 0, max_redirects,
                              body == BodyLimit::document ? "doc" : "probe");
  for (const auto& [name, value] : extra_headers) k += fmt::format(" {}: {}", name, value);
  return k;
}

RequestSpec probe_request(std::string method, std::string url) {
  RequestSpec s;
  s.method = std::move(method);
  s.url = std::move(url);
  return s;
}

RequestSpec document_request(std::string url) {
  RequestSpec s;
  s.url = std::move(url);
  s.user_headers = false;
  s.max_redirects = 5;
  s.body = BodyLimit::document;
  return s;
}

Target documented_target(const Settings& settings, const oas::PathPlan& plan) {
  return Target{false, plan, plan.concrete == "/" ? settings.base_url : settings.base_url + plan.concrete};
}

http::Request build_request(const Settings& settings_, const RequestSpec& spec) {
  http::Request r;
  r.method = spec.method;
  r.url = spec.url;
  if (spec.user_headers) r.headers = settings_.headers;
  r.headers.insert(r.headers.end(), spec.extra_headers.begin(), spec.extra_headers.end());
  r.max_redirects = spec.max_redirects;
  if (spec.body == BodyLimit::document) r.body_limit = settings_.limits.max_document_bytes + 1;
  // The API's own responses: under {base} (a document elsewhere on its host is not one).
  r.to_api = settings_.live() && under_base(spec.url, settings_.base_url);
  return r;
}

void Planner::add(const RequestSpec& spec, std::string_view by) {
  std::string key = spec.key();
  auto [at, fresh] = known_.try_emplace(std::move(key), batch_.size());
  if (!fresh) {
    // Declared before: in this batch, the checks that asked are named together.
    if (at->second == kTaken) return;
    std::string& purpose = batch_[at->second].second.purpose;
    bool listed = false;
    for (const auto& p : split(purpose, ',')) listed = listed || p == by;
    if (!listed) purpose += fmt::format(",{}", by);
    return;
  }
  http::Request r = build_request(settings_, spec);
  r.purpose = std::string(by);
  batch_.emplace_back(at->first, std::move(r));
}

void Planner::truncate(std::size_t n) {
  while (batch_.size() > n) {
    known_.erase(batch_.back().first);
    batch_.pop_back();
  }
}

std::deque<std::pair<std::string, http::Request>> Planner::take() {
  for (auto& [key, request] : batch_) known_[key] = kTaken;
  auto out = std::move(batch_);
  batch_.clear();
  return out;
}

}  // namespace adrprobe::engine
