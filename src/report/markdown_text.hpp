// Server text in Markdown, shared by the report's comment (report/markdown.cpp)
// and the nightly digest (report/summary_markdown.cpp).
#pragma once
#include <string>
#include <string_view>

namespace adrprobe::report {

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
std::string markdown_text(std::string_view s);

}  // namespace adrprobe::report
