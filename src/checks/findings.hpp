// Gathers per-path findings of one check into its single report entry: the
// worst verdict, a message led by the worst findings, and the evidence ids.
#pragma once
#include <string>
#include <vector>

#include "report/model.hpp"

namespace adrprobe::checks {

class Findings {
 public:
  explicit Findings(std::string id) : id_(std::move(id)) {}
  void add(report::Verdict verdict, std::string message, std::vector<int> exchanges = {});
  bool empty() const { return items_.empty(); }
  // pass_message is used when every finding passed (or skipped).
  report::CheckResult result(const std::string& pass_message, std::size_t shown = 5) const;

 private:
  struct Item {
    report::Verdict verdict;
    std::string message;
    std::vector<int> exchanges;
  };
  std::string id_;
  std::vector<Item> items_;
};

}  // namespace adrprobe::checks
