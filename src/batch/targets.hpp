// The register of a batch (CLI.md, "Batch file"): TARGETS.yaml read into one
// entry per API, the shard a machine takes of it, and the file names of the
// reports (after each target's name). Nothing here sends a request.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace adrprobe::batch {

struct Target {
  std::size_t index = 0;  // position in the register (0-based): what --shard splits
  // `name` as written; without one, stem_of(base_url) (host[_port]_path).
  std::string name;
  std::string base_url;  // as written (validated by the command)
  // Report file name without extension: file_stem(name), unique in the
  // register (so the names are unique in lower case too).
  std::string stem;
  // owner: who answers for the API; labels: {key: value} (CLI.md, "Nightly
  // monitoring"), both carried into the summary, JUnit and OpenMetrics.
  std::string owner;
  std::vector<std::pair<std::string, std::string>> labels;
  // don_adr_score: the ADR score DON's API register gives the API's document
  // (`adrprobe register` writes it; 0..100, or null), shown beside the live one.
  std::optional<double> don_adr_score;
  // Every other key, file defaults first, then the target's own: edition,
  // openapi, timeout, rate, ... (scalars as written).
  std::map<std::string, std::string> options;
  // headers: {Name: value}, defaults' then the target's; ${VAR} not yet expanded.
  std::vector<std::pair<std::string, std::string>> headers;
  // params: {name: value} (path parameter values, as --param).
  std::map<std::string, std::string> params;
  // oauth2: {token_url, client_id, client_secret, scope, auth}, defaults'
  // keys then the target's; client_secret's ${VAR} not yet expanded.
  std::map<std::string, std::string> oauth2;
};

// The keys of a register's `oauth2:` mapping (OAuth 2.0 client credentials).
const std::vector<std::string>& oauth2_keys();

// A label key of the register: a Prometheus label name ([a-zA-Z_][a-zA-Z0-9_]*,
// at most 64 characters, not starting with __, which Prometheus keeps for
// itself) that is none of reserved_labels(): the tool's own labels, job and
// instance, which a scrape or the Pushgateway sets and renames a pushed one
// to exported_job, exported_instance, and register, the Pushgateway group's.
bool label_name(const std::string& name);
const std::vector<std::string>& reserved_labels();
constexpr std::size_t max_target_labels = 20;
// The owner and each label value go onto every series of the target in
// summary.prom (and every row of the summary files): a team's name or a tier
// is a few dozen bytes, so 256 is ample, and a 100 KB owner is refused at load
// rather than copied some 60 times a target (Prometheus bounds label values
// in bytes too: label_value_length_limit).
constexpr std::size_t max_carried_bytes = 256;

// The keys a target (or `defaults`) may have besides name, base_url, owner, labels, headers, params, oauth2
// and don_adr_score (a target's own).
const std::vector<std::string>& option_keys();

// A register of thousands of APIs is a few hundred KiB: a larger file is not one.
constexpr std::size_t max_register_bytes = 4u << 20;
// The values (keys, headers, params) a register may hold, `defaults` counted
// for every target it fills, and the headers of one target.
constexpr std::size_t max_register_values = 1'000'000;
constexpr std::size_t max_target_headers = 100;

// Parses TARGETS.yaml; `file` names it in errors. Throws std::runtime_error
// naming the file, the target and the key ("targets.yaml: targets[2] (kvk):
// unknown key 'rat'"), never a header value; also when two targets' names
// give one stem (KVK and kvk), naming both, and when an owner or a label value
// is longer than max_carried_bytes. Refuses text that is not UTF-8
// (naming its line: a Latin-1 name would never match its own baseline), and
// ${VAR} anywhere but in a header value or oauth2's client_secret (nothing
// else is expanded).
std::vector<Target> parse_targets(const std::string& yaml_text, const std::string& file);

// ${VAR} in a header value is read from the environment later, on the value
// YAML gives (so quoting is never changed: 'list=[${TOK}]' keeps its
// brackets). CLI.md's own example, `headers: {X-Api-Key: ${BAG_KEY}}`, is not
// valid YAML as written (a flow mapping cannot hold a plain `{`), so before
// parsing each ${NAME} becomes a placeholder that no YAML context treats
// specially and that the text does not hold, and every scalar read gets its
// ${NAME} back.
class EnvPlaceholders {
 public:
  explicit EnvPlaceholders(const std::string& yaml_text);
  // Each ${NAME} (NAME: a letter or '_', then letters, digits, '_') replaced.
  std::string protect(const std::string& yaml_text) const;
  // A scalar as YAML gave it, with each placeholder back as ${NAME}.
  std::string restore(const std::string& scalar) const;

 private:
  std::string mark_;
};

// The name of a target without one: host, port when given, and path
// segments, joined by '_' and kept to [A-Za-z0-9._-] ("api.example.nl_bag_v2").
// Also the file name reports had before they were named after the target
// (--baseline-dir still finds such a report once).
std::string stem_of(const std::string& base_url);

// A target's files are named after its name (CLI.md, "Nightly monitoring"):
// lower case, [a-z0-9._-], any other character '-' (one for each UTF-8
// character), a leading '.' '-' ("KVK API": "kvk-api", ".x": "-x").
std::string file_stem(std::string_view name);

// Refuses a register whose files could collide or not be written, before any
// request: a stem "summary"; a target's <stem>.<extension> for any of
// `extensions` (every format's, whichever -o asks for, so the register is
// valid or not whatever the options) longer than 255 bytes; two such names,
// or one and a `reserved` file (summary.json, ...), equal in lower case
// (targets v1 and v1.gitlab: v1.gitlab.json is the first's GitLab file and the
// second's report). Throws std::runtime_error naming `file` and both targets.
void check_file_names(const std::vector<Target>& targets, const std::vector<std::string>& extensions,
                      const std::vector<std::string>& reserved, const std::string& file);

// Kept to [A-Za-z0-9._-], no leading dot, at most 120 bytes ("target" when nothing is left).
std::string file_safe(const std::string& raw);

struct Shard {
  std::size_t k = 0, n = 1;  // this machine takes every n-th target starting at k (0-based)
};
// The most shards a register is split into. --shard and a shard's
// summary.json are checked alike (`adrprobe summary` lists the shards a merge
// lacks, so N sizes what it builds).
constexpr std::size_t max_shards = 999'999;
// Shard{k, n} when 0 <= k < n <= max_shards; else throws std::invalid_argument
// that starts with `what` ("--shard '3/2'", "shard 0/1000000000000").
Shard checked_shard(std::size_t k, std::size_t n, const std::string& what);
// "K/N" with 0 <= K < N <= max_shards; throws std::invalid_argument saying what is wrong.
Shard parse_shard(const std::string& text);
// The targets of `shard`, in register order: index % n == k.
std::vector<Target> select(const std::vector<Target>& all, Shard shard);

}  // namespace adrprobe::batch
