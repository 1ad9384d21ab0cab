// Emptying a container with its room: `c = {}` and `c.clear()` keep a
// vector's capacity, a string's buffer, a hash set's buckets and a deque's
// blocks; what a long run keeps to its end should not.
#pragma once

namespace adrprobe {

template <class C>
void release(C& c) {
  C().swap(c);
}

}  // namespace adrprobe
