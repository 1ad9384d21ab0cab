// Markdown for merge-request comments: header, the table of technical rules,
// what did not pass, and server text that cannot become markup.
#include <doctest/doctest.h>

#include "report/formats.hpp"
#include "report_sample.hpp"
#include "util/strings.hpp"

using namespace adrprobe;

namespace {
bool has_text(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("markdown: header, table, problems, functional rules in one line") {
  std::string md = report::render("markdown", test::ci_sample());
  auto lines = split(md, '\n');
  CHECK(lines[0].rfind("**❌ Does not conform to 2.2.0\\: 2 MUST rules fail \\(/core/failing, /core/kebab\\)", 0) == 0);
  CHECK(lines[2] == "### adrprobe check: https\\:\u2060//api.example.nl/v1 · REST API Design Rules 2.2.0 · score 40.0 %");
  CHECK(has_text(md, "| Rule | Verdict | Summary | Change |"));
  CHECK(has_text(md, "| /core/failing | ❌ fail | summary of /core/failing | new failure |"));
  CHECK(has_text(md, "| /core/passing | ✅ pass | summary of /core/passing |  |"));
  CHECK(has_text(md, "| /core/warning | ⚠️ warn |"));
  CHECK_FALSE(has_text(md, "| /core/naming"));  // functional: counted, not listed
  CHECK(has_text(md, "1 functional rule for a reviewer."));
  CHECK(has_text(md, "#### What did not pass"));
  CHECK(has_text(md, "- ❌ **NT-2** fail /core/failing: GET /v1/a/ served \\(200\\)"));
  CHECK(has_text(md, "  - GET https\\:\u2060//api.example.nl/v1/a/ → 200"));
  CHECK(has_text(md, "  - at /paths/\\~1fooBar (line 12)"));
  CHECK(has_text(md, "- ❗ **TS-1** error"));
  CHECK(has_text(md, "- ⚠️ **VH-2** warn"));
  // Fail before error before warn.
  CHECK(md.find("**NT-2**") < md.find("**TS-1**"));
  CHECK(md.find("**TS-1**") < md.find("**VH-2**"));
}

TEST_CASE("markdown: no change column without a baseline") {
  auto r = test::ci_sample();
  r.rules[1].change.reset();
  std::string md = report::render("markdown", r);
  CHECK(has_text(md, "| Rule | Verdict | Summary |\n|---|---|---|\n"));
}

TEST_CASE("markdown: server text comes out inert") {
  std::string md = report::render("markdown", test::ci_sample());
  CHECK_FALSE(has_text(md, "<img"));
  CHECK(has_text(md, "&lt;img src=x onerror=alert\\(1\\)&gt; &amp; \\[link\\]\\(javascript\\:alert\\(1\\)\\)"));
  CHECK(has_text(md, "\\]\\]&gt;"));
  CHECK(has_text(md, "\\`code\\` \\*em\\* \\_u\\_ \\| \\@\u2060all \\#1"));
  CHECK(has_text(md, "\\\\x1b\\]0;pwned\\\\x07 \\\\xff"));  // escape_control's backslashes escaped too
  CHECK_FALSE(has_text(md, "\x1b"));
  CHECK_FALSE(has_text(md, "\xff"));
}

TEST_CASE("markdown: no autolink trigger survives in server text") {
  // cmark-gfm's autolink extension links www., http(s)/ftp:// and e-mail
  // addresses (mailto:, xmpp:) in text, escaped or not; GitLab any scheme://.
  auto r = test::ci_sample();
  r.rules[1].checks[0].message =
      "see www.evil-phish.example/adr-fix or WWW.Evil.example, mail helpdesk@evil-phish.example, "
      "https://evil.example/x ftp://evil.example xmpp:a@evil.example mailto:b@evil.example";
  std::string md = report::render("markdown", r);
  CHECK(has_text(md, "see www\u2060.evil-phish.example/adr-fix or WWW\u2060.Evil.example"));
  CHECK(has_text(md, "mail helpdesk\\@\u2060evil-phish.example"));
  CHECK(has_text(md, "https\\:\u2060//evil.example/x ftp\\:\u2060//evil.example"));
  CHECK(has_text(md, "xmpp\\:a\\@\u2060evil.example mailto\\:b\\@\u2060evil.example"));
  for (const char* trigger : {"www.", "WWW.", "://", "@e", "@a"}) CHECK_FALSE(has_text(md, trigger));
  // A port's colon needs no joiner.
  r.base_url = "https://api.example.nl:8443/v1";
  CHECK(has_text(report::render("markdown", r), "https\\:\u2060//api.example.nl\\:8443/v1"));
}
