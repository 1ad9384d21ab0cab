#include "engine/evidence.hpp"

#include <fmt/format.h>

#include "util/url.hpp"

namespace adrprobe::engine {

using report::CheckResult;
using report::Verdict;

const http::Result* Evidence::result(const RequestSpec& spec) const {
  auto it = results.find(spec.key());
  return it == results.end() || it->second.chain.empty() ? nullptr : &it->second;
}

const http::Exchange* Evidence::last(const RequestSpec& spec) const {
  const http::Result* r = result(spec);
  return r ? &ex(r->last()) : nullptr;
}

const oas::json* Evidence::published() const {
  if (document.published_other) return &*document.published_other;
  return document.published_fetch && document.published_fetch->ok() ? doc() : nullptr;
}

CheckResult Evidence::prerequisite(const std::string& id) const {
  return CheckResult{id, document.missing_is_error ? Verdict::error : Verdict::fail,
                     "prerequisite not met: " + document.missing_reason, {}};
}

std::string Evidence::describe(int exchange_id) const {
  const auto& e = ex(exchange_id);
  std::string what = fmt::format("{} {}", e.method, url_path(e.url));
  if (e.error) return fmt::format("{}: {}", what, *e.error);
  return fmt::format("{} → {}", what, e.status.value_or(0));
}

std::optional<CheckResult> Evidence::transport_error(const std::string& id, int exchange_id) const {
  const auto& e = ex(exchange_id);
  if (!e.error) return std::nullopt;
  return CheckResult{id, Verdict::error, describe(exchange_id), {exchange_id}};
}

const std::string* info_version(const oas::json& doc) {
  if (!doc.is_object()) return nullptr;
  auto info = doc.find("info");
  if (info == doc.end() || !info->is_object()) return nullptr;
  auto v = info->find("version");
  if (v == info->end() || !v->is_string()) return nullptr;
  return &v->get_ref<const std::string&>();
}

}  // namespace adrprobe::engine
