#include "verdict/verdict.hpp"

namespace adrprobe {

std::string to_string(Verdict v) {
  switch (v) {
    case Verdict::pass: return "pass";
    case Verdict::warn: return "warn";
    case Verdict::fail: return "fail";
    case Verdict::error: return "error";
    case Verdict::skip: return "skip";
    case Verdict::manual: return "manual";
  }
  return "skip";
}

std::optional<Verdict> verdict_from_string(const std::string& s) {
  for (Verdict v : {Verdict::pass, Verdict::warn, Verdict::fail, Verdict::error, Verdict::skip, Verdict::manual})
    if (to_string(v) == s) return v;
  return std::nullopt;
}

int severity(Verdict v) {
  switch (v) {
    case Verdict::fail: return 5;
    case Verdict::error: return 4;
    case Verdict::warn: return 3;
    case Verdict::pass: return 2;
    case Verdict::skip: return 1;
    case Verdict::manual: return 0;
  }
  return 0;
}

Verdict worst(Verdict a, Verdict b) { return severity(a) >= severity(b) ? a : b; }

}  // namespace adrprobe
