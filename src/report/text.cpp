// The terminal report: one line a rule, the evidence under what does not pass.
#include <fmt/format.h>

#include <algorithm>

#include "report/baseline.hpp"
#include "report/formats.hpp"
#include "report/sections.hpp"
#include "util/strings.hpp"

namespace adrprobe::report {
namespace {

struct Painter {
  bool on;
  std::string operator()(const std::string& text, const char* code) const {
    return on ? fmt::format("\x1b[{}m{}\x1b[0m", code, text) : text;
  }
};

const char* color_of(Verdict v) {
  switch (v) {
    case Verdict::pass: return "32";
    case Verdict::warn: return "33";
    case Verdict::fail: return "1;31";
    case Verdict::error: return "35";
    case Verdict::skip: return "2";
    case Verdict::manual: return "36";
  }
  return "0";
}

std::string label(Verdict v, const Painter& paint) {
  return paint(fmt::format("{:<6}", to_upper(to_string(v))), color_of(v));
}

// Text from the report (server headers, document strings, error texts, but also
// the tool's own) is shown with control characters and invalid UTF-8 made
// visible (\x1b): no byte a server sends can move the cursor or retitle the
// terminal. Only the renderer's own colour codes are written raw.
std::string E(std::string_view s) { return escape_control(s); }

// The exchange, with the response headers a reader most often needs and
// those the check judged (CheckResult::judged_headers: EH-2's Content-Type).
std::string evidence_line(const http::Exchange& e, const std::vector<std::string>& judged = {}) {
  std::string line = fmt::format("#{} {} {}", e.id, E(e.method), E(e.url));
  if (e.error) return line + "  ✗ " + E(*e.error);
  line += fmt::format(" → {}", *e.status);
  std::vector<std::string> names{"location", "allow", "api-version", "access-control-allow-origin"};
  for (const auto& h : judged)
    if (std::find(names.begin(), names.end(), to_lower(h)) == names.end()) names.push_back(to_lower(h));
  for (const auto& h : names)
    if (auto it = e.response_headers.find(h); it != e.response_headers.end()) line += fmt::format("  {}: {}", E(h), E(it->second));
    else if (std::find(judged.begin(), judged.end(), h) != judged.end()) line += fmt::format("  {}: (none)", E(h));
  return line;
}

}  // namespace

std::string render_text(const Report& r, const RenderOptions& style) {
  Painter paint{style.color};
  std::string out;
  // Every piece of report data in a line has passed through E() (see above).
  auto line = [&](const std::string& s) { out += s + "\n"; };

  // The edition as asked (an alias, "latest") and the catalogue that judged it.
  std::string edition = r.edition_name.empty() ? "edition " + r.edition : r.edition_name;
  if (r.run && !r.run->edition_asked.empty() && r.run->edition_asked != r.edition)
    edition = r.run->edition_note.empty()
                  ? fmt::format("{} (--edition {})", edition, r.run->edition_asked)
                  : fmt::format("edition {} (judged by the {} catalogue: {})", r.run->edition_asked, r.edition,
                                r.run->edition_note);
  std::string target = r.mode == "lint" ? fmt::format(" Document {}", E(r.openapi_url.value_or(r.base_url)))
                                        : fmt::format(" Target   {}", E(r.base_url));
  // The conclusion an auditor signs comes first (CLI.md), even with -q.
  Conclusion conclusion = conclude(r);
  const char* conclusion_color = conclusion.conforms == std::optional<bool>(false) ? "1;31"
                                 : conclusion.conforms                             ? "1;32"
                                                                                   : "1;35";
  line(paint(E(conclusion.text), conclusion_color));
  if (style.verbosity >= 0) {
    line(paint(fmt::format("adrprobe {} · {}", E(r.tool_version), E(edition)), "1"));
    line(target);
    if (r.mode == "lint") {
      line(fmt::format(" Run      static checks on the document alone, {}, {:.1f} s",
                       plural(r.exchanges.size(), "request", "requests"), r.duration_ms / 1000.0));
    } else {
      if (r.openapi_url) line(fmt::format(" OpenAPI  {}", E(*r.openapi_url)));
      line(fmt::format(" Run      {} probed, {}, {:.1f} s",
                       plural(static_cast<std::size_t>(r.paths_probed), "documented path", "documented paths"),
                       plural(r.exchanges.size(), "request", "requests"), r.duration_ms / 1000.0));
    }
  } else {
    line(target);  // -q: a CI log of many APIs still says which one this is
  }
  // Shown even with -q: without it the verdicts below make no sense.
  if (!r.headline.empty()) line(paint(fmt::format(" Note     {}", r.headline), "1"));
  // What concerns the whole report (the target could not be reached, the base
  // URL looks wrong) comes before everything else.
  std::size_t leading = std::min(r.leading_notes, r.notes.size());
  if (leading) {
    line("");
    for (std::size_t i = 0; i < leading; ++i) line(paint(" " + r.notes[i], "1;33"));
  }
  if (r.tls && style.verbosity >= 0) {
    const tls::Facts& t = *r.tls;
    std::string where = E(t.host.find(':') != std::string::npos ? "[" + t.host + "]" : t.host) + ":" + std::to_string(t.port);
    line("");
    if (!t.proxy.empty()) where += " via proxy " + t.proxy;
    if (!t.handshake_ok) {
      line(fmt::format(" TLS      {} · default handshake failed: {}", where, E(t.error)));
    } else {
      std::string trust = t.trusted ? paint("certificate trusted", "32")
                                    : paint("certificate NOT trusted: " + E(t.trust_error), "1;31");
      line(fmt::format(" TLS      {} · {} · {} · {} · {}", where, E(t.protocol), E(t.cipher), E(t.group), trust));
    }
    if (t.client_cert_requested && t.client_cert_refusal.empty())
      line(fmt::format("          client certificate: asked for by the server; {}",
                       t.client_cert_sent ? "sent (--cert)" : "none given (--cert, --key)"));
    // The per-version handshakes and the certificate are facts even when the default handshake failed.
    std::vector<std::string> protocols;
    for (const auto& p : t.protocols)
      protocols.push_back(fmt::format("{} {}", E(p.name),
                                      !p.testable         ? "n/a"
                                      : p.accepted        ? "yes"
                                      : p.deadline_reached ? "unknown (deadline reached)"
                                                           : "no"));
    if (!protocols.empty()) line(fmt::format("          protocols: {}", join(protocols, " · ")));
    // -v: every accepted suite (TS-3) with its NCSC level and key exchange.
    if (style.verbosity > 0)
      for (const auto& p : t.protocols) {
        if (!p.accepted || p.suites.empty()) continue;
        line(fmt::format("          {} suites{}:", E(p.name), p.suites_complete    ? ""
                                                       : p.deadline_reached ? " (enumeration stopped early: deadline reached)"
                                                                            : " (enumeration stopped early)"));
        for (const auto& s : p.suites) {
          std::string kx = s.kx.empty() ? "" : fmt::format("  {} {}", E(s.kx), E(replace_all(s.kx_level, "_", " ")));
          line(fmt::format("            {:<40} {:<12}{}", E(s.name), E(replace_all(s.level, "_", " ")), kx));
        }
      }
    if (!t.chain.empty()) {
      const auto& c = t.chain.front();
      line(fmt::format("          certificate: {}, issued by {}, {}, {}", E(c.subject), E(c.issuer), E(c.key), E(c.signature)));
      long days = c.days_left;
      line(fmt::format("          {} {} ({}){}", days < 0 ? "expired" : "valid until", E(c.not_after),
                       days < 0 ? fmt::format("{} days ago", -days) : fmt::format("{} days left", days),
                       c.sans.empty() ? "" : ", for " + E(join(c.sans, ", ", 6))));
    }
  }
  auto id_of = [&](int id) -> const http::Exchange* {
    auto it = std::find_if(r.exchanges.begin(), r.exchanges.end(), [&](const auto& e) { return e.id == id; });
    return it == r.exchanges.end() ? nullptr : &*it;
  };

  // Down (CLI.md, "Nightly monitoring"): one entry, not a line per rule that
  // could not run (-v lists them); only a rule that failed without an answer
  // (TS-1 on http://) is listed below it.
  bool one_entry = r.unreachable && style.verbosity <= 0;
  auto listed = [&](const RuleResult& rule) { return !one_entry || rule.verdict == Verdict::fail; };
  if (one_entry) {
    std::size_t technical = 0, functional = 0;
    for (const auto& rule : r.rules)
      if (!listed(rule)) (rule.kind == "technical" ? technical : functional) += 1;
    // The cause is the leading note above.
    line("");
    line(fmt::format("  {} {} and {} not judged (-v lists them)", paint("DOWN  ", "1;31"),
                     plural(technical, "technical rule", "technical rules"),
                     plural(functional, "functional rule", "functional rules")));
  }
  // One rule's line, and under it its checks and evidence (technical) or its hints (functional).
  auto rule_lines = [&](const RuleResult& rule, std::size_t width) {
    bool technical = rule.kind == "technical";
    bool ok = rule.verdict == Verdict::pass || rule.verdict == Verdict::skip;
    if (style.verbosity < 0 && ok) return;
    // A rule that passes shows why on its line; one that does not shows its
    // title, with the checks that give the reason on the lines below.
    std::string reason = technical && ok ? rule.summary : rule.title;
    if (style.verbosity <= 0 && style.terminal) reason = truncate_utf8(reason, 110);
    // Against a baseline: what changed, before the reason (unchanged says nothing).
    std::string change = rule.change && *rule.change != "unchanged"
                             ? paint("[" + *rule.change + "] ", *rule.change == "fixed" ? "32" : "1;31")
                             : "";
    line(fmt::format("  {} {:<{}}  {}{}", label(rule.verdict, paint), E(rule.id), width, change, E(reason)));
    if (technical && ok && style.verbosity > 0) line(fmt::format("         {}", E(rule.title)));
    if (style.verbosity > 0 && (!rule.level.empty() || !rule.url.empty()))
      line(fmt::format("         {}{}{}", E(rule.level), !rule.level.empty() && !rule.url.empty() ? " · " : "",
                       E(rule.url)));
    if (!technical) {
      std::size_t shown = style.verbosity > 0 ? rule.hints.size() : std::min<std::size_t>(rule.hints.size(), 3);
      for (std::size_t i = 0; i < shown; ++i) line(fmt::format("         hint: {}", E(rule.hints[i])));
      if (shown < rule.hints.size())
        line(fmt::format("         ({} more {}: -v)", rule.hints.size() - shown,
                         rule.hints.size() - shown == 1 ? "hint" : "hints"));
      if (style.verbosity > 0 && !rule.review.empty()) line(fmt::format("         review: {}", E(trim(rule.review))));
      return;
    }
    // A rule judged from other rules (/core/geospatial from the module's): which, under its title.
    if (!ok && rule.checks.empty() && !rule.summary.empty()) line(fmt::format("         {}", E(rule.summary)));
    for (const auto& c : rule.checks) {
      bool show = style.verbosity > 0 || severity(c.verdict) > severity(Verdict::pass) ||
                  (c.verdict == Verdict::skip && style.verbosity >= 0 && !ok);
      // Unreachable: the line at the top says why these could not run (-v shows each).
      if (r.unreachable && c.verdict == Verdict::error && style.verbosity <= 0) show = false;
      if (!show) continue;
      std::string message = style.verbosity > 0 || !style.terminal ? c.message : truncate_utf8(c.message, 400);
      // A column of 5 for the check id, and a space after a longer one (GE-12).
      line(fmt::format("         {:<5}{}{} {}", E(c.id), c.id.size() >= 5 ? " " : "",
                       paint(to_string(c.verdict), color_of(c.verdict)), E(message)));
      bool problem = severity(c.verdict) > severity(Verdict::pass);
      std::size_t max_ev = style.verbosity > 0 ? 5 : (problem ? 1 : 0);
      for (std::size_t i = 0; i < std::min(max_ev, c.exchanges.size()); ++i)
        if (const auto* e = id_of(c.exchanges[i]))
          line(paint(fmt::format("              {}", evidence_line(*e, c.judged_headers)), "2"));
      // What to change comes after what proves it.
      if (c.fix && style.verbosity >= 0) {
        // Where it is documented, then the whole change: a few lines, which a
        // reader pastes, so tabs stay tabs (it is the tool's text, not a server's).
        std::string who = c.fix->name.empty() ? "fix:" : "fix (" + c.fix->name + "):";
        line(fmt::format("              {} {}", E(who), E(c.fix->source)));
        for (const auto& l : split(trim(c.fix->text), '\n'))
          line(l.empty() ? "" : "                " + escape_control(l, Tabs::kept));
      }
    }
  };
  auto id_width = [](const std::vector<const RuleResult*>& rules) {
    std::size_t width = 0;
    for (const RuleResult* rule : rules) width = std::max(width, rule->id.size());
    return width;
  };
  std::vector<RuleSection> sections = rule_sections(r);
  const std::vector<const RuleResult*>& edition_rules = sections.front().rules;
  std::size_t width = id_width(edition_rules);
  for (const char* kind : {"technical", "functional"}) {
    bool technical = std::string(kind) == "technical";
    if (!technical && style.verbosity < 0) continue;
    if (one_entry && std::none_of(edition_rules.begin(), edition_rules.end(),
                                  [&](const auto* rule) { return rule->kind == kind && listed(*rule); }))
      continue;
    line("");
    line(paint(technical ? " Technical rules" : " Functional rules (manual review)", "1"));
    for (const RuleResult* rule : edition_rules)
      if (rule->kind == kind && listed(*rule)) rule_lines(*rule, width);
  }
  // Each module judged beside the edition (module-geo.md): its heading, its own
  // count and why it was judged, then its rules as the edition's are shown,
  // technical first. They count in the score only through the edition's rule
  // for the module, which the conclusion and score below say.
  for (std::size_t i = 1; i < sections.size(); ++i) {
    const RuleSection& s = sections[i];
    // -q: only what does not pass, so a module with nothing to show is left out.
    if (style.verbosity < 0 && std::all_of(s.rules.begin(), s.rules.end(), [](const RuleResult* rule) {
          return rule->verdict == Verdict::pass || rule->verdict == Verdict::skip || rule->kind != "technical";
        }))
      continue;
    line("");
    line(fmt::format(" {}  {}", paint(E(module_heading(s.module)), "1"), module_counts(s)));
    if (!s.module.reason.empty() && style.verbosity >= 0) line("  " + E(s.module.reason));
    std::size_t module_width = id_width(s.rules);
    for (const char* kind : {"technical", "functional"}) {
      if (std::string(kind) == "functional" && style.verbosity < 0) continue;
      for (const RuleResult* rule : s.rules)
        if (rule->kind == kind && listed(*rule)) rule_lines(*rule, module_width);
    }
  }
  if (r.notes.size() > leading && style.verbosity >= 0) {
    line("");
    line(paint(" Notes", "1"));
    for (std::size_t i = leading; i < r.notes.size(); ++i) line("  " + E(r.notes[i]));
  }
  line("");
  std::string percent = r.score.percent ? fmt::format("{:.1f} %", *r.score.percent) : "n/a";
  if (r.unreachable)
    line(fmt::format(" {}  {}  the target is down{}", paint("Score", "1"), percent,
                     r.score.fail ? fmt::format(": {} fail · {} not judged", r.score.fail, r.score.error) : ""));
  else
    line(fmt::format(" {}  {}  {} pass · {} warn · {} fail · {} error of {} applicable technical rules",
                     paint("Score", "1"), percent, r.score.pass, r.score.warn, r.score.fail, r.score.error,
                     r.score.applicable));
  if (r.went_down) line(fmt::format(" {}  went down (it was up in the baseline)", paint("Since baseline", "1")));
  if (r.came_back) line(fmt::format(" {}  back up (it was down in the baseline)", paint("Since baseline", "1")));
  if (auto c = changes(r); c && !r.unreachable) {
    auto list = [&](const std::vector<std::string>& ids) { return ids.empty() ? std::string() : ": " + E(join(ids, ", ")); };
    line(fmt::format(" {}  {} new-fail{} · {} regressed{} · {} fixed{}", paint("Since baseline", "1"), c->new_fail.size(),
                     list(c->new_fail), c->regressed.size(), list(c->regressed), c->fixed.size(), list(c->fixed)));
  }
  return out;
}

}  // namespace adrprobe::report
