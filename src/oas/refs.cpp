#include "oas/refs.hpp"

#include <fmt/format.h>

#include "oas/pointer.hpp"
#include "util/url.hpp"

namespace adrprobe::oas {
namespace {

const std::string* ref_of(const json& node) {
  if (!node.is_object()) return nullptr;
  auto it = node.find("$ref");
  if (it == node.end() || !it->is_string()) return nullptr;
  return &it->get_ref<const std::string&>();
}

struct Occurrence {
  std::string doc_url;
  std::string pointer;  // of the object holding $ref
  std::string ref;
};

// Collects every $ref below node (iteratively; the depth was bounded at parse time).
void collect(const std::string& doc_url, const json& node, const std::string& pointer, std::vector<Occurrence>& out) {
  std::vector<std::pair<const json*, std::string>> stack{{&node, pointer}};
  while (!stack.empty()) {
    auto [n, p] = stack.back();
    stack.pop_back();
    if (n->is_object()) {
      if (const std::string* r = ref_of(*n)) out.push_back({doc_url, p, *r});
      for (auto it = n->begin(); it != n->end(); ++it) {
        // Example values are data: a "$ref" key in them is not a reference.
        if (it.key() == "example" || it.key() == "examples") continue;
        if (it.value().is_structured()) stack.push_back({&it.value(), p + "/" + escape_token(it.key())});
      }
    } else if (n->is_array()) {
      for (std::size_t i = 0; i < n->size(); ++i)
        if ((*n)[i].is_structured()) stack.push_back({&(*n)[i], p + "/" + std::to_string(i)});
    }
  }
}

}  // namespace

DocumentSet::DocumentSet(std::string root_url, json root, Limits limits)
    : root_url_(std::move(root_url)), limits_(limits) {
  docs_[root_url_] = Entry{true, std::move(root), "", false};
}

DocumentSet::Target DocumentSet::split_ref(const std::string& doc_url, const std::string& ref) const {
  Target t;
  auto hash = ref.find('#');
  std::string location = ref.substr(0, hash);
  t.fragment = hash == std::string::npos ? "" : ref.substr(hash + 1);
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

std::string DocumentSet::display(const std::string& doc_url, const std::string& pointer) const {
  if (doc_url == root_url_) return "#" + pointer;
  return doc_url + "#" + pointer;
}

Resolved DocumentSet::resolve_ref(const std::string& doc_url, const std::string& ref) const {
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
  r.node = lookup(it->second.value, *tokens);
  if (!r.node) r.reason = "no value at '#" + t.fragment + "'";
  return r;
}

Resolved DocumentSet::deref(const std::string& doc_url, const json& node) const {
  Resolved cur{doc_url, &node, "", false};
  std::set<const json*> seen;
  while (const std::string* ref = ref_of(*cur.node)) {
    if (!seen.insert(cur.node).second) return Resolved{cur.doc_url, nullptr, "circular $ref chain", false};
    Resolved next = resolve_ref(cur.doc_url, *ref);
    if (!next.node) return next;
    cur = next;
  }
  return cur;
}

std::vector<Unresolved> DocumentSet::resolve_all(const Fetcher& fetch) {
  std::vector<Occurrence> occurrences;
  std::set<std::string> walked;  // "doc#pointer" subtrees already collected
  std::vector<std::pair<std::string, std::string>> to_walk{{root_url_, ""}};
  std::set<std::string> gave_up;  // documents beyond the limit

  while (true) {
    // Walk new subtrees, then see which documents their refs need.
    std::size_t first_new = occurrences.size();
    for (auto& [doc, pointer] : to_walk) {
      if (!walked.insert(doc + "#" + pointer).second) continue;
      const json* node = lookup(docs_.at(doc).value, *pointer_tokens(pointer));
      if (node) collect(doc, *node, pointer, occurrences);
    }
    to_walk.clear();
    std::set<std::string> needed;
    for (std::size_t i = first_new; i < occurrences.size(); ++i) {
      Target t = split_ref(occurrences[i].doc_url, occurrences[i].ref);
      if (t.ok && !docs_.count(t.doc_url)) needed.insert(t.doc_url);
    }
    // Targets in already loaded external documents are walked too (recursion).
    auto queue_targets = [&](std::size_t from) {
      for (std::size_t i = from; i < occurrences.size(); ++i) {
        Target t = split_ref(occurrences[i].doc_url, occurrences[i].ref);
        if (!t.ok || t.doc_url == root_url_) continue;  // the root is walked whole
        auto it = docs_.find(t.doc_url);
        if (it == docs_.end() || !it->second.loaded) continue;
        auto tokens = fragment_tokens(t.fragment);
        if (!tokens || !lookup(it->second.value, *tokens)) continue;
        std::string pointer = make_pointer(*tokens);
        if (!walked.count(t.doc_url + "#" + pointer)) to_walk.push_back({t.doc_url, pointer});
      }
    };
    if (needed.empty()) {
      queue_targets(first_new);
      if (to_walk.empty()) break;
      continue;
    }
    std::vector<std::string> batch;
    for (const auto& url : needed) {
      if (docs_.size() - 1 + batch.size() >= limits_.max_external_documents) {
        docs_[url] = Entry{false, {}, fmt::format("not fetched: more than {} external documents", limits_.max_external_documents), false};
        continue;
      }
      batch.push_back(url);
    }
    auto fetched = fetch(batch);
    for (const auto& url : batch) {
      auto& f = fetched[url];
      exchanges_.insert(exchanges_.end(), f.exchanges.begin(), f.exchanges.end());
      docs_[url] = f.ok ? Entry{true, std::move(f.value), "", false}
                        : Entry{false, {}, f.error.empty() ? "could not be fetched" : f.error, f.transport_error};
    }
    // Every occurrence may now point into a loaded document.
    queue_targets(0);
  }

  std::vector<Unresolved> out;
  for (const auto& occ : occurrences) {
    Resolved r = resolve_ref(occ.doc_url, occ.ref);
    if (r.node) r = deref(r.doc_url, *r.node);
    if (!r.node) out.push_back({display(occ.doc_url, occ.pointer + "/$ref"), occ.ref, r.reason, r.transport_error});
  }
  return out;
}

}  // namespace adrprobe::oas
