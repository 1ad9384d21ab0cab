// util/release: a container emptied with its room.
#include <doctest/doctest.h>

#include <deque>
#include <string>
#include <unordered_set>
#include <vector>

#include "util/release.hpp"

using namespace adrprobe;

TEST_CASE("release empties a container and lets its room go, where = {} keeps it") {
  std::vector<int> kept(1000, 1), released(1000, 1);
  kept = {};
  release(released);
  CHECK(kept.empty());
  CHECK(kept.capacity() >= 1000);  // why release exists
  CHECK(released.empty());
  CHECK(released.capacity() == 0);

  std::string text(1000, 'x');
  release(text);
  CHECK(text.empty());
  CHECK(text.capacity() < 1000);

  std::unordered_set<int> set;
  for (int i = 0; i < 1000; ++i) set.insert(i);
  release(set);
  CHECK(set.empty());
  CHECK(set.bucket_count() < 1000);

  std::deque<int> queue(1000, 1);
  release(queue);
  CHECK(queue.empty());
}
