#include "batch/targets.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <set>
#include <stdexcept>

#include "util/files.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::batch {

const std::vector<std::string>& option_keys() {
  static const std::vector<std::string> keys{"edition",    "openapi",  "timeout",      "rate",
                                             "concurrency", "max_paths", "max_requests", "deadline", "ca_file",
                                             "insecure",   "allow_unsafe", "user_agent", "ref_hosts",
                                             "modules"};
  return keys;
}

const std::vector<std::string>& oauth2_keys() {
  static const std::vector<std::string> keys{"token_url", "client_id", "client_secret", "scope", "auth"};
  return keys;
}

const std::vector<std::string>& reserved_labels() {
  // summary.prom's own (render_summary_openmetrics), the ones a scrape or the
  // Pushgateway sets (register: the group --pushgateway pushes to, cli/push),
  // and those of histograms and summaries.
  static const std::vector<std::string> names{"target", "owner",    "rule",     "edition", "base_url", "state",
                                              "outcome", "verdict", "change",   "job",     "instance", "register",
                                              "le",      "quantile"};
  return names;
}

bool label_name(const std::string& name) {
  if (name.empty() || name.size() > 64 || name.rfind("__", 0) == 0) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    bool ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return std::find(reserved_labels().begin(), reserved_labels().end(), name) == reserved_labels().end();
}

namespace {

struct Raw {
  std::string owner;
  std::optional<double> don_adr_score;
  std::vector<std::pair<std::string, std::string>> labels;
  std::map<std::string, std::string> options;
  std::vector<std::pair<std::string, std::string>> headers;
  std::map<std::string, std::string> params;
  std::map<std::string, std::string> oauth2;
};

// Reads the scalars of one register, with their ${NAME} put back.
struct Reader {
  const EnvPlaceholders& env;
  // Values read so far, defaults counted again for every target they fill:
  // a YAML alias or a large `defaults` repeated over many targets is bounded
  // like the text is (linear work, no blow-up).
  mutable std::size_t values = 0;

  void count(std::size_t n, const std::string& where) const {
    values += n;
    if (values > max_register_values)
      throw std::runtime_error(fmt::format("{}: the register holds more than {} values (defaults and YAML aliases count "
                                           "for every target they fill)",
                                           where, max_register_values));
  }

  // A header value: ${VAR} is expanded later, on exactly this text.
  std::string text(const YAML::Node& node) const { return env.restore(node.Scalar()); }

  // Anything else: ${VAR} would be taken literally, so it is refused.
  std::string literal(const YAML::Node& node, const std::string& where) const {
    std::string value = text(node);
    if (value.find("${") != std::string::npos)
      throw std::runtime_error(
          fmt::format("{}: ${{VAR}} is read from the environment in header values and oauth2's client_secret only", where));
    return value;
  }

  std::string scalar(const YAML::Node& node, const std::string& where) const {
    if (!node.IsScalar()) throw std::runtime_error(fmt::format("{}: expected a single value", where));
    return literal(node, where);
  }

  // don_adr_score: a number from 0 to 100, or null (DON has none).
  std::optional<double> score(const YAML::Node& node, const std::string& where) const {
    if (node.IsNull()) return std::nullopt;
    double value = 0;  // decimal, as every number of a register (strtod read 0x1A as 26)
    if (!parse_decimal(scalar(node, where), value).empty() || !(value >= 0 && value <= 100))
      throw std::runtime_error(fmt::format("{}: expected a number from 0 to 100, or null", where));
    return value;
  }

  // The keys of a target or of `defaults` (into `raw`, over what it holds).
  void entry(const YAML::Node& node, const std::string& where, Raw& raw, std::string* name, std::string* base_url) const {
    if (!node.IsMap()) throw std::runtime_error(fmt::format("{}: expected a mapping of keys", where));
    for (const auto& kv : node) {
      count(1, where);
      std::string key = kv.first.IsScalar() ? text(kv.first) : "?";
      std::string at = fmt::format("{}: {}", where, escape_control(key));
      if (key == "name" && name) {
        *name = scalar(kv.second, at);
      } else if (key == "base_url" && base_url) {
        *base_url = scalar(kv.second, at);
      } else if (key == "don_adr_score" && name) {
        raw.don_adr_score = score(kv.second, at);
      } else if (key == "name" || key == "base_url" || key == "don_adr_score") {
        // Only `defaults` reads without them: its "unknown key" would list them as known.
        throw std::runtime_error(fmt::format("{}: '{}' belongs to each target, not to defaults", where, key));
      } else if (key == "headers") {
        if (!kv.second.IsMap()) throw std::runtime_error(at + ": expected a mapping {Name: value}");
        for (const auto& h : kv.second) {
          count(1, at);
          std::string hname = h.first.IsScalar() ? text(h.first) : "";
          // The value may be a secret: an error names the header, never shows the value.
          if (!h.second.IsScalar())
            throw std::runtime_error(fmt::format("{}: header {}: expected a single value", at, escape_control(hname)));
          if (hname.find("${") != std::string::npos)
            throw std::runtime_error(
                fmt::format("{}: header {}: ${{VAR}} is read from the environment in header values only", at, escape_control(hname)));
          std::string value = text(h.second);
          auto it = std::find_if(raw.headers.begin(), raw.headers.end(),
                                 [&](const auto& p) { return iequals(p.first, hname); });
          if (it != raw.headers.end()) {
            it->second = std::move(value);
          } else {
            if (raw.headers.size() == max_target_headers)
              throw std::runtime_error(fmt::format("{}: more than {} headers", at, max_target_headers));
            raw.headers.emplace_back(hname, std::move(value));
          }
        }
      } else if (key == "owner") {
        raw.owner = scalar(kv.second, at);
      } else if (key == "labels") {
        // Prometheus label names (summary.prom carries them), none of the tool's own.
        if (!kv.second.IsMap()) throw std::runtime_error(at + ": expected a mapping {key: value}");
        for (const auto& l : kv.second) {
          count(1, at);
          std::string lkey = scalar(l.first, at);
          const auto& reserved = reserved_labels();
          if (std::find(reserved.begin(), reserved.end(), lkey) != reserved.end())
            throw std::runtime_error(fmt::format("{}: '{}' is a label summary.prom or Prometheus sets itself (as are {}): "
                                                 "give it another name",
                                                 at, lkey, join(reserved, ", ")));
          if (!label_name(lkey))
            throw std::runtime_error(fmt::format("{}: '{}' is not a label name ([a-zA-Z_][a-zA-Z0-9_]*, at most 64 "
                                                 "characters, not starting with __, which Prometheus keeps for itself)",
                                                 at, escape_control(lkey)));
          std::string value = scalar(l.second, at);
          auto it = std::find_if(raw.labels.begin(), raw.labels.end(), [&](const auto& p) { return p.first == lkey; });
          if (it != raw.labels.end()) it->second = std::move(value);
          else if (raw.labels.size() == max_target_labels)
            throw std::runtime_error(fmt::format("{}: more than {} labels", at, max_target_labels));
          else raw.labels.emplace_back(lkey, std::move(value));
        }
      } else if (key == "oauth2") {
        // Key by key over defaults' (a target may give only its own client).
        if (!kv.second.IsMap()) throw std::runtime_error(at + ": expected a mapping {token_url, client_id, client_secret, ...}");
        for (const auto& o : kv.second) {
          count(1, at);
          std::string okey = scalar(o.first, at);
          if (std::find(oauth2_keys().begin(), oauth2_keys().end(), okey) == oauth2_keys().end())
            throw std::runtime_error(fmt::format("{}: unknown key '{}' (known: {})", at, escape_control(okey),
                                                 join(oauth2_keys(), ", ")));
          std::string oat = at + ": " + okey;
          // The secret may be a secret: an error names the key, never the value; ${VAR} is read later.
          if (okey == "client_secret" && !o.second.IsScalar()) throw std::runtime_error(oat + ": expected a single value");
          raw.oauth2[okey] = okey == "client_secret" ? text(o.second) : scalar(o.second, oat);
        }
      } else if (key == "params") {
        if (!kv.second.IsMap()) throw std::runtime_error(at + ": expected a mapping {name: value}");
        for (const auto& p : kv.second) {
          count(1, at);
          raw.params[scalar(p.first, at)] = scalar(p.second, at);
        }
      } else if (std::find(option_keys().begin(), option_keys().end(), key) != option_keys().end()) {
        raw.options[key] = scalar(kv.second, at);
      } else {
        throw std::runtime_error(fmt::format("{}: unknown key '{}' (known: name, base_url, owner, labels, headers, params, oauth2, don_adr_score, {})", where,
                                             escape_control(key), join(option_keys(), ", ")));
      }
    }
  }
};

bool env_name_char(char c, bool first) {
  return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (!first && c >= '0' && c <= '9');
}

// The length of the ${NAME} at `at` (text[at] == '$'), or 0 when there is none.
std::size_t env_reference(const std::string& text, std::size_t at) {
  if (text.compare(at, 2, "${") != 0) return 0;
  std::size_t end = at + 2;
  if (end >= text.size() || !env_name_char(text[end], true)) return 0;
  while (end < text.size() && env_name_char(text[end], false)) ++end;
  return end < text.size() && text[end] == '}' ? end + 1 - at : 0;
}

// Line and column (1-based, in bytes) of the first byte that is not UTF-8, or {0, 0}.
std::pair<std::size_t, std::size_t> first_non_utf8(const std::string& text) {
  std::size_t line = 1;
  for (std::size_t start = 0; start < text.size(); ++line) {
    std::size_t end = std::min(text.find('\n', start), text.size());
    std::string_view l(text.data() + start, end - start);
    // A sequence never spans a newline, so lines can be judged one by one.
    if (!is_valid_utf8(l)) {
      // What comes before the first replacement is the line's valid prefix, unchanged
      // (0xFF is never part of UTF-8).
      return {line, replace_invalid_utf8(l, "\xFF").find('\xFF') + 1};
    }
    start = end + 1;
  }
  return {0, 0};
}

// The owner and the label values, which every series of the target carries:
// at most max_carried_bytes each (an error naming the target and the key).
void check_carried(const Raw& raw, const std::string& where) {
  auto check = [&](const std::string& value, const std::string& what) {
    if (value.size() > max_carried_bytes)
      throw std::runtime_error(fmt::format("{}: {} is {} bytes long, more than the {} a value every series of the "
                                           "target carries may have",
                                           where, what, value.size(), max_carried_bytes));
  };
  check(raw.owner, "owner");
  for (const auto& [key, value] : raw.labels) check(value, "labels: " + key);
}

}  // namespace

EnvPlaceholders::EnvPlaceholders(const std::string& yaml_text) {
  // Letters and digits only: a plain scalar in any context, nothing to escape
  // in a quoted one. 'Z' occurs once in it, so no placeholder can overlap
  // another or the text around it. The number is one past any the text holds
  // after the same prefix, so the mark is not in the text (one look to be sure).
  constexpr std::string_view prefix = "Zadrprobeenv";
  unsigned long long n = 0;
  for (std::size_t at = yaml_text.find(prefix); at != std::string::npos; at = yaml_text.find(prefix, at + 1)) {
    std::size_t digits = at + prefix.size(), end = digits;
    while (end < yaml_text.size() && end - digits < 18 && yaml_text[end] >= '0' && yaml_text[end] <= '9') ++end;
    if (end > digits) n = std::max(n, std::stoull(yaml_text.substr(digits, end - digits)) + 1);
  }
  do mark_ = fmt::format("{}{}q", prefix, n++);
  while (yaml_text.find(mark_) != std::string::npos);
}

std::string EnvPlaceholders::protect(const std::string& yaml_text) const {
  std::string out;
  out.reserve(yaml_text.size());
  std::size_t copied = 0;
  for (std::size_t at = yaml_text.find("${"); at != std::string::npos; at = yaml_text.find("${", at + 1)) {
    std::size_t len = env_reference(yaml_text, at);
    if (!len) continue;
    out.append(yaml_text, copied, at - copied);
    out += mark_;
    out.append(yaml_text, at + 2, len - 3);  // NAME
    out += mark_;
    copied = at + len;
    at = copied - 1;
  }
  out.append(yaml_text, copied, std::string::npos);
  return out;
}

std::string EnvPlaceholders::restore(const std::string& scalar) const {
  std::size_t open = scalar.find(mark_);
  if (open == std::string::npos) return scalar;
  std::string out;
  std::size_t copied = 0;
  for (; open != std::string::npos; open = scalar.find(mark_, copied)) {
    std::size_t close = scalar.find(mark_, open + mark_.size());
    if (close == std::string::npos) break;  // never made by protect()
    out.append(scalar, copied, open - copied);
    out += "${";
    out.append(scalar, open + mark_.size(), close - open - mark_.size());
    out += '}';
    copied = close + mark_.size();
  }
  out.append(scalar, copied, std::string::npos);
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
  if (yaml_text.size() > max_register_bytes)
    throw std::runtime_error(fmt::format("{}: larger than {} MiB, not a register", file, max_register_bytes >> 20));
  // YAML is UTF-8; a Latin-1 name would be written as U+FFFD and never match its own baseline.
  if (auto [line, column] = first_non_utf8(yaml_text); line)
    throw std::runtime_error(fmt::format("{}: line {}, column {}: not UTF-8 (save the register as UTF-8)", file, line, column));
  EnvPlaceholders env(yaml_text);
  Reader reader{env};
  std::string text = env.protect(yaml_text);
  YAML::Node doc;
  try {
    doc = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw std::runtime_error(fmt::format("{}: not valid YAML: {}{}", file, escape_control(e.what()),
                                         text.find("${") != std::string::npos
                                             ? " (a '${' that is not ${NAME}, with NAME of letters, digits and '_', is not read)"
                                             : ""));
  }
  if (!doc.IsMap()) throw std::runtime_error(fmt::format("{}: expected a mapping with 'targets' (and 'defaults')", file));
  for (const auto& kv : doc) {
    std::string key = kv.first.IsScalar() ? reader.text(kv.first) : "?";
    if (key != "defaults" && key != "targets")
      throw std::runtime_error(fmt::format("{}: unknown key '{}' (expected defaults and targets)", file, escape_control(key)));
  }
  Raw defaults;
  if (doc["defaults"]) {
    reader.entry(doc["defaults"], file + ": defaults", defaults, nullptr, nullptr);
    check_carried(defaults, file + ": defaults");
  }
  YAML::Node list = doc["targets"];
  if (!list || !list.IsSequence() || list.size() == 0)
    throw std::runtime_error(fmt::format("{}: 'targets' must be a non-empty list", file));
  std::vector<Target> out;
  std::vector<bool> named;
  for (std::size_t i = 0; i < list.size(); ++i) {
    std::string where = fmt::format("{}: targets[{}]", file, i);
    reader.count(defaults.options.size() + defaults.headers.size() + defaults.params.size() + defaults.labels.size() +
                     defaults.oauth2.size(),
                 where);
    Raw raw = defaults;
    Target t;
    t.index = i;
    reader.entry(list[i], where, raw, &t.name, &t.base_url);
    if (!t.name.empty()) where += " (" + escape_control(t.name) + ")";
    if (t.base_url.empty()) throw std::runtime_error(where + ": 'base_url' is missing");
    check_carried(raw, where);
    t.owner = std::move(raw.owner);
    t.labels = std::move(raw.labels);
    t.don_adr_score = raw.don_adr_score;
    t.options = std::move(raw.options);
    t.headers = std::move(raw.headers);
    t.params = std::move(raw.params);
    t.oauth2 = std::move(raw.oauth2);
    named.push_back(!t.name.empty());
    out.push_back(std::move(t));
  }
  name_files(out, named, file);
  return out;
}

Shard checked_shard(std::size_t k, std::size_t n, const std::string& what) {
  if (n < 1) throw std::invalid_argument(fmt::format("{}: N must be 1 or more", what));
  if (n > max_shards)
    throw std::invalid_argument(fmt::format("{}: N must be at most {}", what, max_shards));
  if (k >= n)
    throw std::invalid_argument(fmt::format("{}: K counts from 0, so it must be less than N (GitLab's 1-based "
                                            "$CI_NODE_INDEX becomes $((CI_NODE_INDEX-1)))", what));
  return Shard{k, n};
}

Shard parse_shard(const std::string& text) {
  std::string what = fmt::format("--shard '{}'", escape_control(text));
  auto slash = text.find('/');
  auto number = [&](const std::string& s) -> std::size_t {
    // 18 digits always fit; checked_shard says what is too large.
    if (s.empty() || s.size() > 18 || s.find_first_not_of("0123456789") != std::string::npos)
      throw std::invalid_argument(what + ": expected K/N with whole numbers, e.g. 0/2");
    return std::stoull(s);
  };
  if (slash == std::string::npos) throw std::invalid_argument(what + ": expected K/N, e.g. 0/2 (K counts from 0)");
  std::size_t k = number(text.substr(0, slash)), n = number(text.substr(slash + 1));
  return checked_shard(k, n, what);
}

std::vector<Target> select(const std::vector<Target>& all, Shard shard) {
  std::vector<Target> out;
  for (const auto& t : all)
    if (t.index % shard.n == shard.k) out.push_back(t);
  return out;
}

}  // namespace adrprobe::batch
