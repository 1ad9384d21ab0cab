#include "oas/value_set.hpp"

#include <algorithm>
#include <functional>

#include "util/release.hpp"

namespace adrprobe::oas {

namespace {
// A value is 16 bytes and two never overlap: their addresses are 16 bytes
// apart at least, so no two start in one 16-byte step of the stretch, however
// the pool aligns them (8 bytes, RAPIDJSON_ALIGN).
constexpr std::size_t kStep = sizeof(Value);
static_assert(kStep == 16);
constexpr std::size_t npos = static_cast<std::size_t>(-1);
}  // namespace

ValueSet::ValueSet(const DocumentSet& docs) {
  std::size_t bits = 0;
  for (std::string_view r : docs.regions()) ranges_.push_back({r.data(), r.size(), 0});
  std::sort(ranges_.begin(), ranges_.end(),
            [](const Range& a, const Range& b) { return std::less<const char*>()(a.begin, b.begin); });
  for (auto& r : ranges_) {
    r.first_bit = bits;
    bits += (r.size + kStep - 1) / kStep;
  }
  bits_.assign((bits + 63) / 64, 0);
}

std::size_t ValueSet::bit(const Value* v) const {
  auto p = reinterpret_cast<const char*>(v);
  // The last range that begins at or before p.
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), p,
                             [](const char* q, const Range& r) { return std::less<const char*>()(q, r.begin); });
  if (it == ranges_.begin()) return npos;
  --it;
  auto offset = static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(p) - reinterpret_cast<std::uintptr_t>(it->begin));
  if (offset >= it->size) return npos;
  return it->first_bit + offset / kStep;
}

bool ValueSet::insert(const Value* v) {
  std::size_t b = bit(v);
  if (b == npos) return rest_.insert(v).second;
  std::uint64_t mask = std::uint64_t{1} << (b % 64);
  std::uint64_t& word = bits_[b / 64];
  if (word & mask) return false;
  word |= mask;
  return true;
}

bool ValueSet::contains(const Value* v) const {
  std::size_t b = bit(v);
  if (b == npos) return rest_.count(v) != 0;
  return (bits_[b / 64] >> (b % 64)) & 1;
}

void ValueSet::erase(const Value* v) {
  std::size_t b = bit(v);
  if (b == npos) rest_.erase(v);
  else bits_[b / 64] &= ~(std::uint64_t{1} << (b % 64));
}

void ValueSet::release() {
  adrprobe::release(ranges_);
  adrprobe::release(bits_);
  adrprobe::release(rest_);
}

}  // namespace adrprobe::oas
