// Markdown for a merge-request comment (GitLab, GitHub): a header line, the
// table of technical rules, then the checks that did not pass with the
// requests that prove it. Short: functional rules are one line.
#include <fmt/format.h>

#include <algorithm>

#include "report/formats.hpp"
#include "util/strings.hpp"

namespace adrprobe::report {
namespace {

// Report text in Markdown: control characters, bidi controls and invalid
// UTF-8 made visible, then every character Markdown or HTML would read as
// markup escaped, so a server cannot put a link, an image, HTML, a table cell
// or a mention into the comment: < > & as entities; the ASCII punctuation of
// emphasis, code, links, images, tables and strikethrough with a backslash;
// @ # ! ~ % $ so GitLab makes no mention or reference of them.
//
// Escaping does not stop autolinks: GitHub's cmark-gfm links "www.x.example"
// and "name@x.example" (and "mailto:"/"xmpp:" before them) in plain text, and
// GitLab links any "scheme://" in the text it renders. So each trigger is
// broken by a WORD JOINER (U+2060), which no autolinker takes as part of an
// address: between "www" and ".", after "@", and between ":" and "//". We
// chose it over code spans because it leaves the text as it reads: prose
// stays prose (a code span would make every message monospace, and inside one
// neither entities nor escapes work, so '|' and backticks need fences), the
// joiner is invisible and never breaks a line, and copied text differs from
// the server's only at those three places, so a planted address cannot be
// pasted straight into a browser or a mail client. The target URL passes
// through here too, so the comment has no link at all.
// (tests/integration/test_markdown.py renders with cmark-gfm to prove it.)
std::string M(std::string_view s) {
  static constexpr std::string_view joiner = "\u2060";
  std::string in = escape_control(s), out;
  out.reserve(in.size() + in.size() / 4);
  for (std::size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '@':
        out += "\\@";
        out += joiner;
        break;
      case ':':
        out += "\\:";
        if (i + 1 < in.size() && in[i + 1] == '/') out += joiner;
        break;
      case '.':
        if (i >= 3 && iequals(std::string_view(in).substr(i - 3, 3), "www")) out += joiner;
        out += c;
        break;
      case '\\': case '`': case '*': case '_': case '[': case ']': case '(': case ')': case '|': case '~':
      case '!': case '#': case '%': case '$': case '{': case '}':
        out += '\\';
        out += c;
        break;
      default: out += c;
    }
  }
  return out;
}

const char* icon(Verdict v) {
  switch (v) {
    case Verdict::pass: return "✅";
    case Verdict::warn: return "⚠️";
    case Verdict::fail: return "❌";
    case Verdict::error: return "❗";
    case Verdict::skip: return "⏭️";
    case Verdict::manual: return "👀";
  }
  return "";
}

}  // namespace

std::string render_markdown(const Report& r, const RenderOptions&) {
  std::string out;
  auto line = [&](const std::string& s) { out += s + "\n"; };
  std::string target = r.mode == "lint" ? document_location(r) : r.base_url;
  std::string edition = r.edition_name.empty() ? "edition " + r.edition : r.edition_name;
  std::string percent = r.score.percent ? fmt::format("{:.1f} %", *r.score.percent) : "n/a";
  line(fmt::format("### adrprobe {}: {} · {} · score {}", r.mode == "lint" ? "lint" : "check", M(target), M(edition),
                   percent));
  line("");
  line(fmt::format("{} pass · {} warn · {} fail · {} error of {} applicable technical rules", r.score.pass, r.score.warn,
                   r.score.fail, r.score.error, r.score.applicable));
  if (!r.headline.empty()) line("\n**" + M(r.headline) + "**");
  for (std::size_t i = 0; i < std::min(r.leading_notes, r.notes.size()); ++i) line("\n**" + M(r.notes[i]) + "**");

  bool changes = false;
  for (const auto& rule : r.rules) changes = changes || (rule.kind == "technical" && rule.change);
  line("");
  line(changes ? "| Rule | Verdict | Summary | Change |" : "| Rule | Verdict | Summary |");
  line(changes ? "|---|---|---|---|" : "|---|---|---|");
  int functional = 0;
  for (const auto& rule : r.rules) {
    if (rule.kind != "technical") {
      ++functional;
      continue;
    }
    std::string row = fmt::format("| {} | {} {} | {} |", M(rule.id), icon(rule.verdict), to_string(rule.verdict),
                                  M(truncate_utf8(rule.summary, 200)));
    if (changes) row += fmt::format(" {} |", rule.change ? M(*rule.change) : "");
    line(row);
  }

  // The checks that did not pass, worst rules first as the table lists them.
  std::vector<std::string> problems;
  for (Verdict v : {Verdict::fail, Verdict::error, Verdict::warn}) {
    for (const auto& rule : r.rules) {
      if (rule.kind != "technical" || rule.verdict != v) continue;
      for (const auto& c : rule.checks) {
        if (severity(c.verdict) <= severity(Verdict::pass)) continue;
        // The unreachable target is said once at the top: its errors need no line each.
        if (r.unreachable && c.verdict == Verdict::error) continue;
        std::string item = fmt::format("- {} **{}** {} {}: {}", icon(c.verdict), M(c.id), to_string(c.verdict),
                                       M(rule.id), M(truncate_utf8(c.message, 400)));
        if (!c.locations.empty()) {
          const auto& l = c.locations.front();
          item += fmt::format("\n  - at {}{}", M(l.pointer), l.line ? fmt::format(" (line {})", *l.line) : "");
        }
        std::size_t shown = 0;
        for (int id : c.exchanges) {
          if (shown == 2) break;
          if (const auto* e = find_exchange(r, id)) {
            item += "\n  - " + M(exchange_line(*e));
            ++shown;
          }
        }
        if (c.exchanges.size() > shown && shown) item += fmt::format(" (+{} more)", c.exchanges.size() - shown);
        problems.push_back(std::move(item));
      }
    }
  }
  if (!problems.empty()) {
    line("");
    line("#### What did not pass");
    line("");
    for (const auto& p : problems) line(p);
  }
  if (functional) {
    line("");
    line(fmt::format("{} for a reviewer.", plural(static_cast<std::size_t>(functional), "functional rule",
                                                  "functional rules")));
  }
  return out;
}

}  // namespace adrprobe::report
