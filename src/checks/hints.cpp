// Evidence for functional rules: hints for a reviewer, never a verdict.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <regex>
#include <set>

#include "checks/geo.hpp"
#include "checks/registry.hpp"
#include "oas/pointer.hpp"
#include "oas/walk.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::checks {
namespace {

constexpr std::size_t kMaxHints = 10;

// Literal path segments of the documented paths (no {parameters}).
std::vector<std::pair<std::string, std::string>> segments(const Evidence& ev) {
  std::vector<std::pair<std::string, std::string>> out;  // segment, path
  for (const auto& p : ev.paths)
    for (const auto& s : split(p.template_path, '/'))
      if (!s.empty() && s.front() != '{') out.emplace_back(s, p.template_path);
  return out;
}

// One hint per distinct observation, with how many responses showed it.
class Seen {
 public:
  void add(const std::string& what, int exchange) {
    auto [it, fresh] = by_what_.try_emplace(what, std::vector<int>{});
    if (fresh) order_.push_back(what);
    it->second.push_back(exchange);
  }
  std::vector<std::string> hints() const {
    std::vector<std::string> out;
    for (const auto& w : order_) {
      const auto& ids = by_what_.at(w);
      out.push_back(ids.size() == 1 ? fmt::format("{} (exchange #{})", w, ids.front())
                                    : fmt::format("{} ({} responses, e.g. exchange #{})", w, ids.size(), ids.front()));
    }
    return out;
  }

 private:
  std::map<std::string, std::vector<int>> by_what_;
  std::vector<std::string> order_;
};

// Where for_each_object stands: the keys and indexes from the root. The
// pointer is made only when a visitor asks for it (most never do).
class ObjectPath {
 public:
  struct Step {
    const oas::Value* node;
    std::size_t left;             // children not yet entered (entered last to first)
    const oas::Value* key;        // how this node was reached from its parent: a member key,
    std::size_t index;            // or an array index (key == nullptr); neither for the root
  };
  explicit ObjectPath(std::vector<Step>& steps) : steps_(steps) {}
  // "/paths/~1a/get", "" for the root.
  std::string pointer() const {
    std::string out;
    for (std::size_t i = 1; i < steps_.size(); ++i)
      out += "/" + (steps_[i].key ? oas::escape_token(oas::str(*steps_[i].key)) : std::to_string(steps_[i].index));
    return out;
  }
  // The member key this object stands under (nullptr for the root and array items).
  const oas::Value* key() const { return steps_.back().key; }

 private:
  std::vector<Step>& steps_;
};

// Visits every object of doc, depth first (the children of a node last to
// first), at most 200,000 objects and arrays; stops early when visit returns
// false.
void for_each_object(const oas::Value& doc, const std::function<bool(const oas::Value&, const ObjectPath&)>& visit) {
  std::vector<ObjectPath::Step> steps;
  ObjectPath path(steps);
  std::size_t visited = 0;
  // Enters a node: visits it when it is an object; false to stop.
  auto enter = [&](const oas::Value* n, const oas::Value* key, std::size_t index) {
    if (++visited >= 200000) return false;
    steps.push_back({n, oas::size(*n), key, index});
    return !n->IsObject() || visit(*n, path);
  };
  if (!oas::is_structured(doc) || !enter(&doc, nullptr, 0)) return;
  while (!steps.empty()) {
    auto& top = steps.back();
    if (top.left == 0) {
      steps.pop_back();
      continue;
    }
    std::size_t i = --top.left;
    const oas::Value* n = top.node;
    bool more = true;
    if (n->IsObject()) {
      const auto& member = n->MemberBegin()[static_cast<std::ptrdiff_t>(i)];
      if (oas::is_structured(member.value)) more = enter(&member.value, &member.name, 0);
    } else if (const auto& item = (*n)[static_cast<rapidjson::SizeType>(i)]; oas::is_structured(item)) {
      more = enter(&item, nullptr, i);
    }
    if (!more) return;
  }
}

void add(std::vector<std::string>& hints, std::set<std::string>& seen, std::string hint) {
  if (hints.size() < kMaxHints && seen.insert(hint).second) hints.push_back(std::move(hint));
}

// collections=false: verb-like segments; true: singular collection names.
std::vector<std::string> naming(const Evidence& ev, bool collections) {
  static const std::set<std::string> verbs{
      "get", "create", "update", "delete", "remove", "add", "list", "fetch", "set", "save", "insert", "edit",
      "find", "do", "execute", "run", "process", "send", "haal", "maak", "wijzig", "verwijder", "voegtoe",
      "bewerk", "opslaan", "ophalen", "aanmaken", "wijzigen", "verwijderen", "toevoegen", "zoeken", "verstuur"};
  std::vector<std::string> hints;
  std::set<std::string> seen;
  for (const auto& p : ev.paths) {
    auto segs = split(p.template_path, '/');
    for (std::size_t i = 0; i < segs.size(); ++i) {
      const std::string& s = segs[i];
      if (s.empty() || s.front() == '{') continue;
      std::string word = to_lower(s);
      std::string head = word.substr(0, word.find_first_of("-_"));
      // camelCase: "getGebouwen" starts with the verb "get".
      for (std::size_t k = 1; k < s.size(); ++k)
        if (std::isupper(static_cast<unsigned char>(s[k]))) {
          head = to_lower(s.substr(0, k));
          break;
        }
      if (!word.empty() && word.front() == '_') continue;  // operation resources like /_zoek are allowed
      if (!collections && (verbs.count(word) || verbs.count(head)))
        add(hints, seen, fmt::format("'{}' in {} looks like a verb: resources are nouns", s, p.template_path));
      if (!collections) continue;
      bool collection = i + 1 < segs.size() && !segs[i + 1].empty() && segs[i + 1].front() == '{';
      bool plural_form = word.size() > 2 && (word.back() == 's' || word.ends_with("en") || word.ends_with("'s"));
      if (collection && !plural_form)
        add(hints, seen,
            fmt::format("'{}' in {} is followed by an identifier but does not look plural", s, p.template_path));
    }
  }
  return hints;
}

std::vector<std::string> language(const Evidence& ev) {
  static const std::set<std::string> english{
      "users", "user", "orders", "order", "buildings", "building", "addresses", "address", "persons", "person",
      "people", "customers", "customer", "products", "product", "items", "item", "accounts", "account",
      "search", "documents", "document", "files", "cases", "case", "events", "messages", "payments",
      "invoices", "companies", "company", "employees", "organisations", "organizations", "locations"};
  std::vector<std::string> hints;
  std::set<std::string> seen;
  for (const auto& [seg, path] : segments(ev))
    if (english.count(to_lower(seg)))
      add(hints, seen, fmt::format("'{}' in {} is English: define interfaces in Dutch unless an official English glossary exists", seg, path));
  return hints;
}

// Whether text contains one of words (lowercase), ignoring ASCII case: what
// std::regex_search with icase did for an alternation of literals, in one pass
// per word and without a regex engine per path segment and parameter.
bool contains_word(std::string_view text, std::initializer_list<std::string_view> words) {
  std::string lower = to_lower(text);
  for (std::string_view w : words)
    if (lower.find(w) != std::string::npos) return true;
  return false;
}

// A platform, framework or database named in a path segment.
bool names_technology(std::string_view seg) {
  return contains_word(seg, {".php", ".asp", ".jsp", ".cgi", "cgi-bin", "servlet", "wp-json", "django", "rails", "spring",
                             "laravel", "mongo", "mysql", "postgres", "oracle", "sqlserver", "hibernate", "tomcat"});
}

// A word for sensitive data (a BSN, a secret) in a path segment or parameter name.
bool names_sensitive(std::string_view name) {
  return contains_word(name, {"bsn", "burgerservicenummer", "token", "apikey", "api-key", "api_key", "password",
                              "wachtwoord", "secret", "sessionid", "session-id", "session_id", "credential", "pincode"});
}

std::vector<std::string> implementation(const Evidence& ev) {
  static const std::regex server_version(R"([A-Za-z-]+/[0-9]+(\.[0-9]+)*)");
  std::vector<std::string> hints;
  std::set<std::string> seen;
  for (const auto& [seg, path] : segments(ev))
    if (seg.size() <= 256 && names_technology(seg))
      add(hints, seen, fmt::format("'{}' in {} names a platform, framework or database", seg, path));
  Seen headers;
  std::map<std::string, bool, std::less<>> server_seen;
  for (const auto& e : ev.exchanges) {
    if (!e.to_api || !e.status) continue;
    // A field sent on several lines is read as one value (a proxy's Server line beside the origin's).
    if (auto v = e.response_headers.joined("x-powered-by")) headers.add("X-Powered-By: " + *v, e.id);
    if (auto v = e.response_headers.joined("x-aspnet-version")) headers.add("X-AspNet-Version: " + *v, e.id);
    if (auto v = e.response_headers.joined("server"); v && v->size() <= 256) {
      // Every response of a server names it alike: judged once per value.
      auto [at, fresh] = server_seen.try_emplace(*v, false);
      if (fresh) at->second = std::regex_search(*v, server_version);
      if (at->second) headers.add("Server: " + *v + " discloses a product version", e.id);
    }
    // Only the start of an error body: a stack trace shows there.
    if (*e.status >= 400 && looks_like_stack_trace(std::string_view(e.body).substr(0, 4096)))
      add(hints, seen, fmt::format("{} {} → {}: the error body looks like a stack trace (exchange #{})", e.method,
                                   url_path(e.url), *e.status, e.id));
  }
  for (auto& h : headers.hints()) add(hints, seen, std::move(h));
  return hints;
}

std::vector<std::string> stateless(const Evidence& ev) {
  std::vector<std::string> hints;
  std::set<std::string> seen;
  Seen cookies;
  for (const auto& e : ev.exchanges) {
    if (!e.to_api || !e.status) continue;
    // Name only: a cookie value may be a session secret.
    for (std::string_view v : e.response_headers.values("set-cookie"))  // every Set-Cookie line
      cookies.add("sets cookie '" + trim(std::string(v.substr(0, v.find('=')))) + "': session state on the server?", e.id);
  }
  for (auto& h : cookies.hints()) add(hints, seen, std::move(h));
  return hints;
}

std::vector<std::string> geospatial(const Evidence& ev) {
  static const std::set<std::string> geo_keys{"geometry", "geometrie", "coordinates", "coordinaten", "bbox",
                                              "geom", "crs", "point", "polygon", "multipolygon", "linestring"};
  std::vector<std::string> hints;
  std::set<std::string> seen;
  const oas::Value* doc = ev.doc();
  if (!doc) return hints;
  for_each_object(*doc, [&](const oas::Value& node, const ObjectPath& path) {
    if (const oas::Value* key = path.key(); key && oas::str(*key) == "properties")
      for (const auto& m : node.GetObject())
        if (geo_keys.count(to_lower(oas::key_of(m))))
          add(hints, seen, fmt::format("property '{}' at #{}/{} looks geospatial: apply the geospatial module",
                                       oas::key_of(m), path.pointer(), oas::escape_token(oas::key_of(m))));
    return hints.size() < kMaxHints;
  });
  return hints;
}

std::vector<std::string> sensitive_uris(const Evidence& ev) {
  std::vector<std::string> hints;
  std::set<std::string> seen;
  for (const auto& p : ev.paths)
    for (const auto& seg : split(p.template_path, '/'))
      if (seg.size() <= 256 && names_sensitive(seg))
        add(hints, seen, fmt::format("'{}' in {} may put sensitive data in the URI", seg, p.template_path));
  const oas::Value* doc = ev.doc();
  if (!doc) return hints;
  // Parameter objects in the path or query string (anywhere in the document).
  for_each_object(*doc, [&](const oas::Value& n, const ObjectPath&) {
    auto in = oas::string_member(&n, "in");
    auto name = oas::string_member(&n, "name");
    if (in && name && (*in == "query" || *in == "path") && name->size() <= 256 && names_sensitive(*name))
      add(hints, seen, fmt::format("{} parameter '{}' may put sensitive data in the URI", *in, *name));
    return hints.size() < kMaxHints;
  });
  return hints;
}

std::vector<std::string> verbs(const Evidence& ev) { return naming(ev, false); }
std::vector<std::string> collections(const Evidence& ev) { return naming(ev, true); }

}  // namespace

bool looks_like_stack_trace(std::string_view body) {
  auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  auto word = [&](char c) { return alpha(c) || (c >= '0' && c <= '9') || c == '_'; };
  auto at = [&](std::size_t i, std::string_view lit) { return body.compare(i, lit.size(), lit) == 0; };
  for (std::size_t i = 0; i < body.size(); ++i) {
    switch (body[i]) {
      case 'T':
        if (at(i, "Traceback (most recent call last)")) return true;
        break;
      case 'E':
        if (at(i, "Exception in thread")) return true;
        break;
      case 'S':
        if (at(i, "Stack trace:") || at(i, "SQLSTATE[")) return true;
        if (at(i, "System.")) {  // System.<letters>Exception
          std::size_t j = i + 7, from = j;
          while (j < body.size() && alpha(body[j])) ++j;
          std::string_view name = body.substr(from, j - from);
          if (name.size() > 9 && name.substr(name.size() - 9) == "Exception") return true;
        }
        break;
      case 'O':
        if (at(i, "ORA-") && i + 9 <= body.size() &&
            std::all_of(body.begin() + static_cast<long>(i) + 4, body.begin() + static_cast<long>(i) + 9,
                        [](char c) { return c >= '0' && c <= '9'; }))
          return true;
        break;
      case 'a':  // \bat [a-z]+(\.[a-zA-Z_$]+)+\(   (a Java frame: "at com.example.Foo.bar(")
        if ((i == 0 || !word(body[i - 1])) && at(i, "at ")) {
          std::size_t j = i + 3, from = j;
          while (j < body.size() && lower(body[j])) ++j;
          if (j == from) break;
          int parts = 0;
          while (j < body.size() && body[j] == '.') {
            std::size_t k = j + 1;
            while (k < body.size() && (alpha(body[k]) || body[k] == '_' || body[k] == '$')) ++k;
            if (k == j + 1) break;
            ++parts;
            j = k;
          }
          if (parts && j < body.size() && body[j] == '(') return true;
        }
        break;
      default:
        break;
    }
  }
  return false;
}

// Defined beside the checks they read.
std::vector<std::string> http_methods_hints(const Evidence& ev);  // http_methods.cpp
std::vector<std::string> timezone_hints(const Evidence& ev);      // date_time.cpp

const std::vector<HintProducer>& hint_producers() {
  static const std::vector<HintProducer> producers{
      {"naming", verbs},
      {"plural", collections},
      {"language", language},
      {"implementation", implementation},
      {"stateless", stateless},
      {"geospatial", geospatial},
      {"sensitive-uris", sensitive_uris},
      {"http-methods", http_methods_hints, {"HM-0", "HM-1", "HM-2", "HM-3"}},
      {"timezone", timezone_hints, {"DT-1", "DT-5"}},
      {"geometric-context", geometric_context_hints},
  };
  return producers;
}

}  // namespace adrprobe::checks
