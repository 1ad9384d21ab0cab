#include "catalogue/catalogue.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <stdexcept>

#include "catalogue/embedded.hpp"

namespace adrprobe::catalogue {
namespace {

std::string text(const YAML::Node& node, const char* key, bool required, const std::string& where) {
  auto v = node[key];
  if (!v || v.IsNull()) {
    if (required) throw std::runtime_error(fmt::format("{}: '{}' is missing", where, key));
    return "";
  }
  return v.as<std::string>();
}

std::vector<std::string> list(const YAML::Node& node, const char* key) {
  std::vector<std::string> out;
  if (auto v = node[key]; v && v.IsSequence())
    for (const auto& item : v) out.push_back(item.as<std::string>());
  return out;
}

Rule parse_rule(const YAML::Node& n, const std::string& where) {
  Rule r;
  r.id = text(n, "id", true, where);
  std::string at = where + " rule " + r.id;
  r.aliases = list(n, "aliases");
  r.kind = text(n, "kind", true, at);
  if (r.kind != "technical" && r.kind != "functional") throw std::runtime_error(at + ": kind must be technical or functional");
  r.level = text(n, "level", false, at);
  r.title = text(n, "title", true, at);
  r.statement = text(n, "statement", false, at);
  r.review = text(n, "review", false, at);
  r.decisions = list(n, "decisions");
  r.hints = list(n, "hints");
  if (auto checks = n["checks"]; checks && checks.IsSequence()) {
    for (const auto& c : checks) {
      CheckRef ref;
      if (c.IsScalar()) {
        ref.id = c.as<std::string>();
      } else if (c.IsMap()) {
        ref.id = text(c, "id", true, at);
        for (const auto& kv : c)
          if (kv.first.as<std::string>() != "id") ref.params[kv.first.as<std::string>()] = kv.second.as<std::string>();
      }
      r.checks.push_back(std::move(ref));
    }
  }
  return r;
}

}  // namespace

Catalogue Catalogue::load(const std::vector<std::pair<std::string, std::string>>& files) {
  Catalogue cat;
  for (const auto& [name, data] : files) {
    YAML::Node doc = YAML::Load(data);
    if (doc["checks"] && !doc["rules"]) {
      for (const auto& c : doc["checks"]) {
        CheckInfo info{text(c, "id", true, name), text(c, "rule", false, name), text(c, "title", false, name),
                       text(c, "sends", false, name), text(c, "passes", false, name),
                       c["per_path"] && c["per_path"].as<bool>(), c["handshake"] && c["handshake"].as<bool>()};
        cat.checks_[info.id] = info;
      }
      continue;
    }
    if (auto t = doc["ncsc_tls"]) {
      NcscTable n;
      n.version = text(t, "version", true, name);
      if (!cat.ncsc_.version.empty() && n.version < cat.ncsc_.version) continue;  // keep the newest
      n.title = text(t, "title", false, name);
      for (const auto& kv : t["verdicts"]) n.verdicts[kv.first.as<std::string>()] = kv.second.as<std::string>();
      for (const auto& kv : t["protocols"]) n.protocols[kv.first.as<std::string>()] = kv.second.as<std::string>();
      auto levels = [&](const YAML::Node& node, std::map<std::string, std::string>& out, std::string& otherwise) {
        for (const auto& kv : node) {
          std::string level = kv.first.as<std::string>();
          if (level == "otherwise") otherwise = kv.second.as<std::string>();
          else for (const auto& item : kv.second) out[item.as<std::string>()] = level;
        }
      };
      levels(t["ciphers"], n.ciphers, n.cipher_otherwise);
      levels(t["groups"], n.groups, n.group_otherwise);
      if (auto c = t["certificates"]) {
        n.rsa_min_bits = c["rsa_min_bits"].as<int>(2048);
        n.insufficient_signatures = list(c, "insufficient_signatures");
        n.expiry_warn_days = c["expiry_warn_days"].as<int>(14);
      }
      cat.ncsc_ = std::move(n);
      continue;
    }
    if (!doc["edition"]) continue;  // other tables
    Edition e;
    e.edition = text(doc, "edition", true, name);
    e.name = text(doc, "name", false, name);
    e.source = text(doc, "source", false, name);
    e.semver = parse_semver_grammar(text(doc, "semver", true, name));
    for (const auto& r : doc["rules"]) e.rules.push_back(parse_rule(r, name));
    cat.editions_.push_back(std::move(e));
  }
  return cat;
}

const Catalogue& Catalogue::builtin() {
  static const Catalogue cat = [] {
    std::vector<std::pair<std::string, std::string>> files;
    for (const auto& f : embedded_files()) files.emplace_back(std::string(f.name), std::string(f.data));
    return load(files);
  }();
  return cat;
}

const Edition* Catalogue::edition(const std::string& name) const {
  for (const auto& e : editions_)
    if (e.edition == name) return &e;
  return nullptr;
}

std::vector<std::string> Catalogue::edition_names() const {
  std::vector<std::string> out;
  for (const auto& e : editions_) out.push_back(e.edition);
  return out;
}

std::string NcscTable::protocol_level(const std::string& name) const {
  auto it = protocols.find(name);
  return it == protocols.end() ? "insufficient" : it->second;
}

std::string NcscTable::cipher_level(const std::string& name) const {
  auto it = ciphers.find(name);
  return it == ciphers.end() ? cipher_otherwise : it->second;
}

std::string NcscTable::group_level(const std::string& name) const {
  auto it = groups.find(name);
  return it == groups.end() ? group_otherwise : it->second;
}

std::string NcscTable::verdict_of(const std::string& level) const {
  auto it = verdicts.find(level);
  return it == verdicts.end() ? "fail" : it->second;
}

const CheckInfo* Catalogue::check(const std::string& id) const {
  auto it = checks_.find(id);
  return it == checks_.end() ? nullptr : &it->second;
}

}  // namespace adrprobe::catalogue
