#include "checks/stack.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>
#include <unordered_set>

#include "oas/pointer.hpp"
#include "util/strings.hpp"

namespace adrprobe::checks {
namespace {

bool stack_header_seen(const engine::Evidence& ev, const std::string& name, const std::string& part) {
  auto same_letter = [](unsigned char a, unsigned char b) { return std::tolower(a) == std::tolower(b); };  // as to_lower
  // Records mostly share their header lines (http::HeaderLines): a block
  // among the last few read without a match is not read again.
  std::array<const void*, 16> judged{};
  std::size_t next = 0;
  for (const auto& e : ev.exchanges) {
    if (!e.to_api) continue;
    if (const void* block = e.response_headers.identity(); block) {
      if (std::find(judged.begin(), judged.end(), block) != judged.end()) continue;
      judged[next++ % judged.size()] = block;
    }
    if (const auto* v = e.header(name);
        v && std::search(v->begin(), v->end(), part.begin(), part.end(), same_letter) != v->end())
      return true;
  }
  return false;
}

// One 4xx/5xx from the API with exactly that body and every one of those header
// parts, in the same case: a response's spelling ("charset=UTF-8") is part of it.
bool stack_response_seen(const engine::Evidence& ev, const catalogue::ResponseSignature& sig) {
  for (const auto& e : ev.exchanges)
    if (e.to_api && e.status && *e.status >= 400 && e.body == sig.body &&
        std::all_of(sig.headers.begin(), sig.headers.end(), [&](const auto& h) {
          const auto* v = e.header(h.first);
          return v && v->find(h.second) != std::string::npos;
        }))
      return true;
  return false;
}

// The API's 4xx/5xx bodies, each once: a run's error responses mostly share
// a few (every 404 of a server alike), and each body part is looked for in
// these rather than in every record.
std::vector<std::string_view> error_bodies(const engine::Evidence& ev) {
  std::vector<std::string_view> out;
  std::unordered_set<std::string_view> seen;
  for (const auto& e : ev.exchanges)
    if (e.to_api && e.status && *e.status >= 400 && seen.insert(e.body).second) out.push_back(e.body);
  return out;
}

bool stack_body_seen(const std::vector<std::string_view>& bodies, const std::string& part) {
  return std::any_of(bodies.begin(), bodies.end(),
                     [&](std::string_view body) { return body.find(part) != std::string_view::npos; });
}

bool stack_document_has(const engine::Evidence& ev, const std::string& pointer) {
  const oas::Value* doc = ev.doc();
  if (!doc) return false;
  auto tokens = oas::pointer_tokens(pointer);
  if (!tokens) return false;  // not a pointer this document can hold (the loader checked its form)
  return oas::lookup(*doc, *tokens) != nullptr;
}

}  // namespace

std::vector<const catalogue::Stack*> detect_stacks(const engine::Evidence& ev, const catalogue::Catalogue& cat) {
  std::vector<const catalogue::Stack*> seen;
  const auto bodies = error_bodies(ev);
  for (const auto& s : cat.stacks()) {
    bool hit = std::any_of(s.headers.begin(), s.headers.end(),
                           [&](const auto& h) { return stack_header_seen(ev, h.first, h.second); }) ||
               std::any_of(s.bodies.begin(), s.bodies.end(), [&](const auto& b) { return stack_body_seen(bodies, b); }) ||
               std::any_of(s.document.begin(), s.document.end(),
                           [&](const auto& p) { return stack_document_has(ev, p); }) ||
               std::any_of(s.responses.begin(), s.responses.end(),
                           [&](const auto& r) { return stack_response_seen(ev, r); });
    if (hit) seen.push_back(&s);
  }
  std::stable_sort(seen.begin(), seen.end(), [](const auto* a, const auto* b) { return a->rank < b->rank; });
  return seen;
}

std::optional<Fix> fix_for(const std::vector<const catalogue::Stack*>& seen, const catalogue::Catalogue& cat,
                           const std::string& check, Verdict verdict) {
  std::string v = to_string(verdict);
  for (const auto* s : seen)
    if (const auto* a = s->fix_for(check); a && a->for_verdict(v)) return Fix{s->id, s->name, a->text, a->source};
  if (const auto* a = cat.generic_fixes().fix_for(check); a && a->for_verdict(v)) return Fix{"", "", a->text, a->source};
  return std::nullopt;
}

engine::Registry::Advice stack_advisor(const engine::Evidence& ev) {
  const auto& cat = catalogue::Catalogue::builtin();
  return [seen = detect_stacks(ev, cat), &cat](const CheckResult& c) { return fix_for(seen, cat, c.id, c.verdict); };
}

}  // namespace adrprobe::checks
