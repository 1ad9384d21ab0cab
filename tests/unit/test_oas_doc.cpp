// oas/doc: the description document as a RapidJSON tree, and its helpers.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "oas/doc.hpp"
#include "oas/parse.hpp"

using namespace adrprobe;
using namespace adrprobe::oas;

namespace {

const char* const kNested = R"({"openapi": "3.0.3",
  "info": {"title": "Gebouwen → één", "version": "1.0.0", "x-empty": {}, "x-list": []},
  "paths": {"/b": {"get": {"responses": {"200": {"description": "ok"}}}},
            "/a": {"parameters": [{"name": "q", "in": "query", "required": false, "schema": {"type": "integer",
                   "minimum": -5, "maximum": 18446744073709551615, "multipleOf": 0.5, "default": null}}]}},
  "x-numbers": [0, 1, -1, 1.0, -0.0, 1.5e300, 9223372036854775807, -9223372036854775808, 18446744073709551615],
  "x-strings": ["", "a\u0000b", "\ud83d\ude00", "tab\tquote\"slash\\"],
  "x-nested": [[[{"z": [true, false, null]}]], {"k": {"k": {"k": "v"}}}]})";

}  // namespace

TEST_CASE("from_json and to_json round-trip a nested document: values, number kinds, key order") {
  json j = json::parse(kNested);
  DocPtr doc = from_json(j);
  REQUIRE(doc);
  json back = to_json(doc->root());
  CHECK(back == j);
  CHECK(back.dump() == j.dump());  // key order and number kinds as well
  CHECK(dump(doc->root()) == j.dump());
  // Each number kind as nlohmann has it.
  const json& numbers = back["x-numbers"];
  CHECK(numbers[0].is_number_unsigned());
  CHECK(numbers[1].is_number_unsigned());
  CHECK(numbers[2].is_number_integer());
  CHECK_FALSE(numbers[2].is_number_unsigned());
  CHECK(numbers[3].is_number_float());
  CHECK(numbers[4].is_number_float());
  CHECK(numbers[8].get<std::uint64_t>() == 18446744073709551615ULL);
  CHECK(numbers[7].get<std::int64_t>() == INT64_MIN);
  // Keys stay in document order ("/b" before "/a").
  CHECK(back["paths"].begin().key() == "/b");
  // Scalars and empty containers round-trip on their own.
  for (const json& v : {json(nullptr), json(true), json(false), json(std::uint64_t{0}), json(std::int64_t{-7}),
                        json(2.5), json("s"), json::object(), json::array()}) {
    INFO(v.dump());
    json again = to_json(from_json(v)->root());
    CHECK(again == v);
    CHECK(again.dump() == v.dump());
    CHECK(again.type() == v.type());
  }
  // RapidJSON keeps no sign apart for an integer that is not negative: a
  // tree's signed 5 comes back unsigned, equal and dumped alike (a JSON text's
  // 5 is unsigned in nlohmann's reading too).
  json five = to_json(from_json(json(std::int64_t{5}))->root());
  CHECK(five == json(std::int64_t{5}));
  CHECK(five.is_number_unsigned());
}

TEST_CASE("dump writes what nlohmann writes") {
  for (const char* text : {"1", "-1", "1.0", "1.5e300", "18446744073709551615", "-9223372036854775808", "0.1",
                           "\"a\\u0000b\"", "\"\\u001f\\\\\\\"\"", "{\"b\":1,\"a\":[null,true]}", "[]", "{}"}) {
    INFO(std::string(text));
    json j = json::parse(text);
    CHECK(dump(from_json(j)->root()) == j.dump());
    auto parsed = parse_json_document(text);
    REQUIRE(parsed.ok);
    CHECK(dump(parsed.doc->root()) == j.dump());
  }
  CHECK(dump(from_json(json(1))->root()) == "1");
  CHECK(dump(from_json(json(-1))->root()) == "-1");
  CHECK(dump(from_json(json(1.0))->root()) == "1.0");
  CHECK(dump(from_json(json(1.5e300))->root()) == "1.5e+300");
  CHECK(dump(from_json(json(18446744073709551615ULL))->root()) == "18446744073709551615");
  // Bytes that are not UTF-8 (a string made from a tree) are replaced, never thrown on.
  auto bad = from_json(json("a\xff" "b"));
  std::string out;
  CHECK_NOTHROW(out = dump(bad->root()));
  CHECK(out == "\"a\xEF\xBF\xBD" "b\"");
}

TEST_CASE("str and key_of keep a string's length, \\u0000 included") {
  auto doc = from_json(json::parse(R"({"a\u0000b": "x\u0000y\u0000", "plain": "text"})"));
  const Value& root = doc->root();
  REQUIRE(root.IsObject());
  auto m = root.MemberBegin();
  CHECK(key_of(*m).size() == 3);
  CHECK(key_of(*m) == std::string_view("a\0b", 3));
  CHECK(str(m->value).size() == 4);
  CHECK(str(m->value) == std::string_view("x\0y\0", 4));
  // find compares the whole key, not up to the first \u0000.
  CHECK(find(root, std::string_view("a\0b", 3)) == &m->value);
  CHECK(find(root, "a") == nullptr);
  CHECK(find(root, std::string_view("a\0", 2)) == nullptr);
  CHECK(str(*find(root, "plain")) == "text");
}

TEST_CASE("find, find_member, find_string and contains: an object's members, nothing else") {
  auto doc = from_json(json::parse(R"({"s": "v", "n": 1, "o": {"inner": "i"}, "a": ["s"], "": "empty key"})"));
  const Value& root = doc->root();
  const Value* o = find(root, "o");
  REQUIRE(o);
  CHECK(o->IsObject());
  CHECK(find(root, "missing") == nullptr);
  CHECK(find(root, "") != nullptr);
  CHECK(str(*find(root, "")) == "empty key");
  // The pointer overload: nullptr in, nullptr out, so lookups chain.
  CHECK(find(static_cast<const Value*>(nullptr), "s") == nullptr);
  CHECK(find(find(&root, "o"), "inner") == find(*o, "inner"));
  CHECK(find(find(&root, "missing"), "inner") == nullptr);
  // Not an object: no member, whatever the key.
  CHECK(find(*find(root, "s"), "s") == nullptr);
  CHECK(find(*find(root, "a"), "0") == nullptr);
  CHECK(find(*find(root, "n"), "n") == nullptr);

  CHECK(find_member(root, "n") == root.MemberBegin() + 1);
  CHECK(&find_member(root, "n")->value == find(root, "n"));
  CHECK(key_of(*find_member(root, "o")) == "o");
  CHECK(find_member(root, "missing") == root.MemberEnd());

  CHECK(find_string(&root, "s") == find(root, "s"));
  CHECK(find_string(&root, "n") == nullptr);  // a number is not a string
  CHECK(find_string(&root, "o") == nullptr);
  CHECK(find_string(&root, "missing") == nullptr);
  CHECK(find_string(nullptr, "s") == nullptr);

  CHECK(contains(root, "a"));
  CHECK(contains(root, ""));
  CHECK_FALSE(contains(root, "missing"));
  CHECK_FALSE(contains(*find(root, "a"), "s"));
}

TEST_CASE("size, is_structured, is_integer and type_name say what nlohmann said") {
  auto doc = from_json(json::parse(R"({"o": {"a": 1, "b": 2}, "a": [1, 2, 3], "e": [], "s": "abc", "u": 1,
                                       "i": -1, "f": 1.0, "big": 18446744073709551615, "t": true, "z": null})"));
  const Value& root = doc->root();
  auto at = [&](const char* key) -> const Value& {
    const Value* v = find(root, key);
    REQUIRE(v);
    return *v;
  };
  CHECK(size(root) == 10);
  CHECK(size(at("o")) == 2);
  CHECK(size(at("a")) == 3);
  CHECK(size(at("e")) == 0);
  CHECK(size(at("s")) == 0);  // a scalar, not a string's length
  CHECK(size(at("z")) == 0);
  CHECK(is_structured(at("o")));
  CHECK(is_structured(at("e")));
  CHECK_FALSE(is_structured(at("s")));
  CHECK_FALSE(is_structured(at("z")));
  CHECK(is_integer(at("u")));
  CHECK(is_integer(at("i")));
  CHECK(is_integer(at("big")));
  CHECK_FALSE(is_integer(at("f")));
  CHECK_FALSE(is_integer(at("s")));
  CHECK_FALSE(is_integer(at("t")));
  for (const char* key : {"o", "a", "s", "u", "i", "f", "big", "t", "z"}) {
    INFO(std::string(key));
    json j = to_json(at(key));
    CHECK(std::string(type_name(at(key))) == j.type_name());
    CHECK(is_integer(at(key)) == j.is_number_integer());
    CHECK(is_structured(at(key)) == j.is_structured());
    CHECK(size(at(key)) == (j.is_structured() ? j.size() : 0));
  }
  CHECK(std::string(type_name(at("f"))) == "number");
  CHECK(std::string(type_name(at("t"))) == "boolean");
}

TEST_CASE("a document's values stay where they are while it lives, and are shared by its owners") {
  DocPtr doc = from_json(json::parse(R"({"paths": {"/a": {"get": {}}}})"));
  const Value* get = find(find(find(&doc->root(), "paths"), "/a"), "get");
  REQUIRE(get);
  DocPtr other = doc;
  doc.reset();
  CHECK(get == find(find(find(&other->root(), "paths"), "/a"), "get"));
  CHECK(get->IsObject());
  CHECK(get->ObjectEmpty());
}
