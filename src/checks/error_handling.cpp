// /core/error-handling/problem-details and /core/error-handling/invalid-input (2.2.0): EH-1, EI-1 (document), EH-2 (live).
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "checks/registry.hpp"
#include "checks/findings.hpp"
#include "checks/problem.hpp"
#include "oas/parse.hpp"
#include "oas/walk.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::checks {
namespace {

using oas::Node;
using oas::Walker;

using http::media_type;


// One finding of EH-1 or EI-1: its verdict, message and place in the root document.
struct Listed {
  Verdict verdict;
  std::string message;
  std::string pointer;
};

// One message from the findings: the first kShown, worst first, "and N more";
// every finding (worst first) in details.
CheckResult listed(const std::string& id, const std::vector<Listed>& items, const std::string& pass_message) {
  Findings f(id);
  for (const auto& [v, m, at] : items) f.add(v, m, {}, at);
  CheckResult r = f.result(pass_message, kShown, std::numeric_limits<std::size_t>::max());
  and_more(r);
  if (r.verdict != Verdict::pass && items.size() > kShown) {
    std::vector<Listed> sorted = items;
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
      return severity(a.verdict) > severity(b.verdict);
    });
    for (const auto& l : sorted) r.details.push_back(fmt::format("{}: {}", adrprobe::to_string(l.verdict), l.message));
  }
  return r;
}


// ---------------------------------------------------------------------------
// EH-1

// The responses EH-1 judges: 400-599, 4XX/5XX (the X in either case), default.
enum class ErrorKey { none, status, fallback };
ErrorKey error_key(std::string_view key) {
  if (key == "default") return ErrorKey::fallback;
  if (key.size() != 3 || (key[0] != '4' && key[0] != '5')) return ErrorKey::none;
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (digit(key[1]) && digit(key[2])) return ErrorKey::status;
  if ((key[1] == 'X' || key[1] == 'x') && (key[2] == 'X' || key[2] == 'x')) return ErrorKey::status;
  return ErrorKey::none;
}

// OAS 3.1 and later: the siblings of a $ref count beside its target. OAS 3.0
// (also a document without "openapi") and Swagger 2.0 ignore them.
bool ref_siblings_count(const oas::Value& doc) {
  const oas::Value* written = oas::find_string(&doc, "openapi");
  if (!written) return false;
  std::string_view v = oas::str(*written);
  if (v.size() < 3 || v[1] != '.' || v[0] < '3' || v[0] > '9') return false;
  return v[0] > '3' || (v[2] >= '1' && v[2] <= '9');
}

// One way a problem schema can be: the members it declares, and the
// oneOf/anyOf branches taken to get there.
struct Alternative {
  std::set<std::string> members;
  std::vector<std::string> branches;
};
constexpr std::size_t kMaxAlternatives = 64;
constexpr std::size_t kMaxDepth = 64;

std::vector<Alternative> combine(const std::vector<Alternative>& a, const std::vector<Alternative>& b) {
  std::vector<Alternative> out;
  for (const auto& x : a)
    for (const auto& y : b) {
      if (out.size() >= kMaxAlternatives) return out;
      Alternative z = x;
      z.members.insert(y.members.begin(), y.members.end());
      z.branches.insert(z.branches.end(), y.branches.begin(), y.branches.end());
      out.push_back(std::move(z));
    }
  return out;
}

class Members {
 public:
  Members(const Walker& w, bool siblings) : w_(w), siblings_(siblings) {}

  // The members a schema declares: its properties, its $ref target's and its
  // allOf members', recursively; each oneOf/anyOf branch together with the
  // rest. A $ref that does not resolve contributes nothing; a cycle is
  // followed once. Shared subschemas (allOf diamonds) are walked again on
  // each way to them, within a budget of kMaxVisits per schema.
  std::vector<Alternative> operator()(const Node& n) {
    visits_ = 0;
    return of(n);
  }
  // The document's budget is spent (a hostile document): no schema is judged any more.
  bool exhausted() const { return total_ >= kMaxTotalVisits; }

 private:
  static constexpr std::size_t kMaxVisits = 20000;
  static constexpr std::size_t kMaxTotalVisits = 1'000'000;
  std::size_t total_ = 0;
  std::vector<Alternative> of(const Node& n) {
    std::vector<Alternative> alts{Alternative{}};
    if (!n.is_object() || stack_.size() >= kMaxDepth || ++visits_ > kMaxVisits || ++total_ > kMaxTotalVisits) return alts;
    if (std::find(stack_.begin(), stack_.end(), n.at) != stack_.end()) return alts;
    stack_.push_back(n.at);
    bool is_ref = oas::find_string(n.value, "$ref") != nullptr;
    if (is_ref) {
      Node target = w_.deref(n);
      if (target.is_object()) alts = of(target);
    }
    if (!is_ref || siblings_) {
      const oas::Value* props = oas::find(*n.value, "properties");
      if (props && props->IsObject())
        for (auto& a : alts)
          for (const auto& p : props->GetObject()) a.members.emplace(oas::key_of(p));
      Node all = w_.child(n, "allOf");
      if (all.is_array())
        for (std::size_t i = 0; i < all.value->Size(); ++i) alts = combine(alts, of(w_.item(all, i)));
      for (const char* key : {"oneOf", "anyOf"}) {
        Node list = w_.child(n, key);
        if (!list.is_array() || list.value->Empty()) continue;
        std::vector<Alternative> branches;
        for (std::size_t i = 0; i < list.value->Size(); ++i) {
          Node b = w_.item(list, i);
          std::string label = fmt::format("{} branch {}", key, label_of(b));
          for (auto& a : of(b)) {
            a.branches.insert(a.branches.begin(), label);
            if (branches.size() < kMaxAlternatives) branches.push_back(std::move(a));
          }
        }
        alts = combine(alts, branches);
      }
    }
    stack_.pop_back();
    return alts;
  }

  // A branch by the $ref it is ("#/components/schemas/B"), else by its place.
  std::string label_of(const Node& b) const {
    if (const oas::Value* r = oas::find_string(b.value, "$ref")) return std::string(oas::str(*r));
    return w_.show(b.at);
  }
  const Walker& w_;
  bool siblings_;
  std::vector<oas::Place> stack_;
  std::size_t visits_ = 0;
};

// EH-1's findings, one per judged place and reason: a shared component
// response or schema is one finding, with the operations that use it.
class Eh1Findings {
 public:
  struct Use {
    std::string operation, status;
  };
  // pointer: where the finding is in the root document (report location).
  void add(const oas::Place& at, const std::string& key_reason, std::string reason, std::string where, const Use& use,
           Verdict v, std::string pointer) {
    std::string key = std::string(at.doc) + "#" + at.pointer + "\n" + key_reason;
    auto [it, fresh] = index_.try_emplace(key, items_.size());
    if (fresh) items_.push_back({std::move(reason), std::move(where), {}, v, std::move(pointer)});
    Item& item = items_[it->second];
    item.verdict = worst(item.verdict, v);
    bool seen = std::any_of(item.uses.begin(), item.uses.end(), [&](const Use& u) {
      return u.operation == use.operation && u.status == use.status;
    });
    if (!seen) item.uses.push_back(use);
    ++uses_;
  }
  // How often add() was called: a response judged in between had a finding.
  std::size_t uses() const { return uses_; }
  std::vector<Listed> messages() const {
    std::vector<Listed> out;
    for (const auto& i : items_) {
      // "GET /a 404", "GET /a 404, 410", "GET /a 404 and 2 other operations".
      const std::string& first = i.uses.front().operation;
      std::vector<std::string> statuses, others;
      for (const auto& u : i.uses) {
        if (u.operation == first) statuses.push_back(u.status);
        else if (std::find(others.begin(), others.end(), u.operation) == others.end()) others.push_back(u.operation);
      }
      std::string who = first + " " + join(statuses, ", ");
      if (!others.empty())
        who += fmt::format(" and {} other {}", others.size(), others.size() == 1 ? "operation" : "operations");
      out.push_back({i.verdict, fmt::format("{}: {} ({})", who, i.reason, i.where), i.pointer});
    }
    return out;
  }

 private:
  struct Item {
    std::string reason, where;
    std::vector<Use> uses;
    Verdict verdict;
    std::string pointer;
  };
  std::vector<Item> items_;
  std::map<std::string, std::size_t> index_;
  std::size_t uses_ = 0;
};

struct Eh1 {
  Eh1(const Walker& w, bool swagger2, bool siblings) : w(w), swagger2(swagger2), siblings(siblings), members(w, siblings) {}
  const Walker& w;
  bool swagger2, siblings;
  Members members;
  std::map<oas::Place, std::vector<Alternative>> walked;  // by the judged schema's place
  Eh1Findings found;
  std::size_t unjudged = 0;  // schemas left when the document's budget was spent

  // The members of a problem schema (step 4 of probes.md).
  void schema(const Node& raw, const std::string& media, const Eh1Findings::Use& use, Verdict strict) {
    Node target = w.deref(raw);
    if (!target.value) return;  // does not resolve: DO-2's finding
    // The judged schema is the $ref target, unless the $ref's siblings count
    // too and declare members (a description beside it does not).
    bool member_siblings = false;
    if (raw.is_object())
      for (const char* k : {"properties", "allOf", "oneOf", "anyOf"})
        member_siblings = member_siblings || oas::contains(*raw.value, k);
    bool bare_ref = raw.is_object() && oas::contains(*raw.value, "$ref") && (!siblings || !member_siblings);
    const Node& judged = bare_ref ? target : raw;
    std::string where = w.where(judged), at = w.pointer(judged);
    // A shared schema is walked once; a boolean schema (OAS 3.1) declares nothing.
    auto cached = walked.find(judged.at);
    if (cached == walked.end()) {
      if (members.exhausted()) {
        ++unjudged;
        return;
      }
      cached = walked.emplace(judged.at, members(bare_ref ? target : raw)).first;
    }
    const auto& alts = cached->second;
    bool none_declared = std::all_of(alts.begin(), alts.end(), [](const Alternative& a) { return a.members.empty(); });
    if (none_declared) {
      std::string reason = "schema declares no properties: status, title and detail cannot be confirmed";
      found.add(judged.at, reason, media + " " + reason, where, use, Verdict::warn, at);
      return;
    }
    for (const auto& a : alts) {
      std::string in = a.branches.empty() ? "" : " with " + join(a.branches, " and ");
      if (a.members.empty()) {
        std::string reason = "schema declares no properties" + in + ": members cannot be confirmed";
        found.add(judged.at, reason, media + " " + reason, where, use, Verdict::warn, at);
        continue;
      }
      std::vector<std::string> missing;
      for (const char* m : {"status", "title", "detail"})
        if (!a.members.count(m)) missing.push_back(m);
      if (missing.empty()) continue;
      std::string reason = "schema lacks " + join(missing, ", ") + in;
      found.add(judged.at, reason, media + " " + reason, where, use, strict, at);
    }
  }
  // Steps 2 and 3 for a list of media types (content keys, or Swagger 2.0's produces).
  // Returns the problem media types.
  std::vector<std::string> media_types(const std::vector<std::string>& types, const oas::Place& at,
                                       const std::string& where, const std::string& pointer,
                                       const Eh1Findings::Use& use, Verdict strict, const std::string& none) {
    std::vector<std::string> problems, others;
    for (const auto& t : types) (is_problem(t) ? problems : others).push_back(t);
    if (problems.empty()) {
      std::string reason = (types.empty() ? none : join(types, ", ")) + ", no problem media type";
      found.add(at, reason, reason, where, use, strict, pointer);
    } else if (!others.empty()) {
      std::string reason = fmt::format("{} next to {}", join(problems, ", "), join(others, ", "));
      found.add(at, reason, reason, where, use, Verdict::warn, pointer);
    }
    return problems;
  }

  void response(const oas::Operation& op, const Node& r, const Eh1Findings::Use& use, Verdict strict) {
    if (swagger2) {
      Node body = w.child(r, "schema");
      if (!body.value) {
        found.add(r.at, "no error body documented", "no error body documented", w.where(r), use, Verdict::warn,
                  w.pointer(r));
        return;
      }
      Node produces = w.child(op.op, "produces");
      if (!produces.value) produces = w.child(w.root(), "produces");
      std::vector<std::string> types;
      if (produces.is_array())
        for (const auto& t : produces.value->GetArray())
          if (t.IsString()) types.emplace_back(oas::str(t));
      auto problems = media_types(types, r.at, w.where(produces), w.pointer(produces.value ? produces : r), use, strict,
                                  "no produces");
      if (!problems.empty()) schema(body, problems.front(), use, strict);
      return;
    }
    Node content = w.child(r, "content");
    if (!content.is_object() || content.value->ObjectEmpty()) {
      found.add(r.at, "no error body documented", "no error body documented", w.where(r), use, Verdict::warn,
                w.pointer(r));
      return;
    }
    std::vector<std::string> types;
    for (const auto& m : content.value->GetObject()) types.emplace_back(oas::key_of(m));
    for (const auto& t : media_types(types, content.at, w.where(content), w.pointer(content), use, strict, "")) {
      Node media = w.member(content, t);
      if (!media.is_object()) continue;  // an unresolved $ref (OAS 3.2 media type components): DO-2's
      Node s = w.child(media, "schema");
      if (!s.value) {
        std::string reason = t + " without schema";
        found.add(media.at, reason, reason, w.where(media), use, Verdict::warn, w.pointer(media));
        continue;
      }
      schema(s, t, use, strict);
    }
  }
};

CheckResult judge_eh1(const Evidence& ev, const CheckRef& ref) {
  if (auto stop = ev.without_paths(ref.id)) return *stop;
  const oas::Value* doc = ev.doc();
  Walker w(*ev.document.docs);
  Eh1 eh(w, oas::is_swagger2(*doc), ref_siblings_count(*doc));
  std::size_t responses = 0, flagged = 0;  // judged, and with a finding
  std::set<std::string> operations;
  for (const auto& op : oas::all_operations(w.docs())) {
    Node list = w.member(op.op, "responses");
    if (!list.is_object()) continue;
    std::string label = op.upper_method() + " " + std::string(op.path);
    for (const auto& m : list.value->GetObject()) {
      ErrorKey kind = error_key(oas::key_of(m));
      if (kind == ErrorKey::none) continue;
      Node r = w.deref(w.entry(list, m));
      if (!r.is_object()) continue;  // an unresolved $ref: DO-2's finding
      ++responses;
      operations.insert(label);
      std::size_t before = eh.found.uses();
      eh.response(op, r, {label, std::string(oas::key_of(m))},
                  kind == ErrorKey::fallback ? Verdict::warn : Verdict::fail);
      if (eh.found.uses() > before) ++flagged;
    }
  }
  if (responses == 0) return {ref.id, Verdict::pass, "no 4xx, 5xx or default responses documented", {}};
  auto items = eh.found.messages();
  CheckResult r = listed(ref.id, items,
                         fmt::format("{} of {} documented as problem details with status, title and detail",
                                     plural(responses, "error response", "error responses"),
                                     plural(operations.size(), "operation", "operations")));
  // More than one finding: how many, in how many of the responses judged.
  if (items.size() > 1)
    r.message = fmt::format("{} in {} of {}: {}", plural(items.size(), "finding", "findings"), flagged,
                            plural(responses, "error response", "error responses"), r.message);
  if (eh.unjudged)
    r.message += fmt::format("; {} not judged: the document's schemas are too large to follow",
                             plural(eh.unjudged, "problem schema", "problem schemas"));
  return r;
}

// ---------------------------------------------------------------------------
// EH-2

CheckResult judge_eh2(const Evidence& ev, const CheckRef& ref) {
  // Responses with the same text (one URL asked for by two checks) are one entry, with how many.
  struct Entry {
    Verdict verdict;
    std::string text;
    std::vector<int> ids;
  };
  std::vector<Entry> entries;
  auto enter = [&](Verdict v, std::string text, int id) {
    auto same = std::find_if(entries.begin(), entries.end(),
                             [&](const Entry& en) { return en.verdict == v && en.text == text; });
    if (same == entries.end()) entries.push_back({v, std::move(text), {id}});
    else same->ids.push_back(id);
  };
  std::size_t judged = 0, failing = 0, warned = 0;
  std::vector<std::string> apart_texts;
  std::vector<int> apart_ids;
  for (const auto& e : ev.exchanges) {
    if (!e.status || *e.status < 400 || *e.status > 599 || e.method == "HEAD") continue;
    if (!under_base(e.url, ev.settings.base_url)) continue;
    std::string what = fmt::format("{} {} → {}", e.method, url_path(e.url), *e.status);
    if (*e.status == 502 || *e.status == 503 || *e.status == 504) {
      if (std::find(apart_texts.begin(), apart_texts.end(), what) == apart_texts.end()) apart_texts.push_back(what);
      apart_ids.push_back(e.id);
      continue;
    }
    ++judged;
    ProblemJudgement j = judge_problem(e, ev.settings.limits);
    if (!j.fails.empty()) {
      ++failing;
      if (j.truncated) j.fails.push_back("body over 8 KiB, not judged");
      enter(Verdict::fail, what + ", " + join(j.fails, ", "), e.id);
    } else if (j.truncated) {
      ++warned;
      enter(Verdict::warn, what + ", body over 8 KiB, not judged", e.id);
    } else {
      enter(Verdict::pass, what, e.id);
    }
  }
  std::string apart = apart_texts.empty()
                          ? ""
                          : fmt::format("{} counted apart ({})", apart_ids.size(), join(apart_texts, ", ", kShown));
  if (judged == 0) {
    if (apart_ids.empty()) return {ref.id, Verdict::skip, "no 4xx/5xx responses observed", {}};
    return {ref.id, Verdict::skip,
            fmt::format("only 502/503/504 observed, counted apart: {}", join(apart_texts, ", ", kShown)), apart_ids};
  }
  std::vector<std::pair<Verdict, std::string>> items;
  Findings f(ref.id);
  for (const auto& en : entries) {
    std::string text = en.ids.size() > 1 ? fmt::format("{} (×{})", en.text, en.ids.size()) : en.text;
    f.add(en.verdict, text, en.ids);
    if (en.verdict != Verdict::pass) items.push_back({en.verdict, text});
  }
  std::string counts = fmt::format("{} judged, {} failing", plural(judged, "error response", "error responses"), failing);
  if (warned) counts += fmt::format(", {} not judged (body over 8 KiB)", warned);
  if (!apart.empty()) counts += ", " + apart;
  CheckResult r = f.result(counts + ": all problem details", kShown, std::numeric_limits<std::size_t>::max());
  if (r.verdict != Verdict::pass) {
    and_more(r);
    r.message = counts + ": " + r.message;
    if (items.size() > kShown)
      for (const auto& [v, m] : items) r.details.push_back(fmt::format("{}: {}", adrprobe::to_string(v), m));
  }
  r.exchanges.insert(r.exchanges.end(), apart_ids.begin(), apart_ids.end());
  return r;
}

// ---------------------------------------------------------------------------
// EI-1

CheckResult judge_ei1(const Evidence& ev, const CheckRef& ref) {
  if (auto stop = ev.without_paths(ref.id)) return *stop;
  const oas::Value* doc = ev.doc();
  Walker w(*ev.document.docs);
  bool swagger2 = oas::is_swagger2(*doc);
  std::size_t taking = 0;
  std::vector<Listed> items;
  for (const auto& op : oas::all_operations(w.docs())) {
    bool input = oas::contains(*op.op.value, "requestBody");
    for (const auto& p : oas::effective_parameters(w, op))
      input = input || p.in == "query" || p.in == "querystring" || (swagger2 && (p.in == "body" || p.in == "formData"));
    if (!input) continue;
    ++taking;
    Node responses = w.member(op.op, "responses");
    bool documented = false;
    if (responses.is_object())
      for (const auto& m : responses.value->GetObject())
        documented = documented || oas::key_of(m) == "400" || iequals(oas::key_of(m), "4XX");
    if (!documented)
      items.push_back({Verdict::fail,
                       fmt::format("{} {} ({})", op.upper_method(), op.path, w.where(w.child(op.op, "responses"))),
                       w.pointer(responses.value ? w.child(op.op, "responses") : op.op)});
  }
  if (taking == 0) return {ref.id, Verdict::pass, "no operation takes query parameters or a request body", {}};
  CheckResult r = listed(ref.id, items,
                         taking == 1 ? std::string("the 1 operation taking query parameters or a request body documents 400")
                                     : fmt::format("all {} operations taking query parameters or a request body document 400", taking));
  if (items.size() > 1)
    r.message = fmt::format("{} of {} taking input document no 400 or 4XX: {}", items.size(),
                            plural(taking, "operation", "operations"), r.message);
  return r;
}

}  // namespace

extern const Check eh1{
    .id = "EH-1",
    .needs = document,
    .title = "Error responses are documented as problem details",
    .sends = "nothing (static); reads the 4xx, 5xx, 4XX, 5XX and default responses of every operation, after $ref",
    .passes = "content with application/problem+json or +xml whose schema (with $ref, allOf; each oneOf/anyOf branch) "
              "declares status, title and detail: pass; no problem media type or a member missing: fail (warn for "
              "default); no content, a problem type next to others, no schema or no properties: warn; none documented: pass",
    .judge = judge_eh1};
extern const Check eh2{
    .id = "EH-2",
    .needs = requests,
    .title = "Error responses received are problem details",
    .sends = "nothing of its own; reads the 4xx/5xx responses the run received under the base URL (not to HEAD)",
    .passes = "Content-Type application/problem+json (an object with numeric status = HTTP status, string title and "
              "detail, string type/instance when present) or application/problem+xml (root problem in "
              "urn:ietf:rfc:7807 with status, title, detail): pass; else or an empty body: fail; a body over 8 KiB: "
              "warn; 502/503/504 counted apart; none received: skip",
    .judge = judge_eh2,
    .judged_headers = {"content-type"}};
extern const Check ei1{
    .id = "EI-1",
    .needs = document,
    .title = "Operations taking input document 400",
    .sends = "nothing (static); reads the operations with query parameters (path-level ones too) or a request body",
    .passes = "400 or 4XX documented: pass; else (default alone included) fail; no such operation: pass",
    .judge = judge_ei1};

}  // namespace adrprobe::checks
