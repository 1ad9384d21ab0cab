// The Allow response header (RFC 9110 section 10.2.1).
#pragma once
#include <set>
#include <string>

namespace adrprobe::http {

// Method tokens of an Allow value, upper-cased; empty tokens dropped.
std::set<std::string> parse_allow(const std::string& value);

}  // namespace adrprobe::http
