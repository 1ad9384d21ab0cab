// The HTML audit report: one self-contained file an auditor opens offline or
// prints on A4. Which rules fail, why (each check's message), and the requests
// that prove it (rows under the check that cites them); the TLS facts; the
// functional rules as a checklist for the reviewer; how the run was made. Then
// the appendix "Evidence": each cited request in full, anchored #x<id>, so the
// printout can be filed alone. The page skeleton, CSS and escaping are
// report/html_page.*.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "report/formats.hpp"
#include "report/html_page.hpp"
#include "report/sections.hpp"
#include "util/strings.hpp"

namespace adrprobe::report {
namespace {

using html::esc;

// The response headers a check is most often about: shown first, highlighted.
bool key_header(const std::string& name) {
  static const std::set<std::string> names{"location", "allow", "api-version", "content-type",
                                           "strict-transport-security", "content-security-policy",
                                           "x-frame-options", "cache-control", "www-authenticate"};
  return names.count(name) || name.rfind("access-control-", 0) == 0;
}

// Catalogue text (statement, review) written over several YAML lines: one
// paragraph per blank-line-separated block, its line breaks as spaces.
std::string paragraphs(const std::string& text) {
  std::string out, current;
  auto flush = [&] {
    std::string p = trim(current);
    if (!p.empty()) out += "<p>" + esc(p) + "</p>";
    current.clear();
  };
  for (const auto& line : split(text, '\n')) {
    if (trim(line).empty()) flush();
    else current += (current.empty() ? "" : " ") + trim(line);
  }
  flush();
  return out;
}

// "exchange #7" in a hint (escaped already) links to that exchange; the ids
// linked are added to `linked`.
std::string link_exchanges(const std::string& escaped, const std::set<int>& ids, std::set<int>& linked) {
  static const std::string word = "exchange #";
  std::string out;
  std::size_t pos = 0;
  while (true) {
    std::size_t at = escaped.find(word, pos);
    if (at == std::string::npos) break;
    std::size_t digits = at + word.size(), end = digits;
    while (end < escaped.size() && end - digits < 9 && std::isdigit(static_cast<unsigned char>(escaped[end]))) ++end;
    out.append(escaped, pos, at - pos);
    if (int id = end > digits ? std::stoi(escaped.substr(digits, end - digits)) : 0; ids.count(id)) {
      linked.insert(id);
      out += fmt::format("exchange <a href=\"#x{0}\">#{0}</a>", id);
    } else {
      out.append(escaped, at, end - at);
    }
    pos = end;
  }
  out.append(escaped, pos);
  return out;
}

std::string yes_no(bool b) { return b ? "yes" : "no"; }

std::string fact_row(std::string_view name, const std::string& value_html) {
  return fmt::format("<tr><th scope=\"row\">{}</th><td class=\"wrap\">{}</td></tr>\n", name, value_html);
}

std::string edition_html(const Report& r) {
  // The name alone when it carries the number ("REST API Design Rules 2.2.0"), not "2.2.0 — ... 2.2.0".
  std::string out = r.edition_name.empty() ? esc(r.edition)
                    : r.edition_name.find(r.edition) != std::string::npos
                        ? esc(r.edition_name)
                        : esc(r.edition) + " — " + esc(r.edition_name);
  if (r.run && !r.run->edition_asked.empty() && r.run->edition_asked != r.edition)
    out += r.run->edition_note.empty()
               ? fmt::format(" <span class=\"muted\">(--edition {})</span>", esc(r.run->edition_asked))
               : fmt::format(" <span class=\"muted\">(--edition {}, judged by the {} catalogue: {})</span>",
                             esc(r.run->edition_asked), esc(r.edition), esc(r.run->edition_note));
  return out;
}

class Page {
 public:
  Page(const Report& r, const RenderOptions& options) : r_(r), full_checklist_(options.checklist_full) {
    for (const auto& e : r.exchanges) {
      by_id_[e.id] = &e;
      ids_.insert(e.id);
    }
    for (std::size_t i = 0; i < r.rules.size(); ++i) anchor_[&r.rules[i]] = fmt::format("rule-{}", i + 1);
    for (const auto& rule : r.rules)
      if (rule.change) with_change_ = true;
    sections_ = rule_sections(r);
    for (const RuleResult* rule : sections_.front().rules)
      (rule->kind == "functional" ? functional_ : technical_).push_back(rule);
  }

  std::string render() {
    std::string title = r_.name ? *r_.name : (r_.mode == "lint" ? r_.openapi_url.value_or(r_.base_url) : r_.base_url);
    // The main part, conclusion to checklist, then the appendices: the
    // evidence the cards cite (made while the cards are), the other requests.
    std::string body;
    if (r_.unreachable) {
      // Down (CLI.md, "Nightly monitoring"): one entry, not a card per rule
      // that could not run; a card only for a rule that failed without an
      // answer (TS-1 on http://).
      body += fmt::format(
          "<h2 id=\"summary\">Down</h2>\n<p class=\"notice\" role=\"alert\">down: {}{}</p>\n<p>{} technical and {} "
          "functional rules were not judged: the target did not answer. The requests it tried are below.</p>\n",
          esc(down_cause(r_)), r_.went_down ? " (it was up in the baseline)" : "", technical_.size() - failed_down(),
          functional_.size());
      if (failed_down()) body += technical_rules();
    } else {
      body += summary_table();
      body += technical_rules();
      for (std::size_t i = 1; i < sections_.size(); ++i) body += module_section(sections_[i]);
    }
    body += tls_section();
    if (!r_.unreachable) body += functional_rules();
    body += run_section();
    body += evidence_appendix();
    body += other_requests();
    body = header(title) + body;
    body += fmt::format(
        "<footer>adrprobe {} · {} · This file is self-contained: it loads nothing from the network and runs no "
        "script.</footer>\n",
        esc(r_.tool_version), esc(r_.generated_at));
    return html::page("ADR report: " + title, body);
  }

 private:
  const Report& r_;
  bool full_checklist_ = false;
  std::map<int, const http::Exchange*> by_id_;
  std::set<int> ids_;
  // The appendix "Evidence": every exchange a check shown that did not pass
  // cites, or a hint names, with what cites it (links to the rule cards).
  std::set<int> evidence_;
  std::map<int, std::vector<std::string>> cited_by_;
  std::map<const RuleResult*, std::string> anchor_;
  std::vector<const RuleResult*> technical_, functional_;  // the edition's
  std::vector<RuleSection> sections_;  // the edition's, then each module's
  bool with_change_ = false;

  static constexpr std::size_t kRowsPerCheck = 6;  // exchanges shown in full under one check

  // Down: the technical rules that failed without an answer (TS-1 on http://).
  std::size_t failed_down() const {
    if (!r_.unreachable) return 0;
    return static_cast<std::size_t>(std::count_if(technical_.begin(), technical_.end(),
                                                  [](const RuleResult* rule) { return rule->verdict == Verdict::fail; }));
  }

  std::string rule_ids(const RuleResult& rule) const {
    std::string out = fmt::format("<a class=\"mono\" href=\"#{}\">{}</a>", anchor_.at(&rule), esc(rule.id));
    if (!rule.aliases.empty()) out += fmt::format("<div class=\"small muted\">{}</div>", esc(join(rule.aliases, ", ")));
    return out;
  }

  std::string rule_text_link(const RuleResult& rule) const {
    if (!html::is_web_url(rule.url)) return "";
    return html::link(rule.url, "rule text ↗");
  }

  std::string header(const std::string& title) {
    std::string out;
    out += fmt::format("<header>\n<h1>ADR audit report: <span class=\"wrap\">{}</span></h1>\n", esc(title));
    out += fmt::format("<p class=\"sub\">{} · {}{}</p>\n", edition_html(r_), esc(r_.generated_at),
                       r_.mode == "lint" ? " · static checks on the document alone" : "");
    out += "</header>\n";
    // The conclusion an auditor signs: first, above every note and fact (CLI.md).
    Conclusion c = conclude(r_);
    const char* state = c.conforms == std::optional<bool>(false) ? "fail" : c.conforms ? "pass" : "error";
    out += fmt::format("<div class=\"banner banner-{}\" id=\"conclusion\" role=\"status\"><div class=\"banner-label\">{}</div>"
                       "<p>{}</p></div>\n",
                       state,
                       c.conforms == std::optional<bool>(false) ? "✖ Does not conform"
                       : c.conforms                             ? "✔ Conforms (technical rules)"
                                                                : "! Not established",
                       esc(c.text));
    // What concerns the whole report comes before everything else.
    if (!r_.headline.empty())
      out += fmt::format("<div class=\"notice headline\" role=\"alert\"><p>{}</p></div>\n", esc(r_.headline));
    std::size_t leading = std::min(r_.leading_notes, r_.notes.size());
    if (leading) {
      out += "<div class=\"notice\" role=\"alert\">";
      for (std::size_t i = 0; i < leading; ++i) out += fmt::format("<p>{}</p>", esc(r_.notes[i]));
      out += "</div>\n";
    }

    out += "<div class=\"top\">\n<table class=\"facts\">\n";
    if (r_.name) out += fact_row("API", esc(*r_.name));
    if (r_.mode == "lint") {
      out += fact_row("Document", fmt::format("<code>{}</code>", esc(r_.openapi_url.value_or(r_.base_url))));
    } else {
      out += fact_row("Base URL", fmt::format("<code>{}</code>", esc(r_.base_url)));
      out += fact_row("Document", r_.openapi_url ? fmt::format("<code>{}</code>", esc(*r_.openapi_url))
                                                 : std::string("<span class=\"muted\">none found</span>"));
    }
    out += fact_row("Edition", edition_html(r_));
    for (std::size_t i = 1; i < sections_.size() && !r_.unreachable; ++i)
      out += fact_row("Module", fmt::format("<a href=\"#{}\">{}</a> <span class=\"muted\">({})</span>",
                                            module_anchor(sections_[i]), esc(module_heading(sections_[i].module)),
                                            esc(sections_[i].module.reason)));
    out += fact_row("Date", fmt::format("{} <span class=\"muted\">({:.1f} s)</span>", esc(r_.generated_at),
                                        r_.duration_ms / 1000.0));
    if (r_.mode == "lint")
      out += fact_row("Run", fmt::format("lint: static checks on the document alone, {}",
                                         plural(r_.exchanges.size(), "request", "requests")));
    else
      out += fact_row("Run", fmt::format("{} probed, {}",
                                         plural(static_cast<std::size_t>(r_.paths_probed), "documented path",
                                                "documented paths"),
                                         plural(r_.exchanges.size(), "request", "requests")));
    out += fact_row("Tool", fmt::format("adrprobe {} · <a href=\"#run\">run options</a>", esc(r_.tool_version)));
    out += "</table>\n";

    const Score& s = r_.score;
    out += "<div class=\"score\"><div class=\"muted small\">Score (technical rules)</div>";
    out += fmt::format("<div class=\"pct\">{}</div>", s.percent ? fmt::format("{:.1f} %", *s.percent) : "n/a");
    if (r_.unreachable) {
      out += failed_down() ? fmt::format("<div class=\"counts\">down: {} {} · {} not judged</div></div>\n", s.fail,
                                         html::verdict_label(Verdict::fail), s.error)
                           : std::string("<div class=\"counts\">down: no rule judged</div></div>\n");
    } else {
      out += fmt::format("<div class=\"counts\">{} {} · {} {} · {} {} · {} {}</div>", s.pass,
                         html::verdict_label(Verdict::pass), s.warn, html::verdict_label(Verdict::warn), s.fail,
                         html::verdict_label(Verdict::fail), s.error, html::verdict_label(Verdict::error));
      out += fmt::format("<div class=\"small muted\">of {} applicable technical rules; {} functional rules for a "
                         "reviewer</div></div>\n",
                         s.applicable, functional_.size());
    }
    out += "</div>\n";

    if (r_.notes.size() > leading) {
      out += "<h2 id=\"notes\">Notes</h2>\n<ul class=\"notes\">";
      for (std::size_t i = leading; i < r_.notes.size(); ++i) out += fmt::format("<li>{}</li>", esc(r_.notes[i]));
      out += "</ul>\n";
    }
    out += r_.unreachable ? "<nav class=\"toc\"><a href=\"#summary\">Down</a>"
                          : "<nav class=\"toc\"><a href=\"#summary\">Summary</a>";
    if (!r_.unreachable || failed_down()) out += "<a href=\"#technical\">Technical rules</a>";
    if (!r_.unreachable)
      for (std::size_t i = 1; i < sections_.size(); ++i)
        out += fmt::format("<a href=\"#{}\">{}</a>", module_anchor(sections_[i]), esc(module_heading(sections_[i].module)));
    if (r_.tls) out += "<a href=\"#tls\">TLS</a>";
    if (!functional_.empty() && !r_.unreachable) out += "<a href=\"#functional\">Reviewer checklist</a>";
    out += "<a href=\"#run\">Run options</a>";
    if (!evidence_.empty()) out += "<a href=\"#evidence\">Evidence</a>";
    out += "</nav>\n";
    return out;
  }

  std::string summary_table() {
    return "<h2 id=\"summary\">Summary of the rules</h2>\n" + rules_table(technical_, functional_, "#functional");
  }

  // The table of a section's rules: technical first, then functional (on
  // paper one line that points to the checklist at `checklist_href`).
  std::string rules_table(const std::vector<const RuleResult*>& technical, const std::vector<const RuleResult*>& functional,
                          const std::string& checklist_href) const {
    std::string out = "<table class=\"rules\">\n<thead><tr><th>Verdict</th>"
                      "<th>Rule</th><th>Title</th><th>Kind</th><th>Level</th>";
    if (with_change_) out += "<th>Change</th>";
    out += "</tr></thead>\n<tbody>\n";
    for (const auto* list : {&technical, &functional})
      for (const RuleResult* rule : *list) {
        std::string title = esc(rule->title);
        if (std::string l = rule_text_link(*rule); !l.empty())
          title += fmt::format(" <span class=\"small rule-link\">{}</span>", l);  // on paper: on the rule's card
        if (rule->kind == "technical" && !rule->summary.empty())
          title += fmt::format("<div class=\"small muted clamp\">{}</div>", esc(rule->summary));
        // On paper the functional rules are the checklist's rows: one line here says so.
        out += fmt::format("<tr{}><td>{}</td><td>{}</td><td class=\"wrap\">{}</td><td>{}</td><td>{}</td>",
                           rule->kind == "functional" ? " class=\"screen-only\"" : "", html::verdict_label(rule->verdict),
                           rule_ids(*rule), title, esc(rule->kind), esc(rule->level));
        if (with_change_) out += fmt::format("<td>{}</td>", rule->change ? esc(*rule->change) : "");
        out += "</tr>\n";
      }
    if (!functional.empty())
      out += fmt::format("<tr class=\"print-only\"><td colspan=\"{}\">{}: see the <a href=\"{}\">reviewer "
                         "checklist</a></td></tr>\n",
                         with_change_ ? 6 : 5, plural(functional.size(), "functional rule", "functional rules"),
                         checklist_href);
    out += "</tbody>\n</table>\n";
    return out;
  }

  static std::string module_anchor(const RuleSection& section) { return "module-" + html::esc(section.module.id); }

  // A module judged beside the edition (module-geo.md): its own heading, why
  // it was judged, its own count, its rules' table and cards, and the
  // checklist of its functional rules. Existing classes only: a report
  // without a module keeps its page byte for byte.
  std::string module_section(const RuleSection& section) {
    std::string anchor = module_anchor(section);
    std::vector<const RuleResult*> technical, functional;
    for (const RuleResult* rule : section.rules) (rule->kind == "functional" ? functional : technical).push_back(rule);
    std::string out = fmt::format("<h2 id=\"{}\">{}</h2>\n", anchor, esc(module_heading(section.module)));
    if (!section.module.reason.empty()) out += fmt::format("<p class=\"wrap\">{}</p>\n", esc(section.module.reason));
    const Score& s = section.score;
    out += fmt::format("<p>{} {} · {} {} · {} {} · {} {} <span class=\"muted\">of {} applicable technical rules of the "
                       "module{}; they count in the score only through the edition's rule for the module</span></p>\n",
                       s.pass, html::verdict_label(Verdict::pass), s.warn, html::verdict_label(Verdict::warn), s.fail,
                       html::verdict_label(Verdict::fail), s.error, html::verdict_label(Verdict::error), s.applicable,
                       functional.empty() ? "" : "; " + plural(functional.size(), "functional rule", "functional rules") +
                                                     " for a reviewer");
    out += rules_table(technical, functional, "#" + anchor + "-checklist");
    out += rule_cards(technical);
    if (!functional.empty()) {
      out += fmt::format("<h3 id=\"{}-checklist\" class=\"keep-next\">{}: reviewer checklist</h3>\n", anchor,
                         esc(module_heading(section.module)));
      out += full_checklist_ ? review_sections(functional) : checklist_table(functional);
    }
    return out;
  }

  std::string rule_meta(const RuleResult& rule) const {
    std::vector<std::string> parts;
    if (!rule.level.empty()) parts.push_back(esc(rule.level));
    parts.push_back(esc(rule.kind));
    if (!rule.aliases.empty()) parts.push_back("also " + esc(join(rule.aliases, ", ")));
    if (rule.change) parts.push_back("change since the baseline: <b>" + esc(*rule.change) + "</b>");
    if (std::string l = rule_text_link(rule); !l.empty()) parts.push_back(l);
    return fmt::format("<div class=\"rule-meta\">{}</div>\n", join(parts, " · "));
  }

  std::string rule_head(const RuleResult& rule) const {
    return fmt::format("<div class=\"rule-head\">{} <h3><span class=\"id\">{}</span> {}</h3></div>\n",
                       html::verdict_label(rule.verdict), esc(rule.id), esc(rule.title));
  }

  // One exchange as a row: #id, method and URL (and the request headers the
  // check added), status or transport error with every response header, time.
  // The row of "Other requests" is the exchange's anchor (id="x<id>"); a
  // card's row links to it, or to its entry under "Evidence".
  std::string exchange_row(const http::Exchange& e, bool anchor, const std::vector<std::string>& judged = {}) const {
    auto was_judged = [&](const std::string& name) { return std::find(judged.begin(), judged.end(), name) != judged.end(); };
    std::string out = anchor ? fmt::format("<tr id=\"x{}\">", e.id) : "<tr>";
    out += anchor ? fmt::format("<td class=\"xid\">#{}</td>", e.id)
                  : fmt::format("<td class=\"xid\"><a href=\"#x{0}\">#{0}</a></td>", e.id);
    out += fmt::format("<td class=\"wrap\"><code>{} {}</code>", esc(e.method), esc(e.url));
    if (!e.request_headers.empty()) {
      // What every request sends (Host, User-Agent, Accept, ...) is on screen,
      // under "Evidence" and in JSON; on a row on paper only what this request
      // added (Origin, -H names).
      auto usual = [](const std::string& name) {
        std::string lower = to_lower(name);
        return lower == "host" || lower == "user-agent" || lower == "accept" || lower == "accept-encoding" ||
               lower == "connection" || lower == "content-length";
      };
      bool all_usual = std::all_of(e.request_headers.begin(), e.request_headers.end(),
                                   [&](const auto& h) { return usual(h.first); });
      out += all_usual ? "<div class=\"hdrs usual\">sent: " : "<div class=\"hdrs\">sent: ";
      for (const auto& [name, value] : e.request_headers)
        out += fmt::format("<span class=\"sent{}\"><b>{}:</b> {}</span>", usual(name) ? " usual" : "", esc(name), esc(value));
      out += "</div>";
    }
    if (!e.response_headers.empty() || (e.status && !judged.empty())) {
      out += "<div class=\"hdrs\">";
      // The headers the check judged first (absent ones said so), then the usual key headers, then the rest.
      for (const auto& name : judged)
        if (e.status && !e.response_headers.count(name))
          out += fmt::format("<span class=\"key judged\"><b>{}:</b> (none)</span>", esc(name));
      for (int pass = 0; pass < 3; ++pass)
        for (const auto& [name, value] : e.response_headers) {
          int rank = was_judged(name) ? 0 : key_header(name) ? 1 : 2;
          if (rank != pass) continue;
          out += fmt::format("<span{}><b>{}:</b> {}</span>",
                             rank == 0 ? " class=\"key judged\"" : rank == 1 ? " class=\"key\"" : "", esc(name), esc(value));
        }
      out += "</div>";
    }
    out += "</td>";
    out += fmt::format("<td class=\"st{}\">{}</td>", e.error ? " wrap" : "", status_html(e));
    out += fmt::format("<td class=\"ms\">{}</td></tr>\n", duration(e));
    return out;
  }

  static std::string status_html(const http::Exchange& e) {
    if (e.error)
      return fmt::format("<span class=\"err\">✖ no response</span><div class=\"small\">{}</div>", esc(*e.error));
    return e.status ? fmt::format("→ <b>{}</b>", *e.status) : "—";
  }

  static std::string duration(const http::Exchange& e) {
    return e.duration_ms < 10 ? fmt::format("{:.1f} ms", e.duration_ms) : fmt::format("{:.0f} ms", e.duration_ms);
  }

  static std::string exchange_table_head() {
    return "<table class=\"ex\"><thead><tr><th>#</th><th>Request, response headers</th><th>Status</th>"
           "<th>Time</th></tr></thead><tbody>\n";
  }

  std::string check_block(const RuleResult& rule, const CheckResult& c) {
    std::string out = "<div class=\"check\">\n";
    out += fmt::format("<div class=\"check-head\"><span class=\"cid\">{}</span><span>{}</span><span class=\"msg\">{}</span></div>\n",
                       esc(c.id), html::verdict_label(c.verdict), esc(c.message));
    // The complete list behind the message, unless the message already says it all.
    bool in_message = std::all_of(c.details.begin(), c.details.end(),
                                  [&](const std::string& d) { return c.message.find(d) != std::string::npos; });
    if (!c.details.empty() && !in_message) {
      out += "<ul class=\"details\">";
      for (const auto& d : c.details) out += fmt::format("<li class=\"wrap\">{}</li>", esc(d));
      out += "</ul>\n";
    }
    if (!c.locations.empty()) {
      std::vector<std::string> places;
      for (const auto& l : c.locations)
        places.push_back(fmt::format("<code>{}</code>{}{}", esc(l.pointer),
                                     l.target.empty() ? "" : " → <code>" + esc(l.target) + "</code>",
                                     l.line ? fmt::format(" <span class=\"muted\">(line {})</span>", *l.line) : ""));
      out += fmt::format("<div class=\"refs wrap\">{}: {}</div>\n", places.size() == 1 ? "place" : "places",
                         join(places, "; "));
    }
    if (c.fix) {
      // All of it, on paper too: the change keeps its lines and its tabs (the
      // tool's text: Go code is indented with them).
      out += fmt::format("<div class=\"fix\"><div class=\"fix-head\">How to fix{}: {}</div><pre class=\"wrap\">{}</pre></div>\n",
                         c.fix->name.empty() ? "" : " (" + esc(c.fix->name) + ")",
                         "<span class=\"url\">" + html::link(c.fix->source, esc(c.fix->source)) + "</span>",
                         html::esc_lines(trim(c.fix->text), Tabs::kept));
    }
    std::vector<const http::Exchange*> cited;
    for (int id : c.exchanges)
      if (auto it = by_id_.find(id); it != by_id_.end()) cited.push_back(it->second);
    // A check that passed links its evidence (listed under "Other requests"); one
    // that did not shows the requests that prove it right here, the first
    // kRowsPerCheck as rows, and every one in full under "Evidence".
    if (cited.empty()) return out + "</div>\n";
    bool problem = severity(c.verdict) > severity(Verdict::pass);
    std::vector<std::string> refs;
    for (const auto* e : cited) refs.push_back(fmt::format("<a href=\"#x{0}\">#{0}</a>", e->id));
    out += fmt::format("<div class=\"refs\">evidence: {}{}</div>\n", join(refs, " "),
                       !problem                      ? ""
                       : cited.size() > kRowsPerCheck ? fmt::format(" (the first {} shown here; each in full under "
                                                                    "<a href=\"#evidence\">Evidence</a>)",
                                                                    kRowsPerCheck)
                                                      : " (in full under <a href=\"#evidence\">Evidence</a>)");
    if (problem) {
      for (const auto* e : cited) cite(e->id, rule, esc(c.id));
      out += exchange_table_head();
      for (std::size_t i = 0; i < std::min(kRowsPerCheck, cited.size()); ++i)
        out += exchange_row(*cited[i], false, c.judged_headers);
      out += "</tbody></table>\n";
    }
    out += "</div>\n";
    return out;
  }

  // An exchange goes into "Evidence", cited by `what` (a check id, "a hint")
  // of that rule: its entry links back to the rule's card.
  void cite(int id, const RuleResult& rule, const std::string& what_html) {
    evidence_.insert(id);
    std::string by = fmt::format("<a href=\"#{}\">{}</a> ({})", anchor_.at(&rule), what_html, esc(rule.id));
    auto& list = cited_by_[id];
    if (std::find(list.begin(), list.end(), by) == list.end()) list.push_back(std::move(by));
  }

  // A rule's hints as list items, "exchange #7" linked; the exchanges they
  // name go into "Evidence".
  std::string hint_items(const RuleResult& rule) {
    std::string out;
    for (const auto& h : rule.hints) {
      std::set<int> linked;
      out += fmt::format("<li class=\"wrap\">{}</li>", link_exchanges(esc(h), ids_, linked));
      for (int id : linked) cite(id, rule, "a hint");
    }
    return out;
  }

  std::string technical_rules() {
    // No page break of its own: the cards never split, so they may follow the summary on its page.
    std::string out = "<h2 id=\"technical\">Technical rules: checks and evidence</h2>\n";
    if (technical_.empty()) out += "<p class=\"muted\">This edition has no technical rules.</p>\n";
    return out + rule_cards(technical_);
  }

  // A card per technical rule: its checks, their evidence, its hints.
  std::string rule_cards(const std::vector<const RuleResult*>& rules) {
    std::string out;
    for (const RuleResult* rule : rules) {
      if (r_.unreachable && rule->verdict != Verdict::fail) continue;  // down: said once, above
      out += fmt::format("<section class=\"rule {}\" id=\"{}\">\n", to_string(rule->verdict), anchor_.at(rule));
      out += rule_head(*rule) + rule_meta(*rule);
      // The summary repeats a check's message; alone it says why there is none.
      if (rule->checks.empty())
        out += fmt::format("<p class=\"muted wrap\">{}</p>\n",
                           rule->summary.empty() ? std::string("No check ran for this rule.") : esc(rule->summary));
      for (const auto& c : rule->checks) out += check_block(*rule, c);
      if (!rule->hints.empty()) {
        out += "<div class=\"small\"><b>Hints</b><ul>" + hint_items(*rule) + "</ul></div>\n";
      }
      out += "</section>\n";
    }
    return out;
  }

  // TS-3: every accepted suite per version, its NCSC level and key exchange.
  static std::string level_cell(const std::string& level) {
    if (level.empty()) return "";
    std::string cls = level == "good" || level == "sufficient" ? "v-pass" : level == "phase_out" ? "v-warn" : "v-fail";
    return fmt::format("<span class=\"{}\">{}</span>", cls, esc(replace_all(level, "_", " ")));
  }

  static std::string suites_table(const tls::Facts& t) {
    std::string rows;
    for (const auto& p : t.protocols) {
      if (!p.accepted) continue;
      for (const auto& s : p.suites)
        rows += fmt::format("<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>\n", esc(p.name),
                            esc(s.name), level_cell(s.level), s.kx.empty() ? std::string("—") : esc(s.kx),
                            level_cell(s.kx_level));
      if (!p.suites_complete)
        rows += fmt::format("<tr><td>{}</td><td colspan=\"4\" class=\"muted\">the enumeration stopped early{}: more "
                            "suites may be accepted</td></tr>\n",
                            esc(p.name), p.deadline_reached ? " (deadline reached)" : "");
    }
    if (rows.empty()) return "";
    return "<h4>Accepted cipher suites</h4>\n<table class=\"protocols suites\"><thead><tr><th>Version</th><th>Suite</th>"
           "<th>Level</th><th>Key exchange</th><th>Level</th></tr></thead><tbody>\n" +
           rows + "</tbody></table>\n";
  }

  std::string tls_section() {
    if (!r_.tls) return "";
    const tls::Facts& t = *r_.tls;
    std::string out = "<h2 id=\"tls\">TLS</h2>\n<table class=\"facts\">\n";
    std::string where = esc(t.host.find(':') != std::string::npos ? "[" + t.host + "]" : t.host) + ":" +
                        std::to_string(t.port);
    if (!t.proxy.empty()) where += " via proxy " + esc(t.proxy);
    out += fact_row("Server", "<code>" + where + "</code>");
    out += fact_row("Default handshake",
                    t.handshake_ok ? std::string("<span class=\"v v-pass\">✔ completed</span>")
                                   : "<span class=\"err\">✖ failed</span>: " + esc(t.error));
    if (t.handshake_ok || !t.protocol.empty()) {
      out += fact_row("Protocol", esc(t.protocol));
      out += fact_row("Cipher", "<code>" + esc(t.cipher) + "</code>");
      if (!t.group.empty()) out += fact_row("Key exchange group", esc(t.group));
    }
    std::vector<std::string> accepted;
    for (const auto& p : t.protocols)
      if (p.accepted) accepted.push_back(esc(p.name));
    if (!t.protocols.empty()) out += fact_row("Protocols accepted", accepted.empty() ? std::string("none") : join(accepted, ", "));
    if (!t.fallback_protocol.empty())
      out += fact_row("Best pinned handshake", esc(t.fallback_protocol) + " · <code>" + esc(t.fallback_cipher) + "</code>");
    out += fact_row("Certificate trusted", t.trusted ? std::string("<span class=\"v v-pass\">✔ yes</span>")
                                                     : "<span class=\"err\">✖ no</span>: " + esc(t.trust_error));
    if (t.client_cert_requested || !t.client_cert_refusal.empty())
      out += fact_row("Client certificate",
                      !t.client_cert_refusal.empty()
                          ? "refused: " + esc(t.client_cert_refusal)
                          : std::string("asked for by the server; ") +
                                (t.client_cert_sent ? "sent (--cert)" : "none given (--cert, --key)"));
    out += fact_row("OCSP stapled", yes_no(t.ocsp_stapled));
    out += fact_row("Compression", yes_no(t.compression));
    out += fact_row("Secure renegotiation", t.renegotiation()
                                                ? yes_no(*t.renegotiation())
                                                : t.protocol.empty()
                                                      ? std::string("<span class=\"muted\">n/a (no handshake completed)</span>")
                                                      : std::string("<span class=\"muted\">n/a (TLS 1.3 has no renegotiation)</span>"));
    out += "</table>\n";

    if (!t.protocols.empty()) {
      out += "<h4>Protocol versions</h4>\n<table class=\"protocols\"><thead><tr><th>Version</th><th>Accepted</th>"
             "<th>Cipher, or why not</th></tr></thead><tbody>\n";
      for (const auto& p : t.protocols) {
        std::string accepted = !p.testable ? std::string("<span class=\"muted\">n/a (not in this OpenSSL)</span>")
                               : p.accepted ? std::string("<b>yes</b>")
                               : p.deadline_reached ? std::string("unknown")  // the why says: deadline reached
                                            : std::string("no");
        out += fmt::format("<tr><td>{}</td><td>{}</td><td class=\"wrap\"><code>{}</code></td></tr>\n", esc(p.name),
                           accepted, esc(p.accepted ? p.cipher : p.error));
      }
      out += "</tbody></table>\n";
      out += suites_table(t);
    }
    if (!t.chain.empty()) {
      const auto& c = t.chain.front();
      out += "<h4>Certificate</h4>\n<table class=\"facts\">\n";
      out += fact_row("Subject", esc(c.subject));
      out += fact_row("Issuer", esc(c.issuer));
      if (!c.sans.empty()) out += fact_row("Names (SAN)", esc(join(c.sans, ", ")));
      out += fact_row("Valid from", esc(c.not_before));
      out += fact_row("Valid until", esc(c.not_after));
      out += fact_row("Days left", c.days_left < 0 ? fmt::format("<span class=\"err\">expired {} days ago</span>", -c.days_left)
                                                   : fmt::format("{}", c.days_left));
      out += fact_row("Key", esc(c.key));
      out += fact_row("Signature", esc(c.signature));
      if (t.chain.size() > 1) {
        std::vector<std::string> rest;
        for (std::size_t i = 1; i < t.chain.size(); ++i) rest.push_back(esc(t.chain[i].subject));
        out += fact_row("Rest of the chain", join(rest, "<br>"));
      }
      out += "</table>\n";
    }
    return out;
  }

  // --checklist compact (the default): one row per functional rule with its
  // boxes; the rule's text, what to look at and the hints behind <details> on
  // screen. On paper the rows are the checklist to sign.
  std::string compact_checklist() {
    std::string out = "<h2 id=\"functional\">Functional rules: reviewer checklist</h2>\n";
    out += fmt::format("<p>A tool cannot judge these {} rules. For each, read the rule (open it on screen, or "
                       "<code>--checklist full</code> for the full text on paper), weigh the tool's hints and mark one "
                       "box.</p>\n",
                       functional_.size());
    out += checklist_table(functional_);
    out += "<div class=\"conclusion sign-off\"><div class=\"small muted\">Findings:</div><div class=\"line\"></div>"
           "<div class=\"line\"></div><div class=\"sign\"><span>Reviewer</span><span>Date</span></div></div>\n";
    return out;
  }

  // One row per functional rule with its boxes (compact checklist).
  std::string checklist_table(const std::vector<const RuleResult*>& rules) {
    std::string out =
        "<table class=\"checklist\"><thead><tr><th>Rule</th><th>Hints</th><th>Conclusion</th></tr></thead><tbody>\n";
    for (const RuleResult* rule : rules) {
      bool judged = rule->verdict == Verdict::manual;
      out += fmt::format("<tr class=\"review-row\" id=\"{}\"><td class=\"wrap\"><details><summary><span class=\"mono\">{}"
                         "</span> {}</summary>",
                         anchor_.at(rule), esc(rule->id), esc(rule->title));
      out += rule_meta(*rule);
      if (!rule->statement.empty()) out += "<h4>Rule</h4>" + paragraphs(rule->statement);
      if (!rule->review.empty()) out += "<h4>What to look at</h4>" + paragraphs(rule->review);
      for (const auto& c : rule->checks) out += check_block(*rule, c);
      out += "</details>";
      // The hints outside <details>, which prints closed: on paper they are
      // often the finding (TRACE → 200).
      if (!rule->hints.empty())
        out += "<div class=\"hints small\"><b>What the tool noticed</b><ul>" + hint_items(*rule) + "</ul></div>";
      out += "</td>";
      out += fmt::format("<td class=\"small\">{}</td>", rule->hints.empty() ? std::string("none") : plural(rule->hints.size(), "hint", "hints"));
      out += judged ? "<td class=\"boxes\"><span>☐ conforms</span> <span>☐ does not conform</span> <span>☐ n/a</span></td>"
                    : fmt::format("<td>{} {}</td>", html::verdict_label(rule->verdict), esc(rule->summary));
      out += "</tr>\n";
    }
    out += "</tbody></table>\n";
    return out;
  }

  std::string functional_rules() {
    if (functional_.empty()) return "";
    if (!full_checklist_) return compact_checklist();
    std::string out = "<h2 id=\"functional\" class=\"page\">Functional rules: reviewer checklist</h2>\n";
    out += "<p>A tool cannot judge these rules. For each, read the rule and what to look at, weigh the tool's "
           "hints, and mark one conclusion.</p>\n";
    return out + review_sections(functional_);
  }

  // --checklist full: a card per functional rule, with room to write.
  std::string review_sections(const std::vector<const RuleResult*>& rules) {
    std::string out;
    for (const RuleResult* rule : rules) {
      out += fmt::format("<section class=\"review\" id=\"{}\">\n", anchor_.at(rule));
      out += rule_head(*rule) + rule_meta(*rule);
      if (!rule->statement.empty()) out += "<h4>Rule</h4>" + paragraphs(rule->statement) + "\n";
      if (!rule->review.empty()) out += "<h4>What to look at</h4>" + paragraphs(rule->review) + "\n";
      out += "<h4>What the tool noticed</h4>";
      if (rule->hints.empty()) {
        out += "<p class=\"muted\">Nothing: no hint for this rule.</p>\n";
      } else {
        out += "<ul>" + hint_items(*rule) + "</ul>\n";
      }
      for (const auto& c : rule->checks) out += check_block(*rule, c);
      out += "<div class=\"conclusion\"><div class=\"boxes\"><b>Conclusion:</b><span>☐ conforms</span>"
             "<span>☐ does not conform</span><span>☐ not applicable</span></div>"
             "<div class=\"small muted\" style=\"margin-top:6px\">Findings:</div>"
             "<div class=\"line\"></div><div class=\"line\"></div><div class=\"line\"></div>"
             "<div class=\"sign\"><span>Reviewer</span><span>Date</span></div></div>\n";
      out += "</section>\n";
    }
    return out;
  }

  // The appendix an auditor files with the report: every exchange a check
  // shown that did not pass cites, or a hint names, as it went over the wire,
  // in full on screen and on paper (nothing in it is hidden by the print CSS).
  // Secrets were masked on the model; server text goes through esc.
  std::string evidence_appendix() const {
    if (evidence_.empty()) return "";
    std::string out = fmt::format(
        "<h2 id=\"evidence\" class=\"page\">Evidence</h2>\n<p class=\"muted\">The {} the checks above cite (or their "
        "hints name), as they went over the wire: the request and every header as sent, the status and every response header, and the "
        "body as the report keeps it (the first {} bytes of a response with status 400 or above, or of one a check "
        "read). Secrets given to the run are masked; control characters are shown as <code>\\xNN</code>.</p>\n",
        plural(evidence_.size(), "request", "requests"), kReportBodyBytes);
    for (int id : evidence_) out += evidence_entry(*by_id_.at(id));
    return out;
  }

  // One exchange in full: its line (#id, method and URL, status, time), what
  // cites it, the request headers as sent beside the response headers, the body.
  std::string evidence_entry(const http::Exchange& e) const {
    std::string out = fmt::format("<section class=\"xchg\" id=\"x{}\">\n", e.id);
    out += fmt::format("<div class=\"xchg-head\"><span class=\"xid\">#{}</span><code class=\"wrap\">{} {}</code>"
                       "<span class=\"st\">{}</span><span class=\"ms\">{}</span></div>\n",
                       e.id, esc(e.method), esc(e.url), status_html(e), duration(e));
    if (auto it = cited_by_.find(e.id); it != cited_by_.end())
      out += fmt::format("<div class=\"cited\">cited by {}</div>\n", join(it->second, ", "));
    auto fields = [](const auto& headers) {
      std::string lines;
      for (const auto& [name, value] : headers) lines += (lines.empty() ? "" : "\n") + esc(name) + ": " + esc(value);
      return lines.empty() ? std::string("(none)") : lines;
    };
    out += "<div class=\"wire-cols\"><div><div class=\"wire-head\">Request headers as sent</div><pre class=\"wire\">" +
           fields(e.request_headers) + "</pre></div>";
    if (e.status)
      out += "<div><div class=\"wire-head\">Response headers</div><pre class=\"wire\">" + fields(e.response_headers) +
             "</pre></div>";
    out += "</div>\n";
    if (e.status) {
      out += "<div class=\"wire-head\">Body" + body_note(e) + "</div>\n";
      if (!e.body.empty()) out += "<pre class=\"wire body\">" + html::esc_lines(e.body) + "</pre>\n";
    }
    out += "</section>\n";
    return out;
  }

  // What the body shown is (report::slim keeps it for status >= 400 or a body a check read).
  static std::string body_note(const http::Exchange& e) {
    if (!e.body.empty())
      return e.body_truncated ? fmt::format(", its first {} bytes (the response was longer)", kReportBodyBytes) : "";
    if (e.method == "HEAD") return ": none (a response to HEAD)";
    bool kept = (e.status && *e.status >= 400) || e.body_judged;
    return kept ? ": empty" : ": not kept (status below 400, and no check read it)";
  }

  std::string other_requests() {
    std::vector<const http::Exchange*> rest;
    for (const auto& e : r_.exchanges)
      if (!evidence_.count(e.id)) rest.push_back(&e);
    if (rest.empty()) return "";
    std::string out = "<h2 id=\"requests\">Other requests</h2>\n<p class=\"muted keep-next\">The requests of this run not "
                      "under \"Evidence\": the evidence of the checks that passed, and the requests no check cites.</p>\n";
    out += exchange_table_head();
    for (const auto* e : rest) out += exchange_row(*e, true);
    out += "</tbody></table>\n";
    return out;
  }

  std::string run_section() const {
    std::string out = "<h2 id=\"run\">How this report was made</h2>\n<table class=\"facts\">\n";
    out += fact_row("Tool", "adrprobe " + esc(r_.tool_version));
    out += fact_row("Generated", esc(r_.generated_at));
    if (!r_.run) {
      out += fact_row("Command", esc(r_.mode));
      return out + "</table>\n";
    }
    const RunInfo& run = *r_.run;
    out += fact_row("Command", "<code class=\"wrap\">" +
                                   esc(run.command_line.empty() ? "adrprobe " + (run.command.empty() ? r_.mode : run.command)
                                                                : run.command_line) +
                                   "</code>");
    if (!run.rules_selected.empty())
      out += fact_row("Rules selected (--rules)", "<code>" + esc(join(run.rules_selected, ", ")) + "</code>");
    out += fact_row("Edition", edition_html(r_));
    out += fact_row("Timeout", fmt::format("{:g} s per request", run.timeout_s));
    out += fact_row("Rate", run.rate > 0 ? fmt::format("at most {:g} requests per second to one host", run.rate)
                                         : std::string("no limit"));
    out += fact_row("Concurrency", fmt::format("{} requests in flight", run.concurrency));
    out += fact_row("Max paths", run.max_paths ? std::to_string(run.max_paths) : std::string("all"));
    out += fact_row("Deadline", fmt::format("{:g} s", run.deadline_s));
    out += fact_row("Insecure (--insecure)", yes_no(run.insecure));
    out += fact_row("Unsafe methods (--allow-unsafe)", yes_no(run.allow_unsafe));
    out += fact_row("Extra CA file", yes_no(run.ca_file));
    out += fact_row("Client certificate", yes_no(run.client_cert));
    out += fact_row("User agent", "<code>" + esc(run.user_agent) + "</code>");
    out += fact_row("External $ref hosts", esc(run.ref_hosts));
    out += fact_row("Headers given (names only)", run.header_names.empty()
                                                      ? std::string("none")
                                                      : "<code>" + esc(join(run.header_names, ", ")) + "</code>");
    if (!run.oauth2_token_url.empty())
      out += fact_row("OAuth 2.0 token endpoint",
                      fmt::format("<code>{}</code> (HTTP {})", esc(run.oauth2_token_url), run.oauth2_status));
    std::vector<std::string> libraries;
    for (const auto& [name, version] : run.libraries) libraries.push_back(esc(name) + " " + esc(version));
    out += fact_row("Libraries", libraries.empty() ? std::string("—") : join(libraries, " · "));
    out += "</table>\n";
    return out;
  }
};

}  // namespace

std::string render_html(const Report& r, const RenderOptions& options) { return Page(r, options).render(); }

}  // namespace adrprobe::report
