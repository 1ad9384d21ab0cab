// -H values never appear in any output: every string of the report, and every
// log line, passes through a Redactor first.
#pragma once
#include <string>
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

  explicit Redactor(const std::vector<http::Header>& secrets);
  std::string apply(std::string text) const;
  void apply(Report& report) const;
  bool empty() const { return needles_.empty() && names_.empty(); }

 private:
  std::vector<std::string> needles_;  // longest first
  std::vector<std::string> names_;    // lower-case header names given with -H
  std::vector<std::string> values_;   // the values, masked whole wherever a header carries exactly one
  bool mask_can_form_ = false;        // a needle holds '*': a mask may complete one with the text around it
};

}  // namespace adrprobe::report
