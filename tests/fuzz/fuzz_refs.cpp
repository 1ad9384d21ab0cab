// oas/refs: $ref resolution across documents, over in-memory documents
// behind the Fetcher interface (fuzz.hpp, Documents: control NUL root NUL
// d1 NUL d2 ...), with a deadline and, as the input asks, tight limits.
#include <time.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz.hpp"
#include "oas/refs.hpp"

using namespace adrprobe;
using namespace adrprobe::oas;

namespace {

// CPU time of this thread: a run descheduled by a busy machine uses wall
// time but not CPU time, so the bound below holds on a loaded CI runner too.
std::chrono::microseconds cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return std::chrono::seconds(ts.tv_sec) + std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::nanoseconds(ts.tv_nsec));
}

// What resolve_all may take beyond its deadline: the walk of the root
// document and the fetch of one wave come before the next check.
constexpr std::chrono::milliseconds kMargin{200};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Documents input(fuzz::as_text(data, size));
  Limits limits = input.limits();
  auto root = parse_any_document(input.root, limits);
  if (!root.ok) {
    if (std::getenv("FUZZ_VERBOSE")) std::fprintf(stderr, "%s: root not loaded: %s\n", "fuzz_refs", root.error.c_str());
    return 0;
  }
  fuzz::assert_dumps(root.doc->root());

  DocumentSet docs(fuzz::Documents::root_url, std::move(root.doc), limits);
  auto fetch = [&](const std::vector<std::string>& urls) { return input.fetch(urls); };
  long budget_us = input.deadline_us();
  auto start_cpu = cpu_now();
  auto deadline = budget_us < 0 ? DocumentSet::Clock::time_point::max()
                                : DocumentSet::Clock::now() + std::chrono::microseconds(budget_us);
  auto unresolved = docs.resolve_all(fetch, deadline);
  auto used = cpu_now() - start_cpu;
  if (budget_us >= 0) FUZZ_ASSERT(used <= std::chrono::microseconds(budget_us) + kMargin);

  // Within the limits: documents fetched, and bytes (a wave asks for no more
  // than the budget left can take, at least one document).
  FUZZ_ASSERT(input.fetched_urls <= limits.max_external_documents);
  FUZZ_ASSERT(input.fetched_bytes <= limits.max_closure_bytes + limits.max_document_bytes + 1);
  if (std::getenv("FUZZ_VERBOSE"))  // what a seed reaches
    std::fprintf(stderr, "fuzz_refs: %zu external documents, %zu fetches, %zu unresolved, %lld us CPU (deadline %ld us)\n",
                 docs.external_count(), input.fetch_calls, unresolved.size(), static_cast<long long>(used.count()), budget_us);
  for (const auto& u : unresolved) {
    FUZZ_ASSERT(!u.reason.empty());
    FUZZ_ASSERT(!u.where.empty());
  }
  fuzz::assert_dumps(docs.root());
  // Every $ref answers after resolve_all, across the documents it loaded.
  Resolved r = docs.deref(docs.root_url(), docs.root());
  FUZZ_ASSERT(r.node || !r.reason.empty());
  if (r.node) fuzz::assert_dumps(*r.node);
  if (docs.root().IsObject())
    for (const auto& m : docs.root().GetObject()) {
      Resolved c = docs.deref(docs.root_url(), m.value);
      FUZZ_ASSERT(c.node || !c.reason.empty());
      if (c.node) {
        fuzz::assert_dumps(*c.node);
        FUZZ_ASSERT(!find_string(c.node, "$ref"));
      }
    }
  return 0;
}
