// A description document and the external documents its $refs reach.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <typeindex>
#include <unordered_map>
#include <vector>

#include "oas/doc.hpp"
#include "oas/json.hpp"
#include "oas/limits.hpp"

namespace adrprobe::oas {

struct Unresolved {
  std::string where;   // JSON pointer of the $ref ("#/paths/~1a/get/$ref", or "common.yaml#/...")
  std::string ref;     // the $ref value as written
  std::string reason;  // why it does not resolve
  bool transport_error = false;  // a document could not be fetched for transport reasons (or the deadline)
  std::string document;          // the document the ref leads into (where resolution stopped)
  bool document_failed = false;  // that document could not be had at all (fetch, parse, limit)
  std::vector<int> exchanges;    // the failed fetch of that document, when it was fetched
};

struct FetchedDocument {
  bool ok = false;
  DocPtr value;
  std::string error;
  bool transport_error = false;  // timeout, reset, DNS: not the API's behaviour
  std::vector<int> exchanges;    // evidence
  std::size_t bytes = 0;         // bytes received for it (counted against Limits::max_closure_bytes)
};
// Fetches a batch of document URLs (absolute, without fragment).
using Fetcher = std::function<std::map<std::string, FetchedDocument>(const std::vector<std::string>& urls)>;

struct Resolved {
  std::string doc_url;
  const Value* node = nullptr;  // nullptr: does not resolve
  std::string reason;          // when node is nullptr
  bool transport_error = false;
  std::string pointer;         // where node stands in doc_url (JSON pointer), when it was reached by a $ref
};

class DocumentSet {
 public:
  using Clock = std::chrono::steady_clock;

  DocumentSet(std::string root_url, DocPtr root, Limits limits = {});
  // A document made from a tree (tests, and what was read as YAML).
  DocumentSet(std::string root_url, const json& root, Limits limits = {});

  const Value& root() const { return docs_.at(root_url_).value->root(); }
  const std::string& root_url() const { return root_url_; }

  // Fetches, wave by wave, every external document reachable through $refs,
  // and lists each $ref that does not resolve (DO-2). Each $ref is followed
  // once (the result is kept for deref), so the work is linear in the number
  // of refs. When the deadline passes, the refs not resolved by then are listed
  // with reason "deadline reached" (transport_error) and it returns at once.
  std::vector<Unresolved> resolve_all(const Fetcher& fetch, Clock::time_point deadline = Clock::time_point::max());

  // Resolves one $ref string standing in document doc_url (no chain following).
  Resolved resolve_ref(const std::string& doc_url, std::string_view ref) const;
  // Follows node while it is a {"$ref": "..."} object, across loaded documents,
  // until a value that is not a $ref. Detects chains that loop. After
  // resolve_all, a $ref it walked is answered from its result at once.
  Resolved deref(const std::string& doc_url, const Value& node) const;
  // What resolve_all found for a $ref object it walked, or nullptr: deref's
  // answer without copying it (a walk derefs at every step).
  const Resolved* resolved(const Value& node) const;
  // A document URL as the set keeps it: a view that lives as long as the set
  // (a walk's places point at it instead of copying the URL at every step).
  std::string_view url(std::string_view doc_url) const;

  // What readers derive from the documents and several of them read (the
  // static checks' walk of every Schema Object): T(*this) is made on the
  // first call for T and kept with the documents, so each later call returns
  // the same object. T may ask for another derived type while it is made.
  // Like the caches below, safe for readers on several threads at once
  // (engine::judge): one makes T while the others wait for it, and a reader
  // of another type goes on (each type has its own lock). A T whose making
  // throws is made again on the next call.
  template <class T>
  const T& derived() const {
    Derived::Slot* slot;
    {
      std::lock_guard lock(derived_.mutex);  // held only to find the slot
      auto& s = derived_.value[std::type_index(typeid(T))];
      if (!s) s = std::make_unique<Derived::Slot>();
      slot = s.get();  // stays where it is while the set lives
    }
    std::lock_guard made(slot->mutex);
    if (!slot->value) slot->value = std::make_shared<const T>(*this);
    return *static_cast<const T*>(slot->value.get());
  }

  std::size_t external_count() const { return docs_.size() - 1; }
  // Doc::region() of each document loaded (ValueSet).
  std::vector<std::string_view> regions() const;
  const std::vector<int>& exchanges() const { return exchanges_; }

 private:
  struct Entry {
    bool loaded = false;
    DocPtr value;
    std::string error;
    bool transport_error = false;
    std::vector<int> exchanges;  // its fetch
  };
  struct Target {
    std::string doc_url;
    std::string fragment;
    bool ok = false;
  };
  // Caches keyed by node addresses inside docs_: a copy starts without them
  // (it shares the documents, but its caches are its own to fill); a move
  // keeps them (the documents do not move).
  template <class T>
  struct Cache {
    T value;
    Cache() = default;
    Cache(const Cache&) {}
    Cache& operator=(const Cache&) {
      value = {};
      return *this;
    }
    Cache(Cache&&) = default;
    Cache& operator=(Cache&&) = default;
  };
  // A cache's mutex: a copy or a move of the set has its own.
  struct Lock {
    std::mutex value;
    Lock() = default;
    Lock(const Lock&) {}
    Lock& operator=(const Lock&) { return *this; }
  };
  // Derived objects may hold references to this set itself: a copy or a move
  // starts without them.
  struct Derived {
    struct Slot {
      std::mutex mutex;  // held while the value is made
      std::shared_ptr<const void> value;
    };
    std::unordered_map<std::type_index, std::unique_ptr<Slot>> value;
    std::mutex mutex;  // a copy or a move has its own
    Derived() = default;
    Derived(const Derived&) {}
    Derived(Derived&&) noexcept {}
    Derived& operator=(const Derived&) {
      value.clear();
      return *this;
    }
    Derived& operator=(Derived&&) noexcept {
      value.clear();
      return *this;
    }
  };
  using KeyIndex = std::unordered_map<std::string_view, const Value*>;

  Target split_ref(const std::string& doc_url, std::string_view ref) const;
  std::string display(const std::string& doc_url, const std::string& pointer) const;
  // lookup() with an index for large objects: an object's keys are searched one by one.
  const Value* find(const Value& doc, const std::vector<std::string>& tokens) const;
  const Value* child(const Value& object, const std::string& key) const;

  std::string root_url_;
  std::map<std::string, Entry, std::less<>> docs_;
  Limits limits_;
  std::vector<int> exchanges_;
  // The result of each $ref object resolve_all followed (by address): an
  // index into the distinct results, since many $refs share one target (a
  // result per $ref took 240 bytes each, 17 MB for 72,000 $refs).
  struct Memo {
    // By address, sorted once resolve_all has followed every $ref: 16 bytes
    // a $ref object, where a hash map's node and bucket took 40 (2.9 MB for
    // 72,689 $refs, held through the run).
    std::vector<std::pair<const Value*, std::uint32_t>> at;
    std::vector<Resolved> results;
    const Resolved* find(const Value* node) const;
  };
  Cache<Memo> memo_;
  // Key -> child of each large object looked into (a cache that readers on
  // several threads fill under index_mutex_).
  mutable Cache<std::unordered_map<const Value*, KeyIndex>> index_;
  mutable Lock index_mutex_;
  mutable Derived derived_;
  // URLs url() was asked for that name no document of the set (a $ref into a
  // document that could not be had), under index_mutex_.
  mutable Cache<std::set<std::string, std::less<>>> other_urls_;
};

}  // namespace adrprobe::oas
