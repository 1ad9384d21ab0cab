#include "report/redact.hpp"

#include <algorithm>

#include "util/strings.hpp"

namespace adrprobe::report {

Redactor::Redactor(const std::vector<http::Header>& secrets) {
  for (const auto& [name, value] : secrets) {
    names_.push_back(to_lower(name));
    std::string v = trim(value);
    if (!v.empty()) values_.push_back(v);
    if (v.size() >= min_substring) {
      needles_.push_back(v);
      std::string upper = percent_encode(v);
      needles_.push_back(upper);
      needles_.push_back(to_lower(upper));  // %2f as well as %2F
    }
    // "Bearer abc…": the credential alone may be echoed back too.
    for (const auto& part : split(v, ' '))
      if (part.size() >= 8) needles_.push_back(part);
  }
  std::sort(needles_.begin(), needles_.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  needles_.erase(std::unique(needles_.begin(), needles_.end()), needles_.end());
  for (const auto& n : needles_)
    if (n.find('*') != std::string::npos) mask_can_form_ = true;
}

std::string Redactor::apply(std::string text) const {
  // A needle with a '*' can appear again where a mask meets the text around it
  // (the value "**ab" in "**abab" leaves "***ab"): then repeat until a pass
  // masks nothing. Each mask is shorter than its needle, so this ends.
  for (bool again = true; again;) {
    std::size_t before = text.size();
    for (const auto& n : needles_) text = replace_all(std::move(text), n, mask);
    again = mask_can_form_ && text.size() != before;
  }
  return text;
}

void Redactor::apply(Report& r) const {
  if (empty()) return;
  auto fix = [&](std::string& s) { s = apply(std::move(s)); };
  fix(r.base_url);
  if (r.openapi_url) fix(*r.openapi_url);
  for (auto& n : r.notes) fix(n);
  for (auto& rule : r.rules) {
    fix(rule.summary);
    for (auto& h : rule.hints) fix(h);
    for (auto& c : rule.checks) fix(c.message);
  }
  for (auto& e : r.exchanges) {
    fix(e.url);
    for (auto& [name, value] : e.request_headers) {
      if (std::find(names_.begin(), names_.end(), to_lower(name)) != names_.end() ||
          std::find(values_.begin(), values_.end(), trim(value)) != values_.end())
        value = mask;
      else fix(value);
    }
    for (auto& [name, value] : e.response_headers) {
      // An echoed value is masked whole, however short it is.
      if (std::find(values_.begin(), values_.end(), trim(value)) != values_.end()) value = mask;
      else fix(value);
    }
    if (e.error) fix(*e.error);
    fix(e.body);
  }
}

}  // namespace adrprobe::report
