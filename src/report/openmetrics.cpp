// OpenMetrics text (-o openmetrics=FILE, summary.prom) for a Prometheus
// textfile collector: per-target gauges (the conclusion first: conforms and
// its counts; score, verdict counts, days until the
// certificate expires, reachable, when it ran, regressions) and one gauge per
// technical rule, so a dashboard can alert on a regression or an expiring
// certificate. A module's rules (module-geo.md) carry a `module` label
// ("geo"), and adrprobe_rules counts them apart with it; the edition's rules
// have no such label, so their series are those of a report without a
// module. Only gauges, which the Prometheus text format and OpenMetrics
// both read; ends with "# EOF".
#include <fmt/format.h>

#include <ctime>
#include <map>
#include <optional>

#include "report/formats.hpp"
#include "report/summary.hpp"
#include "util/strings.hpp"

namespace adrprobe::report {

namespace {

// A label value: valid UTF-8 (server text is not trusted), with \, " and
// newline escaped as both formats require.
std::string label_value(const std::string& s) {
  std::string in = escape_control(s);  // control characters and invalid UTF-8 made visible first
  std::string out;
  for (char c : in) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string labels(const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::vector<std::string> parts;
  for (const auto& [k, v] : pairs) parts.push_back(fmt::format("{}=\"{}\"", k, label_value(v)));
  return "{" + join(parts, ",") + "}";
}

// Seconds since the epoch of an RFC 3339 UTC time ("2026-11-22T02:00:00Z").
std::optional<long long> epoch_of(const std::string& t) {
  std::tm tm{};
  if (t.size() < 19 || !strptime(t.c_str(), "%Y-%m-%dT%H:%M:%S", &tm)) return std::nullopt;
  return static_cast<long long>(timegm(&tm));
}

std::string number(double v) { return fmt::format("{}", v); }

struct Family {
  std::string name, help;
  std::vector<std::string> samples;
};

}  // namespace

std::string render_summary_openmetrics(const Summary& summary) {
  std::vector<Family> families{
      // The conclusion first (CLI.md: every format shows it first). Unknown is
      // no sample, never NaN (Prometheus practice: NaN only where it makes
      // mathematical sense): absent() tells it, and the counts say why.
      {"adrprobe_conforms",
       "1 when the target conforms (no technical MUST rule fails, every one judged), 0 when a MUST rule fails; "
       "absent when conformance was not established (a rule could not be judged, or the target is down)",
       {}},
      {"adrprobe_conclusion_rules",
       "The conclusion's counts: technical rules failing at MUST or SHOULD, warning, not judged (error); functional "
       "rules awaiting a reviewer (absent for a target that is down)",
       {}},
      {"adrprobe_score_percent", "Share of the applicable technical rules that pass or warn (absent: no verdict)", {}},
      {"adrprobe_rules", "Technical rules by verdict", {}},
      {"adrprobe_rule_verdict", "1 for the verdict of each technical rule", {}},
      {"adrprobe_rule_failing", "1 when the technical rule fails, else 0", {}},
      {"adrprobe_changes", "Rules by change against the baseline (absent without one)", {}},
      {"adrprobe_rule_change", "1 for each technical rule marked new-fail, regressed or fixed against the baseline", {}},
      {"adrprobe_certificate_days_left", "Days until the TLS certificate of the target expires", {}},
      {"adrprobe_target_reachable", "1 when the base URL or the document answered, else 0", {}},
      {"adrprobe_last_run_timestamp_seconds", "When the target's report was made", {}},
      {"adrprobe_target_info", "The target's base URL and edition (series are keyed by the target's name)", {}},
  };
  auto family = [&](const char* name) -> Family& {
    for (auto& f : families)
      if (f.name == name) return f;
    return families.front();
  };
  for (const auto& t : summary.targets) {
    // Keyed by the target's name (CLI.md): a moved API keeps its series. Its
    // owner and the register's labels go on every series; the URL and the
    // edition on adrprobe_target_info alone.
    std::vector<std::pair<std::string, std::string>> target{{"target", t.name}};
    if (!t.owner.empty()) target.emplace_back("owner", t.owner);
    for (const auto& label : t.labels) target.push_back(label);
    family("adrprobe_target_info").samples.push_back(
        labels([&] {
          auto all = target;
          all.emplace_back("base_url", t.base_url);
          all.emplace_back("edition", t.edition);
          all.emplace_back("state", t.reachable ? "up" : "down");
          return all;
        }()) +
        " 1");
    auto with = [&](std::vector<std::pair<std::string, std::string>> more) {
      auto all = target;
      all.insert(all.end(), more.begin(), more.end());
      return labels(all);
    };
    if (t.conclusion) {
      if (t.conclusion->conforms)
        family("adrprobe_conforms").samples.push_back(labels(target) + (*t.conclusion->conforms ? " 1" : " 0"));
      // A down target: one state (adrprobe_target_reachable 0), no counts of rules never judged.
      if (t.reachable)
        for (auto [outcome, n] : {std::pair{"must_failed", t.conclusion->must_failed},
                                  std::pair{"should_failed", t.conclusion->should_failed},
                                  std::pair{"warned", t.conclusion->warned}, std::pair{"errors", t.conclusion->errors},
                                  std::pair{"functional_pending", t.conclusion->functional_pending}})
          family("adrprobe_conclusion_rules").samples.push_back(with({{"outcome", outcome}}) + " " + std::to_string(n));
    }
    if (t.score.percent) family("adrprobe_score_percent").samples.push_back(labels(target) + " " + number(*t.score.percent));
    // A rule's labels: a module's rule names its module (the edition's name none).
    auto rule_labels = [&](const std::string& id) {
      const SummaryModule* m = module_of(t, id);
      return m ? std::vector<std::pair<std::string, std::string>>{{"module", m->id}, {"rule", id}}
               : std::vector<std::pair<std::string, std::string>>{{"rule", id}};
    };
    std::map<Verdict, int> counts{{Verdict::pass, t.score.pass}, {Verdict::warn, t.score.warn},
                                  {Verdict::fail, t.score.fail}, {Verdict::error, t.score.error}, {Verdict::skip, 0}};
    std::map<std::string, std::map<Verdict, int>> module_counts;
    for (const auto& m : t.modules) module_counts[m.id];
    for (const auto& [id, v] : t.verdicts) {
      if (const SummaryModule* m = module_of(t, id)) ++module_counts[m->id][v];
      else if (v == Verdict::skip) ++counts[Verdict::skip];
    }
    // A down target has no verdicts (one state, not per-rule noise).
    if (t.reachable) {
      for (Verdict v : {Verdict::pass, Verdict::warn, Verdict::fail, Verdict::error, Verdict::skip})
        family("adrprobe_rules").samples.push_back(with({{"verdict", to_string(v)}}) + " " + std::to_string(counts[v]));
      for (auto& [module, by_verdict] : module_counts)
        for (Verdict v : {Verdict::pass, Verdict::warn, Verdict::fail, Verdict::error, Verdict::skip})
          family("adrprobe_rules").samples.push_back(with({{"module", module}, {"verdict", to_string(v)}}) + " " +
                                                     std::to_string(by_verdict[v]));
    }
    for (const auto& [id, v] : t.verdicts) {
      auto rule = rule_labels(id);
      auto with_verdict = rule;
      with_verdict.emplace_back("verdict", to_string(v));
      family("adrprobe_rule_verdict").samples.push_back(with(with_verdict) + " 1");
      family("adrprobe_rule_failing").samples.push_back(with(rule) + (v == Verdict::fail ? " 1" : " 0"));
    }
    if (t.change) {
      for (auto [name, list] : {std::pair{"new-fail", &t.change->new_fail}, std::pair{"regressed", &t.change->regressed},
                                std::pair{"fixed", &t.change->fixed}})
        family("adrprobe_changes").samples.push_back(with({{"change", name}}) + " " + std::to_string(list->size()));
      family("adrprobe_changes").samples.push_back(with({{"change", "down"}}) + (t.change->down ? " 1" : " 0"));
      family("adrprobe_changes").samples.push_back(with({{"change", "back-up"}}) + (t.change->back_up ? " 1" : " 0"));
      for (auto [name, list] : {std::pair{"new-fail", &t.change->new_fail}, std::pair{"regressed", &t.change->regressed},
                                std::pair{"fixed", &t.change->fixed}})
        for (const auto& id : *list) {
          auto labels = rule_labels(id);
          labels.emplace_back("change", name);
          family("adrprobe_rule_change").samples.push_back(with(labels) + " 1");
        }
    }
    if (t.cert_days_left)
      family("adrprobe_certificate_days_left").samples.push_back(labels(target) + " " + std::to_string(*t.cert_days_left));
    family("adrprobe_target_reachable").samples.push_back(labels(target) + (t.reachable ? " 1" : " 0"));
    if (auto at = epoch_of(t.generated_at))
      family("adrprobe_last_run_timestamp_seconds").samples.push_back(labels(target) + " " + std::to_string(*at));
  }
  std::string out;
  for (const auto& f : families) {
    out += fmt::format("# HELP {} {}\n# TYPE {} gauge\n", f.name, f.help, f.name);
    for (const auto& s : f.samples) out += f.name + s + "\n";
  }
  out += "# EOF\n";
  return out;
}

std::string render_openmetrics(const Report& r, const RenderOptions& options) {
  Summary s;
  s.tool_version = r.tool_version;
  s.generated_at = r.generated_at;
  s.targets.push_back(summarize(r, r.name.value_or(r.mode == "lint" ? r.openapi_url.value_or(r.base_url) : r.base_url),
                                "", options.fail_on));
  return render_summary_openmetrics(s);
}

}  // namespace adrprobe::report
