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

// Keys whose object value maps names to OAS objects (a schema property may be
// called "example" or "x-id": under these keys, names are not keywords).
bool is_named_map(const std::string& key) {
  static const std::set<std::string> keys{
      "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "schemas",
      "parameters", "responses", "requestBodies", "headers", "securitySchemes", "links",
      "callbacks", "pathItems", "paths", "webhooks", "content", "encoding", "variables", "examples"};
  return keys.count(key) > 0;
}

// Keywords whose value is data, never a Reference Object.
bool is_data_keyword(const std::string& key) {
  return key == "example" || key == "default" || key == "enum" || key == "const" || key == "value" ||
         key.rfind("x-", 0) == 0;
}

// Collects every $ref below node in document order, walking the OAS structure:
// data (examples, defaults, enums, extensions) is not searched for references.
void collect(const std::string& doc_url, const json& node, const std::string& pointer, std::vector<Occurrence>& out) {
  struct Item {
    const json* node;
    std::string pointer;
    bool names;  // an object whose keys are names, not keywords
  };
  std::vector<Item> stack{{&node, pointer, false}};
  while (!stack.empty()) {
    Item it = std::move(stack.back());
    stack.pop_back();
    const json& n = *it.node;
    std::vector<Item> children;
    if (n.is_object()) {
      if (!it.names)
        if (const std::string* r = ref_of(n)) out.push_back({doc_url, it.pointer, *r});
      for (auto kv = n.begin(); kv != n.end(); ++kv) {
        const std::string& key = kv.key();
        const json& v = kv.value();
        if (!v.is_structured()) continue;
        std::string p = it.pointer + "/" + escape_token(key);
        if (it.names) {
          children.push_back({&v, p, false});
        } else if (is_data_keyword(key) || (key == "examples" && v.is_array())) {
          continue;
        } else {
          children.push_back({&v, p, v.is_object() && is_named_map(key)});
        }
      }
    } else if (n.is_array()) {
      for (std::size_t i = 0; i < n.size(); ++i)
        if (n[i].is_structured()) children.push_back({&n[i], it.pointer + "/" + std::to_string(i), false});
    }
    stack.insert(stack.end(), std::make_move_iterator(children.rbegin()), std::make_move_iterator(children.rend()));
  }
}

}  // namespace

DocumentSet::DocumentSet(std::string root_url, json root, Limits limits)
    : root_url_(std::move(root_url)), limits_(limits) {
  docs_[root_url_] = Entry{true, std::move(root), "", false, {}};
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
        docs_[url] = Entry{false, {}, fmt::format("not fetched: more than {} external documents", limits_.max_external_documents), false, {}};
        continue;
      }
      batch.push_back(url);
    }
    auto fetched = fetch(batch);
    for (const auto& url : batch) {
      auto& f = fetched[url];
      exchanges_.insert(exchanges_.end(), f.exchanges.begin(), f.exchanges.end());
      docs_[url] = f.ok ? Entry{true, std::move(f.value), "", false, f.exchanges}
                        : Entry{false, {}, f.error.empty() ? "could not be fetched" : f.error, f.transport_error,
                                f.exchanges};
    }
    // Every occurrence may now point into a loaded document.
    queue_targets(0);
  }

  std::vector<Unresolved> out;
  for (const auto& occ : occurrences) {
    Resolved r = resolve_ref(occ.doc_url, occ.ref);
    if (r.node) r = deref(r.doc_url, *r.node);
    if (r.node) continue;
    auto d = r.doc_url.empty() ? docs_.end() : docs_.find(r.doc_url);
    bool document_failed = !r.doc_url.empty() && (d == docs_.end() || !d->second.loaded);
    std::vector<int> failed = d != docs_.end() && !d->second.loaded ? d->second.exchanges : std::vector<int>{};
    out.push_back({display(occ.doc_url, occ.pointer + "/$ref"), occ.ref, r.reason, r.transport_error,
                   r.doc_url.empty() ? occ.doc_url : r.doc_url, document_failed, std::move(failed)});
  }
  return out;
}

}  // namespace adrprobe::oas
