#include "report/redact.hpp"

#include <algorithm>

#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::report {

void Redactor::add(std::string needle, std::string replacement) {
  if (!needle.empty()) needles_.emplace_back(std::move(needle), std::move(replacement));
}

// A value as given and percent-encoded (%2F as well as %2f): a server may echo
// it in a Location or a query.
void Redactor::add_forms(const std::string& value) {
  add(value);
  std::string upper = percent_encode(value);
  add(upper);
  add(to_lower(upper));
}

// A value base64-encoded (a gateway that passes a credential on encoded), with
// or without its padding, and that percent-encoded in turn ('+', '/', '=').
void Redactor::add_base64(const std::string& value) {
  std::string encoded = base64_encode(value);
  add_forms(encoded);  // masked whole where it stands alone (longest needles go first)
  while (!encoded.empty() && encoded.back() == '=') encoded.pop_back();
  add_forms(encoded);
}

Redactor::Redactor(const std::vector<http::Header>& secrets) {
  for (const auto& [name, value] : secrets) {
    names_.push_back(to_lower(name));
    std::string v = trim(value);
    if (!v.empty()) values_.push_back(v);
    if (v.size() >= min_substring) {
      add_forms(v);
      add_base64(v);
    }
    // "Bearer abc…": the credential alone may be echoed back too.
    for (const auto& part : split(v, ' '))
      if (part.size() >= 8) {
        add_forms(part);
        add_base64(part);
      }
  }
  sort();
}

void Redactor::add_url(const std::string& text) {
  auto url = parse_url(text);
  if (!url || url->password.empty()) return;
  url_password_ = true;
  // The userinfo form is masked whatever the password's length; the
  // password alone (as written and decoded) where it is long enough.
  add(url->user + ":" + url->password + "@", url->user + ":" + mask + "@");
  std::string plain = percent_decode(url->password);
  for (const std::string& p : {url->password, plain, percent_encode(plain), to_lower(percent_encode(plain))})
    if (p.size() >= min_substring) add(p);
  values_.push_back(plain);
  // The Basic credentials libcurl sends for it, should a server echo them.
  std::string basic = base64_encode(percent_decode(url->user) + ":" + plain);
  add_base64(percent_decode(url->user) + ":" + plain);
  add_base64(plain);
  values_.push_back("Basic " + basic);
  add_base64("Basic " + basic);
  sort();
}

void Redactor::sort() {
  std::sort(needles_.begin(), needles_.end(), [](const auto& a, const auto& b) {
    return a.first.size() != b.first.size() ? a.first.size() > b.first.size() : a < b;
  });
  needles_.erase(std::unique(needles_.begin(), needles_.end()), needles_.end());
  for (const auto& [needle, with] : needles_)
    if (needle.find('*') != std::string::npos) mask_can_form_ = true;
}

std::string Redactor::apply(std::string text) const {
  // A needle with a '*' can appear again where a mask meets the text around it
  // (the value "**ab" in "**abab" leaves "***ab"): then repeat until a pass
  // masks nothing. Each mask is shorter than its needle, so this ends.
  for (bool again = true; again;) {
    std::size_t before = text.size();
    for (const auto& [needle, with] : needles_) text = replace_all(std::move(text), needle, with);
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
  fix(r.headline);
  for (auto& rule : r.rules) {
    fix(rule.summary);
    for (auto& h : rule.hints) fix(h);
    for (auto& c : rule.checks) {
      fix(c.message);
      for (auto& d : c.details) fix(d);
    }
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
