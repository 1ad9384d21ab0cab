// Small string helpers shared by every layer.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace adrprobe {

std::string to_lower(std::string_view s);
std::string to_upper(std::string_view s);
std::string trim(std::string_view s);
// The same, without a copy: a view of `s` without its leading and trailing whitespace.
std::string_view trim_view(std::string_view s);
std::vector<std::string> split(std::string_view s, char sep);
bool starts_with_ci(std::string_view s, std::string_view prefix);
bool iequals(std::string_view a, std::string_view b);
// Joins items with sep; a list longer than max_items ends in ", … (+N more)".
std::string join(const std::vector<std::string>& items, std::string_view sep, std::size_t max_items = 0);
// The value of a hexadecimal digit (either case); -1 for any other character.
int hex_digit(char c);
// A code point appended as UTF-8, one to four bytes; whether it is a Unicode
// scalar value (not a surrogate, at most U+10FFFF) is the caller's to check.
void append_utf8(std::string& out, char32_t cp);
std::string percent_decode(std::string_view s);
// Percent-encodes everything outside RFC 3986 unreserved characters.
std::string percent_encode(std::string_view s);
// Base64 (RFC 4648, with padding), as in "Authorization: Basic ...".
std::string base64_encode(std::string_view s);
// The bytes of standard base64 (padding optional, no white space inside);
// nullopt for anything else.
std::optional<std::string> base64_decode(std::string_view s);
// Replaces every occurrence of needle in s.
std::string replace_all(std::string s, std::string_view needle, std::string_view with);
// UTF-8 as RFC 3629 and Unicode Table 3-7 define it: no overlong forms, no
// surrogates (U+D800..U+DFFF), nothing above U+10FFFF.
bool is_valid_utf8(std::string_view s);
// Replaces each maximal invalid subpart (Unicode's "substitution of maximal
// subparts": a bad byte, or the valid start of a sequence cut short) with
// replacement, so the result is valid UTF-8 when replacement is.
std::string replace_invalid_utf8(std::string_view s, std::string_view replacement);
// Replaces invalid UTF-8 with '?' (server text on a terminal).
std::string sanitize_utf8(std::string_view s);
// The invisible character s starts with, if any: its code point and its
// length in UTF-8; {0, 0} when s starts with none (or with invalid UTF-8).
// Invisible are Unicode's default-ignorable code points (DerivedCoreProperties'
// Default_Ignorable_Code_Point, which a renderer shows as nothing: U+00AD soft
// hyphen, U+200B..U+200D zero-width space and joiners, U+2060 word joiner,
// U+FEFF, variation selectors, the tag characters U+E0000..U+E0FFF, ...) and
// U+2028, U+2029 (line and paragraph separator, a line break to some viewers
// and none to others). Among them are the bidirectional formatting characters
// (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069), which reorder how
// the rest of a line is shown: U+202E turns "txt.exe" into "exe.txt". The
// others make two different names print the same ("bag" and "bag" U+200B).
std::pair<char32_t, std::size_t> invisible_character(std::string_view s);
// For human-readable output: C0 controls (0x00-0x1F), DEL (0x7F), C1 controls
// (U+0080-U+009F, each of their two bytes), the invisible characters of
// invisible_character (each of their bytes) and every byte of invalid UTF-8
// become the visible text \xNN (lower-case hex); valid printable UTF-8 and the
// backslash itself pass unchanged. "\x1b]0;pwned\x07" stays on one line,
// visible; U+202E becomes \xe2\x80\xae and reorders nothing; "bag" U+200B
// shows as bag\xe2\x80\x8b, not as "bag".
// Tabs::kept lets a tab through as itself: for the tool's own text (a fix's
// code, indented with tabs in Go), never for what a server sent.
enum class Tabs { escaped, kept };
std::string escape_control(std::string_view s, Tabs tabs = Tabs::escaped);
// At most max_bytes, cut at a character boundary, "..." appended when cut.
std::string truncate_utf8(std::string_view s, std::size_t max_bytes);
// The characters (code points) of valid UTF-8 text, such as escape_control
// gives: the columns it takes on a terminal, for names and URLs, whose
// characters are one column wide.
std::size_t utf8_columns(std::string_view s);
// s, then spaces up to `columns` characters (utf8_columns): a column of a
// table on a terminal. Longer text is left as it is.
std::string pad_columns(std::string_view s, std::size_t columns);
// A number as a person writes it on a command line or in a file: decimal
// digits after an optional '-', and for a double an optional fraction and
// exponent ("1.5", "2e3"); no '+' in front, no space, no other base, not inf or
// nan. strtoll with base 0 (CLI11) reads "0x50" as 80 and "010" as 8, and
// saturates 99999999999999999999 without a word; std::stod reads hex and inf.
// Sets out and returns "" when text is one that fits; else why not, quoting
// it ("'0x50' is not a whole number", "'99999999999999999999' is out of range
// (at most 9223372036854775807)").
std::string parse_decimal(std::string_view text, int& out);
std::string parse_decimal(std::string_view text, long long& out);
std::string parse_decimal(std::string_view text, double& out);
// "1 path" / "2 paths"
std::string plural(std::size_t n, std::string_view one, std::string_view many);

}  // namespace adrprobe
