// Line numbers of JSON pointers, in YAML and in JSON text.
#include <doctest/doctest.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "oas/lines.hpp"
#include "oas/pointer.hpp"

using namespace adrprobe;

TEST_CASE("lines: YAML members, items, escaped tokens") {
  std::string yaml =
      "openapi: 3.0.3\n"        // 1
      "info:\n"                 // 2
      "  title: x\n"            // 3
      "  version: '1'\n"        // 4
      "servers:\n"              // 5
      "  - url: /v1\n"          // 6
      "  - url: /v2\n"          // 7
      "paths:\n"                // 8
      "  /fooBar:\n"            // 9
      "    get: {}\n"           // 10
      "  /a~b:\n"               // 11
      "    get: {}\n";          // 12
  auto lines = oas::lines_of(yaml, {"", "/openapi", "/info/version", "/servers/1/url", "/servers/1", "/paths/~1fooBar",
                                    "/paths/~1fooBar/get", "/paths/~1a~0b", "/nope", "/servers/9", "bad"});
  CHECK(lines[0] == 1);
  CHECK(lines[1] == 1);
  CHECK(lines[2] == 4);
  CHECK(lines[3] == 7);
  CHECK(lines[4] == 7);
  CHECK(lines[5] == 9);
  CHECK(lines[6] == 10);
  CHECK(lines[7] == 11);
  CHECK_FALSE(lines[8]);
  CHECK_FALSE(lines[9]);
  CHECK_FALSE(lines[10]);
}

TEST_CASE("lines: JSON is YAML") {
  std::string json = "{\n  \"openapi\": \"3.1.0\",\n  \"paths\": {\n    \"/a/\": {}\n  }\n}\n";
  CHECK(oas::line_of(json, "/paths/~1a~1") == 4);
  CHECK(oas::line_of(json, "/openapi") == 2);
  CHECK_FALSE(oas::line_of("{ not: [ closed", "/not"));
  CHECK_FALSE(oas::line_of("", "/a"));
}

namespace {
// The lines of JSON text read in one pass, beside the same text read as YAML
// (a comment line first makes it YAML: its lines are one further down).
void same_as_yaml(const std::string& json, const std::vector<std::string>& pointers) {
  auto direct = oas::lines_of(json, pointers);
  auto as_yaml = oas::lines_of("# yaml\n" + json, pointers);
  for (std::size_t i = 0; i < pointers.size(); ++i) {
    CAPTURE(pointers[i]);
    if (i == 0 || pointers[i].empty()) continue;  // the root is line 1 either way
    REQUIRE(as_yaml[i].has_value() == direct[i].has_value());
    if (direct[i]) CHECK(*direct[i] + 1 == *as_yaml[i]);
  }
}
}  // namespace

TEST_CASE("lines: JSON read in one pass answers as the YAML reading of it") {
  std::string json =
      "\xEF\xBB\xBF{\r\n"
      "  \"openapi\": \"3.0.3\",\n"
      "  \"paths\": {\n"
      "    \"/a/{id}\": {\"get\": {\"parameters\": [\n"
      "      {\"name\": \"id\", \"in\": \"path\"},\n"
      "      {\"name\": \"x\",\n"
      "       \"in\": \"query\"}]}},\n"
      "    \"/caf\\u00e9\": {\"get\": {}},\n"
      "    \"/b\\/c~d\": {},\n"
      "    \"dup\": {\"first\": 1},\n"
      "    \"dup\": {\"second\": 2}\n"
      "  },\n"
      "  \"list\": [[1, 2],\n"
      "           [3,\n"
      "            {\"deep\": [true, null, -1.5e3]}]]\n"
      "}\n";
  std::vector<std::string> pointers{"", "/openapi", "/paths", "/paths/~1a~1{id}/get/parameters/1",
                                    "/paths/~1a~1{id}/get/parameters/1/in", "/paths/~1a~1{id}/get/parameters/01/in",
                                    "/paths/~1caf\xC3\xA9", "/paths/~1b~1c~0d", "/paths/dup", "/paths/dup/first",
                                    "/paths/dup/second", "/list/1/1/deep/2", "/list/1/0", "/list/2", "/openapi/x",
                                    "/nope", "bad"};
  auto lines = oas::lines_of(json, pointers);
  CHECK(lines[0] == 1);
  CHECK(lines[1] == 2);
  CHECK(lines[3] == 6);
  CHECK(lines[4] == 7);
  CHECK(lines[5] == 7);   // "01" is item 1, as the YAML reading has it
  CHECK(lines[6] == 8);
  CHECK(lines[7] == 9);
  CHECK(lines[8] == 10);  // a repeated key: the first
  CHECK(lines[9] == 10);
  CHECK_FALSE(lines[10]);
  CHECK(lines[11] == 15);
  CHECK(lines[12] == 14);
  CHECK_FALSE(lines[13]);
  CHECK_FALSE(lines[14]);
  CHECK_FALSE(lines[15]);
  CHECK_FALSE(lines[16]);
  same_as_yaml(json.substr(3), pointers);
}

TEST_CASE("lines: text that is not strict JSON is read as YAML") {
  // A trailing comma and a plain key: YAML's flow style takes them, strict JSON does not.
  std::string text = "{\n  a: 1,\n  \"b\": [\n    2,\n  ],\n}\n";
  CHECK(oas::line_of(text, "/a") == 2);
  CHECK(oas::line_of(text, "/b/0") == 4);
}

namespace {
// A JSON text of many lines whose strings (escapes, a surrogate pair, long
// runs) fall across every offset of the 64 KiB chunks a stream is read in.
std::string long_json(std::size_t members) {
  std::string s = "{\n";
  for (std::size_t i = 0; i < members; ++i) {
    s += "  \"k" + std::to_string(i) + "\": {\"t\": \"" + std::string(i % 97, 'x') + "\\u00e9\\ud83d\\ude00\\n\\\"" +
         std::string(i % 13, 'y') + "\",\n    \"n\": [1, -2.5e3, true, null]}";
    s += i + 1 < members ? ",\n" : "\n";
  }
  return s + "}\n";
}
}  // namespace

TEST_CASE("lines: a stream is read in chunks and answers as the whole text") {
  std::string json = long_json(6000);  // about 850 KB: 13 chunks
  REQUIRE(json.size() > 10 * 64 * 1024);
  std::vector<std::string> pointers{"", "/k0", "/k1/t", "/k4999/n/3", "/k5999", "/k5999/n/0", "/k6000", "/k17/n/9"};
  for (std::size_t i = 0; i < 6000; i += 37) pointers.push_back("/k" + std::to_string(i) + "/n/2");
  auto whole = oas::lines_of(json, pointers);
  std::istringstream in(json);
  auto streamed = oas::lines_of(in, json.size(), pointers);
  CHECK(streamed == whole);
  CHECK(whole[1] == 2);
  CHECK(whole[2] == 4);
  CHECK(whole[4] == 2 + 2 * 5999);
  CHECK(whole[5] == 3 + 2 * 5999);
  CHECK_FALSE(whole[6]);
  CHECK_FALSE(whole[7]);
}

TEST_CASE("lines: a stream of YAML, of JSON only YAML reads, of nothing") {
  std::vector<std::string> pointers{"/a", "/b/0"};
  std::istringstream yaml("# yaml\na: 1\nb:\n  - 2\n");
  CHECK(oas::lines_of(yaml, 1000, pointers) == std::vector<std::optional<int>>{2, 4});
  std::istringstream loose("{\n  a: 1,\n  \"b\": [\n    2,\n  ],\n}\n");
  CHECK(oas::lines_of(loose, 1000, pointers) == std::vector<std::optional<int>>{2, 4});
  // YAML longer than the limit is not read
  std::istringstream large("# yaml\na: 1\nb:\n  - 2\n");
  CHECK(oas::lines_of(large, 10, pointers) == std::vector<std::optional<int>>{std::nullopt, std::nullopt});
  std::istringstream empty("");
  CHECK(oas::lines_of(empty, 1000, pointers) == std::vector<std::optional<int>>{std::nullopt, std::nullopt});
  // a truncated JSON text: no lines (YAML does not read it either)
  std::istringstream cut("{\n  \"a\": 1,\n  \"b\": [2,");
  CHECK(oas::lines_of(cut, 1000, pointers) == std::vector<std::optional<int>>{std::nullopt, std::nullopt});
}

TEST_CASE("lines: a string ends at its quote, past escapes and multi-byte characters at every position") {
  // Member i's key is a string of i letters with an escape (\" or \\ or
  // \n) or a multi-byte character at every position in turn, and member i
  // stands on line i + 2; a raw control character makes the text not JSON.
  std::string text = "{\n";
  std::vector<std::string> pointers;
  const std::vector<std::string> specials{"\\\"", "\\\\", "\\n", "\xC3\xA9"};
  int n = 0;
  for (int len = 0; len < 20; ++len)
    for (int at = 0; at <= len; ++at) {
      const std::string& special = specials[static_cast<std::size_t>(n) % specials.size()];
      std::string key = std::string(static_cast<std::size_t>(at), 'a') + special + std::string(static_cast<std::size_t>(len - at), 'b');
      std::string name = key;
      for (const auto& [escaped, plain] : {std::pair<std::string, std::string>{"\\\"", "\""}, {"\\\\", "\\"}, {"\\n", "\n"}})
        if (auto p = name.find(escaped); p != std::string::npos) name.replace(p, escaped.size(), plain);
      text += (n ? ",\n" : "") + std::string("\"") + key + "\": " + std::to_string(n);
      pointers.push_back("/" + oas::escape_token(name));
      ++n;
    }
  text += "\n}\n";
  auto lines = lines_of(text, pointers);
  REQUIRE(lines.size() == pointers.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    INFO(pointers[i]);
    CHECK(lines[i] == std::optional<int>(static_cast<int>(i) + 2));
  }
  // A raw control character in a string: not JSON, read as YAML (which answers or not, but never wrongly at line 2).
  auto raw = lines_of("{\n\"a\x01" "bcdefghij\": 1}\n", {"/x"});
  CHECK_FALSE(raw[0].has_value());
}
