#include "batch/don.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>
#include <stdexcept>

#include "batch/targets.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::batch::don {

using nlohmann::json;

const std::vector<std::string>& lifecycles() {
  static const std::vector<std::string> names{"active", "deprecated", "sunset", "retired"};
  return names;
}

namespace {

// A member that is a string, else "" (DON's optional texts).
std::string text_member(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

const json& object_member(const json& object, const char* key) {
  static const json none = json::object();
  auto it = object.find(key);
  return it != object.end() && it->is_object() ? *it : none;
}

// The ApiSummary fields of `entry` into `api`; "" or why it cannot be read.
std::string read_summary(const json& entry, Api& api) {
  if (!entry.is_object()) return "not an object";
  auto id = entry.find("id");
  if (id == entry.end() || !id->is_string() || id->get_ref<const std::string&>().empty()) return "no id";
  const std::string& text = id->get_ref<const std::string&>();
  if (text.size() > kMaxIdBytes) return fmt::format("an id of {} bytes (at most {})", text.size(), kMaxIdBytes);
  api.id = text;
  api.title = text_member(entry, "title");
  const json& organisation = object_member(entry, "organisation");
  api.organisation_uri = text_member(organisation, "uri");
  api.organisation_label = text_member(organisation, "label");
  api.lifecycle = text_member(object_member(entry, "lifecycle"), "status");
  api.adr_score.reset();
  if (auto score = entry.find("adrScore"); score != entry.end() && score->is_number()) {
    double value = score->get<double>();
    if (value >= 0 && value <= 100) api.adr_score = value;
  }
  return "";
}

json parse_answer(const std::string& body) {
  try {
    return json::parse(body);
  } catch (const json::exception& e) {
    throw std::runtime_error(fmt::format("not JSON ({})", escape_control(e.what())));
  }
}

}  // namespace

Page parse_page(const std::string& body) {
  json j = parse_answer(body);
  if (!j.is_array()) throw std::runtime_error("not a JSON array of APIs");
  Page page;
  for (std::size_t i = 0; i < j.size(); ++i) {
    Api api;
    if (std::string why = read_summary(j[i], api); !why.empty()) {
      if (++page.unreadable_count <= kMaxUnreadableListed)
        page.unreadable.push_back(fmt::format("entry {} of a page: {}", i + 1, why));
    } else
      page.apis.push_back(std::move(api));
  }
  return page;
}

void read_detail(const std::string& body, Api& api) {
  json j = parse_answer(body);
  Api read;
  if (std::string why = read_summary(j, read); !why.empty()) throw std::runtime_error(why);
  if (read.id != api.id) throw std::runtime_error("the answer is about another id");
  api.title = std::move(read.title);
  api.organisation_uri = std::move(read.organisation_uri);
  api.organisation_label = std::move(read.organisation_label);
  api.lifecycle = std::move(read.lifecycle);
  api.adr_score = read.adr_score;
  api.servers.clear();
  if (auto servers = j.find("servers"); servers != j.end() && servers->is_array())
    for (const auto& server : *servers)
      if (server.is_object()) api.servers.push_back(text_member(server, "url"));
  if (auto oas = j.find("oasUrl"); oas != j.end() && oas->is_string()) api.oas_url = oas->get<std::string>();
  api.auth.clear();
  if (auto auth = j.find("auth"); auth != j.end() && auth->is_array())
    for (const auto& a : *auth)
      if (a.is_string()) api.auth.push_back(a.get<std::string>());
}

bool link_has_next(std::string_view link) {
  // Each link's parameters follow its <URI>; rel may hold several types.
  for (const auto& part : split(link, ';')) {
    std::string param = to_lower(trim(part));
    auto rel = param.rfind("rel", 0) == 0 ? param.find('=') : std::string::npos;
    if (rel == std::string::npos || trim(param.substr(3, rel - 3)) != "") continue;
    std::string value = trim(param.substr(rel + 1));
    value = value.substr(0, value.find(','));  // the next link starts after a comma
    for (char quote : {'"', '\''}) value.erase(std::remove(value.begin(), value.end(), quote), value.end());
    for (const auto& type : split(value, ' '))
      if (trim(type) == "next") return true;
  }
  return false;
}

std::string base_url_problem(const std::string& url) {
  if (url.empty()) return "no server URL";
  std::string error;
  auto parsed = parse_url(url, &error);
  if (!parsed) return "its server URL is no URL";
  if (parsed->scheme != "http" && parsed->scheme != "https") return "its server URL is not http(s)";
  if (parsed->host.empty()) return "its server URL has no host";
  if (!parsed->query.empty() || url.find('#') != std::string::npos) return "its server URL has a query or fragment";
  return "";
}

namespace {

// One target as written: its keys in order.
struct Entry {
  std::vector<std::pair<std::string, YAML::Node>> keys;
  std::string owner, name;  // the order of the file

  YAML::Node* find(const std::string& key) {
    for (auto& [k, v] : keys)
      if (k == key) return &v;
    return nullptr;
  }
  void set(const std::string& key, YAML::Node value) {
    if (YAML::Node* node = find(key)) *node = value;
    else keys.emplace_back(key, value);
  }
  std::string scalar(const std::string& key) {
    YAML::Node* node = find(key);
    return node && node->IsScalar() ? node->Scalar() : std::string();
  }
};

// A copy of a node of the merge file with ${NAME} back in every scalar.
YAML::Node restored(const YAML::Node& node, const EnvPlaceholders& env) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar: return YAML::Node(env.restore(node.Scalar()));
    case YAML::NodeType::Sequence: {
      YAML::Node out(YAML::NodeType::Sequence);
      for (const auto& item : node) out.push_back(restored(item, env));
      return out;
    }
    case YAML::NodeType::Map: {
      YAML::Node out(YAML::NodeType::Map);
      for (const auto& kv : node) out[restored(kv.first, env)] = restored(kv.second, env);
      return out;
    }
    default: return YAML::Node(YAML::NodeType::Null);
  }
}

// A scalar written plain only when it cannot read back as anything else:
// letters and digits first, then a few URL characters, never a null word.
bool plain_safe(const std::string& s) {
  if (s.empty() || !std::isalnum(static_cast<unsigned char>(s.front())) || s.back() == ':') return false;
  if (s == "null" || s == "Null" || s == "NULL") return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("._/:=+-").find(c) != std::string_view::npos;
  });
}

// Anything else double-quoted: yaml-cpp escapes what needs it. Text holding an
// invisible character (a bidi control, U+200B, ...) is written with every
// non-ASCII character escaped, so a diff of the committed file shows it
// instead of being reordered by it or showing two names as one.
void emit_scalar(YAML::Emitter& out, const std::string& s) {
  if (plain_safe(s)) {
    out << s;
    return;
  }
  bool invisible = false;
  for (std::size_t i = 0; i < s.size() && !invisible; ++i)
    invisible = invisible_character(std::string_view(s).substr(i)).second > 0;
  if (invisible) out.SetOutputCharset(YAML::EscapeNonAscii);
  out << YAML::DoubleQuoted << s;
  if (invisible) out.SetOutputCharset(YAML::EmitNonAscii);
}

void emit(YAML::Emitter& out, const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar: emit_scalar(out, node.Scalar()); break;
    case YAML::NodeType::Sequence:
      out << YAML::BeginSeq;
      for (const auto& item : node) emit(out, item);
      out << YAML::EndSeq;
      break;
    case YAML::NodeType::Map:
      out << YAML::BeginMap;
      for (const auto& kv : node) {
        out << YAML::Key;
        emit(out, kv.first);
        out << YAML::Value;
        emit(out, kv.second);
      }
      out << YAML::EndMap;
      break;
    default: out << YAML::Null;
  }
}

// A name from a title: lower-case ASCII letters and digits, '-' between runs.
std::string slug(const std::string& title) {
  std::string out;
  for (char c : title) {
    if (std::isalnum(static_cast<unsigned char>(c)) && static_cast<unsigned char>(c) < 0x80) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
    if (out.size() >= kMaxNameBytes) break;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

bool http_url(const std::string& text) {
  auto url = parse_url(text);
  return url && (url->scheme == "http" || url->scheme == "https") && !url->host.empty();
}

std::string score_text(double score) { return fmt::format("{}", score); }

// A target's labels but `don` (which says whether DON lists it), as a new map.
YAML::Node labels_but_don(Entry& e) {
  YAML::Node out(YAML::NodeType::Map);
  if (YAML::Node* labels = e.find("labels"); labels && labels->IsMap())
    for (const auto& kv : *labels)
      if (kv.first.Scalar() != "don") out[kv.first.Scalar()] = kv.second;
  return out;
}

// DON's fields of a target, refreshed on every run.
void set_don_fields(Entry& e, const Api& api, bool keep_openapi) {
  e.set("base_url", YAML::Node(api.servers.front()));
  if (api.oas_url && http_url(*api.oas_url) && (!keep_openapi || !e.find("openapi")))
    e.set("openapi", YAML::Node(*api.oas_url));
  YAML::Node merged = labels_but_don(e);
  merged["don_id"] = api.id;
  merged["lifecycle"] = api.lifecycle;
  merged["auth"] = join(api.auth, ", ");
  e.set("labels", merged);
  e.set("don_adr_score", api.adr_score ? YAML::Node(score_text(*api.adr_score)) : YAML::Node(YAML::NodeType::Null));
}

// A value DON gave that a register cannot hold, so the API cannot be written:
// "${" (a register reads ${NAME} from the environment in header values and
// refuses it elsewhere), or an owner or label value (the organisation, don_id,
// lifecycle, auth) longer than a register allows (max_carried_bytes).
std::string value_problem(const Api& api) {
  std::vector<const std::string*> values{&api.title, &api.organisation_label, &api.lifecycle, &api.id, &api.servers.front()};
  for (const auto& a : api.auth) values.push_back(&a);
  if (api.oas_url) values.push_back(&*api.oas_url);
  for (const std::string* value : values)
    if (value->find("${") != std::string::npos) return "a value holds '${', which a register reads from the environment";
  for (const std::string& carried : {api.organisation_label, api.id, api.lifecycle, join(api.auth, ", ")})
    if (carried.size() > max_carried_bytes)
      return fmt::format("a value is longer than the {} bytes a target's owner or label may hold", max_carried_bytes);
  return "";
}

std::string who(const Api& api) {
  return fmt::format("{} ({})", escape_control(truncate_utf8(api.title, 120)), escape_control(api.id));
}

}  // namespace

Written write_register(const WriteInput& input) {
  Written written;
  // The merge file: read as batch reads it (so a file batch refuses is refused
  // here), and its nodes kept to write back.
  std::vector<Target> kept;
  YAML::Node merge_defaults;
  std::vector<Entry> entries;
  std::vector<bool> matched;
  if (!input.merge_text.empty()) {
    kept = parse_targets(input.merge_text, input.merge_file);
    EnvPlaceholders env(input.merge_text);
    YAML::Node doc = YAML::Load(env.protect(input.merge_text));
    if (doc["defaults"]) merge_defaults = restored(doc["defaults"], env);
    for (std::size_t i = 0; i < kept.size(); ++i) {
      Entry e;
      for (const auto& kv : restored(doc["targets"][i], env)) e.keys.emplace_back(kv.first.Scalar(), kv.second);
      entries.push_back(std::move(e));
    }
    matched.assign(kept.size(), false);
  }
  // The merge file's targets by don_id, and those without one by base URL (the first of each).
  std::map<std::string, std::size_t> by_id, by_url;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    auto id = std::find_if(kept[i].labels.begin(), kept[i].labels.end(), [](const auto& l) { return l.first == "don_id"; });
    if (id != kept[i].labels.end()) by_id.emplace(id->second, i);
    else by_url.emplace(strip_trailing_slash(kept[i].base_url), i);
  }
  auto find_kept = [&](const Api& api) -> std::optional<std::size_t> {
    if (auto it = by_id.find(api.id); it != by_id.end()) return it->second;
    if (api.state != Api::State::wanted || api.servers.empty()) return std::nullopt;
    // One target for one API: a second API on the same URL is a target of its own.
    if (auto it = by_url.find(strip_trailing_slash(api.servers.front())); it != by_url.end() && !matched[it->second])
      return it->second;
    return std::nullopt;
  };

  // The APIs in id order: the file is the same whatever order DON answered in.
  std::vector<const Api*> apis;
  for (const auto& api : input.apis) apis.push_back(&api);
  std::sort(apis.begin(), apis.end(), [](const Api* a, const Api* b) { return a->id < b->id; });

  std::vector<std::string> notes;
  std::vector<const Api*> fresh;
  for (const Api* api : apis) {
    std::string why = api->why;
    if (api->state == Api::State::wanted) {
      if (api->servers.empty()) why = "no server URL";
      else if (std::string problem = base_url_problem(api->servers.front()); !problem.empty())
        why = fmt::format("{} ('{}')", problem, escape_control(truncate_utf8(api->servers.front(), 200)));
      else why = value_problem(*api);
    }
    auto at = find_kept(*api);
    if (at) matched[*at] = true;
    if (!why.empty()) {
      // An API whose detail could not be read keeps its merged target as it was.
      if (at && api->state == Api::State::unfetched) {
        written.left_out.push_back(fmt::format("{}: {} (kept as it was)", who(*api), why));
        continue;
      }
      if (at) entries[*at].keys.clear();  // retired, filtered or unusable: not written
      written.left_out.push_back(fmt::format("{}: {}", who(*api), why));
      continue;
    }
    if (at) {
      set_don_fields(entries[*at], *api, true);
      if (kept[*at].owner.empty() && !api->organisation_label.empty())
        entries[*at].set("owner", YAML::Node(api->organisation_label));
    } else {
      fresh.push_back(api);
    }
    const std::string& server = api->servers.front();
    if (std::string note = input.address_note ? input.address_note(parse_url(server)->host) : ""; !note.empty())
      notes.push_back(fmt::format("{}: {}", who(*api), note));
    if (api->oas_url && !api->oas_url->empty()) {
      if (!http_url(*api->oas_url))
        notes.push_back(fmt::format("{}: its oasUrl is not an http(s) URL and is not written", who(*api)));
      else if (auto oas = parse_url(*api->oas_url); oas->host != parse_url(server)->host)
        notes.push_back(fmt::format("{}: its oasUrl is on another host ({})", who(*api), escape_control(oas->host)));
    }
  }
  for (const auto& why : input.unreadable) written.left_out.push_back(why);
  // The merge file's targets DON does not list.
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (matched[i]) continue;
    YAML::Node merged = labels_but_don(entries[i]);
    merged["don"] = "absent";
    entries[i].set("labels", merged);
    ++written.absent;
  }

  // Names: every kept target keeps its own; a new one gets its title's slug,
  // DON's id when two titles give one slug, a number after it when even that
  // is taken (ids that differ in case only: one file name).
  std::set<std::string> stems;
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (!entries[i].keys.empty()) stems.insert(kept[i].stem);
  std::map<std::string, int> slugs;
  for (const Api* api : fresh) ++slugs[slug(api->title)];
  for (const Api* api : fresh) {
    std::string name = slug(api->title);
    if (name.empty() || slugs[name] > 1) name = api->id;
    std::string candidate = name;
    for (int n = 2; stems.count(file_stem(candidate)) || file_stem(candidate) == "summary"; ++n)
      candidate = fmt::format("{}-{}", name, n);
    stems.insert(file_stem(candidate));
    Entry e;
    e.set("name", YAML::Node(candidate));
    set_don_fields(e, *api, false);
    if (!api->organisation_label.empty()) e.set("owner", YAML::Node(api->organisation_label));
    entries.push_back(std::move(e));
    ++written.from_don;
  }

  // The order of the file: owner, then name (a kept target without a name by its stem).
  std::vector<Entry*> order;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    Entry& e = entries[i];
    if (e.keys.empty()) continue;
    e.owner = e.find("owner") || i >= kept.size() ? e.scalar("owner") : kept[i].owner;
    e.name = e.find("name") ? e.scalar("name") : kept[i].stem;
    order.push_back(&e);
  }
  std::sort(order.begin(), order.end(), [](const Entry* a, const Entry* b) {
    return std::tie(a->owner, a->name) < std::tie(b->owner, b->name);
  });
  written.targets = order.size();

  const std::vector<std::string> first{"name", "base_url", "openapi", "owner", "labels", "don_adr_score"};
  YAML::Emitter out;
  out << YAML::Comment(fmt::format(
             "Written by adrprobe register from {}. Each run refreshes DON's fields (base_url, openapi when the "
             "target has none, labels don_id, lifecycle and auth, don_adr_score) and keeps every other setting.",
             escape_control(input.source)))
      << YAML::Newline;
  out << YAML::BeginMap;
  if (merge_defaults && merge_defaults.IsMap() && merge_defaults.size() > 0) {
    out << YAML::Key << "defaults" << YAML::Value;
    emit(out, merge_defaults);
  }
  out << YAML::Key << "targets" << YAML::Value << YAML::BeginSeq;
  for (Entry* e : order) {
    out << YAML::BeginMap;
    for (const auto& key : first)
      if (YAML::Node* node = e->find(key)) {
        out << YAML::Key << key << YAML::Value;
        emit(out, *node);
      }
    for (const auto& [key, node] : e->keys)
      if (std::find(first.begin(), first.end(), key) == first.end()) {
        out << YAML::Key;
        emit_scalar(out, key);
        out << YAML::Value;
        emit(out, node);
      }
    out << YAML::EndMap;
  }
  out << YAML::EndSeq << YAML::EndMap;
  std::sort(written.left_out.begin(), written.left_out.end());
  std::sort(notes.begin(), notes.end());
  if (!written.left_out.empty()) {
    out << YAML::Newline << YAML::Comment(fmt::format("Left out ({}):", written.left_out.size()));
    for (const auto& line : written.left_out) out << YAML::Newline << YAML::Comment("  " + line);
  }
  if (!notes.empty()) {
    out << YAML::Newline << YAML::Comment("Worth knowing (written as DON gives them; batch probes them as any target):");
    for (const auto& line : notes) out << YAML::Newline << YAML::Comment("  " + line);
  }
  if (!out.good()) throw std::logic_error(std::string("the register could not be written: ") + out.GetLastError());
  written.yaml = std::string(out.c_str()) + "\n";
  if (written.yaml.size() > max_register_bytes)
    throw std::runtime_error(fmt::format("the register would be larger than {} MiB, more than batch reads",
                                         max_register_bytes >> 20));
  return written;
}

}  // namespace adrprobe::batch::don
