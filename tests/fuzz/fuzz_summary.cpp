// report/summary: a shard's summary.json, read by `adrprobe summary` from a
// restored cache or an artifact, is read or refused with a message, never a
// crash or an allocation its numbers size (a shard N of 10^12 made the merge
// list 10^12 missing shards). Reading is deterministic; a summary that reads
// has a shard --shard would take, rows with a name and a base URL, and reads
// back the same after it is written. The history, read point by point as it
// is parsed, is the one the whole tree gives, and only the lists asked for.
#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "batch/targets.hpp"
#include "fuzz.hpp"
#include "oas/parse.hpp"
#include "report/json.hpp"
#include "report/summary.hpp"

using namespace adrprobe;
using namespace adrprobe::report;

namespace {

// What a whole tree of `text` says the history is: per name whose value is a
// list, the newest max_history of its object points by generated_at (of two
// at one time, the later), in the list's order, as (generated_at, pass).
std::map<std::string, std::vector<std::pair<std::string, int>>> history_of_tree(const std::string& text) {
  using json_in::member;
  oas::Limits limits = report_limits();
  limits.max_document_bytes = max_summary_bytes;
  limits.max_stretch_bytes = max_summary_stretch_bytes;
  auto tree = oas::parse_json(text, limits);
  FUZZ_ASSERT(tree.ok);
  std::map<std::string, std::vector<std::pair<std::string, int>>> history;
  for (const auto& [name, list] : json_in::object(tree.value, "history").items()) {
    if (!list.is_array()) continue;
    std::vector<std::tuple<std::string, std::size_t, int>> points;  // (generated_at, index, pass)
    for (std::size_t i = 0; i < list.size(); ++i)
      if (list[i].is_object())
        points.emplace_back(member<std::string>(list[i], "generated_at", "", "p"), i,
                            member<int>(list[i], "pass", 0, "p"));
    std::sort(points.begin(), points.end(), [](const auto& a, const auto& b) {
      return std::tie(std::get<0>(a), std::get<1>(a)) > std::tie(std::get<0>(b), std::get<1>(b));
    });
    if (points.size() > max_history) points.resize(max_history);
    std::sort(points.begin(), points.end(),
              [](const auto& a, const auto& b) { return std::get<1>(a) < std::get<1>(b); });
    auto& kept = history[name];
    for (const auto& [at, index, pass] : points) kept.emplace_back(at, pass);
  }
  return history;
}

void check_history(const std::string& text, const Summary& read) {
  auto tree = history_of_tree(text);
  FUZZ_ASSERT(read.history.size() == tree.size());
  for (const auto& [name, points] : read.history) {
    auto it = tree.find(name);
    FUZZ_ASSERT(it != tree.end());
    FUZZ_ASSERT(points.size() == it->second.size());
    for (std::size_t k = 0; k < points.size(); ++k) {
      FUZZ_ASSERT(points[k].generated_at == it->second[k].first);
      FUZZ_ASSERT(points[k].pass == it->second[k].second);
      FUZZ_ASSERT(points[k].generated_at.size() <= max_history_time_bytes);
    }
  }
  // Without its history, or with some names', the rest reads the same.
  Summary none = parse_summary_json(text, no_history);
  FUZZ_ASSERT(none.history.empty());
  Summary rows = read;
  rows.history.clear();
  FUZZ_ASSERT(render_summary_json(none) == render_summary_json(rows));
  auto odd = [](const std::string& name) { return name.size() % 2 == 1; };
  Summary some = parse_summary_json(text, odd);
  for (const auto& [name, points] : read.history) {
    auto it = some.history.find(name);
    FUZZ_ASSERT((it != some.history.end()) == odd(name));
    if (it != some.history.end()) FUZZ_ASSERT(it->second.size() == points.size());
  }
  FUZZ_ASSERT(some.history.size() <= read.history.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(fuzz::as_text(data, size));
  Summary first;
  std::string error;
  try {
    first = parse_summary_json(text);
  } catch (const std::runtime_error& e) {
    error = e.what();
    FUZZ_ASSERT(!error.empty());
  }
  try {
    Summary again = parse_summary_json(text);
    FUZZ_ASSERT(error.empty());
    FUZZ_ASSERT(render_summary_json(again) == render_summary_json(first));
  } catch (const std::runtime_error& e) {
    FUZZ_ASSERT(error == e.what());
  }
  if (!error.empty()) return 0;
  check_history(text, first);
  // What sizes a merge is within --shard's bounds.
  FUZZ_ASSERT(first.shard_n >= 1 && first.shard_n <= batch::max_shards);
  FUZZ_ASSERT(first.shard_k < first.shard_n);
  // Written and read again: the same summary (render is a fixed point after one read).
  std::string written = render_summary_json(first);
  Summary back = parse_summary_json(written);
  FUZZ_ASSERT(render_summary_json(back) == written);
  FUZZ_ASSERT(back.targets.size() == first.targets.size());
  // The merge's pages render whatever was read.
  (void)render_summary_html(first);
  (void)render_summary_markdown(first);
  (void)render_summary_openmetrics(first);
  return 0;
}
