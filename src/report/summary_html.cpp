// summary.html: what changed tonight, then the batch at a glance: one row per
// target (changed rows first, then those still down, failing, passing; since
// when each failure and outage has lasted), a matrix of targets × technical rules, a trend
// per target. The page skeleton, CSS and escaping are report/html_page.* (the
// same as the audit report's). Everything a target carries is server or
// register text: escaped with html::esc, linked only through html::file_link.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "report/html_page.hpp"
#include "report/summary.hpp"
#include "util/strings.hpp"

namespace adrprobe::report {
namespace {

using html::esc;

// Text that may wrap after a '/' only (a rule id, a URL's path): each piece
// between slashes unbreakable, a break opportunity after each '/'.
std::string slashed_html(std::string_view s) {
  std::string out;
  std::size_t start = 0;
  while (true) {
    std::size_t slash = s.find('/', start);
    std::string_view piece = s.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (!piece.empty()) out += "<span class=\"nw\">" + esc(piece) + "</span>";
    if (slash == std::string_view::npos) break;
    out += "/<wbr>";
    start = slash + 1;
  }
  return out;
}

std::string rule_list(const std::vector<std::string>& ids) {
  std::vector<std::string> items;
  for (const auto& id : ids) items.push_back("<code class=\"rid\">" + slashed_html(id) + "</code>");
  return join(items, "<br>");
}

// A URL that never wraps inside scheme, host and port, and may wrap after a
// '/' of its path only.
std::string url_html(std::string_view url) {
  std::size_t scheme = url.find("://");
  std::size_t path = url.find('/', scheme == std::string_view::npos ? 0 : scheme + 3);
  std::string out = "<span class=\"url\"><span class=\"nw\">" + esc(url.substr(0, path)) + "</span>";
  if (path != std::string_view::npos) out += slashed_html(url.substr(path));
  return out + "</span>";
}

std::string percent_text(const std::optional<double>& p) { return p ? fmt::format("{:.1f} %", *p) : "n/a"; }

// "20 Nov" of an RFC 3339 time ("20 Nov 2025" in another year than `now`'s),
// the whole time in its title; the time itself when it is not one.
std::string day_html(const std::string& at, const std::string& now) {
  static constexpr const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                           "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  auto digits = [&](std::size_t from, std::size_t n) {
    return at.size() >= from + n && std::all_of(at.begin() + static_cast<long>(from), at.begin() + static_cast<long>(from + n),
                                                 [](char c) { return c >= '0' && c <= '9'; });
  };
  int month = digits(5, 2) ? std::stoi(at.substr(5, 2)) : 0;
  if (!digits(0, 4) || at[4] != '-' || month < 1 || month > 12 || at[7] != '-' || !digits(8, 2)) return esc(at);
  std::string day = fmt::format("{} {}", std::stoi(at.substr(8, 2)), months[month - 1]);
  if (now.compare(0, 4, at, 0, 4) != 0) day += " " + at.substr(0, 4);
  return fmt::format("<time datetime=\"{0}\" title=\"{0}\">{1}</time>", esc(at), day);
}

// "failing since 20 Nov, 8 nights": the date of a streak's first run, and how
// many runs it has lasted when the history reaches back to it.
std::string since_html(const char* what, const std::string& since, const Summary& summary, const std::string& name) {
  std::string nights = nights_since(summary, name, since);
  return fmt::format("{} since {}{}", what, day_html(since, summary.generated_at), nights.empty() ? "" : ", " + nights);
}

// A row's failing rules, grouped by the date their failure began (the oldest
// first; a row of an earlier version has none).
std::string failing_html(const SummaryTarget& t, const Summary& summary) {
  std::string out;
  for (const auto& [since, ids] : failing_by_since(t)) {
    if (!since.empty()) out += fmt::format("<div class=\"small since\">{}</div>", since_html("failing", since, summary, t.name));
    out += rule_list(ids);
  }
  return out;
}

std::string score_cell(const SummaryTarget& t) {
  if (!t.reachable) return "<div class=\"pct-s\">n/a</div>";
  const Score& s = t.score;
  std::string out = fmt::format("<div class=\"pct-s\">{}</div>", percent_text(s.percent));
  out += fmt::format("<div class=\"small\"><span class=\"n v-pass\">✔ {} pass</span> · <span class=\"n v-warn\">⚠ {} "
                     "warn</span> · <span class=\"n v-fail\">✖ {} fail</span> · <span class=\"n v-error\">! {} "
                     "error</span></div>",
                     s.pass, s.warn, s.fail, s.error);
  return out;
}

std::string change_cell(const SummaryTarget& t) {
  const std::optional<Changes>& change = t.change;
  if (!change) return "<span class=\"muted\">—</span>";
  std::string out;
  if (change->down) out += "<div><span class=\"v v-fail\">▼ went down</span></div>";
  if (change->back_up) out += "<div><span class=\"v v-pass\">▲ back up</span></div>";
  auto part = [&](const char* label, const char* cls, const std::vector<std::string>& ids) {
    if (ids.empty()) return;
    out += fmt::format("<div><span class=\"{}\">{}:</span> {}</div>", cls, label, rule_list(ids));
  };
  part("new fail", "v-fail", change->new_fail);
  part("regressed", "v-warn", change->regressed);
  part("fixed", "v-pass", change->fixed);
  // Down as it was: no change, but not "no change" beside an outage.
  if (out.empty() && still_down(t)) return "<span class=\"v v-fail\">✕ still down</span>";
  return out.empty() ? "<span class=\"muted\">no change</span>" : out;
}

std::string cert_cell(const std::optional<int>& days) {
  if (!days) return "<span class=\"muted\">—</span>";
  if (*days < 0) return fmt::format("<span class=\"v v-fail\">✖ expired</span><div class=\"small\">{} days ago</div>", -*days);
  if (*days < 30) return fmt::format("<span class=\"v v-warn\">⚠ {} days</span>", *days);
  return fmt::format("{} days", *days);
}

// A link to each report file the batch wrote (never to one it did not):
// HTML first, the one a person opens, then JSON, then the others as written.
// file_link shows a path that would lead outside the page's directory as text.
std::string reports_cell(const SummaryTarget& t) {
  auto files = t.files;
  if (files.empty() && !t.report.empty()) files.emplace_back("json", t.report);
  auto rank = [](const std::string& format) { return format == "html" ? 0 : format == "json" ? 1 : 2; };
  std::stable_sort(files.begin(), files.end(), [&](const auto& x, const auto& y) { return rank(x.first) < rank(y.first); });
  std::vector<std::string> links;
  for (const auto& [format, path] : files) {
    std::string label = format == "html" ? "HTML" : format == "json" ? "JSON" : format == "junit" ? "JUnit" : format;
    std::string linked = html::file_link(path, esc(label));
    if (linked.rfind("<a ", 0) != 0) linked = fmt::format("{} <code class=\"wrap\">{}</code>", esc(label), esc(path));
    links.push_back(linked);
  }
  if (links.empty()) return "<span class=\"muted\">—</span>";
  return "<span class=\"n\">" + join(links, " · ") + "</span>";
}

// Name, URL, a move, owner, labels, edition, the report links and the one note (for a down target, the
// one entry "down: <cause>", and since when).
std::string target_cell(const SummaryTarget& t, const Summary& summary) {
  std::string out =
      fmt::format("<b class=\"name\">{}</b><div class=\"small\"><code>{}</code></div>", esc(t.name), url_html(t.base_url));
  if (!t.moved_from.empty())
    out += fmt::format("<div class=\"small muted\">moved from <code>{}</code></div>", url_html(t.moved_from));
  std::vector<std::string> who;
  if (!t.owner.empty()) who.push_back(fmt::format("owner: <b>{}</b>", esc(t.owner)));
  for (const auto& [key, value] : t.labels)
    who.push_back(fmt::format("<span class=\"lbl\">{}={}</span>", esc(key), esc(value)));
  if (!who.empty()) out += "<div class=\"small who\">" + join(who, " ") + "</div>";
  out += fmt::format("<div class=\"small\">edition {} · {}</div>", esc(t.edition), reports_cell(t));
  if (!t.reachable) {
    out += fmt::format("<div class=\"small err\">down: {}</div>", t.note.empty() ? "no answer" : esc(t.note));
    if (!t.down_since.empty())
      out += fmt::format("<div class=\"small err\"><b>{}</b></div>", since_html("down", t.down_since, summary, t.name));
  } else if (!t.note.empty())
    out += fmt::format("<div class=\"small err\">{}</div>", esc(t.note));
  return out;
}


// The trend over a target's history (oldest first): a polyline of the score,
// broken at down nights, each down night a cross on the base line, then the
// last value. Inline SVG: no script, nothing loaded.
std::string trend_html(const std::vector<HistoryPoint>& points) {
  if (points.empty()) return "<span class=\"muted small\">no history</span>";
  constexpr double width = 96, height = 24, pad = 3;
  std::size_t n = points.size();
  auto x_of = [&](std::size_t i) { return n == 1 ? width / 2 : pad + (width - 2 * pad) * double(i) / double(n - 1); };
  auto y_of = [&](double p) { return pad + (height - 2 * pad) * (1.0 - std::clamp(p, 0.0, 100.0) / 100.0); };
  std::string svg = fmt::format(
      "<svg class=\"spark\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"trend over {2}\">",
      width, height, plural(n, "run", "runs"));
  std::vector<std::string> titles;
  for (const auto& p : points)
    titles.push_back(esc(p.generated_at) + ": " + (p.up ? percent_text(p.percent) : std::string("down")));
  svg += "<title>" + join(titles, "; ") + "</title>";
  svg += fmt::format("<line x1=\"0\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\" class=\"base\"/>", height - 1, width);
  std::vector<std::string> run;
  std::size_t downs = 0;
  auto flush = [&] {
    if (run.size() > 1) svg += "<polyline points=\"" + join(run, " ") + "\"/>";
    if (run.size() == 1) {
      auto comma = run.front().find(',');
      svg += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"1.8\"/>", run.front().substr(0, comma), run.front().substr(comma + 1));
    }
    run.clear();
  };
  for (std::size_t i = 0; i < n; ++i) {
    const auto& p = points[i];
    if (!p.up) {
      flush();
      ++downs;
      double x = x_of(i), y = height - 4;
      svg += fmt::format("<path class=\"down\" d=\"M{:.1f} {:.1f}l4 4m0 -4l-4 4\"/>", x - 2, y - 2);
    } else if (p.percent) {
      run.push_back(fmt::format("{:.1f},{:.1f}", x_of(i), y_of(*p.percent)));
    } else {
      flush();
    }
  }
  flush();
  svg += "</svg>";
  const auto& last = points.back();
  std::string value = last.up ? percent_text(last.percent) : std::string("down");
  std::string out = fmt::format("<span class=\"trend\">{} <span class=\"n\">{}</span></span>", svg, value);
  if (downs > 0) out += fmt::format("<div class=\"small muted\">✕ down {} of {}</div>", downs, plural(n, "run", "runs"));
  return out;
}

// The longest prefix ending in '/' that every rule id shares ("/core/"): the
// matrix's column heads leave it out, its legend says it.
std::string common_prefix(const std::vector<std::string>& ids) {
  if (ids.empty()) return {};
  std::string prefix = ids.front();
  for (const auto& id : ids) {
    std::size_t i = 0;
    while (i < prefix.size() && i < id.size() && prefix[i] == id[i]) ++i;
    prefix.resize(i);
  }
  auto slash = prefix.rfind('/');
  prefix = slash == std::string::npos ? std::string() : prefix.substr(0, slash + 1);
  // Never a whole id: each head keeps something to read.
  for (const auto& id : ids)
    if (id.size() <= prefix.size()) return {};
  return prefix;
}

const char* verdict_icon(Verdict v) {
  switch (v) {
    case Verdict::pass: return "✔";
    case Verdict::warn: return "⚠";
    case Verdict::fail: return "✖";
    case Verdict::error: return "!";
    case Verdict::skip: return "–";
    case Verdict::manual: return "☐";
  }
  return "";
}

// The matrix's columns: the edition's rules, then each module's (module-geo.md)
// as a group of its own, its heading above it; each group's heads leave out
// its own common prefix ("/core/", "/geo/").
struct ColumnGroup {
  std::string module, heading;  // "" for the edition's rules
  std::vector<std::string> ids;
  std::string prefix;
};

std::vector<ColumnGroup> column_groups(const std::vector<const SummaryTarget*>& rows) {
  std::vector<ColumnGroup> groups(1);
  for (const auto* t : rows)
    for (const auto& [id, v] : t->verdicts) {
      const SummaryModule* m = module_of(*t, id);
      std::string module = m ? m->id : "";
      auto g = std::find_if(groups.begin(), groups.end(), [&](const ColumnGroup& c) { return c.module == module; });
      if (g == groups.end()) g = groups.insert(groups.end(), ColumnGroup{module, m->heading, {}, {}});
      if (std::find(g->ids.begin(), g->ids.end(), id) == g->ids.end()) g->ids.push_back(id);
    }
  for (auto& g : groups) g.prefix = common_prefix(g.ids);
  return groups;
}

// Targets × technical rules: one icon per cell (told apart by shape, titled
// with the rule and verdict), the change mark beside it; a down target one
// cell across the row.
std::string matrix_html(const std::vector<const SummaryTarget*>& rows) {
  std::vector<ColumnGroup> groups = column_groups(rows);
  std::vector<std::string> ids;
  for (const auto& g : groups) ids.insert(ids.end(), g.ids.begin(), g.ids.end());
  if (ids.empty()) return "<p class=\"muted\">No rule verdicts to show.</p>\n";
  std::string out = "<div class=\"mx-scroll\"><table class=\"matrix\">\n<thead>";
  if (groups.size() > 1) {
    // A module's columns under its heading, beside the edition's. Words wrap
    // whole over a few narrow columns (a style of its own here: the page of a
    // register without a module keeps its bytes).
    out += "<tr><th class=\"mx-name\"></th>";
    for (const auto& g : groups)
      if (!g.ids.empty())
        out += fmt::format("<th class=\"mx-name\" colspan=\"{}\" style=\"overflow-wrap:normal;font-size:11px\">{}</th>",
                           g.ids.size(),
                           g.module.empty() ? std::string("Edition") : esc(g.heading.empty() ? g.module : g.heading));
    out += "</tr>";
  }
  out += "<tr><th class=\"mx-name\">Target</th>";
  for (const auto& g : groups)
    for (const auto& id : g.ids)
      out += fmt::format("<th class=\"rot\" title=\"{}\"><div><span>{}</span></div></th>", esc(id),
                         esc(std::string_view(id).substr(g.prefix.size())));
  out += "</tr></thead>\n<tbody>\n";
  for (const auto* t : rows) {
    out += fmt::format("<tr><th class=\"mx-name\" scope=\"row\">{}</th>", esc(t->name));
    if (!t->reachable) {
      out += fmt::format("<td class=\"mx-down\" colspan=\"{}\" title=\"{}\">✕ down{}</td></tr>\n", ids.size(), esc(t->note),
                         t->note.empty() ? "" : ": " + esc(truncate_utf8(t->note, 160)));
      continue;
    }
    std::map<std::string, Verdict> by_id(t->verdicts.begin(), t->verdicts.end());
    for (const auto& g : groups)
      for (const auto& id : g.ids) {
        auto it = by_id.find(id);
        if (it == by_id.end()) {
          out += g.module.empty()
                     ? fmt::format("<td class=\"mx\" title=\"{}: not in edition {}\"></td>", esc(id), esc(t->edition))
                     : fmt::format("<td class=\"mx\" title=\"{}: {} not judged\"></td>", esc(id), esc(g.heading));
          continue;
        }
        std::string mark, what;
        if (t->change) {
          auto has = [&](const std::vector<std::string>& v) { return std::find(v.begin(), v.end(), id) != v.end(); };
          if (has(t->change->new_fail)) mark = "▼", what = ", new fail";
          else if (has(t->change->regressed)) mark = "▽", what = ", regressed";
          else if (has(t->change->fixed)) mark = "▲", what = ", fixed";
        }
        std::string word = to_string(it->second);
        out += fmt::format("<td class=\"mx v-{}{}\" title=\"{}: {}{}\">{}{}</td>", word, mark.empty() ? "" : " chg", esc(id), word,
                           what, verdict_icon(it->second), mark.empty() ? "" : "<span class=\"mk\">" + mark + "</span>");
      }
    out += "</tr>\n";
  }
  out += "</tbody>\n</table></div>\n";
  out += "<p class=\"small legend\">";
  std::vector<std::string> under;
  for (const auto& g : groups)
    if (!g.prefix.empty())
      under.push_back(g.module.empty() ? fmt::format("<code>{}</code>", esc(g.prefix))
                                       : fmt::format("<code>{}</code> ({})", esc(g.prefix), esc(g.heading)));
  if (!under.empty()) out += fmt::format("Rule ids under {}. ", join(under, ", "));
  out += "<span class=\"v-pass\">✔ pass</span> · <span class=\"v-warn\">⚠ warn</span> · <span class=\"v-fail\">✖ "
         "fail</span> · <span class=\"v-error\">! error</span> · <span class=\"v-skip\">– skip</span> · <span "
         "class=\"v-manual\">☐ manual</span> · empty: not in the target's edition. Since the previous run: ▼ new fail · ▽ "
         "regressed · ▲ fixed.</p>\n";
  return out;
}

constexpr std::string_view summary_css = R"CSS(
.pct-s { font-size: 18px; font-weight: bold; white-space: nowrap; }
.n, .nw { white-space: nowrap; }
.url, code.rid { overflow-wrap: normal; word-break: normal; }
code.rid { font-size: 12px; }
b.name { overflow-wrap: anywhere; }
.lbl { display: inline-block; border: 1px solid var(--line); border-radius: 3px; padding: 0 4px; margin: 1px 2px 0 0;
  font-family: "DejaVu Sans Mono", monospace; overflow-wrap: anywhere; }
.tonight { border: 2px solid var(--fg); border-radius: 8px; padding: 8px 14px; margin: 10px 0 14px; }
.tonight .big { font-size: 17px; font-weight: bold; }
.since { color: var(--muted); margin-top: 2px; }
.tonight ul { list-style: none; padding: 0; margin: 6px 0 0; display: flex; flex-wrap: wrap; gap: 6px 18px; }
.url { font-size: 11.5px; }
tr.changed td:first-child { border-left: 4px solid var(--fg); }
tr.worse td:first-child { border-left-color: var(--fail); }
tr.down td { background: #fff5f5; }
.spark { vertical-align: middle; }
.spark polyline { fill: none; stroke: var(--manual); stroke-width: 1.6; }
.spark circle { fill: var(--manual); }
.spark .base { stroke: var(--line); stroke-width: 1; }
.spark .down { stroke: var(--fail); stroke-width: 1.6; fill: none; }
.mx-scroll { overflow-x: auto; max-width: 100%; }
table.matrix { width: auto; border-collapse: collapse; font-size: 12px; }
table.matrix td, table.matrix th { border: 1px solid var(--line); padding: 0; }
table.matrix th.mx-name { text-transform: none; letter-spacing: 0; font-size: 12px; color: var(--fg); padding: 2px 6px;
  max-width: 220px; overflow-wrap: anywhere; vertical-align: middle; border-bottom: 1px solid var(--line); }
table.matrix th.rot { vertical-align: bottom; text-transform: none; letter-spacing: 0; width: 24px; min-width: 24px;
  max-width: 24px; padding: 4px 0; font-weight: normal; }
table.matrix th.rot div { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap; margin: 0 auto;
  font-family: "DejaVu Sans Mono", monospace; font-size: 11px; color: var(--fg); max-height: 220px; overflow: hidden;
  text-overflow: ellipsis; }
td.mx { text-align: center; vertical-align: middle; width: 24px; height: 22px; font-weight: bold; white-space: nowrap; }
td.mx.chg { outline: 2px solid currentColor; outline-offset: -2px; }
td.mx .mk { font-size: 10px; vertical-align: super; margin-left: 1px; }
td.mx-down { color: var(--fail); font-weight: bold; padding: 2px 8px; vertical-align: middle; overflow-wrap: anywhere;
  background: repeating-linear-gradient(135deg, #fff 0 6px, #ffebe9 6px 12px); }
.legend { color: var(--muted); }
@page matrix { size: A4 landscape; margin: 12mm; }
@media print {
  section.mx-page { page: matrix; break-before: page; page-break-before: always; }
  .mx-scroll { overflow: visible; }
  footer.after-mx { page: matrix; }
  table.matrix th.rot { width: 24px; min-width: 24px; max-width: 24px; }
  td.mx { width: 24px; height: 20px; font-size: 10pt; }
  table.targets { font-size: 9pt; }
  code.rid { font-size: 8pt; }
  .pct-s { font-size: 12pt; }
}
)CSS";

}  // namespace

std::string render_summary_html(const Summary& summary) {
  std::size_t failing = 0, erroring = 0, down = 0;
  std::size_t n_changed = 0, n_new_fail = 0, n_regressed = 0, n_down = 0, n_fixed = 0, n_back_up = 0, n_worse = 0;
  std::size_t n_still_down = 0, n_moved = 0;
  for (const auto& t : summary.targets) {
    if (!t.failing.empty()) ++failing;
    if (!t.erroring.empty()) ++erroring;
    if (!t.reachable) ++down;
    if (still_down(t)) ++n_still_down;
    if (!t.moved_from.empty()) ++n_moved;
    if (changed(t)) ++n_changed;
    if (got_worse(t)) ++n_worse;
    if (!t.change) continue;
    if (!t.change->new_fail.empty()) ++n_new_fail;
    if (!t.change->regressed.empty()) ++n_regressed;
    if (t.change->down) ++n_down;
    if (!t.change->fixed.empty()) ++n_fixed;
    if (t.change->back_up) ++n_back_up;
  }
  std::vector<const SummaryTarget*> rows;
  for (const auto& t : summary.targets) rows.push_back(&t);
  std::stable_sort(rows.begin(), rows.end(), [](const SummaryTarget* x, const SummaryTarget* y) {
    return std::pair(row_rank(*x), std::string_view(x->name)) < std::pair(row_rank(*y), std::string_view(y->name));
  });

  std::string body = "<header>\n<h1>ADR batch summary</h1>\n";
  body += fmt::format("<p class=\"sub\">{} · adrprobe {} · {}: {} with failing rules, {} with errors, {} down</p>\n</header>\n",
                      esc(summary.generated_at), esc(summary.tool_version),
                      plural(summary.targets.size(), "target", "targets"), failing, erroring, down);
  // What a reader must know before the rest: a shard missing, a baseline that could not be read.
  if (!summary.complete)
    body += "<div class=\"notice\" role=\"alert\"><b>Incomplete:</b> this summary does not cover the whole register.</div>\n";
  for (const auto& note : summary.notes) body += fmt::format("<div class=\"notice\" role=\"alert\">{}</div>\n", esc(note));

  // Tonight at a glance: how many targets changed, and how.
  std::string since = summary.previous_generated_at.empty()
                          ? std::string(": no previous run to compare with")
                          : " since the previous run of " + esc(summary.previous_generated_at);
  body += "<section class=\"tonight\" id=\"tonight\">\n";
  body += fmt::format("<div class=\"big\">{} of {} changed{}</div>\n", n_changed,
                      plural(summary.targets.size(), "target", "targets"), since);
  // Beside tonight's changes, what stays as it was but a reader must not forget:
  // the targets still down (a green night under --fail-on regressed), and the moves.
  body += fmt::format(
      "<ul><li><span class=\"v v-fail\">▼ {} down</span></li><li><span class=\"v v-fail\">✖ {} new-fail</span></li>"
      "<li><span class=\"v v-warn\">▽ {} regressed</span></li><li><span class=\"v v-pass\">▲ {} fixed</span></li>"
      "<li><span class=\"v v-pass\">▲ {} back up</span></li><li class=\"muted\">{} got worse</li>"
      "<li><span class=\"v v-fail\">✕ {} still down</span></li><li><span class=\"v\">→ {} moved</span></li></ul>\n",
      n_down, n_new_fail, n_regressed, n_fixed, n_back_up, n_worse, n_still_down, n_moved);
  body += "</section>\n";

  body += "<h2>Targets</h2>\n";
  // DON's static score beside the live one, when the register carries it (adrprobe register).
  bool don = std::any_of(summary.targets.begin(), summary.targets.end(), [](const auto& t) { return t.don_adr_score; });
  body += fmt::format("<table class=\"targets\">\n<thead><tr><th>Target · reports</th><th>Score · trend</th>{}<th>Failing "
                      "rules</th><th>Since the previous run</th><th>Certificate</th></tr></thead>\n<tbody>\n",
                      don ? "<th title=\"The ADR score DON's API register gives the API's document\">DON score</th>" : "");
  for (const auto* tp : rows) {
    const auto& t = *tp;
    std::string rules;
    if (!t.reachable) {
      rules = "<span class=\"muted\">—</span>";  // down: no per-rule marks
    } else {
      rules = failing_html(t, summary);
      if (!t.erroring.empty())
        rules += fmt::format("<div class=\"small\"><span class=\"v-error\">error:</span> {}</div>", rule_list(t.erroring));
      if (rules.empty()) rules = "<span class=\"muted\">none</span>";
    }
    std::string cls = changed(t) ? (got_worse(t) ? "changed worse" : "changed") : "";
    if (!t.reachable) cls += cls.empty() ? "down" : " down";
    auto history = summary.history.find(t.name);
    std::string trend = history == summary.history.end() ? std::string() : "<div>" + trend_html(history->second) + "</div>";
    std::string don_cell;
    if (don)
      don_cell = t.don_adr_score ? fmt::format("<td><div class=\"pct-s\">{:g}</div></td>", *t.don_adr_score)
                                 : "<td><span class=\"muted\">—</span></td>";
    body += fmt::format("<tr{}><td>{}</td><td>{}{}</td>{}<td>{}</td><td>{}</td><td>{}</td></tr>\n",
                        cls.empty() ? "" : " class=\"" + cls + "\"", target_cell(t, summary), score_cell(t), trend, don_cell,
                        rules, change_cell(t), cert_cell(t.cert_days_left));
  }
  if (summary.targets.empty()) body += "<tr><td colspan=\"5\" class=\"muted\">No targets.</td></tr>\n";
  body += "</tbody>\n</table>\n";

  if (!summary.targets.empty()) {
    body += "<section class=\"mx-page\" id=\"matrix\">\n<h2>Rules by target</h2>\n";
    body += matrix_html(rows);
    body += "</section>\n";
  }
  body += fmt::format(
      "<footer{}>adrprobe {} · {} · This file is self-contained: it loads nothing from the network and runs no "
      "script.</footer>\n",
      summary.targets.empty() ? "" : " class=\"after-mx\"", esc(summary.tool_version), esc(summary.generated_at));
  return html::page("ADR batch summary", body, summary_css);
}

}  // namespace adrprobe::report
