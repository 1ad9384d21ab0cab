// Secrets never appear in any output: the values of -H (and --header-file)
// headers, and the password of a URL given by the user
// (https://user:***@host). Every string of the report, and every log line,
// passes through a Redactor first.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "http/exchange.hpp"
#include "report/model.hpp"

namespace adrprobe::report {

class Redactor {
 public:
  static constexpr const char* mask = "***";
  // Values shorter than this are masked where a header carries exactly that
  // value, not inside other text: masking "1" everywhere would destroy the
  // report (and a value that short is no secret).
  static constexpr std::size_t min_substring = 4;

  // secrets: the headers the user gave.
  explicit Redactor(const std::vector<http::Header>& secrets);
  // A URL the user gave (the base URL, --openapi, the lint document): its
  // password is a secret too; nothing happens for a URL without one.
  void add_url(const std::string& url);
  std::string apply(std::string text) const;
  void apply(Report& report) const;
  bool empty() const { return needles_.empty() && names_.empty(); }
  // Whether a URL given had a password (the report says such URLs are discouraged).
  bool url_password() const { return url_password_; }

 private:
  void add(std::string needle, std::string replacement = mask);
  void add_forms(const std::string& value);
  void add_base64(const std::string& value);
  void sort();
  std::vector<std::pair<std::string, std::string>> needles_;  // longest first
  std::vector<std::string> names_;    // lower-case header names given with -H
  std::vector<std::string> values_;   // the values, masked whole wherever a header carries exactly one
  bool url_password_ = false;
  bool mask_can_form_ = false;        // a needle holds '*': a mask may complete one with the text around it
};

}  // namespace adrprobe::report
