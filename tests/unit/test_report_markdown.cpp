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

TEST_CASE("markdown: a module's rules after the edition's, under their heading, with reason, count, table and problems") {
  std::string md = report::render("markdown", test::with_geo(test::ci_sample()));
  std::size_t edition_problems = md.find("#### What did not pass\n");
  std::size_t heading = md.find("\n### Geospatial module 1.0.2\n");
  REQUIRE(edition_problems != std::string::npos);
  REQUIRE(heading != std::string::npos);
  CHECK(edition_problems < heading);
  // The edition's table and problems hold none of the module's rules (the conclusion
  // above them is the engine's: it names the rule for the module).
  std::size_t table = md.find("| Rule | Verdict |");
  CHECK(md.substr(table, heading - table).find("/geo/") == std::string::npos);
  CHECK(has_text(md, "judged\\: /collections and application/geo+json in the document"));
  CHECK(has_text(md, "1 pass · 0 warn · 1 fail · 0 error of 2 applicable rules of the module"));
  CHECK(md.find("| /geo/crs-list | ❌ fail | summary of /geo/crs-list |", heading) != std::string::npos);
  CHECK(md.find("| /geo/storage-crs | ✅ pass |", heading) != std::string::npos);
  std::size_t problems = md.find("#### What did not pass in the Geospatial module 1.0.2", heading);
  REQUIRE(problems != std::string::npos);
  CHECK(md.find("- ❌ **GE-1** fail /geo/crs-list: /collections\\: crs entry EPSG\\:28992 is no URI", problems) != std::string::npos);
  CHECK(md.find("1 functional rule of the module for a reviewer.", problems) != std::string::npos);
  CHECK_FALSE(has_text(md, "<img"));  // server text in the module's message is no markup
}
