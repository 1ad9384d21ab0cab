// What the two HTML pages share (report/html.cpp, the audit report, and
// report/summary_html.cpp, the batch summary): the page skeleton with its CSS,
// escaping of server text, links, verdict labels. One self-contained file: no
// script, no external stylesheet, font or image, and a Content-Security-Policy
// that would block them anyway.
#pragma once
#include <string>
#include <string_view>

#include "report/model.hpp"
#include "util/strings.hpp"

namespace adrprobe::report::html {

// Text for HTML (element content and quoted attribute values alike): control
// characters, bidi controls and invalid UTF-8 made visible (escape_control),
// then & < > " ' escaped. Every piece of report data goes through this. A bidi
// control is shown as \xNN rather than isolated (<bdi>): isolation keeps an
// override from reaching the text around it, but inside the value it would
// still turn "txt.exe" into "exe.txt", and a reader must see that it is there.
// Tabs::kept: the tool's own code (a fix), whose tabs are its indentation.
std::string esc(std::string_view s, Tabs tabs = Tabs::escaped);

// Text of several lines (a response body, a fix) for a <pre>: each line
// through esc, so the line breaks stay while every other control character is
// still shown (\xNN); a carriage return that ends a line goes with it. Tabs as esc.
std::string esc_lines(std::string_view text, Tabs tabs = Tabs::escaped);

// An absolute http:// or https:// URL with no whitespace or control character
// in it: the only report URLs that ever become an href (never javascript:,
// data: or a relative URL from a server).
bool is_web_url(std::string_view url);

// <a href="url">text</a> for a web URL (is_web_url), else the text alone.
// text_html is HTML already (escaped by the caller).
std::string link(std::string_view url, const std::string& text_html);

// A link to a file in the page's directory or below it (the batch's
// per-target reports): every path segment percent-encoded, so no scheme (':'),
// query or fragment can come out of a file name. An absolute path or one
// with an empty, "." or ".." segment is not linked: text_html alone.
std::string file_link(std::string_view relative_path, const std::string& text_html);

// The verdict as icon and word, coloured, e.g. <span class="v v-fail">✖ fail</span>:
// told apart by colour and by word, so it survives black-and-white print.
std::string verdict_label(Verdict v);

// The whole document (title: plain text, escaped here): doctype, charset, CSP, viewport, title, the shared CSS
// (screen and A4 print) plus extra_css, and body_html inside <body>.
std::string page(std::string_view title, std::string_view body_html, std::string_view extra_css = {});

}  // namespace adrprobe::report::html
