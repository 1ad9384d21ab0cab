// Command-line options of CLI.md, parsed into plain structs.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "engine/run.hpp"
#include "report/model.hpp"

namespace adrprobe::cli {

// Exit statuses of CLI.md.
enum Exit { ok = 0, rule_failed = 1, usage = 2, incomplete = 3 };

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct OutputOptions {
  std::string edition = "2.0.0";
  std::string format = "text";
  std::vector<std::string> outputs;  // FORMAT=PATH
  report::FailOn fail_on = report::FailOn::fail;
  bool no_color = false;
  bool quiet = false;
  bool verbose = false;
};

// The formats this version renders.
const std::vector<std::string>& known_formats();
bool format_available(const std::string& format);

// Parses "Name: value" (-H); throws UsageError.
http::Header parse_header(const std::string& text);
// Parses "NAME=VALUE" (--param, -o); throws UsageError.
std::pair<std::string, std::string> parse_assignment(const std::string& text, const char* what);
// Validates a base URL: http(s), a host, no query or fragment; returns it without trailing slash.
std::string parse_base_url(const std::string& text);
report::FailOn parse_fail_on(const std::string& text);

}  // namespace adrprobe::cli
