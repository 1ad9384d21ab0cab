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
