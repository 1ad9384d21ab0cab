#include "oas/doc.hpp"

#include <sys/mman.h>
#include <sys/resource.h>

#include <fstream>

namespace adrprobe::oas {

namespace {
// Whether address space may be reserved beyond what is used: not when it is
// limited (RLIMIT_AS, `ulimit -v`: the whole mapping counts) nor when the
// kernel commits every mapping (vm.overcommit_memory 2: MAP_NORESERVE is
// ignored, and a large reservation could leave too little for malloc).
bool may_reserve() {
  static const bool may = [] {
    struct rlimit as {};
    if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) return false;
    std::ifstream mode("/proc/sys/vm/overcommit_memory");
    int m = 0;
    return !(mode >> m) || m != 2;
  }();
  return may;
}
}  // namespace

Doc::Region::Region(std::size_t reserve) {
  if (!may_reserve()) return;  // the tree is made in chunks, as without
  // Anonymous and not reserved in swap: a page costs memory once the tree
  // writes to it. Small pages: a huge one would count 2 MB for a few bytes.
  void* p = ::mmap(nullptr, reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return;  // the tree is made in chunks, as without
  ::madvise(p, reserve, MADV_NOHUGEPAGE);
  base = static_cast<char*>(p);
  size = reserve;
}

Doc::Region::~Region() {
  if (base) ::munmap(base, size);
}

Doc::Pool* Doc::make_pool(std::optional<Pool>& pool, const Region& region) {
  // RapidJSON's pool takes a buffer larger than its header, never an empty one.
  if (region.base && region.size > 4096) pool.emplace(region.base, region.size, kChunk);
  else pool.emplace(kChunk);
  return &*pool;
}

std::string_view Doc::region() const {
  if (!region_.base) return {};
  // The pool's header, then what it handed out; once the stretch is full,
  // its chunks follow and the stretch may be used to its end. The header is
  // RapidJSON 1.1.0's (capacity, size, next); a later RapidJSON's is larger,
  // and a value in the difference would be kept by ValueSet's hash set.
  constexpr std::size_t header = RAPIDJSON_ALIGN(3 * sizeof(std::size_t));
  bool chunks = pool_->Capacity() > region_.size;
  return {region_.base, chunks ? region_.size : std::min(region_.size, header + pool_->Size())};
}

MemberIt find_member(const Value& object, std::string_view key) {
  for (auto m = object.MemberBegin(); m != object.MemberEnd(); ++m)
    if (key_of(*m) == key) return m;
  return object.MemberEnd();
}

// Depth is bounded by Limits::max_depth (the parsers refuse deeper documents),
// so recursion here is as deep as 256 frames at most.
json to_json(const Value& v) {
  switch (v.GetType()) {
    case rapidjson::kNullType:
      return nullptr;
    case rapidjson::kFalseType:
      return false;
    case rapidjson::kTrueType:
      return true;
    case rapidjson::kStringType:
      return std::string(str(v));
    case rapidjson::kNumberType:
      // nlohmann reads a number without fraction or exponent as unsigned when
      // it is not negative, else signed, and the rest as double. The tree
      // keeps no sign for an integer that is not negative (RapidJSON flags it
      // unsigned too): a signed one (-0, YAML's) comes back unsigned, equal
      // and written alike.
      if (v.IsDouble()) return v.GetDouble();
      if (v.IsUint64()) return v.GetUint64();
      return v.GetInt64();
    case rapidjson::kArrayType: {
      json out = json::array();
      auto& items = out.get_ref<json::array_t&>();
      items.reserve(v.Size());
      for (const auto& e : v.GetArray()) items.push_back(to_json(e));
      return out;
    }
    case rapidjson::kObjectType: {
      json out = json::object();
      auto& members = out.get_ref<json::object_t&>();
      members.reserve(v.MemberCount());
      for (const auto& m : v.GetObject()) members.emplace_back(std::string(key_of(m)), to_json(m.value));
      return out;
    }
  }
  return nullptr;
}

std::string dump(const Value& v) { return to_json(v).dump(-1, ' ', false, json::error_handler_t::replace); }

namespace {

void copy(const json& from, Value& to, rapidjson::MemoryPoolAllocator<>& pool) {
  switch (from.type()) {
    case json::value_t::null:
    case json::value_t::discarded:
      to.SetNull();
      break;
    case json::value_t::boolean:
      to.SetBool(from.get<bool>());
      break;
    case json::value_t::number_unsigned:
      to.SetUint64(from.get<std::uint64_t>());
      break;
    case json::value_t::number_integer:
      to.SetInt64(from.get<std::int64_t>());
      break;
    case json::value_t::number_float:
      to.SetDouble(from.get<double>());
      break;
    case json::value_t::string: {
      const auto& s = from.get_ref<const std::string&>();
      to.SetString(s.data(), static_cast<rapidjson::SizeType>(s.size()), pool);
      break;
    }
    case json::value_t::binary:
      to.SetNull();
      break;
    case json::value_t::array:
      to.SetArray();
      to.Reserve(static_cast<rapidjson::SizeType>(from.size()), pool);
      for (const auto& e : from) {
        Value item;
        copy(e, item, pool);
        to.PushBack(item, pool);
      }
      break;
    case json::value_t::object:
      to.SetObject();
      for (auto it = from.begin(); it != from.end(); ++it) {
        Value key(it.key().data(), static_cast<rapidjson::SizeType>(it.key().size()), pool);
        Value item;
        copy(it.value(), item, pool);
        to.AddMember(key, item, pool);
      }
      break;
  }
}

}  // namespace

DocPtr from_json(const json& v) {
  auto doc = std::make_shared<Doc>();
  copy(v, doc->tree(), doc->tree().GetAllocator());
  return doc;
}

}  // namespace adrprobe::oas
