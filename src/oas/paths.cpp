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

std::optional<std::string> scalar_text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number() || v.is_boolean()) return v.dump();
  return std::nullopt;
}

// A value for one parameter object, from its examples or schema.
std::optional<std::string> example_value(const DocumentSet& docs, const std::string& doc_url, const json& param) {
  if (auto it = param.find("example"); it != param.end())
    if (auto s = scalar_text(*it)) return s;
  if (auto it = param.find("examples"); it != param.end() && it->is_object()) {
    for (auto ex = it->begin(); ex != it->end(); ++ex) {
      Resolved r = docs.deref(doc_url, ex.value());
      if (!r.node || !r.node->is_object()) continue;
      if (auto v = r.node->find("value"); v != r.node->end())
        if (auto s = scalar_text(*v)) return s;
    }
  }
  if (auto it = param.find("schema"); it != param.end()) {
    Resolved r = docs.deref(doc_url, *it);
    if (r.node && r.node->is_object()) {
      const json& schema = *r.node;
      for (const char* key : {"example", "default"})
        if (auto v = schema.find(key); v != schema.end())
          if (auto s = scalar_text(*v)) return s;
      if (auto e = schema.find("enum"); e != schema.end() && e->is_array() && !e->empty())
        if (auto s = scalar_text(e->front())) return s;
      if (auto e = schema.find("examples"); e != schema.end() && e->is_array() && !e->empty())
        if (auto s = scalar_text(e->front())) return s;
    }
  }
  return std::nullopt;
}

void gather_path_params(const DocumentSet& docs, const std::string& doc_url, const json& list,
                        std::map<std::string, std::optional<std::string>>& out) {
  if (!list.is_array()) return;
  for (const auto& item : list) {
    Resolved r = docs.deref(doc_url, item);
    if (!r.node || !r.node->is_object()) continue;
    const json& p = *r.node;
    auto in = p.find("in");
    auto name = p.find("name");
    if (in == p.end() || name == p.end() || !in->is_string() || !name->is_string() || *in != "path") continue;
    out[name->get<std::string>()] = example_value(docs, r.doc_url, p);  // operation level overrides path level
  }
}

}  // namespace

std::vector<PathPlan> enumerate_paths(const DocumentSet& docs, const std::map<std::string, std::string>& params) {
  std::vector<PathPlan> plans;
  const json& root = docs.root();
  auto paths = root.find("paths");
  if (paths == root.end() || !paths->is_object()) return plans;
  for (auto it = paths->begin(); it != paths->end(); ++it) {
    PathPlan plan;
    plan.template_path = it.key();
    Resolved item = docs.deref(docs.root_url(), it.value());
    if (!item.node || !item.node->is_object()) {
      plan.unresolved = true;
      plans.push_back(plan);
      continue;
    }
    for (const auto& key : operation_keys())
      if (item.node->contains(key)) plan.methods.insert(to_upper(key));
    if (auto extra = item.node->find("additionalOperations"); extra != item.node->end() && extra->is_object())
      for (auto op = extra->begin(); op != extra->end(); ++op) plan.methods.insert(to_upper(op.key()));
    std::map<std::string, std::optional<std::string>> values;
    if (auto p = item.node->find("parameters"); p != item.node->end()) gather_path_params(docs, item.doc_url, *p, values);
    // The GET operation's parameters override the path item's; the other
    // operations' only give values still missing (a POST-only path is probed too).
    for (const auto& key : operation_keys()) {
      auto it_op = item.node->find(key);
      if (it_op == item.node->end()) continue;
      Resolved op = docs.deref(item.doc_url, *it_op);
      if (!op.node || !op.node->is_object()) continue;
      auto p = op.node->find("parameters");
      if (p == op.node->end()) continue;
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
