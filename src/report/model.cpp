#include "report/model.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "util/release.hpp"

namespace adrprobe::report {

Verdict aggregate(const std::vector<CheckResult>& checks) {
  Verdict v = Verdict::skip;
  for (const auto& c : checks) v = worst(v, c.verdict);
  return v;
}

Score compute_score(const std::vector<RuleResult>& rules) {
  Score s;
  for (const auto& r : rules) {
    // A module's rules count once, through the edition's rule for the module.
    if (r.kind != "technical" || !r.module.empty()) continue;
    switch (r.verdict) {
      case Verdict::pass: ++s.pass; break;
      case Verdict::warn: ++s.warn; break;
      case Verdict::fail: ++s.fail; break;
      case Verdict::error: ++s.error; break;
      default: break;
    }
  }
  s.applicable = s.pass + s.warn + s.fail + s.error;
  // A score of only errors says nothing about the API: no percent.
  if (s.pass + s.warn + s.fail > 0) s.percent = std::round(1000.0 * (s.pass + s.warn) / s.applicable) / 10.0;
  return s;
}

Conclusion conclude(const Report& report) {
  Conclusion c;
  std::vector<std::string> error_ids, warn_ids;
  for (const auto& r : report.rules) {
    if (!r.module.empty()) continue;  // counted through the edition's rule for the module
    if (r.kind != "technical") {
      if (r.verdict == Verdict::manual) ++c.functional_pending;
      continue;
    }
    // A technical rule without a stated level is a rule of the standard: MUST.
    bool should = r.level == "SHOULD" || r.level == "MAY";
    switch (r.verdict) {
      case Verdict::fail:
        if (should) ++c.should_failed, c.should_ids.push_back(r.id);
        else ++c.must_failed, c.must_ids.push_back(r.id);
        break;
      case Verdict::warn: ++c.warned, warn_ids.push_back(r.id); break;
      case Verdict::error: ++c.errors, error_ids.push_back(r.id); break;
      default: break;
    }
  }
  // A down target's rules follow the same rule: one that fails without an
  // answer (TS-1 on http://) shows it does not conform; else nothing is shown.
  if (c.must_failed > 0) c.conforms = false;
  else if (report.unreachable || c.errors > 0) c.conforms.reset();
  else c.conforms = true;
  auto rules = [](std::size_t n, const char* level, const char* one, const char* many) {
    return fmt::format("{} {} {} {}", n, level, n == 1 ? "rule" : "rules", n == 1 ? one : many);
  };
  auto ids = [](const std::vector<std::string>& list) {
    std::vector<std::string> shown(list.begin(), list.begin() + std::min<std::size_t>(list.size(), 8));
    std::string out;
    for (std::size_t i = 0; i < shown.size(); ++i) out += (i ? ", " : "") + shown[i];
    if (list.size() > shown.size()) out += fmt::format(" and {} more", list.size() - shown.size());
    return " (" + out + ")";
  };
  std::string edition = report.edition;
  std::vector<std::string> parts;
  std::string head;
  if (c.conforms == std::optional<bool>(false)) {
    head = fmt::format("Does not conform to {}: {}{}", edition, rules(c.must_failed, "MUST", "fails", "fail"), ids(c.must_ids));
  } else if (report.unreachable) {
    // The cause is the report's first note (and JSON down_cause), shown right after.
    head = fmt::format("Conformance to {} could not be established: the target is down", edition);
  } else if (!c.conforms) {
    head = fmt::format("Conformance to {} could not be established: no MUST rule fails, but {}{}", edition,
                       rules(c.errors, "technical", "could not be judged", "could not be judged"), ids(error_ids));
  } else {
    head = fmt::format("Conforms to {} in its technical rules: no MUST rule fails", edition);
  }
  if (c.should_failed)
    parts.push_back(fmt::format("{}, {}{}", rules(c.should_failed, "SHOULD", "fails", "fail"),
                                c.should_failed == 1 ? "a deviation" : "deviations", ids(c.should_ids)));
  if (c.warned) parts.push_back(fmt::format("{} {} with a warning{}", c.warned, c.warned == 1 ? "rule passes" : "rules pass", ids(warn_ids)));
  // Said in the head unless a rule fails (then the down target is said here).
  if (c.errors && c.conforms == std::optional<bool>(false))
    parts.push_back((report.unreachable ? std::string("the target is down: ") : std::string()) +
                    rules(c.errors, "technical", "could not be judged", "could not be judged") + ids(error_ids));
  if (c.functional_pending)
    parts.push_back(fmt::format("{} functional {} a reviewer", c.functional_pending,
                                c.functional_pending == 1 ? "rule awaits" : "rules await"));
  c.text = head;
  for (const auto& part : parts) c.text += "; " + part;
  c.text += ".";
  return c;
}

std::string down_cause(const Report& report) {
  if (!report.unreachable) return "";
  return report.notes.empty() ? "could not reach " + report.base_url : report.notes.front();
}

std::string down_fingerprint(const Report& report) {
  CheckResult down;
  down.id = kDownCheck;
  return fingerprint("", down, report.name.value_or("") + " " + report.base_url);
}

int exit_status(const Report& report, FailOn fail_on) {
  if (fail_on == FailOn::regressed) {
    // Only what got worse against the baseline; without one, nothing is compared.
    if (report.went_down) return 1;
    for (const auto& r : report.rules)
      if (r.change && (*r.change == "new-fail" || *r.change == "regressed")) return 1;
    return 0;
  }
  bool at_level = false, any_error = false;
  for (const auto& r : report.rules) {
    if (r.verdict == Verdict::error) any_error = true;
    if (fail_on == FailOn::fail && r.verdict == Verdict::fail) at_level = true;
    if (fail_on == FailOn::warn && severity(r.verdict) >= severity(Verdict::warn)) at_level = true;
  }
  if (at_level) return 1;
  // 3: nothing at the --fail-on level, but something could not be completed
  // (under --fail-on never a fail does not hide an error).
  return any_error ? 3 : 0;
}

void slim(http::Exchange& e) {
  bool shown = (e.status && *e.status >= 400) || e.body_judged;
  if (!shown) {
    release(e.body);
    e.body_truncated = false;
  } else if (e.body.size() > kReportBodyBytes) {
    std::size_t cut = kReportBodyBytes;
    // Back to the start of a character (continuation bytes are 10xxxxxx).
    while (cut > 0 && (static_cast<unsigned char>(e.body[cut]) & 0xC0) == 0x80) --cut;
    e.body.resize(cut);
    e.body.shrink_to_fit();
    e.body_truncated = true;
  } else {
    e.body.shrink_to_fit();
  }
  release(e.purpose);
  e.response_headers.shrink_to_fit();
}

const http::Exchange* find_exchange(const Report& report, int id) {
  // Ids are 1-based positions (the client numbers them so); a hand-made
  // report that numbers otherwise is searched.
  if (id >= 1 && static_cast<std::size_t>(id) <= report.exchanges.size()) {
    const auto& e = report.exchanges[static_cast<std::size_t>(id - 1)];
    if (e.id == id) return &e;
  }
  auto it = std::find_if(report.exchanges.begin(), report.exchanges.end(), [&](const auto& e) { return e.id == id; });
  return it == report.exchanges.end() ? nullptr : &*it;
}

std::string exchange_line(const http::Exchange& e) {
  if (!e.status) return fmt::format("{} {} ✗ {}", e.method, e.url, e.error.value_or("no response"));
  return fmt::format("{} {} → {}", e.method, e.url, *e.status);
}

std::string judged_headers_line(const http::Exchange& e, const std::vector<std::string>& names) {
  if (!e.status || names.empty()) return "";
  std::string out;
  for (const auto& name : names) {
    auto it = e.response_headers.find(name);
    out += fmt::format("{}{}: {}", out.empty() ? "" : " · ", name, it == e.response_headers.end() ? "(none)" : it->second);
  }
  return out;
}

std::string document_location(const Report& report) {
  if (report.mode == "lint" && !report.base_url.empty()) return report.base_url;  // lint: the path as given
  return report.openapi_url.value_or(report.base_url);
}

std::string fingerprint(const std::string& rule_id, const CheckResult& check, const std::string& scope) {
  std::string input = (scope.empty() ? std::string() : scope + '\0') + rule_id + '\0' + check.id + '\0' +
                      (check.locations.empty() ? std::string() : check.locations.front().pointer) + '\0' + check.message;
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (!EVP_Digest(input.data(), input.size(), digest, &size, EVP_sha256(), nullptr))
    throw std::runtime_error("SHA-256 failed");
  std::string hex;
  for (unsigned int i = 0; i < size; ++i) hex += fmt::format("{:02x}", digest[i]);
  return hex;
}

}  // namespace adrprobe::report
