#include "catalogue/catalogue.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>

#include "catalogue/embedded.hpp"
#include "catalogue/tree.hpp"

namespace adrprobe::catalogue {
namespace {

// The value at key, nullptr when the node is no mapping or has no such key.
const Tree* field(const Tree& node, const char* key) {
  if (!node.is_object()) return nullptr;
  auto it = node.find(key);
  return it == node.end() ? nullptr : &*it;
}

// A scalar (a string in the tree); a list or a mapping where one is due is an error.
std::string scalar(const Tree& v, const std::string& where) {
  if (!v.is_string()) throw std::runtime_error(fmt::format("{}: a single value is due, not {}", where, v.is_null() ? "none" : v.type_name()));
  return v.get<std::string>();
}

std::string text(const Tree& node, const char* key, bool required, const std::string& where) {
  const Tree* v = field(node, key);
  if (!v || v->is_null()) {
    if (required) throw std::runtime_error(fmt::format("{}: '{}' is missing", where, key));
    return "";
  }
  return scalar(*v, where + ": " + key);
}

std::vector<std::string> list(const Tree& node, const char* key, const std::string& where) {
  std::vector<std::string> out;
  if (const Tree* v = field(node, key); v && v->is_array())
    for (const auto& item : *v) out.push_back(scalar(item, where + ": " + key));
  return out;
}

// A key that, when given, must name something: present with no value is a mistake.
std::string named(const Tree& node, const char* key, const std::string& where) {
  const Tree* v = field(node, key);
  if (!v) return "";
  std::string s = v->is_null() ? "" : scalar(*v, where + ": " + key);
  if (s.empty()) throw std::runtime_error(fmt::format("{}: '{}' is given without a value", where, key));
  return s;
}

// A whole number, else fallback when the key is absent.
int number(const Tree& node, const char* key, int fallback, const std::string& where) {
  const Tree* v = field(node, key);
  if (!v || v->is_null()) return fallback;
  std::string s = scalar(*v, where + ": " + key);
  std::size_t used = 0;
  int n = 0;
  try {
    n = std::stoi(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != s.size()) throw std::runtime_error(fmt::format("{}: '{}' must be a whole number, not '{}'", where, key, s));
  return n;
}

// A key the format does not know is a mistake (a typo such as `check:` would
// otherwise leave a rule without checks), never silently ignored.
void known_keys(const Tree& n, const std::set<std::string>& keys, const std::string& where) {
  if (!n.is_object()) throw std::runtime_error(fmt::format("{}: must be a mapping", where));
  for (const auto& kv : n.items())
    if (!keys.count(kv.key())) throw std::runtime_error(fmt::format("{}: unknown key '{}'", where, kv.key()));
}

Rule parse_rule(const Tree& n, const std::string& where) {
  Rule r;
  r.id = text(n, "id", true, where);
  std::string at = where + " rule " + r.id;
  known_keys(n, {"id", "aliases", "kind", "level", "title", "statement", "checks", "decisions", "review", "hints", "url"}, at);
  r.aliases = list(n, "aliases", at);
  r.kind = text(n, "kind", true, at);
  if (r.kind != "technical" && r.kind != "functional") throw std::runtime_error(at + ": kind must be technical or functional");
  r.level = text(n, "level", false, at);
  r.title = text(n, "title", true, at);
  r.statement = text(n, "statement", false, at);
  r.url = text(n, "url", false, at);  // else the edition's rule_url
  r.review = text(n, "review", false, at);
  r.decisions = list(n, "decisions", at);
  r.hints = list(n, "hints", at);
  if (const Tree* checks = field(n, "checks"); checks && checks->is_array()) {
    for (const auto& c : *checks) {
      CheckRef ref;
      if (c.is_string()) {
        ref.id = c.get<std::string>();
      } else if (c.is_object()) {
        ref.id = text(c, "id", true, at);
        for (const auto& kv : c.items())
          if (kv.key() != "id") ref.params[kv.key()] = scalar(kv.value(), at + ": " + kv.key());
      }
      r.checks.push_back(std::move(ref));
    }
  }
  if (r.technical() && r.checks.empty()) throw std::runtime_error(at + ": a technical rule needs checks");
  if (!r.technical() && !r.checks.empty()) throw std::runtime_error(at + ": a functional rule has no checks (hints instead)");
  return r;
}

}  // namespace

namespace {

// An edition file as written, before `extends` is resolved.
struct RawEdition {
  std::string file;
  Tree doc;
};

// The rule maps of an edition with everything it extends applied, in order.
// An extending edition lists only what differs:
//   remove: [ids]                      rules of the base it drops
//   rules:                             rules it adds or changes
//     - id: X                          an id the base has: the keys given replace the base's
//     - {id: Y, after: X, ...}         a new rule, placed after X (else at the end)
//     - {id: Z, replaces: X, ...}      rule X renamed to Z at X's place, with the keys given replaced
std::vector<Tree> resolve_rules(const std::map<std::string, RawEdition>& raw, const std::string& name,
                                std::vector<std::string>& stack) {
  const auto& [file, doc] = raw.at(name);
  if (std::find(stack.begin(), stack.end(), name) != stack.end())
    throw std::runtime_error(fmt::format("{}: 'extends' forms a cycle", file));
  stack.push_back(name);
  std::vector<Tree> rules;
  if (std::string base = named(doc, "extends", file); !base.empty()) {
    if (!raw.count(base)) throw std::runtime_error(fmt::format("{}: extends unknown edition '{}'", file, base));
    rules = resolve_rules(raw, base, stack);
  }
  stack.pop_back();
  auto index_of = [&](const std::string& id) -> std::ptrdiff_t {
    for (std::size_t i = 0; i < rules.size(); ++i)
      if (const Tree* v = field(rules[i], "id"); v && v->is_string() && v->get_ref<const std::string&>() == id)
        return static_cast<std::ptrdiff_t>(i);
    return -1;
  };
  auto place = [&](std::ptrdiff_t i) { return rules.begin() + i; };
  for (const auto& id : list(doc, "remove", file)) {
    auto i = index_of(id);
    if (i < 0) throw std::runtime_error(fmt::format("{}: remove: no rule {} to remove", file, id));
    rules.erase(place(i));
  }
  // The keys an entry gives replace the rule's (after and replaces only place it).
  auto overlay = [](Tree target, const Tree& entry) {
    for (const auto& kv : entry.items())
      if (kv.key() != "after" && kv.key() != "replaces") target[kv.key()] = kv.value();
    return target;
  };
  if (const Tree* entries = field(doc, "rules"); entries && entries->is_array()) {
    for (const auto& entry : *entries) {
      std::string id = text(entry, "id", true, file);
      std::string replaces = named(entry, "replaces", file + " rule " + id), after = named(entry, "after", file + " rule " + id);
      if (!replaces.empty() && index_of(id) >= 0)
        throw std::runtime_error(fmt::format("{} rule {}: replaces, but the edition has a rule {} already", file, id, id));
      if (!after.empty() && index_of(id) >= 0)
        throw std::runtime_error(fmt::format("{} rule {}: after places a new rule, and {} exists", file, id, id));
      if (!replaces.empty()) {
        auto i = index_of(replaces);
        if (i < 0) throw std::runtime_error(fmt::format("{} rule {}: replaces unknown rule {}", file, id, replaces));
        rules[static_cast<std::size_t>(i)] = overlay(rules[static_cast<std::size_t>(i)], entry);
      } else if (auto i = index_of(id); i >= 0) {
        rules[static_cast<std::size_t>(i)] = overlay(rules[static_cast<std::size_t>(i)], entry);
      } else if (!after.empty()) {
        auto j = index_of(after);
        if (j < 0) throw std::runtime_error(fmt::format("{} rule {}: after unknown rule {}", file, id, after));
        rules.insert(place(j + 1), overlay(Tree::object(), entry));
      } else {
        rules.push_back(overlay(Tree::object(), entry));
      }
    }
  }
  return rules;
}

// A top-level key of the edition, else of the edition it extends.
std::string inherited(const std::map<std::string, RawEdition>& raw, const std::string& name, const char* key) {
  const auto& [file, doc] = raw.at(name);
  // Given, even empty, it is this edition's own ("ncsc: ''" is the newest table).
  if (const Tree* v = field(doc, key); v && !v->is_null()) return scalar(*v, file + ": " + key);
  if (std::string base = named(doc, "extends", file); !base.empty()) return inherited(raw, base, key);
  return "";
}

// A stack's header signatures, "name: part of the value": (lower-case name, part).
std::vector<std::pair<std::string, std::string>> header_signatures(const Tree& d, const std::string& file) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& h : list(d, "headers", file)) {
    auto colon = h.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 2 > h.size())
      throw std::runtime_error(fmt::format("{}: header signature '{}' is not 'name: part of the value'", file, h));
    std::string name = h.substr(0, colon);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    std::string value = h.substr(colon + 1);
    value.erase(0, value.find_first_not_of(' '));
    out.emplace_back(name, value);
  }
  return out;
}

// probes/fixes/<stack>.yaml: the stack's signatures and its fixes.
Stack parse_stack(const Tree& doc, const std::string& file) {
  known_keys(doc, {"stack", "name", "rank", "detect", "fixes"}, file);
  Stack s;
  s.id = text(doc, "stack", true, file);
  if (s.id == "any") s.id = "";
  s.name = text(doc, "name", !s.id.empty(), file);
  s.rank = number(doc, "rank", s.rank, file);
  if (const Tree* detect = field(doc, "detect")) {
    const Tree& d = *detect;
    if (s.id.empty()) throw std::runtime_error(file + ": the generic advice detects nothing");
    known_keys(d, {"headers", "bodies", "document", "responses"}, file + ": detect");
    s.headers = header_signatures(d, file);
    s.bodies = list(d, "bodies", file + ": detect");
    s.document = list(d, "document", file + ": detect");
    for (const auto& p : s.document)
      if (p.empty() || p[0] != '/') throw std::runtime_error(fmt::format("{}: document signature '{}' is not a JSON pointer", file, p));
    if (const Tree* rs = field(d, "responses")) {
      if (!rs->is_array()) throw std::runtime_error(file + ": detect: 'responses' must be a list");
      for (const auto& r : *rs) {
        known_keys(r, {"body", "headers"}, file + ": detect: responses");
        ResponseSignature sig{header_signatures(r, file), text(r, "body", true, file + ": detect: responses")};
        if (sig.body.empty() || sig.headers.empty())
          throw std::runtime_error(file + ": detect: a response signature needs a body and headers (a body alone is 'bodies')");
        s.responses.push_back(std::move(sig));
      }
    }
  } else if (!s.id.empty()) {
    throw std::runtime_error(file + ": 'detect' is missing (how the evidence shows the stack)");
  }
  const Tree* fixes = field(doc, "fixes");
  if (fixes && !fixes->is_array()) throw std::runtime_error(file + ": 'fixes' must be a list");
  if (fixes) for (const auto& f : *fixes) {
    known_keys(f, {"check", "text", "source", "verdicts"}, file + ": fixes");
    FixAdvice a{text(f, "check", true, file), text(f, "text", true, file), text(f, "source", true, file),
                list(f, "verdicts", file + ": fixes")};
    for (const auto& v : a.verdicts)
      if (v != "fail" && v != "warn")
        throw std::runtime_error(fmt::format("{}: {}: a fix is for fail or warn, not '{}'", file, a.check, v));
    if (s.fix_for(a.check)) throw std::runtime_error(fmt::format("{}: two fixes for {}", file, a.check));
    bool rule_text = a.source == FixAdvice::kRuleText;  // the judged edition's text of the check's rule
    if (!rule_text && (a.source.rfind("https://", 0) != 0 || a.source.find_first_of("` \"<>") != std::string::npos))
      throw std::runtime_error(fmt::format(
          "{}: {}: source must be an https URL (no space, quote, backtick or angle bracket) or 'rule'", file, a.check));
    s.fixes.push_back(std::move(a));
  }
  return s;
}

// probes/module-*.yaml: a module's own rules, listed whole (no extends).
Module parse_module(const Tree& doc, const std::string& file) {
  known_keys(doc, {"module", "title", "version", "name", "source", "required_by", "absent", "not_judged", "rules"}, file);
  Module m;
  m.id = text(doc, "module", true, file);
  m.title = text(doc, "title", true, file);
  m.version = text(doc, "version", true, file);
  m.name = text(doc, "name", true, file);
  m.source = text(doc, "source", true, file);
  m.required_by = text(doc, "required_by", true, file);
  m.absent = text(doc, "absent", true, file);
  m.not_judged = text(doc, "not_judged", true, file);
  const Tree* rules = field(doc, "rules");
  if (!rules || !rules->is_array() || rules->empty()) throw std::runtime_error(file + ": 'rules' must be a list of rules");
  std::set<std::string> ids;
  for (const auto& r : *rules) {
    m.rules.push_back(parse_rule(r, file));
    Rule& rule = m.rules.back();
    if (!ids.insert(rule.id).second) throw std::runtime_error(fmt::format("{}: rule {} is listed twice", file, rule.id));
    if (rule.url.empty()) rule.url = m.source + "#" + rule.id;
  }
  return m;
}

// The edition's rule that requires the module: its id or one of its aliases is required_by.
const Rule* requiring_rule(const Edition& e, const Module& m) {
  for (const auto& r : e.rules)
    if (r.id == m.required_by ||
        std::find(r.aliases.begin(), r.aliases.end(), m.required_by) != r.aliases.end())
      return &r;
  return nullptr;
}

}  // namespace

Catalogue Catalogue::load(const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<std::pair<std::string, Tree>> trees;
  for (const auto& [name, yaml] : files) trees.emplace_back(name, yaml_tree(yaml));
  return load_trees(std::move(trees));
}

Catalogue Catalogue::load_trees(std::vector<std::pair<std::string, Tree>> files) {
  Catalogue cat;
  std::map<std::string, RawEdition> raw;
  std::vector<std::string> order;
  // A mapping's entries; nothing for a value that is none.
  auto entries = [](const Tree* node, const std::string& where) {
    std::vector<std::pair<std::string, const Tree*>> out;
    if (!node || node->is_null()) return out;
    if (!node->is_object()) throw std::runtime_error(where + " must be a mapping");
    for (const auto& kv : node->items()) out.emplace_back(kv.key(), &kv.value());
    return out;
  };
  for (auto& file : files) {
    const std::string& name = file.first;  // not a structured binding: the lambdas below capture it (clang 14)
    Tree& doc = file.second;
    if (const Tree* table = field(doc, "ncsc_tls")) {
      const Tree& t = *table;
      NcscTable n;
      n.version = text(t, "version", true, name);
      n.title = text(t, "title", false, name);
      for (const auto& [key, value] : entries(field(t, "verdicts"), name + ": verdicts")) n.verdicts[key] = scalar(*value, name + ": verdicts");
      for (const auto& [key, value] : entries(field(t, "protocols"), name + ": protocols")) n.protocols[key] = scalar(*value, name + ": protocols");
      auto levels = [&](const char* key, std::map<std::string, std::string>& out, std::string& otherwise) {
        for (const auto& [level, value] : entries(field(t, key), name + ": " + key)) {
          if (level == "otherwise") otherwise = scalar(*value, name + ": " + key);
          else if (value->is_array()) for (const auto& item : *value) out[scalar(item, name + ": " + key)] = level;
          else throw std::runtime_error(fmt::format("{}: {}: level {} must be a list", name, key, level));
        }
      };
      levels("ciphers", n.ciphers, n.cipher_otherwise);
      levels("groups", n.groups, n.group_otherwise);
      if (const Tree* certificates = field(t, "certificates")) {
        const Tree& c = *certificates;
        if (!c.is_object()) throw std::runtime_error(name + ": certificates: must be a mapping");
        n.rsa_min_bits = number(c, "rsa_min_bits", 2048, name);
        n.insufficient_signatures = list(c, "insufficient_signatures", name + ": certificates");
        n.rsa_phase_out_below = number(c, "rsa_phase_out_below", 0, name);
        n.phase_out_signatures = list(c, "phase_out_signatures", name + ": certificates");
        n.phase_out_ec_curves = list(c, "phase_out_ec_curves", name + ": certificates");
        n.good_ec_curves = list(c, "good_ec_curves", name + ": certificates");
        n.ec_curve_otherwise = text(c, "ec_curves_otherwise", false, name);
        if (!n.ec_curve_otherwise.empty() && n.ec_curve_otherwise != "insufficient")
          throw std::runtime_error(fmt::format("{}: certificates: ec_curves_otherwise must be insufficient or absent, not {}",
                                               name, n.ec_curve_otherwise));
        n.expiry_warn_days = number(c, "expiry_warn_days", 14, name);
      }
      cat.ncsc_[n.version] = std::move(n);
      continue;
    }
    if (const Tree* b = field(doc, "baseline")) {
      static const std::vector<std::string> changes{"new-fail", "regressed", "fixed"};
      static const std::vector<std::string> verdicts{"pass", "warn", "fail", "error", "skip", "manual", "absent"};
      if (!b->is_array()) throw std::runtime_error(fmt::format("{}: 'baseline' must be a list of lines", name));
      for (const auto& line : *b) {
        // A typo (`befor:`) or an empty list would leave a line that never matches: an error.
        if (!line.is_object()) throw std::runtime_error(fmt::format("{}: a baseline line must be a mapping", name));
        known_keys(line, {"change", "now", "before"}, name + ": baseline");
        ChangeRule c{text(line, "change", true, name), list(line, "now", name + ": baseline"), list(line, "before", name + ": baseline")};
        if (c.now.empty() || c.before.empty())
          throw std::runtime_error(fmt::format("{}: change {} needs verdicts in 'now' and 'before'", name, c.change));
        if (std::find(changes.begin(), changes.end(), c.change) == changes.end())
          throw std::runtime_error(fmt::format("{}: unknown change '{}'", name, c.change));
        for (const auto* vs : {&c.now, &c.before})
          for (const auto& v : *vs)
            if (std::find(verdicts.begin(), verdicts.end(), v) == verdicts.end())
              throw std::runtime_error(fmt::format("{}: unknown verdict '{}' in change {}", name, v, c.change));
        cat.baseline_.push_back(std::move(c));
      }
      continue;
    }
    if (field(doc, "stack")) {
      Stack s = parse_stack(doc, name);
      if (s.id.empty()) {
        cat.generic_ = std::move(s);
        continue;
      }
      for (const auto& other : cat.stacks_)
        if (other.id == s.id) throw std::runtime_error(fmt::format("{}: stack {} is defined twice", name, s.id));
      cat.stacks_.push_back(std::move(s));
      continue;
    }
    if (!doc.is_object()) throw std::runtime_error(fmt::format("{}: a catalogue file is a mapping", name));
    if (field(doc, "module")) {
      Module m = parse_module(doc, name);
      if (cat.module(m.id)) throw std::runtime_error(fmt::format("{}: module {} is defined twice", name, m.id));
      cat.modules_.push_back(std::move(m));
      continue;
    }
    if (!field(doc, "edition")) continue;  // other tables
    std::string edition = text(doc, "edition", true, name);
    if (raw.count(edition)) throw std::runtime_error(fmt::format("{}: edition {} is defined twice", name, edition));
    raw[edition] = RawEdition{name, std::move(doc)};
    order.push_back(edition);
  }
  for (const auto& edition : order) {
    const auto& [file, doc] = raw.at(edition);
    Edition e;
    std::vector<std::string> stack;
    auto rules = resolve_rules(raw, edition, stack);  // first: it rejects a cycle of `extends`
    e.edition = edition;
    e.extends = text(doc, "extends", false, file);
    // An edition names itself: name and source are never inherited.
    known_keys(doc, {"edition", "extends", "name", "source", "semver", "ncsc", "remove", "rules", "aliases", "aliases_note", "rule_url"}, file);
    e.name = text(doc, "name", true, file);
    e.source = text(doc, "source", true, file);
    e.ncsc = inherited(raw, edition, "ncsc");
    e.aliases = list(doc, "aliases", file);  // names of this edition's own patch releases: never inherited
    e.aliases_note = text(doc, "aliases_note", false, file);
    if (!e.aliases.empty() && e.aliases_note.empty())
      throw std::runtime_error(fmt::format("{}: 'aliases' needs an 'aliases_note' (why they are judged alike)", file));
    // Where each rule's own text is: {source} and {id} filled in (the id is the fragment).
    std::string rule_url = inherited(raw, edition, "rule_url");
    if (rule_url.empty()) rule_url = "{source}#{id}";
    std::string semver = inherited(raw, edition, "semver");
    if (semver.empty()) throw std::runtime_error(fmt::format("{}: 'semver' is missing", file));
    e.semver = parse_semver_grammar(semver);
    for (const auto& r : rules) {
      e.rules.push_back(parse_rule(r, file));
      Rule& rule = e.rules.back();
      if (rule.url.empty()) {
        std::string url = rule_url;
        for (auto [key, value] : {std::pair<std::string, std::string>{"{source}", e.source}, {"{id}", rule.id}})
          for (auto at = url.find(key); at != std::string::npos; at = url.find(key, at + value.size()))
            url.replace(at, key.size(), value);
        rule.url = url;
      }
    }
    if (!e.ncsc.empty() && !cat.ncsc_.count(e.ncsc))
      throw std::runtime_error(fmt::format("{}: no NCSC TLS table of version {}", file, e.ncsc));
    cat.editions_.push_back(std::move(e));
  }
  // Each edition carries the modules one of its rules requires, that rule named.
  for (auto& e : cat.editions_)
    for (const auto& m : cat.modules_)
      if (const Rule* r = requiring_rule(e, m)) {
        e.modules.push_back(m);
        e.modules.back().rule = r->id;
        for (const auto& rule : m.rules)
          if (std::any_of(e.rules.begin(), e.rules.end(), [&](const Rule& own) { return own.id == rule.id; }))
            throw std::runtime_error(fmt::format("module {}: rule {} is also a rule of edition {}", m.id, rule.id, e.edition));
      }
  // Every name --edition accepts means one edition.
  std::vector<std::string> names{"latest"};
  for (const auto& e : cat.editions_) {
    names.push_back(e.edition);
    names.insert(names.end(), e.aliases.begin(), e.aliases.end());
  }
  std::sort(names.begin(), names.end());
  if (auto dup = std::adjacent_find(names.begin(), names.end()); dup != names.end())
    throw std::runtime_error(fmt::format("edition name '{}' is used twice (as an edition or an alias)", *dup));
  return cat;
}

const Catalogue& Catalogue::builtin() {
  static const Catalogue cat = [] {
    // Each file's tree as JSON text (catalogue-compile made it from the YAML at build time).
    std::vector<std::pair<std::string, Tree>> files;
    for (const auto& f : embedded_files()) files.emplace_back(std::string(f.name), Tree::parse(f.data));
    return load_trees(std::move(files));
  }();
  return cat;
}

const Module* Catalogue::module(std::string_view id) const {
  for (const auto& m : modules_)
    if (m.id == id) return &m;
  return nullptr;
}

const Edition* Catalogue::edition(const std::string& name) const {
  for (const auto& e : editions_)
    if (e.edition == name) return &e;
  return nullptr;
}

namespace {
// 2.0.0 < 2.0.10 < 2.1.0; 1.0 < 2.0.0: numbers compared part by part.
bool older(const std::string& a, const std::string& b) {
  auto parts = [](const std::string& v) {
    std::vector<long> out;
    std::size_t i = 0;
    while (i < v.size()) {
      std::size_t dot = v.find('.', i);
      std::string part = v.substr(i, dot == std::string::npos ? std::string::npos : dot - i);
      out.push_back(part.find_first_not_of("0123456789") == std::string::npos && !part.empty() && part.size() < 10
                        ? std::stol(part)
                        : -1);
      if (dot == std::string::npos) break;
      i = dot + 1;
    }
    return out;
  };
  return parts(a) < parts(b);
}
}  // namespace

const Edition* Catalogue::latest() const {
  const Edition* newest = nullptr;
  for (const auto& e : editions_)
    if (!newest || older(newest->edition, e.edition)) newest = &e;
  return newest;
}

const Edition* Catalogue::resolve(const std::string& name) const {
  if (name == "latest") return latest();
  if (const Edition* e = edition(name)) return e;
  for (const auto& e : editions_)
    if (std::find(e.aliases.begin(), e.aliases.end(), name) != e.aliases.end()) return &e;
  return nullptr;
}

std::vector<std::string> Catalogue::accepted_names() const {
  std::vector<std::string> out;
  for (const auto& e : editions_) {
    out.push_back(e.edition);
    out.insert(out.end(), e.aliases.begin(), e.aliases.end());
  }
  out.push_back("latest");
  return out;
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

const NcscTable* Catalogue::ncsc(const std::string& version) const {
  if (ncsc_.empty()) return nullptr;
  if (version.empty()) return &ncsc_.rbegin()->second;
  auto it = ncsc_.find(version);
  return it == ncsc_.end() ? nullptr : &it->second;
}

}  // namespace adrprobe::catalogue
