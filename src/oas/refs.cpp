#include "oas/refs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <limits>
#include <optional>
#include <unordered_set>

#include "oas/pointer.hpp"
#include "util/url.hpp"

namespace adrprobe::oas {
namespace {

// The $ref of a Reference Object, or nullptr.
const Value* ref_of(const Value& node) { return find_string(&node, "$ref"); }

// One $ref as resolve_all found it. A document's $refs are tens of thousands
// (72,000 in a 10,000-path document): the URL and the $ref value are pointed
// at, not copied (the URL is a key of the document set, the value the
// document's own string). Nor is its pointer kept: only a $ref that does not
// resolve needs one, and resolve_all's second walk finds those (collect<true>);
// a string for each $ref was a fifth of resolving's memory at 10,000 paths.
struct Occurrence {
  const std::string* doc_url;
  std::string_view ref;
  const Value* node;  // the object holding $ref
};

// Is the deadline past? Asks the clock once every 256 calls (and at the first
// call); once past, stays past.
class DeadlineCheck {
 public:
  explicit DeadlineCheck(std::chrono::steady_clock::time_point deadline) : deadline_(deadline) {}
  bool reached() {
    if (reached_) return true;
    if (deadline_ == std::chrono::steady_clock::time_point::max()) return false;
    if (calls_++ % 256 == 0) reached_ = std::chrono::steady_clock::now() >= deadline_;
    return reached_;
  }
  // Asks the clock now (before a walk or a fetch: work worth a clock read).
  bool reached_now() {
    if (!reached_ && deadline_ != std::chrono::steady_clock::time_point::max())
      reached_ = std::chrono::steady_clock::now() >= deadline_;
    return reached_;
  }

 private:
  std::chrono::steady_clock::time_point deadline_;
  unsigned calls_ = 0;
  bool reached_ = false;
};

// Keys whose object value maps names to OAS objects (a schema property may be
// called "example" or "x-id": under these keys, names are not keywords).
bool is_named_map(std::string_view key) {
  static const std::set<std::string, std::less<>> keys{
      "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "schemas",
      "parameters", "responses", "requestBodies", "headers", "securitySchemes", "links",
      "callbacks", "pathItems", "paths", "webhooks", "content", "encoding", "variables", "examples"};
  return keys.find(key) != keys.end();
}

// Keywords whose value is data, never a Reference Object.
bool is_data_keyword(std::string_view key) {
  return key == "example" || key == "default" || key == "enum" || key == "const" || key == "value" ||
         key.substr(0, 2) == "x-";
}

// Collects every $ref below node in document order, walking the OAS structure:
// data (examples, defaults, enums, extensions) is not searched for references.
// Subtrees that are walks of their own (roots) are skipped below another walk's
// start, so each node is walked once. Linear in the size of the subtree, which
// Limits bound per document; the deadline is checked between walks.
using Roots = std::unordered_set<const Value*>;
// Calls on_ref(object, ref) for every object holding a $ref below node, in
// document order. With Pointer, the walk keeps the pointer of where it stands
// in one string, lengthened and cut as it goes, and passes it too: on_ref(object,
// ref, pointer). Without, no pointer is made at all.
template <bool Pointer, class OnRef>
void collect(const Value& node, const std::string& pointer, const Roots& roots, OnRef&& on_ref) {
  struct Open {
    const Value* node;
    bool names;                    // an object whose keys are names, not keywords
    MemberIt member;               // an object's next member
    std::size_t item;              // an array's next item
    std::size_t length;            // of the pointer to node
  };
  std::string at = Pointer ? pointer : std::string();
  std::vector<Open> open;
  auto enter = [&](const Value& n, bool names) {
    if (n.IsObject() && !names)
      if (const Value* r = ref_of(n)) {
        if constexpr (Pointer) on_ref(n, str(*r), at);
        else on_ref(n, str(*r));
      }
    open.push_back({&n, names, n.IsObject() ? n.MemberBegin() : MemberIt(), 0, at.size()});
  };
  enter(node, false);
  while (!open.empty()) {
    Open& o = open.back();
    if constexpr (Pointer) at.resize(o.length);
    const Value* next = nullptr;
    bool names = false;
    if (o.node->IsObject()) {
      for (; !next && o.member != o.node->MemberEnd(); ++o.member) {
        std::string_view key = key_of(*o.member);
        const Value& v = o.member->value;
        if (!is_structured(v)) continue;
        if (!o.names && (is_data_keyword(key) || (key == "examples" && v.IsArray()))) continue;
        next = &v;
        names = !o.names && v.IsObject() && is_named_map(key);
        if constexpr (Pointer) {
          at += '/';
          for (char c : key) {  // escape_token
            if (c == '~') at += "~0";
            else if (c == '/') at += "~1";
            else at += c;
          }
        }
      }
    } else if (o.node->IsArray()) {
      for (; !next && o.item < o.node->Size(); ++o.item)
        if (const Value& v = (*o.node)[static_cast<rapidjson::SizeType>(o.item)]; is_structured(v)) {
          next = &v;
          if constexpr (Pointer) {
            at += '/';
            at += std::to_string(o.item);
          }
        }
    }
    if (!next) open.pop_back();
    else if (!roots.count(next)) enter(*next, names);  // o is not used after: enter may move it
  }
}

}  // namespace

DocumentSet::DocumentSet(std::string root_url, DocPtr root, Limits limits)
    : root_url_(std::move(root_url)), limits_(limits) {
  docs_[root_url_] = Entry{true, std::move(root), "", false, {}};
}

DocumentSet::DocumentSet(std::string root_url, const json& root, Limits limits)
    : DocumentSet(std::move(root_url), from_json(root), limits) {}

DocumentSet::Target DocumentSet::split_ref(const std::string& doc_url, std::string_view ref) const {
  Target t;
  auto hash = ref.find('#');
  std::string location(ref.substr(0, hash));
  t.fragment = hash == std::string::npos ? "" : std::string(ref.substr(hash + 1));
  if (location.empty()) {
    t.doc_url = doc_url;
    t.ok = true;
    return t;
  }
  if (auto abs = resolve_url(doc_url, location)) {
    t.doc_url = *abs;
    if (auto h = t.doc_url.find('#'); h != std::string::npos) t.doc_url.resize(h);
    t.ok = true;
  }
  return t;
}

std::vector<std::string_view> DocumentSet::regions() const {
  std::vector<std::string_view> out;
  for (const auto& [url, entry] : docs_)
    if (entry.loaded && entry.value && !entry.value->region().empty()) out.push_back(entry.value->region());
  return out;
}

std::string DocumentSet::display(const std::string& doc_url, const std::string& pointer) const {
  if (doc_url == root_url_) return "#" + pointer;
  return doc_url + "#" + pointer;
}

const Value* DocumentSet::child(const Value& object, const std::string& key) const {
  // Small objects: a linear search is as fast as a hash.
  if (object.MemberCount() < 16) return oas::find(object, key);
  std::lock_guard lock(index_mutex_.value);
  auto [slot, fresh] = index_.value.try_emplace(&object);
  KeyIndex& index = slot->second;
  if (fresh) {
    index.reserve(object.MemberCount());
    for (const auto& m : object.GetObject()) index.emplace(key_of(m), &m.value);
  }
  auto it = index.find(key);
  return it == index.end() ? nullptr : it->second;
}

const Value* DocumentSet::find(const Value& doc, const std::vector<std::string>& tokens) const {
  const Value* node = &doc;
  for (const auto& t : tokens) {
    if (node->IsObject()) {
      node = child(*node, t);
      if (!node) return nullptr;
    } else {
      node = lookup(*node, {t});  // an array index, or nothing
      if (!node) return nullptr;
    }
  }
  return node;
}

Resolved DocumentSet::resolve_ref(const std::string& doc_url, std::string_view ref) const {
  Resolved r;
  Target t = split_ref(doc_url, ref);
  if (!t.ok) {
    r.reason = "not a valid URI reference";
    return r;
  }
  r.doc_url = t.doc_url;
  auto it = docs_.find(t.doc_url);
  if (it == docs_.end()) {
    r.reason = "document not fetched";
    return r;
  }
  if (!it->second.loaded) {
    r.reason = it->second.error;
    r.transport_error = it->second.transport_error;
    return r;
  }
  auto tokens = fragment_tokens(t.fragment);
  if (!tokens) {
    r.reason = "malformed JSON pointer '" + t.fragment + "'";
    return r;
  }
  r.node = find(it->second.value->root(), *tokens);
  r.pointer = make_pointer(*tokens);
  if (!r.node) r.reason = "no value at '#" + t.fragment + "'";
  return r;
}

namespace {
// (value's address, index) lists, as the memo keeps them: sorted by address.
using ByAddress = std::vector<std::pair<const Value*, std::uint32_t>>;
bool by_address(const ByAddress::value_type& a, const ByAddress::value_type& b) {
  return std::less<const Value*>()(a.first, b.first);
}
// The index kept for node in a list sorted by_address, or nullptr.
const std::uint32_t* index_of(const ByAddress& list, const Value* node) {
  auto it = std::lower_bound(list.begin(), list.end(), ByAddress::value_type{node, 0}, by_address);
  return it != list.end() && it->first == node ? &it->second : nullptr;
}
}  // namespace

const Resolved* DocumentSet::Memo::find(const Value* node) const {
  const std::uint32_t* i = index_of(at, node);
  return i ? &results[*i] : nullptr;
}

const Resolved* DocumentSet::resolved(const Value& node) const { return memo_.value.find(&node); }

std::string_view DocumentSet::url(std::string_view doc_url) const {
  if (auto it = docs_.find(doc_url); it != docs_.end()) return it->first;
  std::lock_guard lock(index_mutex_.value);
  return *other_urls_.value.emplace(doc_url).first;
}

Resolved DocumentSet::deref(const std::string& doc_url, const Value& node) const {
  Resolved cur{doc_url, &node, "", false, ""};
  std::unordered_set<const Value*> seen;
  while (const Value* ref = ref_of(*cur.node)) {
    if (const Resolved* known = memo_.value.find(cur.node)) return *known;
    if (!seen.insert(cur.node).second) return Resolved{cur.doc_url, nullptr, "circular $ref chain", false, ""};
    Resolved next = resolve_ref(cur.doc_url, str(*ref));
    if (!next.node) return next;
    cur = next;
  }
  return cur;
}

namespace {

const char* const kDeadline = "deadline reached";

}  // namespace

std::vector<Unresolved> DocumentSet::resolve_all(const Fetcher& fetch, Clock::time_point deadline) {
  DeadlineCheck stop(deadline);
  std::deque<Occurrence> occurrences;  // a deque: no room for twice as many as it grows
  Roots roots;                  // nodes walked as a subtree of their own
  struct Walk {
    std::string doc;
    std::string pointer;
    const Value* node;
  };
  std::vector<Walk> to_walk{{root_url_, "", &root()}};
  std::vector<Walk> walked;  // what was walked, for the pointers of the $refs that do not resolve
  // Document URL -> the fragments of the $refs that need it (views of the $refs' values).
  std::map<std::string, std::vector<std::string_view>> waiting;
  std::size_t closure_bytes = 0;                            // received for external documents

  // Queues the subtree at fragment in the document doc_url, unless it (or a
  // subtree holding it) is walked already. Targets in the root are not: the
  // root is walked whole.
  auto queue_target = [&](const std::string& doc_url, std::string_view fragment) {
    if (doc_url == root_url_) return;
    auto it = docs_.find(doc_url);
    if (it == docs_.end() || !it->second.loaded) return;
    auto tokens = fragment_tokens(std::string(fragment));
    if (!tokens) return;
    const Value* node = &it->second.value->root();
    if (roots.count(node)) return;
    for (const auto& token : *tokens) {
      node = find(*node, {token});
      if (!node || roots.count(node)) return;
    }
    if (!is_structured(*node)) return;
    roots.insert(node);
    to_walk.push_back({doc_url, make_pointer(*tokens), node});
  };

  roots.insert(to_walk.front().node);
  while (true) {
    // Walk the new subtrees, then see which documents their refs need.
    for (std::size_t w = 0; w < to_walk.size(); ++w) {  // queue_target may append
      if (to_walk[w].doc != root_url_ && stop.reached_now()) break;
      // The URL as a key of docs_, which outlives the walk (to_walk does not).
      const std::string& doc_url = docs_.find(to_walk[w].doc)->first;
      std::size_t first = occurrences.size();
      collect<false>(*to_walk[w].node, "", roots,
                     [&](const Value& n, std::string_view ref) { occurrences.push_back({&doc_url, ref, &n}); });
      walked.push_back(to_walk[w]);
      for (std::size_t i = first; i < occurrences.size(); ++i) {
        const Occurrence& occ = occurrences[i];
        auto hash = occ.ref.find('#');
        std::string_view fragment = hash == std::string_view::npos ? std::string_view() : occ.ref.substr(hash + 1);
        if (hash == 0) {  // in its own document (split_ref without the copy of its URL)
          queue_target(doc_url, fragment);
          continue;
        }
        Target split = split_ref(doc_url, occ.ref);
        if (!split.ok) continue;
        if (!docs_.count(split.doc_url)) waiting[split.doc_url].push_back(fragment);
        else queue_target(split.doc_url, fragment);  // loaded already: its subtree is walked in this wave
      }
    }
    to_walk.clear();
    if (stop.reached_now()) break;
    std::vector<std::string> needed;
    for (const auto& [url, _] : waiting) needed.push_back(url);
    if (needed.empty()) break;
    // A batch is at most what the byte budget can take if every document in it
    // is as large as a document may be; the rest waits for the next wave.
    std::size_t room = limits_.max_closure_bytes > closure_bytes ? limits_.max_closure_bytes - closure_bytes : 0;
    std::size_t per_wave = std::max<std::size_t>(1, room / std::max<std::size_t>(1, limits_.max_document_bytes));
    const std::string over_budget = fmt::format("not fetched: the $ref closure exceeds {} bytes", limits_.max_closure_bytes);
    std::vector<std::string> batch;
    for (const auto& url : needed) {
      if (docs_.size() - 1 + batch.size() >= limits_.max_external_documents) {
        docs_[url] = Entry{false, {}, fmt::format("not fetched: more than {} external documents", limits_.max_external_documents), false, {}};
      } else if (closure_bytes >= limits_.max_closure_bytes) {
        docs_[url] = Entry{false, {}, over_budget, false, {}};
      } else if (batch.size() < per_wave) {
        batch.push_back(url);
      }
    }
    auto fetched = batch.empty() ? std::map<std::string, FetchedDocument>{} : fetch(batch);
    bool overflow = false;
    for (const auto& url : batch) {
      auto& f = fetched[url];
      exchanges_.insert(exchanges_.end(), f.exchanges.begin(), f.exchanges.end());
      if (f.bytes > limits_.max_closure_bytes - closure_bytes) {
        docs_[url] = Entry{false, {}, over_budget, false, {}};
        overflow = true;
        continue;
      }
      closure_bytes += f.bytes;
      docs_[url] = f.ok ? Entry{true, std::move(f.value), "", false, f.exchanges}
                        : Entry{false, {}, f.error.empty() ? "could not be fetched" : f.error, f.transport_error,
                                f.exchanges};
    }
    if (overflow) closure_bytes = limits_.max_closure_bytes;  // nothing more is fetched
    // The refs waiting for these documents may now point into them.
    for (const auto& url : needed) {
      if (!docs_.count(url)) continue;  // left for the next wave
      for (std::string_view fragment : waiting[url]) queue_target(url, fragment);
      waiting.erase(url);
    }
  }

  // Follow every ref once: each $ref object on a chain gets the chain's end
  // (or why it has none), so a later occurrence on the chain stops there.
  memo_.value = {};
  derived_.value.clear();  // made from fewer documents
  // A result's place in memo_.value.results, by the node it resolves to: the
  // $refs to one target share it (a node has one pointer per spelling of it).
  std::unordered_map<const Value*, std::vector<std::uint32_t>> result_of;
  // memo_.value.at while it is made: (the $ref object's address, its
  // result's index) for every $ref object of a chain, each once, in the order
  // followed. A $ref object followed before gives its result at once, as a
  // hash map of them all did, without one: a chain's first $ref object is an
  // occurrence (each walked once, so each its own), followed before only if
  // an earlier chain led to it, kept in chained (a $ref to a $ref: rare); one
  // a chain leads to is that, or an earlier occurrence (occurrence_at, made
  // on the first such lookup, and the result each occurrence got).
  ByAddress at;
  std::unordered_map<const Value*, std::uint32_t> chained;
  constexpr std::uint32_t kNotKept = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> occurrence_kept(occurrences.size(), kNotKept);
  ByAddress occurrence_at;  // (node, its occurrence)
  auto followed_before = [&](const Value* node, std::size_t current, bool first) -> std::optional<std::uint32_t> {
    if (auto m = chained.find(node); m != chained.end()) return m->second;
    if (first) return std::nullopt;
    if (occurrence_at.empty()) {
      occurrence_at.reserve(occurrences.size());
      for (std::size_t j = 0; j < occurrences.size(); ++j)
        occurrence_at.emplace_back(occurrences[j].node, static_cast<std::uint32_t>(j));
      std::sort(occurrence_at.begin(), occurrence_at.end(), by_address);
    }
    const std::uint32_t* j = index_of(occurrence_at, node);
    if (j && *j < current && occurrence_kept[*j] != kNotKept) return occurrence_kept[*j];
    return std::nullopt;
  };
  auto keep = [&](const Resolved& r) -> std::uint32_t {
    auto& results = memo_.value.results;
    if (r.node)
      for (std::uint32_t i : result_of[r.node])
        if (results[i].pointer == r.pointer && results[i].doc_url == r.doc_url) return i;
    results.push_back(r);
    auto i = static_cast<std::uint32_t>(results.size() - 1);
    if (r.node) result_of[r.node].push_back(i);
    return i;
  };
  // resolve_ref() of each $ref value once per document: many $ref objects
  // name one target ("#/components/parameters/Page").
  std::map<std::string, std::unordered_map<std::string_view, Resolved>, std::less<>> resolved;
  auto resolve_once = [&](const std::string& doc_url, std::string_view ref) -> const Resolved& {
    auto& in_doc = resolved[doc_url];
    auto it = in_doc.find(ref);
    if (it == in_doc.end()) it = in_doc.emplace(ref, resolve_ref(doc_url, ref)).first;  // ref lives in the document
    return it->second;
  };
  std::vector<Unresolved> out;
  std::vector<const Occurrence*> out_of;  // out[i] is of *out_of[i], whose pointer is found at the end
  // The $ref objects of the chain followed now. A chain is short: it is
  // searched for a loop as it is; a long one (a hostile document's) also goes
  // into a set, so that following it stays linear.
  std::vector<const Value*> path;
  std::unordered_set<const Value*> long_path;
  constexpr std::size_t kShortChain = 16;
  auto on_path = [&](const Value* node) {
    if (path.size() <= kShortChain) return std::find(path.begin(), path.end(), node) != path.end();
    if (long_path.empty()) long_path.insert(path.begin(), path.end());
    return long_path.count(node) != 0;
  };
  at.reserve(occurrences.size());  // one a $ref object, but for chains
  for (std::size_t current = 0; current < occurrences.size(); ++current) {
    const Occurrence& occ = occurrences[current];
    // Where the chain stands: the $ref object first, then each result
    // followed (in the results of resolve_once, which stay where they are).
    const std::string* doc = occ.doc_url;
    const Value* node = occ.node;
    const Resolved* reached = nullptr;  // the last result followed; the chain's end unless it stopped
    std::optional<std::uint32_t> known;  // the chain met a $ref followed before: its result
    std::optional<Resolved> stopped;     // a loop, or the deadline
    path.clear();
    long_path.clear();
    while (const Value* ref = ref_of(*node)) {
      if (known = followed_before(node, current, path.empty()); known) break;
      if (on_path(node)) {
        stopped = Resolved{*doc, nullptr, "circular $ref chain", false, ""};
        break;
      }
      path.push_back(node);
      if (!long_path.empty()) long_path.insert(node);
      if (stop.reached()) {
        stopped = Resolved{*doc, nullptr, kDeadline, true, ""};
        break;
      }
      reached = &resolve_once(*doc, str(*ref));
      if (!reached->node) break;
      doc = &reached->doc_url;
      node = reached->node;
    }
    if (!known && !stopped && !reached) continue;  // not a $ref (an occurrence always is)
    std::uint32_t kept = known ? *known : keep(stopped ? *stopped : *reached);
    occurrence_kept[current] = kept;
    for (std::size_t i = 0; i < path.size(); ++i) {
      at.emplace_back(path[i], kept);
      if (i > 0) chained.emplace(path[i], kept);
    }
    const Resolved& result = memo_.value.results[kept];
    if (result.node) continue;
    auto d = result.doc_url.empty() ? docs_.end() : docs_.find(result.doc_url);
    bool document_failed = !result.doc_url.empty() && (d == docs_.end() || !d->second.loaded);
    std::vector<int> failed = d != docs_.end() && !d->second.loaded ? d->second.exchanges : std::vector<int>{};
    out.push_back({"", std::string(occ.ref), result.reason, result.transport_error,
                   result.doc_url.empty() ? *occ.doc_url : result.doc_url, document_failed, std::move(failed)});
    out_of.push_back(&occ);
  }
  if (!out.empty()) {
    // The pointers of the $refs that do not resolve: the walks again, with
    // the pointer kept as they go. Every $ref was found in the walk of the
    // innermost walked subtree holding it, and is found there again.
    std::unordered_map<const Value*, std::string> pointer;
    for (const Occurrence* occ : out_of) pointer.emplace(occ->node, "");
    Roots walked_roots;
    for (const auto& w : walked) walked_roots.insert(w.node);
    for (const auto& w : walked)
      collect<true>(*w.node, w.pointer, walked_roots, [&](const Value& n, std::string_view, const std::string& at) {
        if (auto it = pointer.find(&n); it != pointer.end()) it->second = at;
      });
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i].where = display(*out_of[i]->doc_url, pointer[out_of[i]->node] + "/$ref");
  }
  auto& memo = memo_.value;
  // Each $ref object is followed once; were one followed twice, the first result stays, as in a map.
  std::stable_sort(at.begin(), at.end(), by_address);
  at.erase(std::unique(at.begin(), at.end(), [](const auto& a, const auto& b) { return a.first == b.first; }), at.end());
  at.shrink_to_fit();
  memo.at = std::move(at);
  memo.results.shrink_to_fit();
  return out;
}

}  // namespace adrprobe::oas
