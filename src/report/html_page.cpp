#include "report/html_page.hpp"

#include <fmt/format.h>

#include "util/strings.hpp"

namespace adrprobe::report::html {
namespace {

// Screen and A4 print. Verdicts carry an icon and a word besides their colour;
// borders (not backgrounds) draw what must print, since browsers leave out
// background colours unless asked (print-color-adjust asks).
constexpr std::string_view css = R"CSS(
:root { --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --soft: #f6f8fa;
  --pass: #1a7f37; --warn: #9a6700; --fail: #cf222e; --error: #8250df; --skip: #6e7781; --manual: #0969da; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { font: 14px/1.45 "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; color: var(--fg);
  max-width: 1200px; margin: 0 auto; padding: 24px 28px 48px; }
h1 { font-size: 22px; margin: 0 0 2px; }
h2 { font-size: 18px; margin: 28px 0 10px; padding-bottom: 4px; border-bottom: 2px solid var(--fg); }
h3 { font-size: 15px; margin: 0; }
h2, h3, h4 { break-after: avoid; page-break-after: avoid; }
a { color: #0550ae; }
code, .mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
.sub { color: var(--muted); margin: 0 0 14px; }
.muted { color: var(--muted); }
.small { font-size: 12px; }
.wrap { overflow-wrap: anywhere; word-break: break-word; }
table { border-collapse: collapse; width: 100%; margin: 6px 0 10px; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--line); }
th { font-size: 12px; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); border-bottom: 2px solid var(--line); }
tr { break-inside: avoid; page-break-inside: avoid; }
thead { display: table-header-group; }
table.facts, table.protocols { width: auto; }
table.facts th { text-transform: none; letter-spacing: 0; font-size: 13px; color: var(--muted); font-weight: normal;
  white-space: nowrap; padding-right: 18px; border-bottom: 1px solid var(--line); }
.v { display: inline-block; white-space: nowrap; font-weight: bold; padding: 0 6px; border: 1.5px solid currentColor;
  border-radius: 4px; font-size: 12px; line-height: 18px; }
.v-pass { color: var(--pass); } .v-warn { color: var(--warn); } .v-fail { color: var(--fail); }
.v-error { color: var(--error); } .v-skip { color: var(--skip); font-weight: normal; } .v-manual { color: var(--manual); }
.top { display: flex; gap: 24px; align-items: flex-start; flex-wrap: wrap; }
.top > table { flex: 1 1 560px; }
.score { border: 2px solid var(--fg); border-radius: 8px; padding: 10px 16px; min-width: 240px; }
.score .pct { font-size: 34px; font-weight: bold; line-height: 1.1; }
.score .counts { margin-top: 6px; display: flex; flex-wrap: wrap; gap: 4px; }
.notice { border: 2px solid var(--warn); border-left-width: 8px; border-radius: 6px; padding: 8px 12px; margin: 14px 0;
  background: #fff8c5; }
.notice.headline { border-color: var(--fail); background: #ffebe9; font-weight: bold; }
.notice p { margin: 2px 0; }
ul.notes { margin: 4px 0; padding-left: 20px; }
.rule { border: 1px solid var(--line); border-radius: 8px; margin: 14px 0; padding: 10px 14px; }
.rule.fail { border-left: 6px solid var(--fail); } .rule.error { border-left: 6px solid var(--error); }
.rule.warn { border-left: 6px solid var(--warn); } .rule.pass { border-left: 6px solid var(--pass); }
.rule.skip { border-left: 6px solid var(--skip); } .rule.manual { border-left: 6px solid var(--manual); }
.rule-head { display: flex; gap: 10px; align-items: baseline; }
.rule-head h3 { flex: 1; min-width: 0; overflow-wrap: anywhere; }
.rule-head .id { font-family: "DejaVu Sans Mono", monospace; font-weight: bold; }
.rule-meta { color: var(--muted); font-size: 12.5px; margin: 2px 0 6px; }
.check { border-top: 1px solid var(--line); padding: 6px 0 4px; break-inside: avoid; page-break-inside: avoid; }
.check-head { display: grid; grid-template-columns: 58px 86px 1fr; gap: 8px; align-items: baseline; }
.check-head .cid { font-family: "DejaVu Sans Mono", monospace; font-weight: bold; }
.check .msg { overflow-wrap: anywhere; }
.refs { font-size: 12px; color: var(--muted); margin: 2px 0 0 160px; }
.details { margin: 4px 0 0 160px; padding-left: 18px; font-size: 12.5px; }
.fix { margin: 4px 0 0 160px; padding: 4px 8px; border-left: 3px solid #2e7d32; background: #f1f8f1; font-size: 12.5px; break-inside: avoid; }
.fix pre { margin: 2px 0 0; white-space: pre-wrap; overflow-wrap: anywhere; font-family: "DejaVu Sans Mono", monospace; font-size: 12px; }
.xchg { border: 1px solid var(--line); border-radius: 6px; margin: 10px 0; padding: 6px 10px; }
.xchg:target { outline: 2px solid var(--manual); }
.xchg-head { display: flex; gap: 12px; align-items: baseline; }
.xchg-head .xid { font-weight: bold; white-space: nowrap; }
.xchg-head code { flex: 1; min-width: 0; }
.xchg-head .ms { white-space: nowrap; }
.xchg-head .ms, .cited, .wire-head { color: var(--muted); font-size: 12px; }
.wire-head { margin-top: 4px; }
.wire-cols { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 10px; }
pre.wire { margin: 1px 0 0; padding: 2px 8px; border-left: 3px solid var(--line); white-space: pre-wrap;
  overflow-wrap: anywhere; font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; }
table.ex { margin: 6px 0 4px 0; font-size: 12.5px; border: 1px solid var(--line); }
table.ex td { border-bottom: 1px solid var(--line); }
table.ex tr:target { outline: 2px solid var(--manual); }
table.ex td.xid { width: 46px; white-space: nowrap; font-weight: bold; }
table.ex td.st { width: 130px; white-space: nowrap; }
table.ex td.ms { width: 70px; text-align: right; white-space: nowrap; color: var(--muted); }
.hdrs { margin-top: 2px; color: var(--muted); font-size: 12px; overflow-wrap: anywhere; }
.hdrs span { display: inline-block; margin-right: 12px; }
.hdrs b { color: var(--fg); font-weight: 600; }
.hdrs .key b { color: #0550ae; }
.err { color: var(--fail); font-weight: bold; }
.review { border: 1px solid var(--line); border-radius: 8px; margin: 14px 0; padding: 10px 14px;
  border-left: 6px solid var(--manual); }
.rule-head, .rule-meta { break-after: avoid; page-break-after: avoid; }
.review h4 { margin: 8px 0 2px; font-size: 13px; }
.review p { margin: 2px 0; }
.review ul { margin: 2px 0; padding-left: 20px; }
.conclusion { margin-top: 10px; border: 1.5px solid var(--fg); border-radius: 6px; padding: 8px 12px;
  break-inside: avoid; page-break-inside: avoid; }
.conclusion .boxes { display: flex; gap: 28px; flex-wrap: wrap; font-size: 15px; }
.conclusion .line { border-bottom: 1px solid var(--muted); height: 24px; }
.conclusion .sign { display: flex; gap: 24px; margin-top: 8px; font-size: 12px; color: var(--muted); }
.conclusion .sign span { flex: 1; border-bottom: 1px solid var(--muted); padding-top: 14px; }
.banner { border: 2px solid var(--error); border-left-width: 10px; border-radius: 6px; padding: 8px 14px; margin: 10px 0 14px;
  break-inside: avoid; page-break-inside: avoid; }
.banner p { margin: 2px 0 0; font-size: 15px; }
.banner-label { font-weight: bold; font-size: 18px; }
.banner-fail { border-color: var(--fail); background: #ffebe9; } .banner-fail .banner-label { color: var(--fail); }
.banner-pass { border-color: var(--pass); background: #dafbe1; } .banner-pass .banner-label { color: var(--pass); }
.banner-error { border-color: var(--error); background: #fbefff; } .banner-error .banner-label { color: var(--error); }
.rule, .review, .review-row, .conclusion, .banner, .score, .xchg { break-inside: avoid; page-break-inside: avoid; }
table.checklist td.boxes { white-space: nowrap; font-size: 13px; }
table.checklist td.boxes span { margin-right: 10px; }
table.checklist summary { cursor: pointer; }
table.checklist details h4 { margin: 8px 0 2px; font-size: 13px; }
table.checklist details p { margin: 2px 0; }
table.checklist .hints ul { margin: 2px 0; padding-left: 20px; }
.hdrs .judged { outline: 1px dashed var(--manual); }
p, li { orphans: 3; widows: 3; }
.keep-next { break-after: avoid; page-break-after: avoid; }
.print-only { display: none; }
footer { break-before: avoid; page-break-before: avoid; }
nav.toc { font-size: 13px; margin: 6px 0 0; }
nav.toc a { margin-right: 14px; }
footer { margin-top: 32px; color: var(--muted); font-size: 12px; border-top: 1px solid var(--line); padding-top: 8px; }
@page { size: A4; margin: 14mm 12mm 16mm; }
@media print {
  body { font-size: 9pt; line-height: 1.35; max-width: none; padding: 0; margin: 0; }
  footer { margin-top: 12pt; padding-bottom: 0; }
  h2 { font-size: 12.5pt; margin-top: 12pt; }
  code, .mono { font-size: 8.5pt; }
  table.ex, .hdrs, .small, .refs { font-size: 8pt; }
  a { color: inherit; text-decoration: none; }
  /* On paper a link's target is printed after its text (in-page anchors have none to print). */
  a[href]:not([href^="#"])::after { content: " <" attr(href) ">"; font-size: 8pt; overflow-wrap: anywhere;
    word-break: break-all; color: var(--muted); }
  details > summary { list-style: none; }
  details > summary::-webkit-details-marker { display: none; }
  /* Compact on paper: every table's cells, the checklist's lines, the space between checks and cards. */
  th, td { padding: 2px 6px; }
  table.checklist, table.checklist td.boxes { font-size: 8.5pt; }
  table.checklist td.boxes span { margin-right: 6px; }
  table.rules { font-size: 8.5pt; }
  table.rules .rule-link { display: none; }
  table.rules .clamp { display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; }
  .screen-only { display: none; }
  tr.print-only { display: table-row; }
  div.print-only { display: block; }
  /* A link whose text is its URL already: not printed twice. */
  .url a[href]::after { content: none; }
  /* On paper an exchange shows the headers a check is about (the JSON report has them all). */
  .hdrs span:not(.key):not(.sent), .hdrs span.usual, .hdrs.usual { display: none; }
  nav.toc { display: none; }
  .rule, .review, .score, .notice { box-shadow: none; }
  h2.page { break-before: page; page-break-before: always; }
  .rule, .review { padding: 5px 10px; margin: 6px 0; }
  .check { padding: 3px 0 2px; }
  table.ex { margin: 3px 0 2px; }
  .conclusion .line { height: 20px; }
  /* The change as written, compact on paper: code at the size of the exchanges. */
  .fix { margin: 3pt 0 0 24pt; padding: 2pt 6pt; font-size: 8pt; }
  .fix pre { font-size: 7.5pt; line-height: 1.25; }
  /* The evidence appendix: every line of it, compact. */
  .xchg { padding: 3pt 6pt; margin: 4pt 0; }
  pre.wire { font-size: 7.5pt; line-height: 1.25; }
  .xchg-head .ms, .cited, .wire-head { font-size: 7.5pt; }
  .wire-head { margin-top: 2pt; }
}
)CSS";

}  // namespace

std::string esc(std::string_view s, Tabs tabs) {
  std::string visible = escape_control(s, tabs);
  std::string out;
  out.reserve(visible.size() + visible.size() / 8);
  for (char c : visible) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string esc_lines(std::string_view text, Tabs tabs) {
  auto lines = split(text, '\n');
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i + 1 < lines.size() && !lines[i].empty() && lines[i].back() == '\r') lines[i].pop_back();
    out += (i ? "\n" : "") + esc(lines[i], tabs);
  }
  return out;
}

bool is_web_url(std::string_view url) {
  if (!starts_with_ci(url, "http://") && !starts_with_ci(url, "https://")) return false;
  for (unsigned char c : url)
    if (c <= 0x20 || c == 0x7F || c == '"' || c == '\'' || c == '<' || c == '>' || c == '\\' || c == '`') return false;
  return is_valid_utf8(url);
}

std::string link(std::string_view url, const std::string& text_html) {
  if (!is_web_url(url)) return text_html;
  return fmt::format("<a href=\"{}\">{}</a>", esc(url), text_html);
}

std::string file_link(std::string_view relative_path, const std::string& text_html) {
  // A path inside the page's directory, in normal form: names only. One that
  // starts at the root, an empty segment, "." or ".." anywhere links nowhere
  // (the published directory must not link out of itself).
  std::vector<std::string> segments;
  for (const auto& segment : split(relative_path, '/')) {
    if (segment.empty() || segment == "." || segment == "..") return text_html;
    segments.push_back(percent_encode(segment));
  }
  if (segments.empty()) return text_html;
  return fmt::format("<a href=\"{}\">{}</a>", join(segments, "/"), text_html);
}

std::string verdict_label(Verdict v) {
  std::string_view icon = "";
  switch (v) {
    case Verdict::pass: icon = "✔"; break;
    case Verdict::warn: icon = "⚠"; break;
    case Verdict::fail: icon = "✖"; break;
    case Verdict::error: icon = "!"; break;
    case Verdict::skip: icon = "–"; break;
    case Verdict::manual: icon = "☐"; break;
  }
  std::string word = to_string(v);
  return fmt::format("<span class=\"v v-{}\">{} {}</span>", word, icon, word);
}

std::string page(std::string_view title, std::string_view body_html, std::string_view extra_css) {
  std::string out;
  out.reserve(body_html.size() + css.size() + 1024);
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  // Defence in depth: even an escaping bug could not load or run anything.
  out += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<meta name=\"referrer\" content=\"no-referrer\">\n";
  out += fmt::format("<title>{}</title>\n<style>{}{}</style>\n</head>\n<body>\n", esc(title), css, extra_css);
  out += body_html;
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace adrprobe::report::html
