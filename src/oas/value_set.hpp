// A set of the values of a document set, by address, for walks that visit
// each value once: a bit for each 16 bytes of a document's tree (Doc::region),
// a hash set for a value made elsewhere (a root, a tree made in chunks). At
// 10,000 paths a hash set of the schemas walked was 2.9 MB and a tenth of
// lint's time; the bits for the whole tree are 165 KB.
#pragma once
#include <cstdint>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "oas/refs.hpp"

namespace adrprobe::oas {

class ValueSet {
 public:
  explicit ValueSet(const DocumentSet& docs);
  // True when v was not in the set.
  bool insert(const Value* v);
  bool contains(const Value* v) const;
  void erase(const Value* v);
  // Gives back its memory (the set is empty after).
  void release();

 private:
  struct Range {
    const char* begin;
    std::size_t size;
    std::size_t first_bit;
  };
  // The bit of v, or npos when v is not in a region.
  std::size_t bit(const Value* v) const;
  std::vector<Range> ranges_;  // by begin
  std::vector<std::uint64_t> bits_;
  std::unordered_set<const Value*> rest_;
};

}  // namespace adrprobe::oas
