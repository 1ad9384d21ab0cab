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
// through here too, so the comment has no link at all. (summary.md, pasted
// into any chat, gives URLs, times and a server's words as code spans
// instead: markdown_code.)
// (tests/integration/test_markdown.py renders with cmark-gfm to prove it.)
std::string markdown_text(std::string_view s);

// Report text as a Markdown code span, for text a reader copies out of a
// message: URLs, times, a server's words (summary.md). Inside a code span
// Markdown reads nothing as markup and autolinks nothing (cmark-gfm, GitLab),
// and backslashes and entities are literal, so the text is given as it is:
// no escapes, no joiners, and what a chat that shows the Markdown raw, or its
// plain text, shows is the server's text. Control characters, bidi controls
// and invalid UTF-8 are made visible first (a code span cannot hold a line
// break either); a run of backticks in the text gets a longer fence, and a
// space inside each end when the text begins or ends with a backtick or a
// space (CommonMark takes one off each side). Empty text is "".
std::string markdown_code(std::string_view s);

}  // namespace adrprobe::report
