// util/strings: string helpers.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "util/strings.hpp"

using namespace adrprobe;

TEST_CASE("strings: percent coding and joins") {
  CHECK(percent_decode("a%20b%7E") == "a b~");
  CHECK(percent_decode("100%") == "100%");
  CHECK(percent_decode("%zz") == "%zz");
  CHECK(percent_encode("a b/c") == "a%20b%2Fc");
  CHECK(join({"a", "b", "c"}, ", ", 2) == "a, b, … (+1 more)");
  CHECK(plural(1, "path", "paths") == "1 path");
  CHECK(plural(2, "path", "paths") == "2 paths");
}

TEST_CASE("utf-8: invalid bytes replaced, truncation at a character boundary") {
  CHECK(sanitize_utf8("ok\xff\xfe→") == "ok??→");
  CHECK(truncate_utf8("ab→cd", 6) == "ab...");
  CHECK(truncate_utf8("short", 10) == "short");
}

TEST_CASE("utf-8: the validator follows Unicode Table 3-7") {
  // Valid: every length, the edges of each range.
  for (const char* ok : {"", "a", "\x7f", "\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xed\x9f\xbf", "\xee\x80\x80",
                         "\xef\xbf\xbf", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf", "é→😀"}) {
    INFO(ok);
    CHECK(is_valid_utf8(ok));
    CHECK(sanitize_utf8(ok) == ok);
  }
  // Invalid: surrogates, overlong forms, F5-FF leads, above U+10FFFF, lone
  // continuation bytes, sequences cut short.
  for (const char* bad : {"\xed\xa0\x80", "\xed\xbf\xbf", "\xc0\xaf", "\xc1\xbf", "\xe0\x80\xaf", "\xe0\x9f\xbf",
                          "\xf0\x80\x80\xaf", "\xf0\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xf7\xbf\xbf\xbf",
                          "\xf8\x88\x80\x80\x80", "\xff", "\x80", "\xbf", "\xe2\x82", "\xf0\x9f\x98"}) {
    INFO(bad);
    CHECK_FALSE(is_valid_utf8(bad));
    std::string s = sanitize_utf8(bad);
    CHECK(is_valid_utf8(s));
    CHECK(s.find_first_not_of('?') == std::string::npos);
  }
}

TEST_CASE("utf-8: maximal invalid subparts are replaced once each") {
  CHECK(sanitize_utf8("\xed\xa0\x80") == "???");       // a surrogate: three bad bytes
  CHECK(sanitize_utf8("\xe0\x80\xaf") == "???");       // overlong
  CHECK(sanitize_utf8("\xf0\x80\x80\xaf") == "????");  // overlong
  CHECK(sanitize_utf8("\xf4\x90\x80\x80") == "????");  // above U+10FFFF
  CHECK(sanitize_utf8("\xf5\xf6\xf7") == "???");
  CHECK(sanitize_utf8("a\xe2\x82z") == "a?z");      // cut short: one subpart
  CHECK(sanitize_utf8("\xf0\x9f\x98!") == "?!");
  CHECK(replace_invalid_utf8("x\xffy\xe2\x82", "\xef\xbf\xbd") == "x\xef\xbf\xbdy\xef\xbf\xbd");
  CHECK(replace_invalid_utf8("gewoon → tekst", "?") == "gewoon → tekst");
}

TEST_CASE("escape_control: controls and invalid bytes made visible") {
  CHECK(escape_control("\x1b]0;pwned\x07") == "\\x1b]0;pwned\\x07");
  CHECK(escape_control("a\tb\r\nc") == "a\\x09b\\x0d\\x0ac");
  CHECK(escape_control(std::string("nul\0end", 7)) == "nul\\x00end");
  CHECK(escape_control("del\x7f") == "del\\x7f");
  CHECK(escape_control("\xc2\x9b" "31m") == "\\xc2\\x9b31m");  // C1 CSI
  CHECK(escape_control("\xc2\x80\xc2\x9f") == "\\xc2\\x80\\xc2\\x9f");
  CHECK(escape_control("\xc2\xa0nbsp") == "\xc2\xa0nbsp");  // U+00A0 is not a control
  CHECK(escape_control("ok\xff\xfe") == "ok\\xff\\xfe");
  CHECK(escape_control("\xed\xa0\x80") == "\\xed\\xa0\\x80");
  CHECK(escape_control("a\xe2\x82") == "a\\xe2\\x82");
  CHECK(escape_control("back\\slash") == "back\\slash");
  CHECK(escape_control("Gebouwen → één 😀") == "Gebouwen → één 😀");
  CHECK(escape_control("") == "");
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  std::string shown = escape_control(all);
  CHECK(is_valid_utf8(shown));
  for (char c : shown) CHECK((c >= 0x20 && c < 0x7f));  // nothing left a terminal would act on
}

TEST_CASE("escape_control: bidi controls made visible, so they reorder nothing") {
  // U+202E (right-to-left override): "Gebouwen \u202Egpj.exe" shows as "Gebouwen exe.jpg".
  CHECK(escape_control("Gebouwen \u202Egpj.exe") == "Gebouwen \\xe2\\x80\\xaegpj.exe");
  // Every bidi control: U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069.
  const char32_t controls[] = {0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D,
                               0x202E, 0x2066, 0x2067, 0x2068, 0x2069};
  const char* texts[] = {"\u061C", "\u200E", "\u200F", "\u202A", "\u202B", "\u202C", "\u202D",
                         "\u202E", "\u2066", "\u2067", "\u2068", "\u2069"};
  for (std::size_t i = 0; i < std::size(controls); ++i) {
    std::string_view text = texts[i];
    CHECK(invisible_character(text) == std::pair<char32_t, std::size_t>{controls[i], text.size()});
    std::string shown = escape_control("a" + std::string(text) + "b");
    CHECK(shown.find(text) == std::string::npos);
    CHECK(shown.size() == 2 + 4 * text.size());
  }
  // Their neighbours are ordinary characters and pass unchanged.
  for (const char* other : {"\u061B", "\u2010", "\u202F", "\u2027", "\u2070", "\u00A0", "\u00AE", "\uFEFE", "\uFFFD"}) {
    CAPTURE(other);
    CHECK(invisible_character(other).second == 0);
    CHECK(escape_control(other) == other);
  }
  CHECK(invisible_character("").second == 0);
  CHECK(invisible_character("\xe2\x80").second == 0);  // cut short
  CHECK(escape_control("\xe2\x80") == "\\xe2\\x80");
}

TEST_CASE("base64: decoding undoes encoding, with or without padding; anything else is refused") {
  for (const std::string& s : std::vector<std::string>{"", "a", "ab", "abc", "alice:Pa55w0rdSecret", std::string("\0\xff\x10", 3)}) {
    CHECK(base64_decode(base64_encode(s)) == s);
    std::string unpadded = base64_encode(s);
    while (!unpadded.empty() && unpadded.back() == '=') unpadded.pop_back();
    CHECK(base64_decode(unpadded) == s);
  }
  CHECK_FALSE(base64_decode("YW*j").has_value());
  CHECK_FALSE(base64_decode("YWJj ZA==").has_value());
  CHECK_FALSE(base64_decode("Y").has_value());  // one character is no byte
}

TEST_CASE("strings: utf8_columns counts characters, pad_columns pads to them") {
  CHECK(utf8_columns("") == 0);
  CHECK(utf8_columns("bag") == 3);
  CHECK(utf8_columns("ééé · x") == 7);
  CHECK(pad_columns("é", 3) == "é  ");
  CHECK(pad_columns("abcd", 3) == "abcd");  // longer: as it is
}

TEST_CASE("escape_control: invisible characters made visible, so two names never print the same (Hostile input IV)") {
  // "bag" and "bag" U+200B were two targets of one register, shown the same everywhere.
  CHECK(escape_control("bag\u200B") == "bag\\xe2\\x80\\x8b");
  CHECK(escape_control("bag\u200B") != escape_control("bag"));
  // The ones named in the issue, a sample of the rest of Unicode's default-ignorable
  // code points (soft hyphen, variation selectors, Hangul filler, tag characters), and
  // the line and paragraph separators.
  const std::pair<char32_t, const char*> invisible[] = {
      {0x200B, "\u200B"}, {0x200C, "\u200C"}, {0x200D, "\u200D"}, {0x2060, "\u2060"}, {0xFEFF, "\uFEFF"},
      {0x2028, "\u2028"}, {0x2029, "\u2029"}, {0x00AD, "\u00AD"}, {0x034F, "\u034F"}, {0x180E, "\u180E"},
      {0x2064, "\u2064"}, {0x206F, "\u206F"}, {0x3164, "\u3164"}, {0xFE0F, "\uFE0F"}, {0xFFA0, "\uFFA0"},
      {0x1D173, "\U0001D173"}, {0xE0001, "\U000E0001"}, {0xE0041, "\U000E0041"}, {0xE0FFF, "\U000E0FFF"}};
  for (const auto& entry : invisible) {
    // Not a structured binding: clang 14 refuses one in CAPTURE's lambda.
    char32_t code = entry.first;
    const char* text = entry.second;
    CAPTURE(text);
    CHECK(invisible_character(text) == std::pair<char32_t, std::size_t>{code, std::string_view(text).size()});
    std::string shown = escape_control(std::string("a") + text + "b");
    CHECK(shown.size() == 2 + 4 * std::string_view(text).size());
    CHECK(shown.find("\\x") == 1);
  }
  // what follows one is judged on its own
  CHECK(invisible_character("\u200Bx") == std::pair<char32_t, std::size_t>{0x200B, 3});
  CHECK(escape_control("Gebouwen → één 😀") == "Gebouwen → één 😀");  // visible characters pass
}

TEST_CASE("parse_decimal: decimal only, within the type, or why not") {
  long long ll = -1;
  CHECK(parse_decimal("40", ll) == "");
  CHECK(ll == 40);
  CHECK(parse_decimal("010", ll) == "");  // decimal, not octal
  CHECK(ll == 10);
  CHECK(parse_decimal("-1", ll) == "");
  CHECK(ll == -1);
  CHECK(parse_decimal("9223372036854775807", ll) == "");
  CHECK(parse_decimal("99999999999999999999", ll) == "'99999999999999999999' is out of range (at most 9223372036854775807)");
  CHECK(parse_decimal("-99999999999999999999", ll) ==
        "'-99999999999999999999' is out of range (at least -9223372036854775808)");
  ll = 7;
  for (const char* bad : {"0x50", "0X50", "0b1", "0o7", "+5", " 5", "5 ", "", "-", "5-", "1e3", "1.5", "inf", "nan", "٣"}) {
    CAPTURE(bad);
    CHECK(parse_decimal(bad, ll) == fmt::format("'{}' is not a whole number", escape_control(bad)));
    CHECK(ll == 7);  // left as it was
  }
  int i = 0;
  CHECK(parse_decimal("80", i) == "");
  CHECK(i == 80);
  CHECK(parse_decimal("4294967376", i) == "'4294967376' is out of range (at most 2147483647)");  // 2^32 + 80 wraps to 80
  double d = 0;
  CHECK(parse_decimal("1.5", d) == "");
  CHECK(d == 1.5);
  CHECK(parse_decimal("2e3", d) == "");
  CHECK(d == 2000);
  CHECK(parse_decimal("-0.25", d) == "");
  CHECK(d == -0.25);
  CHECK(parse_decimal("1e400", d) == "'1e400' is out of range");
  for (const char* bad : {"0x10", "inf", "-inf", "nan", "infinity", "1,5", "+1", "1e", " 1", "0x1p3"}) {
    CAPTURE(bad);
    CHECK(parse_decimal(bad, d) == fmt::format("'{}' is not a decimal number", bad));
  }
  // a long value is quoted in part
  CHECK(parse_decimal(std::string(100, '9') + "x", d) == fmt::format("'{}…' is not a decimal number", std::string(40, '9')));
}
