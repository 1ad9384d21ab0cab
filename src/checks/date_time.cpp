// /core/date-time/format and /core/date-time/date-omit-time-portion (2.2.0): DT-1..DT-4 (document), DT-5 (live).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "checks/registry.hpp"
#include "checks/findings.hpp"
#include "checks/problem.hpp"
#include "oas/parse.hpp"
#include "oas/paths.hpp"
#include "oas/pointer.hpp"
#include "oas/value_set.hpp"
#include "oas/walk.hpp"
#include "util/datetime.hpp"
#include "util/release.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::checks {
namespace {

using oas::json;
using oas::Node;
using oas::Place;
using oas::Walker;

using oas::string_member;
bool has_ref(const Node& n) { return oas::find_string(n.value, "$ref") != nullptr; }
bool is_extension(std::string_view key) { return key.starts_with("x-"); }
// A document value that is the string s (nlohmann's v == "s").
bool is_string(const oas::Value& v, std::string_view s) { return v.IsString() && oas::str(v) == s; }

// ---------------------------------------------------------------------------
// Every Schema Object of the document (probes.md, scope of DT-1..DT-4).

// A format that names a date or time (any spelling), judged by DT-1.
bool date_time_format(std::string_view f);
// How strongly a field's name says it holds a date (DT-3, DT-4).
enum class DateName { none, weak, strong };
DateName date_name(std::string_view name);

// A date-named candidate: a property, or an effective query or path parameter.
struct Field {
  std::string name;
  std::string label;  // "birthDate", "query parameter geboortedatum"
  Node at;            // the property's value as written, or the parameter after $ref
  Node schema;        // what describes its value (may be a $ref)
  Node parent;        // the properties object, or the parameter itself
};

// Made once per document set (DocumentSet::derived): DT-1..DT-4 and the
// timezone hints read the same walk.
class Schemas {
 public:
  explicit Schemas(const oas::DocumentSet& docs)
      : w_(docs), swagger2_(oas::is_swagger2(docs.root())), seen_(docs), schema_seen_(docs), param_seen_(docs),
        queued_(docs), schema_queued_(docs) {
    walk();
    // Only uses_ is read after the walk.
    release(queue_);
    for (auto* set : {&queued_, &schema_queued_, &seen_, &schema_seen_, &param_seen_}) set->release();
  }
  Schemas(const Schemas&) = delete;
  Schemas& operator=(const Schemas&) = delete;

  // The walk visits every Schema Object once (a $ref target once, however
  // many $refs lead to it), in walk order: what paths and webhooks reach
  // first, then components. It keeps what the checks judge, in that order:
  // the Schema Objects with a date/time format (date_time_format), and the
  // fields whose name is date-named (date_name).
  std::vector<Node> formatted;
  std::vector<Field> fields;

  // Where a judged value is written, for messages: its pointer (with the
  // first $ref on the way, Walker::where); inside a $ref target that several
  // $refs use, the target's pointer and how many use it.
  std::string place(const Node& n) const {
    auto tokens = oas::pointer_tokens(n.at.pointer);
    if (tokens) {
      std::vector<std::string> prefixes{""};
      for (const auto& t : *tokens) prefixes.push_back(prefixes.back() + "/" + oas::escape_token(t));
      for (std::size_t k = prefixes.size(); k-- > 0;) {
        auto it = uses_.find(Place{n.at.doc, prefixes[k]});
        if (it == uses_.end()) continue;
        if (it->second.size() < 2) break;
        Place target{n.at.doc, prefixes[k]};
        if (target == n.at) return fmt::format("{} ({} $refs use it)", w_.show(n.at), it->second.size());
        return fmt::format("{} ({} $refs use {})", w_.show(n.at), it->second.size(), w_.show_target(target));
      }
    }
    return w_.where(n);
  }
  const Walker& walker() const { return w_; }

 private:
  enum class Kind { schema, path_item, parameter, response, request_body, media_type, callback };
  struct Item {
    Kind kind;
    Node node;
    std::string_view key;  // a path item's key (in the document, which outlives the walk)
  };

  // deref() that counts the $ref as a use of its target.
  Node follow(const Node& n) { return follow(n, has_ref(n)); }
  Node follow(const Node& n, bool is_ref) {
    if (!is_ref) return n;
    Node d = w_.deref(n);
    if (d.value && !(d.at == n.at)) uses_[d.at].insert(n.value);
    return d;
  }
  // Queues n unless its turn would do nothing, its value walked already: a
  // large document's many $refs to one component response or parameter each
  // held a place in the queue (10 MB of it for 10,000 paths). Every kind but
  // a schema starts its turn with follow() and first_time(): the $ref is
  // followed now (its use recorded), and what is queued is where it leads,
  // which its turn's follow() returns as it is.
  //
  // Nor is a value queued again while it waits in the queue: its second turn
  // would find it walked by its first (the same seen-set, whatever the kind).
  // Ten thousand operations whose responses are $refs to a few component
  // responses queued each of those ten thousand times before the first turn
  // (half of the queue's 7.5 MB at 10,000 paths). A value leaves queued_ at
  // its turn, when seen_ (or schema_seen_) takes over.
  void push(Kind k, const Node& n, std::string_view key = {}) {
    if (!n.value) return;
    if (k == Kind::schema) {
      if ((!schema_seen_.contains(n.value) || has_ref(n)) && schema_queued_.insert(n.value))
        queue_.push_back({k, n, key});
      return;
    }
    Node target = follow(n);
    if (target.is_object() && !seen_.contains(target.value) && queued_.insert(target.value))
      queue_.push_back({k, std::move(target), key});
  }
  void push_each(Kind k, const Node& map, bool skip_extensions = false) {
    if (!map.is_object()) return;
    for (const auto& m : map.value->GetObject())
      if (!skip_extensions || !is_extension(oas::key_of(m))) push(k, w_.entry(map, m), oas::key_of(m));
  }
  void push_items(Kind k, const Node& list) {
    if (!list.is_array()) return;
    for (std::size_t i = 0; i < list.value->Size(); ++i) push(k, w_.item(list, i));
  }
  // A value stands at one place: its address identifies the place.
  bool first_time(const Node& n) { return n.is_object() && seen_.insert(n.value); }
  // w_.child(), or no node for a member n lacks, without making a place for
  // it: most keywords asked of a schema or path item are absent, and each
  // place is a string or two (a third of the walk of a large document). One
  // lookup: the member found is the one entry() makes the node of.
  Node present(const Node& n, std::string_view key) const {
    if (!n.is_object()) return {};
    auto m = oas::find_member(*n.value, key);
    return m == n.value->MemberEnd() ? Node{} : w_.entry(n, *m);
  }

  void walk() {
    Node root = w_.root();
    push_each(Kind::path_item, w_.member(root, "paths"), true);
    push_each(Kind::path_item, w_.member(root, "webhooks"), true);
    drain();
    if (swagger2_) {
      push_each(Kind::schema, w_.member(root, "definitions"));
      push_each(Kind::parameter, w_.member(root, "parameters"));
      push_each(Kind::response, w_.member(root, "responses"));
    } else {
      Node c = w_.member(root, "components");
      push_each(Kind::schema, w_.member(c, "schemas"));
      push_each(Kind::parameter, w_.member(c, "parameters"));
      push_each(Kind::response, w_.member(c, "responses"));
      push_each(Kind::request_body, w_.member(c, "requestBodies"));
      push_each(Kind::media_type, w_.member(c, "mediaTypes"));
      push_each(Kind::callback, w_.member(c, "callbacks"));
      push_each(Kind::path_item, w_.member(c, "pathItems"));
    }
    drain();
  }

  void drain() {
    while (!queue_.empty()) {
      Item it = std::move(queue_.front());
      queue_.pop_front();
      (it.kind == Kind::schema ? schema_queued_ : queued_).erase(it.node.value);
      switch (it.kind) {
        case Kind::schema: schema(it.node); break;
        case Kind::path_item: path_item(it.node, it.key); break;
        case Kind::parameter: parameter(it.node); break;
        case Kind::response: response(it.node); break;
        case Kind::request_body: {
          Node body = follow(it.node);
          if (first_time(body)) push_each(Kind::media_type, w_.member(body, "content"));
          break;
        }
        case Kind::media_type: media_type(it.node); break;
        case Kind::callback: {
          Node cb = follow(it.node);
          if (first_time(cb)) push_each(Kind::path_item, cb, true);
          break;
        }
      }
    }
  }

  // The keywords schema() reads, found in one pass over a schema's members:
  // a lookup for each was a dozen passes over every schema of the document
  // (the parsers keep one member per key, so the first found is the one).
  struct Keywords {
    const oas::Member *ref = nullptr, *format = nullptr, *properties = nullptr, *pattern_properties = nullptr,
                      *defs = nullptr, *items = nullptr, *prefix_items = nullptr, *additional = nullptr,
                      *all_of = nullptr, *one_of = nullptr, *any_of = nullptr, *negated = nullptr;
  };
  static Keywords keywords(const oas::Value& object) {
    Keywords k;
    for (const auto& m : object.GetObject()) {
      std::string_view key = oas::key_of(m);
      const oas::Member** slot = nullptr;
      if (key == "$ref") slot = &k.ref;
      else if (key == "format") slot = &k.format;
      else if (key == "properties") slot = &k.properties;
      else if (key == "patternProperties") slot = &k.pattern_properties;
      else if (key == "$defs") slot = &k.defs;
      else if (key == "items") slot = &k.items;
      else if (key == "prefixItems") slot = &k.prefix_items;
      else if (key == "additionalProperties") slot = &k.additional;
      else if (key == "allOf") slot = &k.all_of;
      else if (key == "oneOf") slot = &k.one_of;
      else if (key == "anyOf") slot = &k.any_of;
      else if (key == "not") slot = &k.negated;
      if (slot && !*slot) *slot = &m;
    }
    return k;
  }

  void schema(const Node& n) {
    if (!n.is_object()) return;
    Keywords k = keywords(*n.value);
    if (k.ref && k.ref->value.IsString()) {
      push(Kind::schema, follow(n, true));
      // OAS 3.1: keywords beside a $ref count too.
      if (n.value->MemberCount() == 1) return;
    }
    if (!schema_seen_.insert(n.value)) return;
    if (k.format && k.format->value.IsString() && date_time_format(oas::str(k.format->value))) formatted.push_back(n);
    auto entry = [&](const oas::Member* m) { return m ? w_.entry(n, *m) : Node{}; };
    Node props = entry(k.properties);
    if (props.is_object())
      for (const auto& m : props.value->GetObject()) {
        Node p = w_.entry(props, m);
        std::string_view key = oas::key_of(m);
        if (date_name(key) != DateName::none) fields.push_back({std::string(key), truncate_utf8(key, 60), p, p, props});
        push(Kind::schema, p);
      }
    push_each(Kind::schema, entry(k.pattern_properties));
    push_each(Kind::schema, entry(k.defs));
    Node items = entry(k.items);
    if (items.is_object()) push(Kind::schema, items);
    else push_items(Kind::schema, items);
    push_items(Kind::schema, entry(k.prefix_items));
    Node additional = entry(k.additional);
    if (additional.is_object()) push(Kind::schema, additional);
    for (const oas::Member* m : {k.all_of, k.one_of, k.any_of}) push_items(Kind::schema, entry(m));
    Node negated = entry(k.negated);
    if (negated.is_object()) push(Kind::schema, negated);
  }

  void path_item(const Node& n, std::string_view key) {
    Node item = follow(n);
    if (!first_time(item)) return;
    push_items(Kind::parameter, present(item, "parameters"));
    auto operation = [&](std::string_view method, const Node& as_written) {
      Node op = follow(as_written);
      if (!first_time(op)) return;
      oas::Operation o{key, method, item, op};
      if (oas::may_have_parameter(w_.docs(), o, [](std::string_view name, std::string_view) {
            return date_name(name) != DateName::none;
          }))
        for (const auto& p : oas::effective_parameters(w_, o)) param_field(p);
      push_items(Kind::parameter, present(op, "parameters"));
      push(Kind::request_body, present(op, "requestBody"));
      push_each(Kind::response, w_.member(op, "responses"), true);
      push_each(Kind::callback, w_.member(op, "callbacks"), true);
    };
    for (const auto& m : oas::operation_keys()) {
      Node op = present(item, m);
      if (op.is_object()) operation(m, op);
    }
    Node extra = w_.member(item, "additionalOperations");
    if (extra.is_object())
      for (const auto& m : extra.value->GetObject()) operation(oas::key_of(m), w_.entry(extra, m));
  }

  // HTTP defines the values of headers and cookies: those schemas are left out.
  static bool http_defined(std::string_view in) { return in == "header" || in == "cookie"; }

  void parameter(const Node& n) {
    Node p = follow(n);
    if (!first_time(p)) return;
    auto in = string_member(p.value, "in");
    if (in && http_defined(*in)) return;
    if (swagger2_ && !(in && *in == "body")) {
      push(Kind::schema, p);  // a non-body Swagger 2.0 parameter carries type and format itself
      return;
    }
    push(Kind::schema, w_.child(p, "schema"));
    push_each(Kind::media_type, w_.member(p, "content"));
  }

  void param_field(const oas::Parameter& p) {
    bool judged = p.in == "query" || p.in == "path" || (swagger2_ && p.in == "formData");
    if (!judged || date_name(p.name) == DateName::none || !p.node.is_object() || !param_seen_.insert(p.node.value)) return;
    Node schema = swagger2_ ? p.node : w_.child(p.node, "schema");
    if (!schema.value) {
      Node content = w_.member(p.node, "content");
      if (content.is_object() && !content.value->ObjectEmpty())
        schema = w_.child(follow(w_.entry(content, *content.value->MemberBegin())), "schema");
    }
    fields.push_back({p.name, p.in + " parameter " + truncate_utf8(p.name, 60), p.node, schema, p.node});
  }

  void response(const Node& n) {
    Node r = follow(n);
    if (!first_time(r)) return;
    if (swagger2_) push(Kind::schema, w_.child(r, "schema"));
    else push_each(Kind::media_type, w_.member(r, "content"));
  }
  void media_type(const Node& n) {
    Node m = follow(n);
    if (!first_time(m)) return;
    push(Kind::schema, w_.child(m, "schema"));
    push(Kind::schema, w_.child(m, "itemSchema"));  // OAS 3.2
  }

  Walker w_;
  bool swagger2_;
  std::deque<Item> queue_;
  oas::ValueSet seen_, schema_seen_, param_seen_;
  oas::ValueSet queued_, schema_queued_;  // in the queue now (push)
  std::map<Place, std::unordered_set<const oas::Value*>> uses_;  // $ref target -> the $ref objects that lead to it
};

// The walk of the evidence's document, made on first use; nullptr without a document.
const Schemas* schemas_of(const Evidence& ev) {
  return ev.document.docs ? &ev.document.docs->derived<Schemas>() : nullptr;
}

// ---------------------------------------------------------------------------
// DT-1 and DT-2: the formats.

bool allowed_format(std::string_view f) { return f == "date" || f == "date-time" || f == "time-local"; }

bool date_time_format(std::string_view f) {
  static const std::set<std::string> names{
      "date", "date-time", "time-local", "date-time-local", "time", "http-date", "unixtime", "unix-time",
      "timestamp", "datetime", "date_time", "full-date", "full-time", "partial-time", "local-date", "local-time",
      "local-date-time", "iso8601", "iso-8601"};
  return names.count(to_lower(f)) > 0;
}

struct FormatUse {
  std::string_view format;  // in the document
  Node at;  // the format member
};
std::vector<FormatUse> date_time_formats(const Schemas& s) {
  std::vector<FormatUse> out;
  for (const auto& n : s.formatted)
    if (auto f = string_member(n.value, "format"); f && date_time_format(*f))
      out.push_back({*f, s.walker().child(n, "format")});
  return out;
}

CheckResult judge_dt1(const Evidence& ev, const CheckRef& ref) {
  const Schemas* s = schemas_of(ev);
  if (!s) return ev.prerequisite(ref.id);
  auto uses = date_time_formats(*s);
  if (uses.empty()) return {ref.id, Verdict::pass, "no date or time formats in the schemas", {}};
  Findings f(ref.id);
  std::vector<std::string> details;
  for (const auto& u : uses) {
    if (allowed_format(u.format)) continue;
    std::string lower = to_lower(u.format);
    std::string why = lower == "date-time-local" ? " (no offset)"
                      : lower == "time"          ? " (with offset; the table has time-local)"
                      : allowed_format(lower)    ? fmt::format(" (the table writes {})", lower)
                                                 : "";
    std::string line = fmt::format("'{}'{} at {}", truncate_utf8(u.format, 40), why, s->place(u.at));
    f.add_at_places(Verdict::fail, line, {place_of(s->walker(), u.at)});
    details.push_back(line);
  }
  CheckResult out = f.result(
      fmt::format("{}, all date, date-time or time-local", plural(uses.size(), "date/time format", "date/time formats")), kShown);
  if (out.verdict != Verdict::pass) out.details = std::move(details);
  and_more(out);
  return out;
}

CheckResult judge_dt2(const Evidence& ev, const CheckRef& ref) {
  const Schemas* s = schemas_of(ev);
  if (!s) return ev.prerequisite(ref.id);
  Findings f(ref.id);
  std::vector<std::string> details;
  std::size_t judged = 0;
  for (const auto& n : s->formatted) {
    auto format = string_member(n.value, "format");
    if (!format || !allowed_format(*format)) continue;
    ++judged;
    const oas::Value* type = oas::find(*n.value, "type");
    std::string line;
    Verdict v = Verdict::fail;
    std::string at = s->walker().pointer(n);
    if (!type) {
      v = Verdict::warn;
      line = fmt::format("{} without a type at {}", *format, s->place(n));
    } else {
      bool ok = is_string(*type, "string");
      if (type->IsArray()) {
        bool string = false, other = false;
        for (const auto& t : type->GetArray()) {
          string = string || is_string(t, "string");
          other = other || !(is_string(t, "string") || is_string(t, "null"));
        }
        ok = string && !other;
      }
      if (ok) continue;
      line = fmt::format("{} on type {} at {}", *format, truncate_utf8(oas::dump(*type), 60), s->place(s->walker().child(n, "type")));
      at = s->walker().pointer(s->walker().child(n, "type"));
    }
    f.add(v, line, {}, at);
    details.push_back(fmt::format("{}: {}", adrprobe::to_string(v), line));
  }
  if (judged == 0) return {ref.id, Verdict::pass, "no date, date-time or time-local formats in the schemas", {}};
  CheckResult out = f.result(
      fmt::format("{} with type string", plural(judged, "date, date-time or time-local format", "date, date-time and time-local formats")),
      kShown);
  if (out.verdict != Verdict::pass) out.details = std::move(details);
  and_more(out);
  return out;
}

// ---------------------------------------------------------------------------
// DT-3 and DT-4: date-named fields.

// The words of a name: split at '_', '-' and '.', between a lowercase letter or
// digit and an uppercase letter, and before the last capital of a run of
// capitals followed by a lowercase letter ("ISODate" → "ISO", "Date").
std::vector<std::string> words(std::string_view name) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty()) out.push_back(std::move(cur));
    cur.clear();
  };
  auto upper = [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; };
  auto lower = [](char c) { return std::islower(static_cast<unsigned char>(c)) != 0; };
  auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '_' || c == '-' || c == '.') {
      flush();
      continue;
    }
    if (upper(c) && !cur.empty()) {
      char prev = name[i - 1];
      bool next_lower = i + 1 < name.size() && lower(name[i + 1]);
      if (lower(prev) || digit(prev) || (upper(prev) && next_lower)) flush();
    }
    cur += c;
  }
  flush();
  return out;
}

DateName date_name(std::string_view name) {
  auto ws = words(name);
  for (auto& w : ws) {
    w = to_lower(w);
    if (w == "time" || w == "tijd" || w == "tijdstip" || w == "timestamp") return DateName::none;
  }
  std::string lname = to_lower(name);
  if (lname == "date" || lname == "datum") return DateName::strong;
  if (!ws.empty() && (ws.back() == "date" || ws.back() == "datum")) return DateName::strong;
  for (const auto& w : ws)
    if (w == "date" || w == "datum") return DateName::weak;
  if (lname.ends_with("datum")) return DateName::weak;
  return DateName::none;
}

constexpr std::size_t kMaxClosure = 1000;  // schema objects looked at per field
// ... and for all fields of a document together (real documents need a few
// thousand): a hostile document (100,000 date-named fields over one long allOf
// chain) stays bounded; the fields left after it is spent are not judged.
constexpr std::size_t kMaxClosures = 500'000;

// What a schema says after $ref (with its siblings) and allOf.
struct Shape {
  bool unresolved = false;  // a $ref on the way does not resolve (DO-2 reports it)
  bool capped = false;      // kMaxClosure schema objects were looked at and more were left
  std::set<std::string> types;
  bool properties = false;
  bool items_other = false;  // items that is not a schema object (a tuple)
  std::vector<Node> items;
};
Shape shape(const Walker& w, const Node& start, std::size_t& budget) {
  Shape out;
  std::vector<Node> stack{start};
  std::set<Place> seen;
  while (!stack.empty() && seen.size() < kMaxClosure && budget > 0) {
    Node n = stack.back();
    stack.pop_back();
    if (!n.is_object() || !seen.insert(n.at).second) continue;
    --budget;
    if (has_ref(n)) {
      Node t = w.deref(n);
      if (t.value) stack.push_back(t);
      else out.unresolved = true;
    }
    const oas::Value& s = *n.value;
    if (const oas::Value* t = oas::find(s, "type")) {
      if (t->IsString()) out.types.emplace(oas::str(*t));
      else if (t->IsArray())
        for (const auto& e : t->GetArray())
          if (e.IsString()) out.types.emplace(oas::str(e));
    }
    if (const oas::Value* p = oas::find(s, "properties"); p && p->IsObject() && !p->ObjectEmpty()) out.properties = true;
    if (const oas::Value* i = oas::find(s, "items")) {
      if (i->IsObject()) out.items.push_back(w.child(n, "items"));
      else out.items_other = true;
    }
    Node all = w.child(n, "allOf");
    if (all.is_array())
      for (std::size_t k = all.value->Size(); k-- > 0;) stack.push_back(w.item(all, k));
  }
  out.capped = !stack.empty();
  return out;
}

// The schema a date-named field is judged by: its own, or for an array its
// items (arrays of arrays too); nullopt when it is not string-like, or when an
// unresolvable $ref leaves its type unknown.
std::optional<Node> string_like(const Walker& w, Node schema, std::size_t& budget, bool& capped) {
  for (int depth = 0; depth < 8; ++depth) {
    if (!schema.is_object()) return std::nullopt;
    Shape s = shape(w, schema, budget);
    s.types.erase("null");
    capped = capped || s.capped;
    if (s.properties || s.unresolved || s.capped) return std::nullopt;
    bool array = s.types == std::set<std::string>{"array"} || (s.types.empty() && (!s.items.empty() || s.items_other));
    if (array) {
      if (s.items.empty() || s.items_other) return std::nullopt;
      schema = s.items.front();
      continue;
    }
    if (!(s.types.empty() || s.types == std::set<std::string>{"string"}) || !s.items.empty() || s.items_other)
      return std::nullopt;
    return schema;
  }
  return std::nullopt;
}

// The effective formats of a schema: its own and those of the members of its
// $ref, allOf, oneOf and anyOf, recursively; each with the $ref target it
// came through (doc empty: written in the field's own schema).
struct Formats {
  std::vector<std::pair<std::string_view, Place>> found;  // the format as written (in the document)
  bool unresolved = false;  // a $ref on the way does not resolve (DO-2 reports it)
  bool capped = false;      // kMaxClosure schema objects were looked at and more were left
};
Formats effective_formats(const Walker& w, const Node& start, std::size_t& budget) {
  Formats out;
  std::vector<std::pair<Node, Place>> stack{{start, Place{}}};
  std::set<Place> seen;
  while (!stack.empty() && seen.size() < kMaxClosure && budget > 0) {
    auto [n, via] = stack.back();
    stack.pop_back();
    if (!n.is_object() || !seen.insert(n.at).second) continue;
    --budget;
    if (has_ref(n)) {
      Node t = w.deref(n);
      if (t.value) stack.push_back({t, t.at});
      else out.unresolved = true;
    }
    if (auto f = string_member(n.value, "format")) out.found.push_back({*f, via});
    for (const char* k : {"anyOf", "oneOf", "allOf"}) {
      Node list = w.child(n, k);
      if (list.is_array())
        for (std::size_t i = list.value->Size(); i-- > 0;) stack.push_back({w.item(list, i), via});
    }
  }
  out.capped = !stack.empty();
  return out;
}

struct DateField {
  const Field* field;
  DateName strength;
  Formats formats;
};

struct DateFields {
  std::vector<DateField> list;
  std::size_t unjudged = 0;  // date-named fields left when kMaxClosures was spent
};
DateFields date_fields(const Schemas& s) {
  DateFields out;
  std::size_t budget = kMaxClosures;
  for (const auto& f : s.fields) {
    DateName strength = date_name(f.name);
    if (strength == DateName::none) continue;
    if (budget == 0) {
      ++out.unjudged;
      continue;
    }
    bool capped = false;
    auto judged = string_like(s.walker(), f.schema, budget, capped);
    if (!judged) {
      out.unjudged += budget == 0 || capped ? 1 : 0;
      continue;
    }
    Formats formats = effective_formats(s.walker(), *judged, budget);
    if (budget == 0 || formats.capped) ++out.unjudged;
    else if (!formats.unresolved || !formats.found.empty()) out.list.push_back({&f, strength, std::move(formats)});
  }
  return out;
}

// DT-3 and DT-4 judge the same fields: found once per document set.
struct DateFieldsOfDocument {
  DateFields fields;
  explicit DateFieldsOfDocument(const oas::DocumentSet& docs) : fields(date_fields(docs.derived<Schemas>())) {}
};
const DateFields& date_fields_of(const Evidence& ev) { return ev.document.docs->derived<DateFieldsOfDocument>().fields; }

// Says so when some date-named fields could not be judged.
CheckResult with_unjudged(CheckResult r, const DateFields& fields) {
  if (fields.unjudged)
    r.message += fmt::format("; {} not judged: the schemas behind them are too large to follow",
                             plural(fields.unjudged, "date-named field", "date-named fields"));
  return r;
}

// Findings of DT-3 and DT-4 are grouped: the fields of one properties object
// (with its pointer), or for DT-4 the fields whose format comes through one
// $ref target (with that target), are one entry of the message; every field,
// with its pointer, is one line of details.
struct Group {
  Verdict verdict;
  std::string target;  // "#/components/schemas/LocalDateTime", or ""
  std::string what;    // "date-time", "no format"
  std::string parent;  // where the fields are written, when target is ""
  std::vector<std::string> labels;
  std::vector<Location> places;  // every field's, in the root document (report locations)
};
void add_to(std::vector<Group>& groups, Verdict v, const std::string& target, std::string_view what,
            const std::string& label, const std::string& parent, Location place) {
  std::string where = target.empty() ? parent : "";
  auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
    return g.verdict == v && g.what == what && g.target == target && g.parent == where;
  });
  if (g == groups.end()) {
    groups.push_back({v, target, std::string(what), where, {label}, {std::move(place)}});
  } else {
    g->labels.push_back(label);
    g->places.push_back(std::move(place));
  }
}
CheckResult grouped_result(const std::string& id, const std::vector<Group>& groups, std::vector<std::string> details,
                           const std::string& pass_message) {
  Findings f(id);
  for (const auto& g : groups)
    f.add_at_places(g.verdict, g.target.empty()
                         ? fmt::format("{}: {} ({})", join(g.labels, ", ", kShown), g.what, g.parent)
                         : fmt::format("{} → {}: {}", join(g.labels, ", ", kShown), g.target, g.what),
          g.places);
  CheckResult out = f.result(pass_message, kShown);
  if (out.verdict != Verdict::pass) out.details = std::move(details);
  and_more(out);
  return out;
}

Verdict verdict_of(DateName strength) { return strength == DateName::strong ? Verdict::fail : Verdict::warn; }

CheckResult judge_dt3(const Evidence& ev, const CheckRef& ref) {
  const Schemas* s = schemas_of(ev);
  if (!s) return ev.prerequisite(ref.id);
  const DateFields& fields = date_fields_of(ev);
  if (fields.list.empty()) return with_unjudged({ref.id, Verdict::pass, "no date-named string fields", {}}, fields);
  std::vector<Group> groups;
  std::vector<std::string> details;
  for (const auto& d : fields.list) {
    if (!d.formats.found.empty()) continue;
    Verdict v = verdict_of(d.strength);
    add_to(groups, v, "", "no format", d.field->label, s->place(d.field->parent), place_of(s->walker(), d.field->at));
    details.push_back(fmt::format("{}: {} has no format", adrprobe::to_string(v), s->place(d.field->at)));
  }
  return with_unjudged(grouped_result(ref.id, groups, std::move(details),
                                      fields.list.size() == 1
                                          ? std::string("1 date-named field, with a format")
                                          : fmt::format("{} date-named fields, each with a format", fields.list.size())),
                       fields);
}

CheckResult judge_dt4(const Evidence& ev, const CheckRef& ref) {
  const Schemas* s = schemas_of(ev);
  if (!s) return ev.prerequisite(ref.id);
  const DateFields& fields = date_fields_of(ev);
  if (fields.list.empty()) return with_unjudged({ref.id, Verdict::pass, "no date-named string fields", {}}, fields);
  std::vector<Group> groups;
  std::vector<std::string> details;
  for (const auto& d : fields.list) {
    const std::pair<std::string_view, Place>* hit = nullptr;
    for (const auto& f : d.formats.found)
      if ((f.first == "date-time" || f.first == "date-time-local") && (!hit || (!hit->second.doc.empty() && f.second.doc.empty())))
        hit = &f;  // a format in the field's own schema first
    if (!hit) continue;
    Verdict v = verdict_of(d.strength);
    std::string target = hit->second.doc.empty() ? "" : s->walker().show_target(hit->second);
    add_to(groups, v, target, hit->first, d.field->label, s->place(d.field->parent), place_of(s->walker(), d.field->at));
    details.push_back(fmt::format("{}: {}: {}{}", adrprobe::to_string(v), s->place(d.field->at), hit->first,
                                  target.empty() ? "" : " → " + target));
  }
  return with_unjudged(grouped_result(ref.id, groups, std::move(details),
                                      fields.list.size() == 1
                                          ? std::string("1 date-named field, not date-time or date-time-local")
                                          : fmt::format("{} date-named fields, none date-time or date-time-local",
                                                        fields.list.size())),
                       fields);
}

// ---------------------------------------------------------------------------
// DT-5: the values in responses, judged by the grammars of util/datetime.
using datetime::Judged;
using datetime::judge_date;
using datetime::judge_date_time;
using datetime::judge_time_local;

// The first 40 characters of a value, quoted as JSON.
std::string quoted(const std::string& v) {
  std::size_t chars = 0, end = 0;
  while (end < v.size() && chars < 40) {
    ++chars;
    ++end;
    while (end < v.size() && (static_cast<unsigned char>(v[end]) & 0xC0) == 0x80) ++end;
  }
  std::string out = json(v.substr(0, end)).dump(-1, ' ', false, json::error_handler_t::replace);
  return end < v.size() ? out + "…" : out;
}

std::string media_type_of(std::string_view content_type) { return to_lower(http::media_type(content_type)); }

// The documented schema of the response to GET template_path with this status and media type.
Node response_schema(const Walker& w, bool swagger2, const std::string& template_path, int status, const std::string& mt) {
  if (const oas::Operation* op = oas::find_operation(w.docs(), template_path, "get")) {
    Node responses = w.member(op->op, "responses");
    if (!responses.is_object()) return {};
    Node r = w.member(responses, std::to_string(status));
    if (!r.is_object()) {
      std::string range = fmt::format("{}XX", status / 100);
      for (const auto& m : responses.value->GetObject())
        if (iequals(oas::key_of(m), range)) r = w.deref(w.entry(responses, m));
    }
    if (!r.is_object()) r = w.member(responses, "default");
    if (!r.is_object()) return {};
    if (swagger2) return w.child(r, "schema");
    Node content = w.member(r, "content");
    if (!content.is_object()) return {};
    for (const std::string& want : {mt, std::string("application/json")})
      for (const auto& m : content.value->GetObject())
        if (media_type_of(oas::key_of(m)) == want) return w.child(w.deref(w.entry(content, m)), "schema");
    return {};
  }
  return {};
}

struct Dt5 {
  struct Finding {
    Verdict verdict;
    std::string message;
    int exchange;
  };
  struct Offset {
    int exchange;
    std::string request, pointer, value, offset;
  };
  std::vector<Finding> findings;
  std::vector<Offset> offsets;
  std::vector<int> judged_exchanges;
  std::size_t values = 0, gets = 0, success = 0, not_json = 0, truncated = 0, unparsable = 0, undocumented = 0;
};

Dt5 dt5_outcomes(const Evidence& ev) {
  Dt5 out;
  if (!ev.document.docs) return out;
  Walker w(*ev.document.docs);
  bool swagger2 = oas::is_swagger2(ev.document.docs->root());
  // A property of a schema by name, or nullptr; a large properties object
  // gets an index (an object's keys are searched one by one).
  std::map<const oas::Value*, std::unordered_map<std::string_view, const oas::Member*>> indexes;
  auto property = [&](const oas::Value& props, std::string_view key) -> const oas::Member* {
    if (props.MemberCount() <= 32) {
      auto m = oas::find_member(props, key);
      return m == props.MemberEnd() ? nullptr : &*m;
    }
    auto [index, fresh] = indexes.try_emplace(&props);
    if (fresh)
      for (const auto& m : props.GetObject()) index->second.emplace(oas::key_of(m), &m);
    auto hit = index->second.find(key);
    return hit == index->second.end() ? nullptr : hit->second;
  };
  std::set<int> done;
  for (const auto& t : ev.targets) {
    if (t.is_base || !t.has_get()) continue;
    const http::Result* r = ev.result(engine::probe_request("GET", t.url));
    if (!r || r->chain.empty()) continue;
    const http::Exchange& e = ev.ex(r->last());
    if (!done.insert(e.id).second) continue;
    ++out.gets;
    if (e.error || !e.is_success()) continue;
    ++out.success;
    const std::string* ct = e.header("content-type");
    std::string mt = ct ? media_type_of(*ct) : "";
    if (!http::is_json_media_type(mt)) {
      ++out.not_json;
      continue;
    }
    if (e.body_truncated) {
      ++out.truncated;
      continue;
    }
    auto parsed = oas::parse_json(e.judged_body(), ev.settings.limits);
    if (!parsed.ok) {
      ++out.unparsable;
      continue;
    }
    Node schema = response_schema(w, swagger2, t.path.template_path, *e.status, mt);
    if (!schema.is_object()) {
      ++out.undocumented;
      continue;
    }
    std::string request = fmt::format("{} {} {}", e.method, url_path(e.url), *e.status);
    // Walk the body along properties, items, allOf and $ref.
    struct Work {
      const json* value;
      Node schema;
      std::string pointer;
    };
    std::vector<Work> stack{{&parsed.value, schema, ""}};
    std::set<std::pair<const json*, Place>> seen;
    std::set<std::pair<std::string, std::string_view>> judged;  // pointer, format (in the document)
    std::size_t before = out.values;
    while (!stack.empty() && seen.size() < 200000) {
      Work work = std::move(stack.back());
      stack.pop_back();
      if (!work.schema.is_object() || !seen.insert({work.value, work.schema.at}).second) continue;
      std::vector<Work> next;
      if (has_ref(work.schema)) next.push_back({work.value, w.deref(work.schema), work.pointer});
      auto format = string_member(work.schema.value, "format");
      if (format && allowed_format(*format) && work.value->is_string() && judged.insert({work.pointer, *format}).second) {
        ++out.values;
        const std::string& v = work.value->get_ref<const std::string&>();
        Judged j = *format == "date" ? judge_date(v) : *format == "date-time" ? judge_date_time(v) : judge_time_local(v);
        std::string where = work.pointer.empty() ? "(the body)" : work.pointer;
        if (!j.problems.empty()) {
          if (!j.suffix.empty()) j.problems.push_back("an RFC 9557 suffix");
          out.findings.push_back({Verdict::fail, fmt::format("{}: {} = {} ({})", request, where, quoted(v), join(j.problems, ", ")), e.id});
        } else if (!j.suffix.empty()) {
          out.findings.push_back({Verdict::warn,
                                  fmt::format("{}: {} = {} (RFC 9557 suffix {}: ISO 8601-1 has none)", request, where,
                                              quoted(v), truncate_utf8(j.suffix, 40)),
                                  e.id});
        }
        if (!j.offset.empty()) out.offsets.push_back({e.id, request, where, quoted(v), j.offset});
      }
      Node all = w.child(work.schema, "allOf");
      if (all.is_array())
        for (std::size_t i = 0; i < all.value->Size(); ++i) next.push_back({work.value, w.item(all, i), work.pointer});
      if (work.value->is_object()) {
        Node props = w.child(work.schema, "properties");
        if (props.is_object())
          for (auto it = work.value->begin(); it != work.value->end(); ++it)
            if (const oas::Member* p = property(*props.value, it.key()))
              next.push_back({&it.value(), w.entry(props, *p), work.pointer + "/" + oas::escape_token(it.key())});
      } else if (work.value->is_array()) {
        Node items = w.child(work.schema, "items");
        if (items.is_object())
          for (std::size_t i = 0; i < work.value->size(); ++i)
            next.push_back({&(*work.value)[i], items, work.pointer + "/" + std::to_string(i)});
      }
      // In document order: the stack takes the last first.
      for (auto it = next.rbegin(); it != next.rend(); ++it) stack.push_back(std::move(*it));
    }
    if (out.values > before) out.judged_exchanges.push_back(e.id);
  }
  return out;
}

CheckResult judge_dt5(const Evidence& ev, const CheckRef& ref) {
  if (!ev.document.docs)
    return {ref.id, Verdict::skip, "no description document: the response schemas are not known", {}};
  Dt5 d = dt5_outcomes(ev);
  std::vector<std::string> unjudged;
  if (d.truncated) unjudged.push_back(fmt::format("{} over the probe limit (8 KiB)", plural(d.truncated, "body", "bodies")));
  if (d.not_json) unjudged.push_back(fmt::format("{} not JSON", plural(d.not_json, "2xx response", "2xx responses")));
  if (d.unparsable) unjudged.push_back(fmt::format("{} that does not parse", plural(d.unparsable, "JSON body", "JSON bodies")));
  if (d.undocumented)
    unjudged.push_back(fmt::format("{} without a documented schema", plural(d.undocumented, "response", "responses")));
  if (d.values == 0) {
    std::string why = d.gets == 0                ? "no GET of a documented path was sent"
                      : d.success == 0           ? fmt::format("no 2xx response to the {}", plural(d.gets, "GET of a documented path", "GETs of documented paths"))
                                                 : "no date, date-time or time-local value in the JSON 2xx responses";
    if (!unjudged.empty()) why += "; not judged: " + join(unjudged, ", ");
    return {ref.id, Verdict::skip, why, {}};
  }
  Findings f(ref.id);
  std::vector<std::string> details;
  for (int id : d.judged_exchanges) f.add(Verdict::pass, "", {id});
  for (const auto& x : d.findings) {
    f.add(x.verdict, x.message, {x.exchange});
    details.push_back(fmt::format("{}: {}", adrprobe::to_string(x.verdict), x.message));
  }
  std::string pass = fmt::format("{} in {}, {}", plural(d.values, "date/time value", "date/time values"),
                                 plural(d.judged_exchanges.size(), "response", "responses"),
                                 d.values == 1 ? "matching its format" : "each matching its format");
  if (!unjudged.empty()) pass += "; not judged: " + join(unjudged, ", ");
  CheckResult out = f.result(pass, kShown);
  if (out.verdict != Verdict::pass) out.details = std::move(details);
  and_more(out);
  return out;
}

}  // namespace

// /core/date-time/timezone (functional): DT-1's date-time-local and time
// formats and DT-5's non-UTC response values, as hints.
std::vector<std::string> timezone_hints(const Evidence& ev) {
  constexpr std::size_t kMaxHints = 10;
  std::vector<std::string> out;
  std::size_t more = 0;
  auto add = [&](std::string hint) {
    if (out.size() < kMaxHints) out.push_back(std::move(hint));
    else ++more;
  };
  if (const Schemas* s = schemas_of(ev)) {
    for (const auto& u : date_time_formats(*s)) {
      std::string f = to_lower(u.format);
      if (f == "date-time-local")
        add(fmt::format("DT-1: format '{}' at {}: a datetime without offset; requests MUST accept any offset, use "
                        "date-time (UTC in responses)", u.format, s->place(u.at)));
      else if (f == "time")
        add(fmt::format("DT-1: format '{}' at {}: a time with offset; the rule's table wants time-local, and an "
                        "offset that matters goes in a separate time-offset field", u.format, s->place(u.at)));
    }
  }
  // One hint per response and offset.
  Dt5 d = dt5_outcomes(ev);
  std::vector<std::pair<std::pair<int, std::string>, std::vector<const Dt5::Offset*>>> groups;
  for (const auto& o : d.offsets) {
    auto key = std::make_pair(o.exchange, o.offset);
    auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == key; });
    if (g == groups.end()) groups.push_back({key, {&o}});
    else g->second.push_back(&o);
  }
  for (const auto& [key, list] : groups) {
    const auto& first = *list.front();
    std::string which = list.size() == 1 ? fmt::format("{} = {}", first.pointer, first.value)
                                         : fmt::format("{} values, e.g. {} = {}", list.size(), first.pointer, first.value);
    add(fmt::format("DT-5: {}: {} has offset {}, not UTC; response datetimes SHOULD be UTC (exchange #{})", first.request,
                    which, first.offset, first.exchange));
  }
  if (more) out.push_back(fmt::format("and {} more like these", more));
  return out;
}

// DT-1..DT-5 read one walk of the document (Schemas), made once.
namespace {
void prepare_schemas(const Evidence& ev) { schemas_of(ev); }
}  // namespace

extern const Check dt1{
    .id = "DT-1",
    .needs = document,
    .title = "Date and time formats are date, date-time or time-local",
    .sends = "nothing (static); reads the format of every Schema Object (not those of headers, nor of header or cookie parameters)",
    .passes = "only date, date-time, time-local among the date/time formats: pass; date-time-local, time, "
              "another name (datetime, unix-time, ...) or spelling (Date): fail; none: pass",
    .judge = judge_dt1,
    .prepare = prepare_schemas};
extern const Check dt2{
    .id = "DT-2",
    .needs = document,
    .title = "Date and time formats are on type string",
    .sends = "nothing (static); reads the Schema Objects with format date, date-time or time-local",
    .passes = "type string (OAS 3.1: or [string, null]): pass; another type: fail; no type: warn",
    .judge = judge_dt2,
    .prepare = prepare_schemas};
extern const Check dt3{
    .id = "DT-3",
    .needs = document,
    .title = "Date-named fields have a format",
    .sends = "nothing (static); reads date-named string fields (properties, query and path parameters)",
    .passes = "a format: pass; none: fail (strong name: date, datum, or last word Date/Datum) or warn (weak name); "
              "no date-named field: pass",
    .judge = judge_dt3,
    .prepare = prepare_schemas};
extern const Check dt4{
    .id = "DT-4",
    .needs = document,
    .title = "Date-named fields omit the time portion",
    .sends = "nothing (static); reads date-named string fields (properties, query and path parameters)",
    .passes = "no date-time or date-time-local format: pass; else fail (strong name) or warn (weak name)",
    .judge = judge_dt4,
    .prepare = prepare_schemas};
extern const Check dt5{
    .id = "DT-5",
    .needs = requests | document,
    .title = "Date and time values in responses follow the grammar",
    .sends = "nothing of its own; reads the JSON 2xx responses to HM-1's GETs of documented paths",
    .passes = "every date, date-time and time-local value matches its grammar: pass; a value that does not: fail; "
              "an RFC 9557 [zone] suffix: warn; nothing judged: skip",
    .per_path = PerPath::with_get,
    .judge = judge_dt5};

}  // namespace adrprobe::checks
