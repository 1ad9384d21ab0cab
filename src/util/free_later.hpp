// Freeing on a thread of its own. A long run's evidence and report are tens of
// thousands of small allocations (the 10,000-path run's take 40-70 ms to
// free), and nothing waits for them: the report is written meanwhile, or the
// process is about to end.
#pragma once
#include <memory>
#include <type_traits>
#include <utility>

namespace adrprobe {

// Destroys what it holds on the freeing thread, soon, in the order given.
// What is still waiting when the process ends goes with the process: the
// thread and its queue are never destroyed, so nothing it uses is gone while
// it works, and what it holds stays reachable (no leak to a leak checker).
void free_later(std::shared_ptr<void> object);

// An object moved in (never a copy of one still in use).
template <class T>
void free_later(T&& object) {
  static_assert(!std::is_lvalue_reference_v<T>, "free_later takes what is moved into it");
  free_later(std::shared_ptr<void>(std::make_shared<T>(std::move(object))));
}

}  // namespace adrprobe
