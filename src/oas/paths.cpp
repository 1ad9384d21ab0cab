#include "oas/paths.hpp"

#include <optional>

#include "util/strings.hpp"

namespace adrprobe::oas {

const std::vector<std::string>& operation_keys() {
  // OpenAPI 3.0/3.1, and "query" of 3.2 (3.2's additionalOperations are read apart).
  static const std::vector<std::string> keys{"get", "put", "post", "delete", "options", "head", "patch", "trace", "query"};
  return keys;
}

namespace {

std::optional<std::string> scalar_text(const Value& v) {
  if (v.IsString()) return std::string(str(v));
  if (v.IsNumber() || v.IsBool()) return dump(v);
  return std::nullopt;
}

// A value for one parameter object, from its examples or schema.
std::optional<std::string> example_value(const DocumentSet& docs, const std::string& doc_url, const Value& param) {
  if (const Value* v = find(param, "example"))
    if (auto s = scalar_text(*v)) return s;
  if (const Value* examples = find(param, "examples"); examples && examples->IsObject()) {
    for (const auto& ex : examples->GetObject()) {
      Resolved r = docs.deref(doc_url, ex.value);
      if (const Value* v = r.node && r.node->IsObject() ? find(*r.node, "value") : nullptr)
        if (auto s = scalar_text(*v)) return s;
    }
  }
  if (const Value* it = find(param, "schema")) {
    Resolved r = docs.deref(doc_url, *it);
    if (r.node && r.node->IsObject()) {
      const Value& schema = *r.node;
      for (const char* key : {"example", "default"})
        if (const Value* v = find(schema, key))
          if (auto s = scalar_text(*v)) return s;
      for (const char* key : {"enum", "examples"})
        if (const Value* e = find(schema, key); e && e->IsArray() && !e->Empty())
          if (auto s = scalar_text((*e)[0])) return s;
    }
  }
  return std::nullopt;
}

void gather_path_params(const DocumentSet& docs, const std::string& doc_url, const Value& list,
                        std::map<std::string, std::optional<std::string>>& out) {
  if (!list.IsArray()) return;
  for (const auto& item : list.GetArray()) {
    Resolved r = docs.deref(doc_url, item);
    if (!r.node || !r.node->IsObject()) continue;
    const Value& p = *r.node;
    const Value* in = find_string(&p, "in");
    const Value* name = find_string(&p, "name");
    if (!in || !name || str(*in) != "path") continue;
    out[std::string(str(*name))] = example_value(docs, r.doc_url, p);  // operation level overrides path level
  }
}

}  // namespace

std::vector<PathPlan> enumerate_paths(const DocumentSet& docs, const std::map<std::string, std::string>& params) {
  std::vector<PathPlan> plans;
  const Value* paths = find(docs.root(), "paths");
  if (!paths || !paths->IsObject()) return plans;
  plans.reserve(paths->MemberCount());  // kept through the run: no room left over by doubling
  for (const auto& path : paths->GetObject()) {
    PathPlan plan;
    plan.template_path = key_of(path);
    Resolved item = docs.deref(docs.root_url(), path.value);
    if (!item.node || !item.node->IsObject()) {
      plan.unresolved = true;
      plans.push_back(plan);
      continue;
    }
    for (const auto& key : operation_keys())
      if (contains(*item.node, key)) plan.methods.insert(to_upper(key));
    if (const Value* extra = find(*item.node, "additionalOperations"); extra && extra->IsObject())
      for (const auto& op : extra->GetObject()) plan.methods.insert(to_upper(std::string(key_of(op))));
    std::map<std::string, std::optional<std::string>> values;
    if (const Value* p = find(*item.node, "parameters")) gather_path_params(docs, item.doc_url, *p, values);
    // The GET operation's parameters override the path item's; the other
    // operations' only give values still missing (a POST-only path is probed too).
    for (const auto& key : operation_keys()) {
      const Value* written = find(*item.node, key);
      if (!written) continue;
      Resolved op = docs.deref(item.doc_url, *written);
      if (!op.node || !op.node->IsObject()) continue;
      const Value* p = find(*op.node, "parameters");
      if (!p) continue;
      if (key == "get") {
        gather_path_params(docs, op.doc_url, *p, values);
        continue;
      }
      std::map<std::string, std::optional<std::string>> more;
      gather_path_params(docs, op.doc_url, *p, more);
      for (auto& [name, value] : more) {
        auto& have = values[name];
        if (!have) have = std::move(value);
      }
    }
    // Fill each {name}; a '{' without its '}' is kept as text.
    std::string concrete;
    const std::string& t = plan.template_path;
    for (std::size_t i = 0; i < t.size();) {
      std::size_t open = t.find('{', i), close = open == std::string::npos ? open : t.find('}', open);
      if (close == std::string::npos) {
        concrete += t.substr(i);
        break;
      }
      concrete += t.substr(i, open - i);
      std::string name = t.substr(open + 1, close - open - 1);
      std::optional<std::string> value;
      if (auto user = params.find(name); user != params.end()) value = user->second;
      else if (auto v = values.find(name); v != values.end()) value = v->second;
      if (value) concrete += percent_encode(*value);
      else plan.missing.push_back(name);
      i = close + 1;
    }
    if (plan.missing.empty()) plan.concrete = concrete;
    plans.push_back(std::move(plan));
  }
  return plans;
}

}  // namespace adrprobe::oas
