// A description document as the checks read it: RapidJSON's read-only tree.
// One 16-byte value per JSON value (an object member is two: its key and its
// value), all in one pool freed at once, objects in document order. A
// 15 MB document shaped like the real ones (bench/real_oas.py) is a 25 MB
// tree, parsed in 40 ms; nlohmann's ordered_json took 56 MB and 0.44 s.
// Everything else that is JSON (reports, summaries, answers) stays oas::json.
#pragma once
#include <rapidjson/document.h>

#include <cstring>
#include <memory>
#include <optional>
#include <string_view>

#include "oas/json.hpp"

namespace adrprobe::oas {

using Value = rapidjson::Value;
using Member = Value::Member;             // .name (a string Value) and .value
using MemberIt = Value::ConstMemberIterator;

// A parsed document; its values are never changed, and pointers to them stay
// valid while the document lives.
class Doc {
 public:
  Doc() : tree_(make_pool(pool_, region_)) {}
  // A document whose tree is made in one stretch of address space, reserve
  // bytes mapped and touched only as the tree grows (more than it needs: its
  // chunks follow if not). A value's address then says where it stands in
  // the stretch: ValueSet keeps a set of values as a bit for each 16 bytes.
  // Not where address space is limited (RLIMIT_AS) or every mapping is
  // committed (vm.overcommit_memory 2): the tree is then made in chunks.
  explicit Doc(std::size_t reserve) : region_(reserve), tree_(make_pool(pool_, region_)) {}
  Doc(const Doc&) = delete;
  Doc& operator=(const Doc&) = delete;
  const Value& root() const { return tree_; }
  // For the parsers that make it.
  rapidjson::Document& tree() { return tree_; }
  // The bytes of the stretch that may hold values: from its start to the end
  // of what the tree used of it (all of it once the tree has grown past it);
  // empty without a stretch.
  std::string_view region() const;

 private:
  // The pool's chunks are asked of malloc at a size it has a class for: 64
  // KiB with the pool's header of three words. RapidJSON's default, 64 KiB
  // and the header, is rounded up to 80 KiB by jemalloc, a fifth of the tree
  // allocated and never used (5 MB at 10,000 paths).
  static constexpr std::size_t kChunk = 64 * 1024 - 3 * sizeof(void*);
  using Pool = rapidjson::MemoryPoolAllocator<>;
  struct Region {
    Region() = default;
    explicit Region(std::size_t reserve);
    Region(const Region&) = delete;
    Region& operator=(const Region&) = delete;
    ~Region();
    char* base = nullptr;  // nullptr: none (not asked for, or the mapping failed)
    std::size_t size = 0;
  };
  static Pool* make_pool(std::optional<Pool>& pool, const Region& region);
  Region region_;              // outlives pool_, which uses it
  std::optional<Pool> pool_;   // made by make_pool
  rapidjson::Document tree_;   // after pool_: destroyed before it
};
using DocPtr = std::shared_ptr<const Doc>;

// A string value's text (v.IsString()). A JSON string may hold "\u0000":
// the length is the value's, never strlen.
inline std::string_view str(const Value& v) { return {v.GetString(), v.GetStringLength()}; }
inline std::string_view key_of(const Member& m) { return str(m.name); }
inline bool is_structured(const Value& v) { return v.IsObject() || v.IsArray(); }
// An object's members, an array's items; 0 for a scalar.
inline std::size_t size(const Value& v) {
  return v.IsObject() ? v.MemberCount() : v.IsArray() ? v.Size() : 0;
}
// An integer, as nlohmann's is_number_integer() says it (signed or unsigned).
inline bool is_integer(const Value& v) { return v.IsInt64() || v.IsUint64(); }

// The member named key of an object, or nullptr (v not an object, or no such
// member). The parsers keep one member per key (a repeated key's last value in
// its first place, as nlohmann's operator[] did).
// The first bytes are compared here, the rest by memcmp: most keys an
// object is asked for are not there, and differ from its keys at once.
inline const Value* find(const Value& object, std::string_view key) {
  if (!object.IsObject()) return nullptr;
  for (auto m = object.MemberBegin(); m != object.MemberEnd(); ++m) {
    const char* name = m->name.GetString();  // ends in a NUL: name[0] is there when the name is ""
    if ((key.empty() || name[0] == key[0]) && m->name.GetStringLength() == key.size() &&
        std::memcmp(name, key.data(), key.size()) == 0)
      return &m->value;
  }
  return nullptr;
}
inline const Value* find(const Value* object, std::string_view key) { return object ? find(*object, key) : nullptr; }
// The member's iterator, or MemberEnd() (v an object).
MemberIt find_member(const Value& object, std::string_view key);
// object[key] when it is a string, else nullptr.
inline const Value* find_string(const Value* object, std::string_view key) {
  const Value* v = find(object, key);
  return v && v->IsString() ? v : nullptr;
}
inline bool contains(const Value& object, std::string_view key) { return find(object, key) != nullptr; }

// The value as nlohmann's ordered_json, for what is written into reports and
// compared with answers (numbers keep their kind: unsigned, signed, float).
json to_json(const Value& v);
// v.dump() of to_json(v): the text reports have always shown.
std::string dump(const Value& v);
// A document made from a tree (YAML's, a test's).
DocPtr from_json(const json& v);

}  // namespace adrprobe::oas
