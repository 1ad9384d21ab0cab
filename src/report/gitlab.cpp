// GitLab Code Quality (the merge request widget): a JSON array of findings, one
// per technical check that failed, warned or could not be judged, located in
// the description document (the file given to lint, with the line of the
// finding's first JSON pointer) or at the document URL (check).
//
// Severity: fail → major (the document or API breaks a rule), warn → minor (a
// rule's softer form), error → info (the check could not be judged: nothing
// in the code to fix, but a reader should know the rule was not judged).
//
// The conclusion (CLI.md: every format shows it first) has no report-level
// place in a bare array of findings. When conformance is not shown (conforms
// false or null) it is the first finding: check_name adrprobe/conclusion,
// severity info (it adds no severity to the rules' own findings), its text as
// the description, at line 1 of the document, with a fingerprint of the target
// and the conforms value only, so the merge request widget shows it as new
// exactly when conformance is lost (or can no longer be established) and as
// resolved when it is regained. A conforming target gets no such finding: an
// empty array stays "nothing to fix" (ARCHITECTURE.md, decisions).
// A down target is one finding (adrprobe/down), not a transport error per check.
#include <nlohmann/json.hpp>

#include "report/formats.hpp"
#include "report/json.hpp"

namespace adrprobe::report {
namespace {

constexpr const char* kConclusionCheck = "adrprobe/conclusion";

const char* gitlab_severity(Verdict v) {
  switch (v) {
    case Verdict::fail: return "major";
    case Verdict::warn: return "minor";
    default: return "info";
  }
}

}  // namespace

std::string render_gitlab(const Report& r, const RenderOptions&) {
  using json = nlohmann::ordered_json;
  json findings = json::array();
  const std::string path = document_location(r);
  const Conclusion conclusion = conclude(r);
  auto report_level = [&](const std::string& check, const std::string& description, const std::string& severity,
                          const std::string& print) {
    json finding;
    finding["description"] = description;
    finding["check_name"] = check;
    finding["fingerprint"] = print;
    finding["severity"] = severity;
    finding["location"] = {{"path", path}, {"lines", {{"begin", 1}}}};
    findings.push_back(std::move(finding));
  };
  if (r.unreachable) {
    // Down: one finding (the conclusion says why none was judged), as JUnit's one `down` case.
    report_level(kDownCheck, "target down: " + down_cause(r) + " — " + conclusion.text, "major", down_fingerprint(r));
    return dump_json(findings);
  }
  if (conclusion.conforms != std::optional<bool>(true)) {
    CheckResult c;
    c.id = kConclusionCheck;
    c.message = conclusion.conforms ? "false" : "null";  // what the fingerprint is of: the target and conforms
    report_level(kConclusionCheck, conclusion.text, "info", fingerprint("", c, r.name.value_or("") + " " + r.base_url));
  }
  for (const auto& rule : r.rules) {
    if (rule.kind != "technical") continue;
    for (const auto& c : rule.checks) {
      if (c.verdict != Verdict::fail && c.verdict != Verdict::warn && c.verdict != Verdict::error) continue;
      // One finding per place (each distinct field; a field in another file
      // has its own target behind the root's $ref), or one for the check.
      std::vector<const Location*> places;
      for (const auto& l : c.locations) places.push_back(&l);
      if (places.empty()) places.push_back(nullptr);
      std::string scope = r.mode == "lint" ? document_location(r) : r.name.value_or("") + " " + r.base_url;
      for (std::size_t i = 0; i < places.size(); ++i) {
        const Location* l = places[i];
        std::string description = rule.id + " " + c.id + ": " + c.message;
        // The place, unless the message names it already.
        if (l) {
          std::string at = l->target.empty() ? l->pointer : l->pointer + " → " + l->target;
          if (c.message.find(l->target.empty() ? l->pointer : l->target) == std::string::npos || places.size() > 1)
            description += " (at " + at + ")";
        }
        int line = l && l->line ? *l->line : 1;
        json finding;
        // Against a baseline the widget shows what is new itself; the mark says how.
        if (rule.change && *rule.change != "unchanged") description = "[" + *rule.change + "] " + description;
        finding["description"] = description;
        finding["check_name"] = c.id;
        // The same finding of two targets of a batch are two findings; the
        // first place keeps the check's fingerprint, the others add theirs.
        finding["fingerprint"] =
            i == 0 ? fingerprint(rule.id, c, scope) : fingerprint(rule.id, c, scope + '\0' + l->pointer + '\0' + l->target);
        finding["severity"] = gitlab_severity(c.verdict);
        finding["location"] = {{"path", path}, {"lines", {{"begin", line}}}};
        findings.push_back(std::move(finding));
      }
    }
  }
  return dump_json(findings);
}

}  // namespace adrprobe::report
