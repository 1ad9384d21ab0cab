// JSON and YAML documents loaded into nlohmann::json, within Limits.
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oas/doc.hpp"
#include "oas/json.hpp"
#include "oas/limits.hpp"

namespace adrprobe::oas {


struct ParseResult {
  bool ok = false;
  json value;
  std::string error;  // when !ok: a one-line reason
};

ParseResult parse_json(std::string_view text, const Limits& limits = {});

// A reader's say over the tree parse_json builds, for a file of which it
// keeps far less than the whole (summary.json's history: the newest 30 runs
// per target of lists that may hold millions). Each value is routed as it
// starts, by its place and its type: kept in the tree, skipped (parsed, never
// built; nothing inside it is routed), or built apart and handed to `apart`
// once complete instead of being put in the tree. Inside a value taken apart,
// `keep` and `apart` both put a value into it.
struct Sieve {
  enum class Route { keep, skip, apart };
  // One step from the root to a value: an object member's key, or an array
  // element's index (for a member: its number in the object).
  struct Step {
    std::string key;
    std::size_t index = 0;
    bool in_array = false;
  };
  using Path = std::vector<Step>;
  // `start` is the value itself for a scalar, an empty object or array for a
  // container, whose members are routed in their turn. No route: every value
  // is kept.
  std::function<Route(const Path& place, const json& start)> route;
  std::function<void(const Path& place, json&& value)> apart;
};
// parse_json through a sieve: the same limits and errors; what `route` or
// `apart` throws ends the parse and goes through to the caller.
ParseResult parse_json(std::string_view text, const Limits& limits, const Sieve& sieve);

// YAML 1.2 core schema: plain scalars become null/bool/int/float where they
// look like one; quoted scalars stay strings. Aliases are expanded within
// limits.max_nodes (a "billion laughs" document fails instead of exploding).
ParseResult parse_yaml(std::string_view text, const Limits& limits = {});
// JSON when the text starts with '{' or '[', else YAML.
ParseResult parse_any(std::string_view text, const Limits& limits = {});

// A description document (oas/doc.hpp), read with the refusals, limits and
// error messages of parse_json and parse_yaml. JSON is read by RapidJSON;
// what it refuses is read again by parse_json for the message a report shows
// (and kept when nlohmann reads it: a number beyond a double's range).
struct DocResult {
  bool ok = false;
  DocPtr doc;
  std::string error;  // when !ok: a one-line reason
};
DocResult parse_json_document(std::string_view text, const Limits& limits = {});
// JSON when the text starts with '{' or '[', else YAML (parse_any's choice).
DocResult parse_any_document(std::string_view text, const Limits& limits = {});
// What tells whether a file still holds the text read from it: its size,
// device, inode and time of last change. A report reads a document's file
// again for the line numbers of its findings instead of holding its text
// through the run (15 MB for a large one), and only when the stamp is the same.
struct FileStamp {
  std::uint64_t size = 0, device = 0, inode = 0;
  std::int64_t mtime_s = 0, mtime_ns = 0;
  bool operator==(const FileStamp&) const = default;
};
std::optional<FileStamp> stamp_of(const std::string& path);

// Appends what `in` holds to text, in 64 KiB chunks, up to one byte past
// max_bytes (text longer than max_bytes: the source is over the limit).
void read_within(std::istream& in, std::size_t max_bytes, std::string& text);

// parse_file for a description document; stamp, when given, receives the
// file's stamp taken before it was read.
DocResult parse_document_file(const std::string& path, const Limits& limits = {}, FileStamp* stamp = nullptr);
// The name of a value's type as nlohmann's type_name() says it ("object", "number").
const char* type_name(const Value& v);

// Reads a document from disk and parses it with parse_any.
ParseResult parse_file(const std::string& path, const Limits& limits = {});

}  // namespace adrprobe::oas
