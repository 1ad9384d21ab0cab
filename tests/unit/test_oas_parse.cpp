// oas/parse: JSON and YAML loading within limits.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

TEST_CASE("JSON and YAML objects with many keys load in linear time, in document order") {
  // ordered_json's own operator[] searched every earlier key: 100,000 keys took 8 s.
  const int n = 200000;
  std::string text = "{";
  std::string yaml;
  for (int i = 0; i < n; ++i) {
    text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
    yaml += "k" + std::to_string(i) + ": " + std::to_string(i) + "\n";
  }
  text += "\"k0\":-1}";  // a repeated key replaces the value in its first place
  yaml += "last: true\n";
  auto j = parse_json(text);
  REQUIRE(j.ok);
  CHECK(j.value.size() == static_cast<std::size_t>(n));
  CHECK(j.value.begin().key() == "k0");
  CHECK(j.value["k0"] == -1);
  CHECK(j.value["k199999"] == 199999);
  auto y = parse_yaml(yaml);
  REQUIRE(y.ok);
  CHECK(y.value.size() == static_cast<std::size_t>(n) + 1);
  CHECK(y.value["k123456"] == 123456);
  CHECK((--y.value.end()).key() == "last");
}

TEST_CASE("JSON loads as nlohmann's parser would: values, key order, repeated keys, errors") {
  const char* text = R"({"b": [1, -2, 18446744073709551615, 1.5e3, "s\u00e9", true, null, {}, []],
                         "a": {"z": {"y": [[{"x": 1}]]}, "r": 1, "r": 2},
                         "c": "\ud83d\ude00", "e": {"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,
                         "k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k3":33}})";
  auto r = parse_json(text);
  REQUIRE(r.ok);
  json expected = json::parse(text);
  CHECK(r.value == expected);
  CHECK(r.value.dump() == expected.dump());  // the same key order too
  CHECK(r.value["a"]["r"] == 2);
  CHECK(r.value["e"]["k3"] == 33);
  CHECK(r.value["e"].size() == 17);
  CHECK(parse_json("[1, 2]").value == json::array({1, 2}));
  CHECK(parse_json("\"text\"").value == "text");
  auto bad = parse_json("{\"a\": }");
  CHECK_FALSE(bad.ok);
  CHECK(bad.error.rfind("invalid JSON: parse error at line 1, column 7", 0) == 0);
  CHECK_FALSE(parse_json("").ok);
  CHECK_FALSE(parse_json("{\"a\": 1} x").ok);
  CHECK_FALSE(parse_json("\"\xff\"").ok);  // invalid UTF-8 is a JSON error
}

TEST_CASE("objects and arrays are built at their size, each value once") {
  // Growing an ordered_json object copies every member's subtree at each
  // doubling (its keys are const, so a move is a copy), and leaves up to half
  // its room unused: a 15 MB document took half its parse time in copies.
  std::string text = "{";
  std::string yaml;
  for (int i = 0; i < 100; ++i) {
    text += "\"k" + std::to_string(i) + "\": {\"v\": [" + std::to_string(i) + ", 2, 3]},";
    yaml += "k" + std::to_string(i) + ": {v: [" + std::to_string(i) + ", 2, 3]}\n";
  }
  text += "\"k0\": {\"v\": []}}";  // a repeated key still replaces the value in its place
  for (const auto& r : {parse_json(text), parse_yaml(yaml)}) {
    REQUIRE(r.ok);
    const auto& members = r.value.get_ref<const json::object_t&>();
    CHECK(members.size() == 100);
    CHECK(members.capacity() == members.size());
    const auto& items = r.value["k1"]["v"].get_ref<const json::array_t&>();
    CHECK(items.capacity() == 3);
  }
  auto j = parse_json(text);
  CHECK(j.value.begin().key() == "k0");
  CHECK(j.value["k0"]["v"].empty());
  CHECK(j.value["k99"]["v"][0] == 99);
}

TEST_CASE("a sieve keeps, skips or takes apart each value by its place, and builds nothing it skips") {
  const std::string text =
      R"({"keep": {"a": [1, {"b": 2}]}, "drop": {"deep": [[3]], "s": "x"}, )"
      R"("list": [{"n": 1}, 7, {"n": 2, "x": [4]}], "last": true})";
  // No route: the same tree as parse_json's.
  auto all = parse_json(text, {}, Sieve{});
  REQUIRE(all.ok);
  CHECK(all.value == parse_json(text).value);

  using Route = Sieve::Route;
  std::vector<std::string> routed;
  std::vector<std::pair<std::string, json>> taken;
  auto place_text = [](const Sieve::Path& place) {
    std::string s;
    for (const auto& step : place) s += step.in_array ? "[" + std::to_string(step.index) + "]" : "/" + step.key;
    return s;
  };
  Sieve sieve;
  sieve.route = [&](const Sieve::Path& place, const json& start) {
    routed.push_back(place_text(place));
    if (place.size() == 1 && place[0].key == "drop") return Route::skip;
    if (place.size() == 2 && place[0].key == "list") return start.is_object() ? Route::apart : Route::skip;
    if (place.size() == 3 && place[0].key == "list") return place[2].key == "n" ? Route::keep : Route::skip;
    return Route::keep;
  };
  sieve.apart = [&](const Sieve::Path& place, json&& value) {
    taken.emplace_back(place_text(place), std::move(value));
  };
  auto r = parse_json(text, {}, sieve);
  REQUIRE(r.ok);
  // The skipped member leaves no key; the list's elements went elsewhere.
  CHECK(r.value == json::parse(R"({"keep": {"a": [1, {"b": 2}]}, "list": [], "last": true})"));
  REQUIRE(taken.size() == 2);
  CHECK(taken[0].first == "/list[0]");
  CHECK(taken[0].second == json::parse(R"({"n": 1})"));
  CHECK(taken[1].first == "/list[2]");  // the index counts the skipped element
  CHECK(taken[1].second == json::parse(R"({"n": 2})"));
  // Nothing inside a skipped value is asked about.
  CHECK(std::find(routed.begin(), routed.end(), "/drop/deep") == routed.end());
  CHECK(std::find(routed.begin(), routed.end(), "/list[2]/x") != routed.end());
  CHECK(std::find(routed.begin(), routed.end(), "/list[2]/x[0]") == routed.end());

  // A scalar taken apart; the limits still hold; what the sieve throws goes through.
  taken.clear();
  sieve.route = [](const Sieve::Path& place, const json&) { return place.size() == 1 ? Route::apart : Route::keep; };
  auto scalars = parse_json("[5, \"s\", [6]]", {}, sieve);
  REQUIRE(scalars.ok);
  CHECK(scalars.value == json::array());
  REQUIRE(taken.size() == 3);
  CHECK(taken[1].second == "s");
  CHECK(taken[2].second == json::array({6}));
  Limits shallow;
  shallow.max_depth = 2;
  CHECK(parse_json("[[[1]]]", shallow, sieve).error == "JSON nested deeper than 2 levels");
  sieve.apart = [](const Sieve::Path&, json&&) { throw std::runtime_error("enough"); };
  CHECK_THROWS_WITH_AS(parse_json("[1]", {}, sieve), "enough", std::runtime_error);
}

TEST_CASE("a stretch between scalars longer than max_stretch_bytes is refused on the text, before it is parsed") {
  // What nlohmann's lexer holds at once: from one string, number or literal's start to the next's.
  Limits limits;
  limits.max_stretch_bytes = 10;
  CHECK(parse_json(R"({"a": "0123456"})", limits).ok);  // '"0123456"}': 10
  CHECK(parse_json("[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]", limits).ok);  // many short ones
  CHECK(parse_json("[[],[]]", limits).ok);
  const std::string refused = "JSON has more than 10 bytes from one string, number or literal to the next";
  CHECK(parse_json(R"({"a": "01234567"})", limits).error == refused);
  CHECK(parse_json(R"({"a":"0\"2\"4\"6"})", limits).error == refused);  // an escaped quote starts nothing
  CHECK(parse_json(R"({"0123456789": 1})", limits).error == refused);  // a key
  CHECK(parse_json("[12345678901]", limits).error == refused);  // a number
  CHECK(parse_json("[1,           2]", limits).error == refused);  // white space
  CHECK(parse_json("[true,        false]", limits).error == refused);
  CHECK(parse_json("[[],[],[],[]]", limits).error == refused);  // brackets alone
  CHECK(parse_json(R"({"a": "0123456789)", limits).error == refused);  // and a string the text ends in
  CHECK(parse_json(R"({"a": "0123456789"})").ok);  // no limit by default
}

namespace {
// The first place where two trees' values differ in type (a number's kind
// included: 1.0 is not 1, -1 signed is not 2^64-1 unsigned), or "" when none
// does. An integer that is not negative is the same whether signed or
// unsigned: a document's tree keeps no sign for it (oas/doc.hpp), and
// nlohmann reads every one unsigned but -0.
bool same_kind(const json& a, const json& b) {
  if (a.type() == b.type()) return true;
  auto whole = [](const json& v) { return v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0); };
  return a.is_number_integer() && b.is_number_integer() && whole(a) && whole(b);
}
std::string kind_difference(const json& a, const json& b, const std::string& at = "") {
  if (!same_kind(a, b)) return at.empty() ? "/" : at;
  if (a.is_object() && a.size() == b.size()) {
    auto x = a.begin();
    for (auto y = b.begin(); y != b.end(); ++x, ++y)
      if (auto d = kind_difference(x.value(), y.value(), at + "/" + x.key()); !d.empty()) return d;
  } else if (a.is_array() && a.size() == b.size()) {
    for (std::size_t i = 0; i < a.size(); ++i)
      if (auto d = kind_difference(a[i], b[i], at + "/" + std::to_string(i)); !d.empty()) return d;
  }
  return "";
}

// parse_json_document reads `text` as parse_json does: both take it or both
// refuse it, with the same message, and the same tree (key order and number
// kinds too).
void reads_as_parse_json(std::string_view text, const Limits& limits = {}) {
  auto expected = parse_json(text, limits);
  auto doc = parse_json_document(text, limits);
  CHECK(doc.ok == expected.ok);
  CHECK(doc.error == expected.error);
  if (!doc.ok || !expected.ok) {
    if (!doc.ok) CHECK_FALSE(doc.doc);
    return;
  }
  REQUIRE(doc.doc);
  CHECK(dump(doc.doc->root()) == expected.value.dump(-1, ' ', false, json::error_handler_t::replace));
  CHECK(to_json(doc.doc->root()) == expected.value);
  CHECK(kind_difference(to_json(doc.doc->root()), expected.value) == "");
}
}  // namespace

TEST_CASE("documents: a repeated key keeps one member, the last value in the first key's place") {
  const char* text = R"({"a": 1, "b": {"x": 1, "y": 2, "x": 3}, "a": 2, "c": [{"k": 1, "k": {"k": 1, "k": 2}}],
                         "a": {"r": 1, "r": [1]}})";
  auto r = parse_json_document(text);
  REQUIRE(r.ok);
  const Value& root = r.doc->root();
  REQUIRE(root.MemberCount() == 3);
  CHECK(key_of(root.MemberBegin()[0]) == "a");
  CHECK(key_of(root.MemberBegin()[1]) == "b");
  CHECK(key_of(root.MemberBegin()[2]) == "c");
  CHECK(to_json(root) == json::parse(R"({"a": {"r": [1]}, "b": {"x": 3, "y": 2}, "c": [{"k": {"k": 2}}]})"));
  reads_as_parse_json(text);
  // Past the few keys searched one by one: an object of many keys with repeats.
  std::string many = "{";
  for (int i = 0; i < 100; ++i) many += "\"k" + std::to_string(i % 40) + "\":" + std::to_string(i) + ",";
  many += "\"last\":true}";
  auto m = parse_json_document(many);
  REQUIRE(m.ok);
  CHECK(m.doc->root().MemberCount() == 41);
  CHECK(key_of(*m.doc->root().MemberBegin()) == "k0");
  CHECK(to_json(*find(m.doc->root(), "k0")) == 80);
  CHECK(to_json(*find(m.doc->root(), "k19")) == 99);
  CHECK(to_json(*find(m.doc->root(), "k39")) == 79);
  reads_as_parse_json(many);
  // The existing test's document of values, orders and repeats.
  reads_as_parse_json(R"({"b": [1, -2, 18446744073709551615, 1.5e3, "s\u00e9", true, null, {}, []],
                         "a": {"z": {"y": [[{"x": 1}]]}, "r": 1, "r": 2},
                         "c": "\ud83d\ude00", "e": {"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,
                         "k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k3":33}})");
}

TEST_CASE("documents: a long string written many times is kept once; a short one in its value") {
  // Strings past 13 bytes, as values and as keys: "#/components/responses/400"
  // in every operation of a large document.
  const char* text = R"({"a": {"$ref": "#/components/responses/400"}, "b": {"$ref": "#/components/responses/400"},
                         "application/problem+json": "application/problem+json",
                         "c": [{"application/problem+json": 1}, "#/components/responses/404"],
                         "d": "a long string\u0000 with a NUL", "e": "a long string\u0000 with a NIL",
                         "f": "short", "g": "short"})";
  auto r = parse_json_document(text);
  REQUIRE(r.ok);
  const Value& root = r.doc->root();
  const Value& a = *find(find(root, "a"), "$ref");
  const Value& b = *find(find(root, "b"), "$ref");
  CHECK(str(a) == "#/components/responses/400");
  CHECK(a.GetString() == b.GetString());  // one copy
  CHECK(a.GetString()[a.GetStringLength()] == '\0');  // ended as RapidJSON ends its copies
  const Member& problem = root.MemberBegin()[2];
  CHECK(key_of(problem) == "application/problem+json");
  CHECK(problem.name.GetString() == problem.value.GetString());  // a key and a value alike
  const Value& c = *find(root, "c");
  CHECK(c[0].MemberBegin()->name.GetString() == problem.name.GetString());
  CHECK(str(c[1]) == "#/components/responses/404");
  CHECK(c[1].GetString() != a.GetString());
  // The same bytes up to a NUL are different strings.
  CHECK(str(*find(root, "d")) == std::string_view("a long string\0 with a NUL", 25));
  CHECK(str(*find(root, "e")) == std::string_view("a long string\0 with a NIL", 25));
  CHECK(find(root, "d")->GetString() != find(root, "e")->GetString());
  // A short string is held in its own value, not in the pool.
  const Value& f = *find(root, "f");
  const Value& g = *find(root, "g");
  CHECK(str(f) == "short");
  CHECK(f.GetString() != g.GetString());
  CHECK(f.GetString() == reinterpret_cast<const char*>(&f));
  reads_as_parse_json(text);
}

TEST_CASE("documents: the set of strings kept once is bounded; past it a string is copied") {
  // 70,000 distinct long strings, then the first and the last again: the
  // first is in the set (65,536 at most), the last came after it was full.
  std::string text = "[";
  auto name = [](int i) { return fmt::format("a distinct string {:06}", i); };
  for (int i = 0; i < 70000; ++i) text += "\"" + name(i) + "\",";
  text += "\"" + name(0) + "\",\"" + name(69999) + "\"]";
  auto r = parse_json_document(text);
  REQUIRE(r.ok);
  const Value& a = r.doc->root();
  REQUIRE(a.Size() == 70002);
  CHECK(str(a[0]) == name(0));
  CHECK(str(a[69999]) == name(69999));
  CHECK(str(a[70000]) == name(0));
  CHECK(str(a[70001]) == name(69999));
  CHECK(a[70000].GetString() == a[0].GetString());
  CHECK(a[70001].GetString() != a[69999].GetString());
}

TEST_CASE("documents: numbers keep their kind, unsigned, signed or float, as nlohmann reads them") {
  const char* text = "[1, -1, 1.0, 1.5e300, 18446744073709551615, 0, -0.0, 1E2, 9223372036854775807,"
                     " -9223372036854775808, -9223372036854775809, 18446744073709551616, 0.1, 5e-324]";
  auto r = parse_json_document(text);
  REQUIRE(r.ok);
  const Value& a = r.doc->root();
  REQUIRE(a.IsArray());
  CHECK(a[0].IsUint64());
  CHECK(a[1].IsInt64());
  CHECK_FALSE(a[1].IsUint64());
  CHECK(a[2].IsDouble());
  CHECK(a[3].IsDouble());
  CHECK(a[4].IsUint64());
  CHECK(a[4].GetUint64() == 18446744073709551615ULL);
  json j = to_json(a);
  CHECK(j[0].is_number_unsigned());
  CHECK(j[1].is_number_integer());
  CHECK_FALSE(j[1].is_number_unsigned());
  CHECK(j[2].is_number_float());
  CHECK(j[3].is_number_float());
  CHECK(j[4].is_number_unsigned());
  CHECK(dump(a[0]) == "1");
  CHECK(dump(a[1]) == "-1");
  CHECK(dump(a[2]) == "1.0");
  CHECK(dump(a[3]) == "1.5e+300");
  CHECK(dump(a[4]) == "18446744073709551615");
  reads_as_parse_json(text);
}

TEST_CASE("documents: a string holding \\u0000 keeps its length") {
  const char* text = R"({"a\u0000b": "x\u0000y", "e": "\u0000"})";
  auto r = parse_json_document(text);
  REQUIRE(r.ok);
  const Value& root = r.doc->root();
  CHECK(key_of(*root.MemberBegin()) == std::string_view("a\0b", 3));
  CHECK(str(root.MemberBegin()->value) == std::string_view("x\0y", 3));
  REQUIRE(find(root, "e"));
  CHECK(str(*find(root, "e")).size() == 1);
  CHECK(to_json(root)["e"].get<std::string>().size() == 1);
  reads_as_parse_json(text);
}

TEST_CASE("documents: what parse_json refuses is refused with its message") {
  for (const char* text : {"{\"a\": }", "", " ", "{", "[1,]", "{\"a\":1,}", "{\"a\": 1} x", "[1] [2]", "{'a': 1}",
                           "[01]", "[1.]", "[.5]", "[+1]", "[NaN]", "[Infinity]", "[tru]", "{\"a\" 1}", "[\"\t\"]",
                           "[\"\\x\"]", "[\"\\ud800\"]", "[\"\\ud800\\u0041\"]", "/* c */ {}", "{} // c"}) {
    INFO(std::string(text));
    auto expected = parse_json(text);
    REQUIRE_FALSE(expected.ok);
    auto r = parse_json_document(text);
    CHECK_FALSE(r.ok);
    CHECK_FALSE(r.doc);
    CHECK(r.error == expected.error);
  }
  auto bad = parse_json_document("{\"a\": }");
  CHECK(bad.error.rfind("invalid JSON: parse error at line 1, column 7", 0) == 0);
  // Refused on the text before either parser runs: the same limits, the same words.
  std::string deep(100000, '[');
  CHECK(parse_json_document(deep).error == parse_json(deep).error);
  CHECK(parse_json_document(deep).error.find("deeper") != std::string::npos);
  Limits small;
  small.max_document_bytes = 10;
  CHECK(parse_json_document(R"({"a": "0123456789"})", small).error == parse_json(R"({"a": "0123456789"})", small).error);
  Limits shallow;
  shallow.max_depth = 2;
  CHECK(parse_json_document("[[[1]]]", shallow).error == "JSON nested deeper than 2 levels");
  Limits stretch;
  stretch.max_stretch_bytes = 10;
  CHECK(parse_json_document(R"({"a": "01234567"})", stretch).error ==
        "JSON has more than 10 bytes from one string, number or literal to the next");
  reads_as_parse_json(R"({"a": "0123456"})", stretch);
}

TEST_CASE("documents: a number beyond a double's range is read as parse_json reads it") {
  for (const char* text : {"[1e400]", "{\"a\": -1e400}", "[1e-400]", "[123456789012345678901234567890]"}) {
    INFO(std::string(text));
    reads_as_parse_json(text);
  }
}

TEST_CASE("documents: invalid UTF-8 is refused, as parse_json refuses it") {
  for (std::string text : {std::string("\"\xff\""), std::string("{\"a\": \"\xc0\xaf\"}"),
                           std::string("[\"\xed\xa0\x80\"]"), std::string("[\"\xf4\x90\x80\x80\"]"),
                           std::string("{\"\xe2\x82\": 1}"), std::string("[\"ok\", \"\xc2\"]")}) {
    INFO(std::string(text));
    auto expected = parse_json(text);
    REQUIRE_FALSE(expected.ok);
    auto r = parse_json_document(text);
    CHECK_FALSE(r.ok);
    CHECK(r.error == expected.error);
  }
  // Valid UTF-8, escaped or written, is read as it is.
  reads_as_parse_json("[\"Gebouwen \xe2\x86\x92 \xc3\xa9\xc3\xa9n\", \"\\ud83d\\ude00\", \"\xf4\x8f\xbf\xbf\"]");
}

TEST_CASE("documents: YAML goes through parse_any_document, JSON past leading white space too") {
  const char* yaml = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get: {}\nn: [1, -1, 1.5]\n";
  auto y = parse_any_document(yaml);
  REQUIRE(y.ok);
  auto expected = parse_yaml(yaml);
  REQUIRE(expected.ok);
  CHECK(to_json(y.doc->root()) == expected.value);
  CHECK(dump(y.doc->root()) == expected.value.dump());
  CHECK(str(*find(find(&y.doc->root(), "info"), "version")) == "1");
  // YAML's refusals and their messages.
  auto bad = parse_any_document("a: [");
  CHECK_FALSE(bad.ok);
  CHECK(bad.error == parse_yaml("a: [").error);
  // JSON is JSON, after white space.
  auto j = parse_any_document("  \n{\"a\": 1, \"a\": 2}");
  REQUIRE(j.ok);
  CHECK(to_json(j.doc->root()) == json{{"a", 2}});
  CHECK(parse_any_document("\n{\"a\": }").error == parse_any("\n{\"a\": }").error);
}

TEST_CASE("documents: a lone low surrogate escape is refused, as parse_json refuses it") {
  // A UTF-16 escape stands for a code point only as a whole pair: nlohmann
  // refuses "\udc00" alone, and a tree may hold valid UTF-8 only.
  for (const char* text : {R"(["\udc00"])", R"({"\udfff": 1})", R"(["a\ude00b"])"}) {
    INFO(std::string(text));
    reads_as_parse_json(text);
  }
}

TEST_CASE("documents: a byte order mark is taken whole or refused, as parse_json does") {
  reads_as_parse_json("\xEF\xBB\xBF{\"a\": 1}");  // a whole one is skipped
  // RapidJSON drops a first 0xBB or 0xBF too, without the 0xEF before it (found by fuzz_parse)
  for (const char* text : {"\xEF\xBB" "16", "\xEF{}", "\xEF\xBB[1]", "\xEF\xBB\xBE{}", "\xBF 43709", "\xBB{}",
                           "\xBB\xBF[1]"}) {
    INFO(std::string(text));
    reads_as_parse_json(text);
  }
}

TEST_CASE("documents: -0 is the integer 0, as nlohmann reads it (not a double)") {
  auto r = parse_json_document("[-0]");
  REQUIRE(r.ok);
  json j = to_json(r.doc->root());
  CHECK(j[0] == 0);
  CHECK(j[0].is_number_integer());
  CHECK(dump(r.doc->root()) == "[0]");
  reads_as_parse_json("[-0]");
}

TEST_CASE("documents: a number whose exponent takes it past a double's range is refused, as parse_json refuses it") {
  // Past the range by the digits before the exponent, not by the exponent alone (1e400).
  for (const char* text : {"[10e308]", "[2e308]", "[1844674407371e308]", "[17976931348623159e292]"}) {
    INFO(std::string(text));
    reads_as_parse_json(text);
  }
  reads_as_parse_json("[0.0001e312]");  // 1e308: in range
}

TEST_CASE("documents: zero with a large exponent is zero, as parse_json reads it") {
  for (const char* text : {"[0e308]", "[0e-30]", "[0.0e100]", "[-0e40]", "{\"minimum\": 0E+25}"}) {
    INFO(std::string(text));
    reads_as_parse_json(text);
  }
  reads_as_parse_json("[0e22, 0e-22, 0.000e30]");  // within RapidJSON's fast path
}

TEST_CASE("documents: a fraction that starts with hundreds of zeros is read as parse_json reads it") {
  // RapidJSON 1.1.0 checks the exponent written, not where the point stands:
  // 0. and 323 zeros then a digit became 5e-324, 324 to about 334 zeros a
  // large number of any sign, more zeros a read past the end of a table.
  for (std::size_t zeros : {100, 300, 323, 324, 330, 400, 2000}) {
    for (const char* tail : {"2", "5", "0", "123456789"}) {
      std::string text = "{\"x-n\": [0." + std::string(zeros, '0') + tail + ", -0." + std::string(zeros, '0') + tail + "]}";
      INFO(zeros << " zeros, then " << tail);
      reads_as_parse_json(text);
    }
  }
  reads_as_parse_json("[0." + std::string(98, '0') + "1]");  // 101 characters
  reads_as_parse_json("[1." + std::string(200, '3') + "]");  // long, but no leading zeros
}

TEST_CASE("documents: digits that start with 2^64 - 1, then 5 or more, are read as parse_json reads them") {
  // RapidJSON 1.1.0's rounding of them wrapped around to a significand of 0
  // (clz(0), undefined behaviour; found by fuzz_parse).
  for (const char* n : {"18446744073709551615.5", "1844674407370955161551615", "-18446744073709551615.51615",
                        "0.0000184467440737095516159", "18446744073709551615", "99999999999999999999",
                        "12345678901234567.5", "0.1234567890123456789"}) {
    INFO(n);
    reads_as_parse_json(std::string("{\"x-n\": [") + n + "]}");
    reads_as_parse_json(std::string("{\"x-n\": [") + n + ". 1]}");  // then an error
  }
}

TEST_CASE("documents: a zero with a long fraction is read as parse_json reads it") {
  // RapidJSON 1.1.0 normalised a significand of 0 for it (clz(0): undefined
  // behaviour, which the sanitizer builds stop at; found by fuzz_parse).
  for (std::size_t zeros : {14, 15, 20, 22, 23, 30, 89, 98}) {
    INFO(zeros << " zeros");
    reads_as_parse_json("{\"x-n\": [0." + std::string(zeros, '0') + ", -0." + std::string(zeros, '0') + "]}");
    reads_as_parse_json("{\"x-n\": [0." + std::string(zeros, '0') + "a]}");  // a zero, then an error
    reads_as_parse_json("{\"x-n\": [0." + std::string(zeros, '0') + "\"\"]}");  // ... then a quote
    reads_as_parse_json("{\"x-n\": [0." + std::string(zeros, '0') + "-922301]}");  // ... then digits of no number
    reads_as_parse_json("{\"x-n\": [0." + std::string(zeros, '0') + ".5]}");
    reads_as_parse_json("{\"x-n\": [0." + std::string(zeros, '0') + "7]}");  // not a zero
  }
}

TEST_CASE("json_shape reads a string to its closing quote past escapes, brackets and quotes escaped") {
  // Brackets in a string nest nothing; an escaped quote ends nothing; what
  // follows the string is read as JSON again (1e2: an exponent, which goes to
  // the other parser, as it did).
  std::string deep_in_string(300, '[');
  auto r = parse_json_document(R"({"a": "q\"[[[[\\", "b": ")" + deep_in_string + R"(", "c": 1e2})");
  REQUIRE(r.ok);
  CHECK(str(*find(r.doc->root(), "a")) == "q\"[[[[\\");
  CHECK(find(r.doc->root(), "c")->GetDouble() == 100.0);
  // A lone low surrogate after escapes still goes to the other parser, which refuses it.
  auto lone = parse_json_document(R"(["\\\\\\\udc00"])");
  CHECK_FALSE(lone.ok);
  CHECK(lone.error.find("invalid JSON") != std::string::npos);
  // A megabyte of escapes in one string is read once, not once per escape.
  std::string escapes;
  for (int i = 0; i < 500000; ++i) escapes += "\\n";
  auto many = parse_json_document("[\"" + escapes + "\", 1]");
  REQUIRE(many.ok);
  CHECK(str(many.doc->root()[0]).size() == 500000);
  // Nested deeper than the limit, and not in a string: refused as before.
  auto nested = parse_json_document(std::string(300, '[') + std::string(300, ']'));
  CHECK_FALSE(nested.ok);
  CHECK(nested.error == "JSON nested deeper than 256 levels");
}

TEST_CASE("parse_json_document: an ASCII text is read without validating UTF-8, any other with") {
  auto ascii = parse_json_document(R"({"a": "plain", "b": [1, 2.5, "x"]})");
  REQUIRE(ascii.ok);
  CHECK(str(*find(ascii.doc->root(), "a")) == "plain");
  auto accented = parse_json_document("{\"a\": \"\xC3\xA9\xC3\xA9n\"}");  // "één"
  REQUIRE(accented.ok);
  CHECK(str(*find(accented.doc->root(), "a")) == "\xC3\xA9\xC3\xA9n");
  // Invalid UTF-8 in a string, in the words read eight bytes at a time and in the tail after them.
  for (std::string text : {std::string("{\"a\": \"\xFF\", \"padding\": \"0123456789\"}"),
                           std::string("{\"padding\": \"01234567\", \"a\": \"\x80\"}"), std::string("[\"\xC3\"]")}) {
    INFO(text);
    auto bad = parse_json_document(text);
    CHECK_FALSE(bad.ok);
    CHECK(bad.error.find("invalid JSON") != std::string::npos);
  }
}
