#include "checks/findings.hpp"

#include <fmt/format.h>

#include "util/strings.hpp"

namespace adrprobe::checks {

void Findings::add(report::Verdict verdict, std::string message, std::vector<int> exchanges) {
  items_.push_back({verdict, std::move(message), std::move(exchanges)});
}

report::CheckResult Findings::result(const std::string& pass_message, std::size_t shown) const {
  // Nothing found (no head/options/trace operation, no response lacking a
  // header) is a pass; checks with nothing to send say so before calling this.
  report::CheckResult out{id_, items_.empty() ? report::Verdict::pass : report::Verdict::skip, "", {}};
  for (const auto& i : items_) out.verdict = report::worst(out.verdict, i.verdict);
  if (out.verdict == report::Verdict::pass || out.verdict == report::Verdict::skip) {
    std::vector<std::string> skipped;
    for (const auto& i : items_) {
      out.exchanges.insert(out.exchanges.end(), i.exchanges.begin(), i.exchanges.end());
      if (i.verdict == report::Verdict::skip) skipped.push_back(i.message);
    }
    out.message = out.verdict == report::Verdict::pass ? pass_message : "";
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
      bool problem = report::severity(i.verdict) > report::severity(report::Verdict::pass);
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
