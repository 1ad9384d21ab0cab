// oas/parse: JSON and YAML loading within limits.
#include <doctest/doctest.h>

#include <string>

#include "oas/parse.hpp"
#include "util/strings.hpp"

using namespace adrprobe;
using namespace adrprobe::oas;

TEST_CASE("YAML loads with the core schema") {
  auto r = parse_yaml("a: 1\nb: 1.5\nc: '1'\nd: true\ne: ~\nf: 1.0.0\ng: [x, 2]\n");
  REQUIRE(r.ok);
  CHECK(r.value["a"].is_number_integer());
  CHECK(r.value["b"].is_number_float());
  CHECK(r.value["c"].is_string());
  CHECK(r.value["d"] == true);
  CHECK(r.value["e"].is_null());
  CHECK(r.value["f"] == "1.0.0");
  CHECK(r.value["g"][1] == 2);
}

TEST_CASE("hostile documents fail with a reason, not a crash") {
  std::string deep(100000, '[');
  auto r = parse_json(deep);
  CHECK_FALSE(r.ok);
  CHECK(r.error.find("deeper") != std::string::npos);
  std::string bomb = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n";
  const char* prev = "a";
  std::string names = "bcdefghij";
  for (char n : names) {
    bomb += std::string(1, n) + ": &" + n + " [";
    for (int i = 0; i < 9; ++i) bomb += std::string(i ? "," : "") + "*" + prev;
    bomb += "]\n";
    static std::string keep;
    keep = std::string(1, n);
    prev = keep.c_str();
  }
  auto y = parse_yaml(bomb);
  CHECK_FALSE(y.ok);
  CHECK(y.error.find("values") != std::string::npos);
  Limits small;
  small.max_document_bytes = 10;
  CHECK_FALSE(parse_json(R"({"a": "0123456789"})", small).ok);
  CHECK_FALSE(parse_json("{").ok);
  CHECK_FALSE(parse_yaml("a: [").ok);
}

TEST_CASE("long scalars do not exhaust the stack") {
  std::string digits(200000, '7');
  auto y = oas::parse_yaml("v: " + digits + "\n");
  REQUIRE(y.ok);
  CHECK(!y.value["v"].is_null());  // too large for a double: kept as text, no crash
  CHECK(oas::parse_yaml("v: 1.5e3\nw: .5\nx: 1.\ny: 1e\nz: 0x1F\n").value["y"] == "1e");
}

TEST_CASE("YAML with invalid UTF-8 loads as valid UTF-8 (U+FFFD), and dump() does not throw") {
  const std::string fffd = "\xEF\xBF\xBD";
  // Raw bytes: a quoted scalar in a sequence, a flow mapping, a plain scalar, a key.
  auto r = parse_yaml("openapi: [\"\xff\"]\ninfo: {version: [\"\xfe\"]}\nplain: a\xed\xa0\x80z\n\xc0\xaf: key\n");
  REQUIRE(r.ok);
  CHECK(r.value["openapi"][0] == fffd);
  CHECK(r.value["info"]["version"][0] == fffd);
  CHECK(r.value["plain"] == "a" + fffd + fffd + fffd + "z");
  CHECK(r.value.contains(fffd + fffd));
  std::string dumped;
  CHECK_NOTHROW(dumped = r.value.dump());
  CHECK(adrprobe::is_valid_utf8(dumped));
  // Valid UTF-8 is left alone.
  auto ok = parse_yaml("title: Gebouwen → één\n");
  REQUIRE(ok.ok);
  CHECK(ok.value["title"] == "Gebouwen → één");
}
