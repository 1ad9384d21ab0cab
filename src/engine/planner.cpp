#include "engine/planner.hpp"

#include <fmt/format.h>

#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::engine {

// "GET https://api.example.nl/v1/x h=1 r=0 b=probe", then " Name: value" per extra
// header. Made for every lookup of the evidence (judging 10,000 paths looks up
// about 100,000): appended into one buffer, without fmt's format parsing.
std::string RequestSpec::key() const {
  const std::string_view limit = body == BodyLimit::document ? "doc" : "probe";
  const std::string redirects = std::to_string(max_redirects);
  std::size_t size = method.size() + url.size() + redirects.size() + limit.size() + 16;
  for (const auto& [name, value] : extra_headers) size += name.size() + value.size() + 3;
  std::string k;
  k.reserve(size);
  k.append(method).append(1, ' ').append(url).append(user_headers ? " h=1 r=" : " h=0 r=");
  k.append(redirects).append(" b=").append(limit);
  for (const auto& [name, value] : extra_headers) k.append(1, ' ').append(name).append(": ").append(value);
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
  // A request that follows redirects (a description document, a $ref's) goes
  // wherever a server points it: it may connect only to public addresses and to
  // the hosts the user gave (probes.md PO-1, DO-2), judged on every hop, so a
  // redirect into the internal network is not fetched. --ref-hosts any lifts it.
  // Every other request goes to the user's URLs alone.
  if (spec.max_redirects > 0 && !settings_.ref_hosts_any) {
    r.address_policy = http::AddressPolicy::public_only;
    for (const auto& given : {settings_.base_url, settings_.openapi.value_or("")})
      if (auto url = parse_url(given); url && !url->host.empty()) r.exempt_hosts.push_back(url->host);
  }
  return r;
}

void Planner::add(const RequestSpec& spec, std::string_view by) {
  std::string key = spec.key();
  auto [at, fresh] = known_.try_emplace(std::move(key), taken_ + batch_.size());
  if (!fresh) {
    // Declared before: in this batch, the checks that asked are named together.
    if (at->second < taken_) return;
    std::string& purpose = batch_[at->second - taken_].second.purpose;
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
  taken_ += batch_.size();
  auto out = std::move(batch_);
  batch_.clear();
  return out;
}

}  // namespace adrprobe::engine
