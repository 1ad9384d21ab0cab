// JSON shared by the JSON-based formats (json, gitlab, sarif), and the JSON
// report read back: what --baseline, `adrprobe diff` and `adrprobe summary`
// need of an earlier report.
#pragma once
#include <fmt/format.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string_view>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "oas/json.hpp"
#include "oas/limits.hpp"
#include "report/model.hpp"

namespace adrprobe::report {

// Pretty-printed (2 spaces), newline at the end. Server text comes out as valid,
// escaped UTF-8: invalid UTF-8 replaced (never a throw), C0 controls, the C1
// controls (U+0080..U+009F, which some terminals obey) and the invisible
// characters (invisible_character: bidi controls, U+200B, ...) as \u escapes.
// DEL stays as it is (JSON allows it, and it moves no cursor).
std::string dump_json(const nlohmann::ordered_json& j);
// The same, letting the tree and its unescaped text go as soon as each is used.
std::string dump_json(nlohmann::ordered_json&& j);

// dump_json's escaping of one dump (no newline added): C1 controls and invisible characters as \u escapes.
std::string escape_dump(const std::string& dumped);
// The same, appended to `out`; with `newline` not empty, each line feed of the
// dump (which only separates its lines) is written as `newline` (an indent).
void escape_dump_into(std::string& out, std::string_view dumped, std::string_view newline = {});

// One exchange of the JSON report (exchanges[]), as report.schema.json has it.
nlohmann::ordered_json exchange_json(const http::Exchange& e);
// The same exchange written as dump_json writes exchange_json(e) (without
// its final newline), byte for byte, each line after the first indented by
// the writer's `indent`, without building the tree (a wide run's report has
// tens of thousands). The writer keeps the text of the header blocks records share.
class BlockTexts;
struct ExchangeWriter {
  explicit ExchangeWriter(std::string indent = "");
  ~ExchangeWriter();
  std::string indent;
  std::unique_ptr<BlockTexts> requests, responses;
};
void write_exchange(std::string& out, const http::Exchange& e, ExchangeWriter& writer);

// The JSON report, handed to `sink` piece by piece: the exchanges one at a
// time (render_json is this into one string).
void stream_json(const Report& report, const std::function<void(std::string_view)>& sink);

// The score object of report.schema.json (the report's and each summary row's).
nlohmann::ordered_json score_json(const Score& score);
// CLI.md `conclusion`: conforms (true, false, null), the counts and the text.
nlohmann::ordered_json conclusion_json(const Conclusion& conclusion);

// A JSON report read back (--baseline, batch --baseline-dir, diff) is at most
// this large: a report is a few MiB, one far bigger is not one.
constexpr std::size_t max_report_bytes = 256u << 20;
// and nested at most this deep (the schema's deepest place is 7 levels).
constexpr std::size_t max_report_depth = 64;
// Those two as the limits of oas::parse_json (also summary.json's depth).
oas::Limits report_limits();
// oas::parse_json's error as the message of a reader: "not JSON (...)", or
// "JSON nested deeper than 64 levels: not an adrprobe <what>".
std::string read_error(const std::string& parse_error, const char* what);

// Reads the target, edition, time, score, rules (with their checks and
// hints) and notes of a JSON report; exchanges and TLS facts are not read.
// Throws std::runtime_error saying what is wrong when `text` is not an
// adrprobe-report/1 report: larger or deeper than the limits above, numbers
// out of range, a wrong type. Nothing in it is copied or walked recursively.
Report parse_json_report(const std::string& text);

// Reading a JSON file someone else wrote (a report, a summary.json), after
// oas::parse_json within report_limits(): members by type, numbers
// range-checked before they are stored, never a copy of a subtree.
namespace json_in {
using json = oas::json;

// v as a whole number in lo..hi (an integral float too), else nullopt.
std::optional<long long> whole_number(const json& v, long long lo, long long hi);

// The object at `key` of `parent`, or an empty one (when absent or not an object).
const json& object(const json& parent, const char* key);

// A member of the expected type (std::string, bool, double, int, long long,
// std::size_t, std::vector<std::string>, std::vector<int>): a missing or null
// one is `fallback`; a wrong type, or a number out of T's range, throws
// std::runtime_error naming "<where>.<key>".
template <typename T>
T member(const json& j, const char* key, T fallback, const std::string& where) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  auto wrong = [&](const char* why) { return std::runtime_error(fmt::format("{}.{} {}", where, key, why)); };
  if constexpr (std::is_same_v<T, int> || std::is_same_v<T, long long> || std::is_same_v<T, std::size_t>) {
    constexpr long long lo = std::is_signed_v<T> ? static_cast<long long>(std::numeric_limits<T>::min()) : 0;
    constexpr long long hi = sizeof(T) < sizeof(long long) ? static_cast<long long>(std::numeric_limits<T>::max())
                                                           : std::numeric_limits<long long>::max();
    if (auto n = whole_number(*it, lo, hi)) return static_cast<T>(*n);
    throw wrong(it->is_number() ? "is not a whole number in range" : "has the wrong type");
  } else if constexpr (std::is_same_v<T, std::vector<int>>) {
    if (!it->is_array()) throw wrong("has the wrong type");
    T out;
    out.reserve(it->size());
    for (const auto& v : *it) {
      auto n = whole_number(v, std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
      if (!n) throw wrong("has the wrong type (whole numbers expected)");
      out.push_back(static_cast<int>(*n));
    }
    return out;
  } else if constexpr (std::is_same_v<T, double>) {
    if (!it->is_number()) throw wrong("has the wrong type");
    return it->template get<double>();
  } else {
    try {
      return it->template get<T>();
    } catch (const nlohmann::json::exception&) {
      throw wrong("has the wrong type");
    }
  }
}

}  // namespace json_in

}  // namespace adrprobe::report
