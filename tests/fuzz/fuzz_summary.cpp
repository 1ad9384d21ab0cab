// report/summary: a shard's summary.json, read by `adrprobe summary` from a
// restored cache or an artifact, is read or refused with a message, never a
// crash or an allocation its numbers size (a shard N of 10^12 made the merge
// list 10^12 missing shards). Reading is deterministic; a summary that reads
// has a shard --shard would take, rows with a name and a base URL, and reads
// back the same after it is written.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "batch/targets.hpp"
#include "fuzz.hpp"
#include "report/summary.hpp"

using namespace adrprobe;
using namespace adrprobe::report;

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
