#include "engine/plan.hpp"

#include <fmt/format.h>

#include "util/strings.hpp"

namespace adrprobe::engine {

namespace {
http::Request request(std::string method, std::string url, std::vector<http::Header> headers, std::string purpose,
                      int redirects = 0, std::size_t body_limit = http::Request{}.body_limit) {
  http::Request r;
  r.method = std::move(method);
  r.url = std::move(url);
  r.headers = std::move(headers);
  r.purpose = std::move(purpose);
  r.max_redirects = redirects;
  r.body_limit = body_limit;
  return r;
}
}  // namespace

std::vector<http::Request> phase_one(const checks::RunSettings& s, const std::string& origin) {
  const std::string& base = s.base_url;
  std::size_t doc_limit = s.limits.max_document_bytes + 1;
  std::vector<http::Request> r(static_cast<std::size_t>(Phase1::count));
  // The description document must be public: no -H headers on these.
  r[0] = request("GET", base + "/openapi.json", {}, "PO-1", 5, doc_limit);
  r[1] = request("GET", base + "/openapi.json", {{"Origin", origin}}, "PO-2", 5);
  r[2] = request("GET", base + "/openapi.yaml", {}, "PO-3", 0, doc_limit);
  r[3] = request("GET", base, s.headers, "VH-1");
  r[4] = request("HEAD", base, s.headers, "HM-1");
  r[5] = request("GET", base + "/", s.headers, "NT-2");
  return r;
}

PathRequests plan_path(const checks::RunSettings& s, const oas::PathPlan& path) {
  PathRequests out;
  out.probe.plan = path;
  out.probe.url = path.concrete == "/" ? s.base_url : s.base_url + path.concrete;
  const std::string& url = out.probe.url;
  out.requests.push_back(request("GET", url, s.headers, "HM-1"));
  out.requests.push_back(request("HEAD", url, s.headers, "HM-1"));
  out.requests.push_back(request("GET", url + "/", s.headers, "NT-2"));
  // HM-2: documented optional methods. Safe mode sends only OPTIONS.
  for (const auto& m : path.methods) {
    if (m == "GET" || m == "HEAD") continue;
    if (m == "OPTIONS" || s.allow_unsafe) {
      out.optional.emplace_back(m, 's');
      out.requests.push_back(request(m, url, s.headers, "HM-2"));
    } else {
      out.probe.supported_unsent.push_back(m);
    }
  }
  // HM-3: an optional method the resource does not document: TRACE, and with
  // --allow-unsafe the undocumented unsafe methods (empty body).
  std::vector<std::string> unsupported{"TRACE"};
  if (s.allow_unsafe) unsupported.insert(unsupported.end(), {"DELETE", "PUT", "PATCH", "POST"});
  for (const auto& m : unsupported) {
    if (path.methods.count(m)) continue;
    out.optional.emplace_back(m, 'u');
    out.requests.push_back(request(m, url, s.headers, "HM-3"));
  }
  return out;
}

std::string not_probed_reason(const oas::PathPlan& path) {
  if (!path.has_get()) return "";  // only paths with a GET operation are probed
  if (path.template_path.empty() || path.template_path.front() != '/') return "does not begin with '/' (see DO-3)";
  if (!path.missing.empty()) {
    std::vector<std::string> hints;
    for (const auto& m : path.missing) hints.push_back("--param " + m + "=VALUE");
    return fmt::format("no value for {} (give {})", join(path.missing, ", "), join(hints, " "));
  }
  return "";
}

}  // namespace adrprobe::engine
