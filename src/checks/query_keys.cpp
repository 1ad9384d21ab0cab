// /core/query-keys-camel-case (2.2.0): QK-1 (static).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "checks/registry.hpp"
#include "checks/findings.hpp"
#include "oas/walk.hpp"
#include "util/strings.hpp"

namespace adrprobe::checks {
namespace {

// The official expression ^\$?[a-z][a-z\d]*([A-Z][a-z\d]*)*$ accepts exactly
// an optional '$', a lowercase letter, then ASCII letters and digits.
std::string key_problem(const std::string& key) {
  std::string_view k = key;
  if (!k.empty() && k.front() == '$') k.remove_prefix(1);
  if (k.empty()) return "empty";
  bool non_ascii = false;
  for (char c : k) non_ascii = non_ascii || static_cast<unsigned char>(c) >= 0x80;
  if (non_ascii) return "non-ASCII characters";
  char first = k.front();
  if (first >= '0' && first <= '9') return "starts with a digit";
  if (first >= 'A' && first <= 'Z') return "starts with an uppercase letter";
  if (first == '_') return "starts with '_'";
  if (!(first >= 'a' && first <= 'z')) return fmt::format("starts with '{}'", escape_control(std::string(1, first)));
  for (char c : k.substr(1)) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) continue;
    if (c == '-') return "a hyphen (kebab-case)";
    if (c == '_') return "an underscore (snake_case)";
    return fmt::format("the character '{}'", escape_control(std::string(1, c)));
  }
  return "";
}

// One judged key: where its name is written (shared ones are judged once, counted).
struct Key {
  std::string name;
  oas::Node at;
  std::size_t uses = 0;
};

class Keys {
 public:
  void add(std::string_view name, const oas::Node& at) {
    auto [it, fresh] = index_.try_emplace(at.at, keys_.size());
    if (fresh) keys_.push_back({std::string(name), at, 0});
    ++keys_[it->second].uses;
  }
  const std::vector<Key>& all() const { return keys_; }

 private:
  std::map<oas::Place, std::size_t> index_;
  std::vector<Key> keys_;
};

// The keys a query parameter puts in the URI (OAS serialisation): an object
// with properties in form style, exploded (both defaults), gives its property
// names; deepObject gives name[prop], both judged; otherwise the name.
void parameter_keys(const oas::Walker& w, const oas::Parameter& p, Keys& keys) {
  const oas::Value* param = p.node.value;
  std::string_view style = oas::string_member(param, "style").value_or("form");
  const oas::Value* explode_written = oas::find(param, "explode");
  bool explode = explode_written && explode_written->IsBool() ? explode_written->GetBool() : style == "form";
  oas::Node schema = w.member(p.node, "schema");
  oas::Node props = schema.is_object() ? w.child(schema, "properties") : oas::Node{};
  auto is_object_name = [](const oas::Value& v) { return v.IsString() && oas::str(v) == "object"; };
  const oas::Value* type = schema.is_object() ? oas::find(*schema.value, "type") : nullptr;
  bool typed_object = schema.is_object() &&
                      (!type || is_object_name(*type) ||
                       (type->IsArray() && std::any_of(type->Begin(), type->End(), is_object_name)));
  bool object = typed_object && props.is_object();
  if (object && style == "form" && explode) {
    for (const auto& m : props.value->GetObject()) keys.add(oas::key_of(m), w.entry(props, m));
    return;
  }
  keys.add(p.name, w.child(p.node, "name"));
  if (object && style == "deepObject")
    for (const auto& m : props.value->GetObject()) keys.add(oas::key_of(m), w.entry(props, m));
}

CheckResult judge_qk1(const Evidence& ev, const CheckRef& ref) {
  if (auto stop = ev.without_paths(ref.id)) return *stop;
  oas::Walker w(*ev.document.docs);
  Keys keys;
  for (const auto& op : oas::all_operations(w.docs()))
    for (const auto& p : oas::effective_parameters(w, op))
      if (p.in == "query" && !p.name.empty()) parameter_keys(w, p, keys);
  oas::Node schemes = w.member(w.member(w.root(), "components"), "securitySchemes");
  if (schemes.is_object())
    for (const auto& m : schemes.value->GetObject()) {
      oas::Node s = w.deref(w.entry(schemes, m));
      auto type = oas::string_member(s.value, "type");
      auto in = oas::string_member(s.value, "in");
      if (!type || *type != "apiKey" || !in || *in != "query") continue;
      oas::Node name = w.child(s, "name");
      if (name.value && name.value->IsString()) keys.add(oas::str(*name.value), name);
    }
  Findings f(ref.id);
  CheckResult out;
  for (const auto& k : keys.all()) {
    std::string problem = key_problem(k.name);
    if (problem.empty()) continue;
    std::string finding = fmt::format("'{}': {} ({}{})", escape_control(truncate_utf8(k.name, 80)), problem, w.where(k.at),
                                      k.uses > 1 ? fmt::format(", used {} times", k.uses) : "");
    out.details.push_back(finding);
    f.add_at_places(Verdict::fail, std::move(finding), {place_of(w, k.at)});
  }
  if (keys.all().empty()) return {ref.id, Verdict::pass, "no query keys documented", {}};
  CheckResult r = f.result(fmt::format("{} camelCase", plural(keys.all().size(), "query key is", "query keys are")), 10, 1000);
  r.details = std::move(out.details);
  and_more(r);
  return r;
}

}  // namespace

extern const Check qk1{
    .id = "QK-1",
    .needs = document,
    .title = "Query keys are camelCase",
    .sends = "nothing (static); reads the query parameters of every operation (path-level and $ref'd ones included; exploded form objects by their property names, deepObject by name and properties) and apiKey security schemes in the query",
    .passes = "every key matches ^\\$?[a-z][a-z\\d]*([A-Z][a-z\\d]*)*$: pass; else fail, naming each key and where it is written",
    .judge = judge_qk1};

}  // namespace adrprobe::checks
