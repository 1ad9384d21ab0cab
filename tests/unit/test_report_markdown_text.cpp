// The Markdown escaping of server text shared by the report comment and the
// nightly digest (report/markdown_text.*).
#include <doctest/doctest.h>

#include "report/markdown_text.hpp"

using adrprobe::report::markdown_text;

TEST_CASE("markdown text: markup, HTML and mentions come out as text") {
  CHECK(markdown_text("plain words") == "plain words");
  CHECK(markdown_text("<script>x</script>") == "&lt;script&gt;x&lt;/script&gt;");
  CHECK(markdown_text("[a](javascript:alert(1))") == "\\[a\\]\\(javascript\\:alert\\(1\\)\\)");
  CHECK(markdown_text("![i](x) *e* _u_ `c` | ~s~ #1 !2 %3 $4 {5}") ==
        "\\!\\[i\\]\\(x\\) \\*e\\* \\_u\\_ \\`c\\` \\| \\~s\\~ \\#1 \\!2 \\%3 \\$4 \\{5\\}");
  CHECK(markdown_text("a & b \\ c") == "a &amp; b \\\\ c");
}

TEST_CASE("markdown text: autolink triggers broken by a word joiner") {
  CHECK(markdown_text("https://evil.example") == "https\\:\u2060//evil.example");
  CHECK(markdown_text("www.evil.example WWW.x") == "www\u2060.evil.example WWW\u2060.x");
  CHECK(markdown_text("me@evil.example") == "me\\@\u2060evil.example");
  CHECK(markdown_text("host:8443") == "host\\:8443");  // a port's colon needs no joiner
}

TEST_CASE("markdown text: control and bidi characters made visible") {
  std::string out = markdown_text(std::string("a\x1b[31mb\nc") + "\u202Etxt.exe");
  CHECK(out.find('\x1b') == std::string::npos);
  CHECK(out.find('\n') == std::string::npos);
  CHECK(out.find("\u202E") == std::string::npos);
}

TEST_CASE("markdown_code: the text as written inside a fence longer than any backtick run in it") {
  using adrprobe::report::markdown_code;
  CHECK(markdown_code("https://api.example.nl:8443/v1") == "`https://api.example.nl:8443/v1`");
  CHECK(markdown_code("2026-11-28T03:23:16Z") == "`2026-11-28T03:23:16Z`");
  // nothing escaped inside: backslashes, entities and markup are literal in a code span
  CHECK(markdown_code("a\\b <i> &amp; *x* [l](u) @all www.x.example") == "`a\\b <i> &amp; *x* [l](u) @all www.x.example`");
  CHECK(markdown_code("a `b` c") == "``a `b` c``");
  CHECK(markdown_code("x ``` y `") == "```` x ``` y ` ````");  // a space inside each end: it ends in a backtick
  CHECK(markdown_code("`") == "`` ` ``");
  CHECK(markdown_code(" padded ") == "`  padded  `");  // CommonMark takes one space off each side
  CHECK(markdown_code("   ") == "`   `");             // all spaces: nothing is taken off
  CHECK(markdown_code("") == "");
  // a code span holds no line break and no control character: made visible first
  CHECK(markdown_code("a\nb\x1b[2J\xe2\x80\xae") == "`a\\x0ab\\x1b[2J\\xe2\\x80\\xae`");
}
