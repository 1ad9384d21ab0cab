// JUnit XML for CI test reports, in the shape GitLab's and Jenkins' test report
// readers take: one <testsuite> for the run, one uniquely named <testcase> per
// technical rule (GitLab keeps only the first of several tests with one name).
//
// Under --fail-on regressed (CLI.md, "Nightly monitoring") a test case fails
// only for what makes the night red: a rule new-fail or regressed, a target
// newly down. A failure as it was in the baseline (or with no baseline to
// compare with) is <skipped/>, "known failure since DATE", as test frameworks
// report a known failure: the platform's test view then lists tonight's news,
// not every failure of the register each night. Its details stay in the case's
// <system-out>. Every case names its change and failing_since in <properties>
// (as pytest and Jenkins' keepProperties write them) and in its message.
//
// A module's rules (module-geo.md) are test cases like the edition's, after
// them, in a class of their own (`<target>.geo`), so the platform's test view
// groups them under the module; the suite's properties and <system-out> name
// each module, its version, why it was judged and its own count.
//
// Functional rules are no test cases: they never get a verdict (a reviewer
// judges them), so as <skipped/> they would be the same N skipped tests in every
// pipeline and hide the technical rules that were really skipped. The suite's
// <system-out> counts them instead.
#include <fmt/format.h>

#include <pugixml.hpp>
#include <set>
#include <sstream>

#include "report/formats.hpp"
#include "report/sections.hpp"
#include "util/strings.hpp"

namespace adrprobe::report {
namespace {

// Text for XML: control characters and invalid UTF-8 made visible (XML 1.0
// cannot hold most C0 controls at all, not even as character references), and
// the two non-characters XML 1.0 excludes (U+FFFE, U+FFFF). pugixml escapes
// the markup characters (<, &, >, quotes).
std::string X(std::string_view s) {
  std::string out = escape_control(s);
  out = replace_all(std::move(out), "\xEF\xBF\xBE", "\\uFFFE");
  return replace_all(std::move(out), "\xEF\xBF\xBF", "\\uFFFF");
}

// The lines under a failure, error or warning: each check that did not pass,
// its message, and the requests that prove it; the change against a baseline.
std::string problem_text(const Report& r, const RuleResult& rule) {
  std::vector<std::string> lines;
  for (const auto& c : rule.checks) {
    if (severity(c.verdict) <= severity(Verdict::pass)) continue;
    lines.push_back(fmt::format("{} {}: {}", X(c.id), to_string(c.verdict), X(c.message)));
    for (const auto& l : c.locations) {
      std::string at = "  at " + X(l.pointer) + (l.target.empty() ? "" : " → " + X(l.target));
      lines.push_back(l.line ? fmt::format("{} (line {})", at, *l.line) : at);
    }
    for (int id : c.exchanges)
      if (const auto* e = find_exchange(r, id)) {
        std::string judged = judged_headers_line(*e, c.judged_headers);
        lines.push_back("  evidence: #" + std::to_string(id) + " " + X(exchange_line(*e)) + (judged.empty() ? "" : " · " + X(judged)));
      }
  }
  if (rule.change) lines.push_back("change: " + X(*rule.change));
  if (rule.failing_since) lines.push_back("failing since: " + X(*rule.failing_since));
  if (!rule.url.empty()) lines.push_back("rule: " + X(rule.url));
  return join(lines, "\n");
}

// The checks' messages of one verdict, for a failure's message attribute.
std::string messages(const RuleResult& rule, Verdict v) {
  std::vector<std::string> parts;
  for (const auto& c : rule.checks)
    if (c.verdict == v) parts.push_back(X(c.id) + ": " + X(c.message));
  return parts.empty() ? X(rule.summary) : join(parts, "; ");
}

// What a rule's message says first: its change, or since when it has failed.
std::string lead(const Report& r, const RuleResult& rule) {
  if (rule.change == "new-fail" || rule.change == "regressed") return *rule.change + ": ";
  if (rule.verdict != Verdict::fail || !rule.failing_since) return "";
  return (r.compared ? "known failure since " : "failing since ") + X(*rule.failing_since) + ": ";
}

// The message of a failure or error that is no news under --fail-on regressed (a skipped case).
std::string known(const Report& r, const std::string& since, const std::string& what) {
  if (since.empty()) return (r.compared ? "no change since the baseline: " : "no baseline to compare with: ") + what;
  if (r.compared) return fmt::format("known failure since {}: {}", X(since), what);
  return fmt::format("failing since {}, no baseline to compare with: {}", X(since), what);
}

// A case's change and since when, as properties of its own.
void case_properties(pugi::xml_node tc, const std::vector<std::pair<const char*, std::string>>& values) {
  pugi::xml_node properties;
  for (const auto& [name, value] : values) {
    if (value.empty()) continue;
    if (!properties) properties = tc.append_child("properties");
    auto p = properties.append_child("property");
    p.append_attribute("name") = name;
    p.append_attribute("value") = value.c_str();
  }
}

std::string seconds(long long ms) { return fmt::format("{:.3f}", static_cast<double>(ms) / 1000.0); }

}  // namespace

std::string render_junit(const Report& r, const RenderOptions& options) {
  pugi::xml_document doc;
  auto decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";

  std::string target = r.mode == "lint" ? document_location(r) : r.base_url;
  // A batch's targets may share a URL (tenants, editions): the name tells their suites apart.
  if (r.name && *r.name != target) target = *r.name + " " + target;
  // Per target (a batch's name, unique in the register), so GitLab's test table tells the APIs apart.
  std::string classname = r.name ? "adrprobe." + X(*r.name) : "adrprobe." + X(r.edition);
  auto suites = doc.append_child("testsuites");
  suites.append_attribute("name") = "adrprobe";
  auto suite = suites.append_child("testsuite");
  suite.append_attribute("name") = fmt::format("adrprobe {} {}", X(r.edition), X(target)).c_str();

  int tests = 0, failures = 0, errors = 0, skipped = 0, functional = 0;
  std::set<std::string> names;
  std::vector<pugi::xml_node> cases;
  auto properties = suite.append_child("properties");
  auto property = [&](const char* name, const std::string& value) {
    auto p = properties.append_child("property");
    p.append_attribute("name") = name;
    p.append_attribute("value") = value.c_str();
  };
  // The conclusion first (CLI.md: every format shows it first): conforms true,
  // false or null (n/a), its counts and text; then what was run.
  Conclusion conclusion = conclude(r);
  property("conclusion.conforms", conclusion.conforms ? (*conclusion.conforms ? "true" : "false") : "null");
  property("conclusion.must_failed", std::to_string(conclusion.must_failed));
  property("conclusion.should_failed", std::to_string(conclusion.should_failed));
  property("conclusion.warned", std::to_string(conclusion.warned));
  property("conclusion.errors", std::to_string(conclusion.errors));
  property("conclusion.functional_pending", std::to_string(conclusion.functional_pending));
  property("conclusion.text", X(conclusion.text));
  property("edition", X(r.edition));
  property("mode", X(r.mode));
  property("target", X(target));
  property("score", r.score.percent ? fmt::format("{:.1f}", *r.score.percent) : "n/a");
  property("state", state_of(r));
  if (!r.owner.empty()) property("owner", X(r.owner));
  for (const auto& [key, value] : r.labels) property(("label." + X(key)).c_str(), X(value));
  if (!r.moved_from.empty()) property("moved_from", X(r.moved_from));
  if (r.unreachable && !r.down_since.empty()) property("down_since", X(r.down_since));
  std::vector<RuleSection> sections = rule_sections(r);
  for (std::size_t i = 1; i < sections.size(); ++i) {
    const std::string prefix = "module." + X(sections[i].module.id);
    property(prefix.c_str(), X(module_heading(sections[i].module)));
    if (!sections[i].module.reason.empty()) property((prefix + ".reason").c_str(), X(sections[i].module.reason));
  }
  bool regressed_only = options.fail_on == FailOn::regressed;

  if (r.unreachable) {
    // Down: one test case, one error (CLI.md, "Nightly monitoring"), not one per rule.
    auto tc = suite.append_child("testcase");
    tc.append_attribute("name") = "down";
    tc.append_attribute("classname") = classname.c_str();
    case_properties(tc, {{"change", r.compared ? (r.went_down ? "down" : "unchanged") : ""}, {"down_since", X(r.down_since)}});
    std::string cause = "down: " + X(down_cause(r));
    ++tests;
    if (regressed_only && !r.went_down) {
      ++skipped;
      tc.append_child("skipped").append_attribute("message") = known(r, r.down_since, cause).c_str();
    } else {
      auto e = tc.append_child("error");
      e.append_attribute("message") = (cause + (r.down_since.empty() ? "" : " (down since " + X(r.down_since) + ")")).c_str();
      e.append_attribute("type") = "down";
      ++errors;
    }
  }
  for (const auto& rule : r.rules) {
    if (r.unreachable) break;
    if (rule.kind != "technical") {
      ++functional;
      continue;
    }
    // Rule ids are unique in an edition; a repeat would still get a name of its own.
    std::string name = X(rule.id) + " " + X(rule.title);
    for (int n = 2; !names.insert(name).second; ++n) name = fmt::format("{} {} ({})", X(rule.id), X(rule.title), n);
    auto tc = suite.append_child("testcase");
    tc.append_attribute("name") = name.c_str();
    tc.append_attribute("classname") = (rule.module.empty() ? classname : classname + "." + X(rule.module)).c_str();
    ++tests;
    case_properties(tc, {{"change", rule.change ? X(*rule.change) : ""}, {"failing_since", X(rule.failing_since.value_or(""))}});
    bool worse = rule.change == "new-fail" || rule.change == "regressed";
    if (regressed_only && !worse && (rule.verdict == Verdict::fail || rule.verdict == Verdict::error)) {
      ++skipped;
      tc.append_child("skipped").append_attribute("message") =
          known(r, rule.failing_since.value_or(""), messages(rule, rule.verdict)).c_str();
      tc.append_child("system-out").text() = (to_string(rule.verdict) + std::string(": ") + problem_text(r, rule)).c_str();
      continue;
    }
    bool warn_fails = options.fail_on == FailOn::warn || (regressed_only && worse);
    switch (rule.verdict) {
      case Verdict::fail: {
        ++failures;
        auto f = tc.append_child("failure");
        f.append_attribute("message") = (lead(r, rule) + messages(rule, Verdict::fail)).c_str();
        f.append_attribute("type") = "fail";
        f.text() = problem_text(r, rule).c_str();
        break;
      }
      case Verdict::error: {
        ++errors;
        auto e = tc.append_child("error");
        e.append_attribute("message") = (lead(r, rule) + messages(rule, Verdict::error)).c_str();
        e.append_attribute("type") = "error";
        e.text() = problem_text(r, rule).c_str();
        break;
      }
      case Verdict::warn: {
        if (warn_fails) {
          ++failures;
          auto f = tc.append_child("failure");
          f.append_attribute("message") = (lead(r, rule) + messages(rule, Verdict::warn)).c_str();
          f.append_attribute("type") = "warn";
          f.text() = problem_text(r, rule).c_str();
        } else {
          // Passed, with the warning where a reader of the test looks.
          tc.append_child("system-out").text() = ("warn: " + problem_text(r, rule)).c_str();
        }
        break;
      }
      case Verdict::skip:
      case Verdict::manual: {
        ++skipped;
        tc.append_child("skipped").append_attribute("message") = X(rule.summary).c_str();
        break;
      }
      case Verdict::pass:
        if (rule.change) tc.append_child("system-out").text() = ("change: " + X(*rule.change)).c_str();
        break;
    }
  }
  auto counts = [&](pugi::xml_node n) {
    n.append_attribute("tests") = tests;
    n.append_attribute("failures") = failures;
    n.append_attribute("errors") = errors;
    n.append_attribute("skipped") = skipped;
    n.append_attribute("time") = seconds(r.duration_ms).c_str();
  };
  counts(suites);
  counts(suite);
  suite.append_attribute("timestamp") = X(r.generated_at).c_str();

  // What concerns the run as a whole.
  std::vector<std::string> out{X(conclusion.text)};
  if (!r.headline.empty()) out.push_back(X(r.headline));
  for (const auto& note : r.notes) out.push_back(X(note));
  if (functional) out.push_back(plural(static_cast<std::size_t>(functional), "functional rule", "functional rules") +
                                " for a reviewer (not test cases)");
  if (r.unreachable)
    out.push_back("score n/a: the target is down, no rule was judged");
  else
    out.push_back(fmt::format("score {}: {} pass, {} warn, {} fail, {} error of {} applicable technical rules",
                              r.score.percent ? fmt::format("{:.1f} %", *r.score.percent) : "n/a", r.score.pass,
                              r.score.warn, r.score.fail, r.score.error, r.score.applicable));
  for (std::size_t i = 1; i < sections.size() && !r.unreachable; ++i)
    out.push_back(fmt::format("{}: {} (in the score only through the edition's rule for it){}",
                              X(module_heading(sections[i].module)), module_counts(sections[i]),
                              sections[i].module.reason.empty() ? "" : "; " + X(sections[i].module.reason)));
  suite.append_child("system-out").text() = join(out, "\n").c_str();

  std::ostringstream s;
  doc.save(s, "  ", pugi::format_default, pugi::encoding_utf8);
  return s.str();
}

}  // namespace adrprobe::report
