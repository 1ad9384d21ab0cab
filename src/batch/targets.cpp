#include "batch/targets.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <string_view>
#include <set>
#include <stdexcept>

#include "util/files.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::batch {

const std::vector<std::string>& option_keys() {
  static const std::vector<std::string> keys{"edition",    "openapi",  "timeout",      "rate",
                                             "concurrency", "max_paths", "deadline",     "ca_file",
                                             "insecure",   "allow_unsafe", "user_agent", "ref_hosts"};
  return keys;
}

namespace {

struct Raw {
  std::map<std::string, std::string> options;
  std::vector<std::pair<std::string, std::string>> headers;
  std::map<std::string, std::string> params;
};

std::string scalar(const YAML::Node& node, const std::string& where) {
  if (!node.IsScalar()) throw std::runtime_error(fmt::format("{}: expected a single value", where));
  return node.Scalar();
}

// The keys of a target or of `defaults` (into `raw`, over what it holds).
void read_entry(const YAML::Node& node, const std::string& where, Raw& raw, std::string* name, std::string* base_url) {
  if (!node.IsMap()) throw std::runtime_error(fmt::format("{}: expected a mapping of keys", where));
  for (const auto& kv : node) {
    std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "?";
    std::string at = fmt::format("{}: {}", where, escape_control(key));
    if (key == "name" && name) {
      *name = scalar(kv.second, at);
    } else if (key == "base_url" && base_url) {
      *base_url = scalar(kv.second, at);
    } else if (key == "name" || key == "base_url") {
      // Only `defaults` reads without them: its "unknown key" would list them as known.
      throw std::runtime_error(fmt::format("{}: '{}' belongs to each target, not to defaults", where, key));
    } else if (key == "headers") {
      if (!kv.second.IsMap()) throw std::runtime_error(at + ": expected a mapping {Name: value}");
      for (const auto& h : kv.second) {
        std::string hname = h.first.IsScalar() ? h.first.Scalar() : "";
        // The value may be a secret: an error names the header, never shows the value.
        if (!h.second.IsScalar())
          throw std::runtime_error(fmt::format("{}: header {}: expected a single value", at, escape_control(hname)));
        auto it = std::find_if(raw.headers.begin(), raw.headers.end(),
                               [&](const auto& p) { return iequals(p.first, hname); });
        if (it != raw.headers.end()) it->second = h.second.Scalar();
        else raw.headers.emplace_back(hname, h.second.Scalar());
      }
    } else if (key == "params") {
      if (!kv.second.IsMap()) throw std::runtime_error(at + ": expected a mapping {name: value}");
      for (const auto& p : kv.second) raw.params[scalar(p.first, at)] = scalar(p.second, at);
    } else if (std::find(option_keys().begin(), option_keys().end(), key) != option_keys().end()) {
      raw.options[key] = scalar(kv.second, at);
    } else {
      throw std::runtime_error(fmt::format("{}: unknown key '{}' (known: name, base_url, headers, params, {})", where,
                                           escape_control(key), join(option_keys(), ", ")));
    }
  }
}

}  // namespace

std::string quote_env_scalars(const std::string& yaml_text) {
  // A value that is exactly ${VAR}, after ':', '{', '[' or ',' and before
  // '}', ']', ',', a comment or the end of the line, unquoted. A linear scan:
  // std::regex recurses per character and overflowed the stack on a long run
  // of blanks.
  auto blank = [](char c) { return c == ' ' || c == '\t'; };
  auto name_char = [](char c, bool first) {
    return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (!first && c >= '0' && c <= '9');
  };
  std::string out;
  out.reserve(yaml_text.size());
  std::size_t copied = 0;
  for (std::size_t at = yaml_text.find("${"); at != std::string::npos; at = yaml_text.find("${", at + 2)) {
    std::size_t before = at;
    while (before > 0 && blank(yaml_text[before - 1])) --before;
    if (before == 0 || std::string_view(":{[,").find(yaml_text[before - 1]) == std::string_view::npos) continue;
    std::size_t end = at + 2;
    if (end >= yaml_text.size() || !name_char(yaml_text[end], true)) continue;
    while (end < yaml_text.size() && name_char(yaml_text[end], false)) ++end;
    if (end >= yaml_text.size() || yaml_text[end] != '}') continue;
    ++end;  // past the '}'
    std::size_t after = end;
    while (after < yaml_text.size() && blank(yaml_text[after])) ++after;
    if (after < yaml_text.size() && std::string_view("}],#\r\n").find(yaml_text[after]) == std::string_view::npos)
      continue;
    out.append(yaml_text, copied, at - copied);
    out += '"';
    out.append(yaml_text, at, end - at);
    out += '"';
    copied = end;
  }
  out.append(yaml_text, copied, std::string::npos);
  return out;
}

std::string stem_of(const std::string& base_url) {
  auto url = parse_url(base_url);
  std::string raw;
  if (url) {
    raw = url->host;
    std::string text = base_url.substr(base_url.find("://") + 3);
    auto slash = text.find('/');
    std::string authority = text.substr(0, std::min(slash, text.find_first_of("?#")));
    // The userinfo's ':' (user:password@) is no port.
    if (auto at = authority.rfind('@'); at != std::string::npos) authority.erase(0, at + 1);
    // An explicit port is part of the name: two APIs on one host, two ports.
    if (auto at = authority.rfind(':'); at != std::string::npos && authority.find(']', at) == std::string::npos)
      raw += "_" + std::to_string(url->port);
    for (const auto& segment : url->segments()) raw += "_" + segment;
  } else {
    raw = base_url;
  }
  return file_safe(raw);
}

std::string file_safe(const std::string& raw) {
  std::string out;
  for (char c : raw) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
    out += keep ? c : '-';
  }
  // Never a hidden file or a relative path component.
  while (!out.empty() && out.front() == '.') out.erase(out.begin());
  if (out.size() > 120) out.resize(120);
  return out.empty() ? "target" : out;
}

std::string file_stem(std::string_view name) {
  std::string out;
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
    out += keep ? c : '-';
    // One '-' for a character, not for each byte of its UTF-8 form ("Súdwest": "s-dwest").
    if (static_cast<unsigned char>(c) >= 0xc0)
      while (i + 1 < name.size() && (static_cast<unsigned char>(name[i + 1]) & 0xc0) == 0x80) ++i;
  }
  // Never a hidden file, "." or "..".
  if (!out.empty() && out.front() == '.') out.front() = '-';
  return out.empty() ? "-" : out;
}

namespace {

// "targets[2] (kvk)", or for a target without a name, the one its URL gave it.
std::string who(const Target& t, bool named) {
  return named ? fmt::format("targets[{}] ({})", t.index, escape_control(t.name))
               : fmt::format("targets[{}] (no name; its base URL gives '{}')", t.index, escape_control(t.name));
}

// Every target's name (an unnamed one's from its URL) and the stem of its
// files, unique over the whole register (not per shard), so a target's file
// has one name on every machine and every night (--baseline-dir looks it up
// by that name), and no two differ in case only (a case-insensitive file
// system, an unzip on a laptop, would make them one file).
void name_files(std::vector<Target>& targets, const std::vector<bool>& named, const std::string& file) {
  std::map<std::string, std::size_t> by_stem;
  for (auto& t : targets) {
    if (!named[t.index]) t.name = stem_of(strip_trailing_slash(t.base_url));
    t.stem = file_stem(t.name);
    auto [it, inserted] = by_stem.emplace(t.stem, t.index);
    if (inserted) continue;
    const Target& first = targets[it->second];
    if (named[t.index] && named[first.index] && first.name == t.name)
      throw std::runtime_error(fmt::format("{}: targets[{}]: the name '{}' is used twice (also targets[{}])", file, t.index,
                                           escape_control(t.name), first.index));
    throw std::runtime_error(fmt::format(
        "{}: {} and {} would write the same files, {}.* (a target's files are named after its name: lower case, "
        "a-z 0-9 . _ -, any other character -): give {} a name of its own",
        file, who(first, named[first.index]), who(t, named[t.index]), t.stem,
        named[t.index] && named[first.index] ? "one of them" : "each"));
  }
}

}  // namespace

void check_file_names(const std::vector<Target>& targets, const std::vector<std::string>& extensions,
                      const std::vector<std::string>& reserved, const std::string& file) {
  std::size_t longest = 0;
  for (const auto& extension : extensions) longest = std::max(longest, extension.size() + 1);
  // Lower-case file name -> who writes it (a target and its extension, or the
  // batch); stems are lower-case already, the rest is folded too.
  struct Owner {
    const Target* target;
    std::string what;
  };
  std::map<std::string, Owner> owner;
  for (const auto& name : reserved) owner.emplace(to_lower(name), Owner{nullptr, "the batch's own " + name});
  for (const auto& t : targets) {
    std::string where = fmt::format("targets[{}] ({})", t.index, escape_control(t.name));
    if (to_lower(t.stem) == "summary")
      throw std::runtime_error(fmt::format("{}: {}: the name 'summary' is the batch's (summary.json, summary.html, ...): "
                                           "give the target another name", file, where));
    if (t.stem.size() + longest > max_file_name_bytes)
      throw std::runtime_error(fmt::format(
          "{}: {}: its files would have names of up to {} bytes ({}…), more than the {} a file system allows: give it a "
          "name of at most {} bytes", file, where, t.stem.size() + longest, t.stem.substr(0, 40), max_file_name_bytes,
          max_file_name_bytes - longest));
    for (const auto& extension : extensions) {
      std::string name = t.stem + "." + extension;
      auto [it, inserted] = owner.emplace(to_lower(name), Owner{&t, "its ." + extension + " file"});
      if (inserted) continue;
      if (!it->second.target)
        throw std::runtime_error(fmt::format("{}: {}: its .{} file would be {}, the batch's own: give the target another name",
                                             file, where, extension, name));
      const Target& other = *it->second.target;
      throw std::runtime_error(fmt::format("{}: {} and targets[{}] ({}) would both write {} ({}, and the other's {}): give "
                                           "one of them another name",
                                           file, where, other.index, escape_control(other.name), name,
                                           "its ." + extension + " file", it->second.what.substr(4)));
    }
  }
}

std::vector<Target> parse_targets(const std::string& yaml_text, const std::string& file) {
  // A register of thousands of APIs is a few hundred KiB.
  if (yaml_text.size() > (4u << 20)) throw std::runtime_error(fmt::format("{}: larger than 4 MiB, not a register", file));
  YAML::Node doc;
  try {
    doc = YAML::Load(quote_env_scalars(yaml_text));
  } catch (const YAML::Exception& e) {
    throw std::runtime_error(fmt::format("{}: not valid YAML: {}{}", file, escape_control(e.what()),
                                         yaml_text.find("${") != std::string::npos
                                             ? " (a value holding ${VAR} and other text needs quotes: \"Bearer ${TOKEN}\")"
                                             : ""));
  }
  if (!doc.IsMap()) throw std::runtime_error(fmt::format("{}: expected a mapping with 'targets' (and 'defaults')", file));
  for (const auto& kv : doc) {
    std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "?";
    if (key != "defaults" && key != "targets")
      throw std::runtime_error(fmt::format("{}: unknown key '{}' (expected defaults and targets)", file, escape_control(key)));
  }
  Raw defaults;
  if (doc["defaults"]) read_entry(doc["defaults"], file + ": defaults", defaults, nullptr, nullptr);
  YAML::Node list = doc["targets"];
  if (!list || !list.IsSequence() || list.size() == 0)
    throw std::runtime_error(fmt::format("{}: 'targets' must be a non-empty list", file));
  std::vector<Target> out;
  std::vector<bool> named;
  for (std::size_t i = 0; i < list.size(); ++i) {
    std::string where = fmt::format("{}: targets[{}]", file, i);
    Raw raw = defaults;
    Target t;
    t.index = i;
    read_entry(list[i], where, raw, &t.name, &t.base_url);
    if (!t.name.empty()) where += " (" + escape_control(t.name) + ")";
    if (t.base_url.empty()) throw std::runtime_error(where + ": 'base_url' is missing");
    t.options = std::move(raw.options);
    t.headers = std::move(raw.headers);
    t.params = std::move(raw.params);
    named.push_back(!t.name.empty());
    out.push_back(std::move(t));
  }
  name_files(out, named, file);
  return out;
}

Shard parse_shard(const std::string& text) {
  auto slash = text.find('/');
  auto number = [&](const std::string& s) -> long {
    if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos)
      throw std::invalid_argument(fmt::format("--shard '{}': expected K/N with whole numbers, e.g. 0/2", escape_control(text)));
    return std::stol(s);
  };
  if (slash == std::string::npos)
    throw std::invalid_argument(fmt::format("--shard '{}': expected K/N, e.g. 0/2 (K counts from 0)", escape_control(text)));
  long k = number(text.substr(0, slash)), n = number(text.substr(slash + 1));
  if (n < 1) throw std::invalid_argument(fmt::format("--shard '{}': N must be 1 or more", escape_control(text)));
  if (k >= n)
    throw std::invalid_argument(fmt::format("--shard '{}': K counts from 0, so it must be less than N (GitLab's 1-based "
                                            "$CI_NODE_INDEX becomes $((CI_NODE_INDEX-1)))", escape_control(text)));
  return Shard{static_cast<std::size_t>(k), static_cast<std::size_t>(n)};
}

std::vector<Target> select(const std::vector<Target>& all, Shard shard) {
  std::vector<Target> out;
  for (const auto& t : all)
    if (t.index % shard.n == shard.k) out.push_back(t);
  return out;
}

}  // namespace adrprobe::batch
