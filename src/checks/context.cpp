#include "checks/context.hpp"

#include <fmt/format.h>

#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::checks {

using report::CheckResult;
using report::Verdict;

const std::string* info_version(const oas::json& doc) {
  if (!doc.is_object()) return nullptr;
  auto info = doc.find("info");
  if (info == doc.end() || !info->is_object()) return nullptr;
  auto v = info->find("version");
  if (v == info->end() || !v->is_string()) return nullptr;
  return &v->get_ref<const std::string&>();
}

CheckResult Context::prerequisite(const std::string& id) const {
  const auto& d = evidence.document;
  return CheckResult{id, d.missing_is_error ? Verdict::error : Verdict::fail,
                     "prerequisite not met: " + d.missing_reason, {}};
}

std::string Context::describe(int exchange_id) const {
  const auto& e = ex(exchange_id);
  std::string what = fmt::format("{} {}", e.method, url_path(e.url));
  if (e.error) return fmt::format("{}: {}", what, *e.error);
  return fmt::format("{} → {}", what, e.status.value_or(0));
}

std::optional<CheckResult> Context::transport_error(const std::string& id, int exchange_id) const {
  const auto& e = ex(exchange_id);
  if (!e.error) return std::nullopt;
  return CheckResult{id, Verdict::error, describe(exchange_id), {exchange_id}};
}

}  // namespace adrprobe::checks

namespace adrprobe::checks {

void Findings::add(report::Verdict verdict, std::string message, std::vector<int> exchanges) {
  items_.push_back({verdict, std::move(message), std::move(exchanges)});
}

report::CheckResult Findings::result(const std::string& pass_message, std::size_t shown) const {
  // Nothing found (no head/options/trace operation, no response lacking a
  // header) is a pass; checks with nothing to send say so before calling this.
  CheckResult out{id_, items_.empty() ? Verdict::pass : Verdict::skip, "", {}};
  for (const auto& i : items_) out.verdict = report::worst(out.verdict, i.verdict);
  if (out.verdict == Verdict::pass || out.verdict == Verdict::skip) {
    std::vector<std::string> skipped;
    for (const auto& i : items_) {
      out.exchanges.insert(out.exchanges.end(), i.exchanges.begin(), i.exchanges.end());
      if (i.verdict == Verdict::skip) skipped.push_back(i.message);
    }
    out.message = out.verdict == Verdict::pass ? pass_message : "";
    if (!skipped.empty()) out.message += (out.message.empty() ? "" : "; ") + join(skipped, "; ", shown);
    if (out.message.empty()) out.message = pass_message;
    return out;
  }
  // Lead with the findings at the worst verdict, then the other problems.
  std::vector<std::string> parts;
  std::size_t problems = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& i : items_) {
      bool worst = i.verdict == out.verdict;
      bool problem = report::severity(i.verdict) > report::severity(Verdict::pass);
      if (!problem || (pass == 0) != worst) continue;
      ++problems;
      if (parts.size() < shown) parts.push_back(i.message);
      out.exchanges.insert(out.exchanges.end(), i.exchanges.begin(), i.exchanges.end());
    }
  }
  out.message = join(parts, "; ");
  if (problems > parts.size()) out.message += fmt::format("; … (+{} more)", problems - parts.size());
  return out;
}

}  // namespace adrprobe::checks
