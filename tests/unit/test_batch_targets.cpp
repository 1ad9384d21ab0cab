// The register of a batch: TARGETS.yaml read into targets (defaults merged,
// errors naming the key and the target, never a header value), the report
// stems (after each target's name, unique in lower case, every file name
// distinct and short enough), and the shards that split it.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "batch/targets.hpp"

using namespace adrprobe;

namespace {
std::string error_of(const std::string& yaml) {
  try {
    batch::parse_targets(yaml, "targets.yaml");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

std::string header(const batch::Target& t, const std::string& name) {
  for (const auto& [n, v] : t.headers)
    if (n == name) return v;
  return "(none)";
}
}  // namespace

TEST_CASE("batch targets: defaults merged under each target, names and stems") {
  auto targets = batch::parse_targets(R"(
defaults:
  edition: "1.0"
  rate: 10
  headers: {Authorization: "Bearer ${DEFAULT_KEY}", X-Trace: on}
  params: {id: "1"}
targets:
  - name: bag
    base_url: https://api.example.nl/bag/v2/
    rate: 2
    headers: {authorization: "Bearer ${BAG_KEY}", X-Extra: "x"}
    params: {code: "A1"}
  - base_url: https://api.example.nl:8443/kvk/v1
    edition: 2.0.0
)",
                                      "targets.yaml");
  REQUIRE(targets.size() == 2);
  const auto& bag = targets[0];
  CHECK(bag.index == 0);
  CHECK(bag.name == "bag");
  CHECK(bag.base_url == "https://api.example.nl/bag/v2/");
  CHECK(bag.stem == "bag");
  CHECK(bag.options.at("edition") == "1.0");
  CHECK(bag.options.at("rate") == "2");  // the target's own over the defaults'
  // headers: one per name whatever its case, the target's value, the defaults' order first
  REQUIRE(bag.headers.size() == 3);
  CHECK(bag.headers[0].first == "Authorization");
  CHECK(bag.headers[0].second == "Bearer ${BAG_KEY}");  // not yet expanded
  CHECK(header(bag, "X-Trace") == "on");
  CHECK(header(bag, "X-Extra") == "x");
  CHECK(bag.params == std::map<std::string, std::string>{{"code", "A1"}, {"id", "1"}});
  const auto& kvk = targets[1];
  CHECK(kvk.index == 1);
  CHECK(kvk.name == "api.example.nl_8443_kvk_v1");  // no name: host, port and path
  CHECK(kvk.stem == kvk.name);
  CHECK(kvk.options.at("edition") == "2.0.0");
  CHECK(kvk.options.at("rate") == "10");
  CHECK(header(kvk, "Authorization") == "Bearer ${DEFAULT_KEY}");
  CHECK(kvk.params == std::map<std::string, std::string>{{"id", "1"}});
  for (const auto& key : batch::option_keys()) CHECK(error_of("targets:\n  - {base_url: http://h/v1, " + key + ": x}\n") == "(no error)");
}

TEST_CASE("batch targets: mistakes name the file, the target and the key") {
  CHECK(error_of("targets:\n  - {base_url: http://h/v1}\n  - {name: kvk, base_url: http://h/v2, rat: 5}\n") ==
        "targets.yaml: targets[1]: unknown key 'rat' (known: name, base_url, owner, labels, headers, params, oauth2, don_adr_score, edition, openapi, "
        "timeout, rate, concurrency, max_paths, max_requests, deadline, ca_file, insecure, allow_unsafe, user_agent, ref_hosts, modules)");
  CHECK(error_of("defaults: {ratee: 1}\ntargets:\n  - {base_url: http://h/v1}\n")
            .find("targets.yaml: defaults: unknown key 'ratee'") == 0);
  CHECK(error_of("defaults: {base_url: http://h/v1}\ntargets:\n  - {name: a}\n") ==
        "targets.yaml: defaults: 'base_url' belongs to each target, not to defaults");
  CHECK(error_of("defaults: {name: a}\ntargets:\n  - {base_url: http://h/v1}\n") ==
        "targets.yaml: defaults: 'name' belongs to each target, not to defaults");
  CHECK(error_of("targets:\n  - {name: bag}\n") == "targets.yaml: targets[0] (bag): 'base_url' is missing");
  CHECK(error_of("targets:\n  - {name: bag, base_url: \"\"}\n") == "targets.yaml: targets[0] (bag): 'base_url' is missing");
  CHECK(error_of("targets: []\n") == "targets.yaml: 'targets' must be a non-empty list");
  CHECK(error_of("defaults: {rate: 1}\n") == "targets.yaml: 'targets' must be a non-empty list");
  CHECK(error_of("targets: {base_url: http://h}\n") == "targets.yaml: 'targets' must be a non-empty list");
  CHECK(error_of("target:\n  - {base_url: http://h/v1}\n").find("unknown key 'target'") != std::string::npos);
  CHECK(error_of("targets:\n  - {name: a, base_url: http://h/v1}\n  - {name: a, base_url: http://h/v2}\n") ==
        "targets.yaml: targets[1]: the name 'a' is used twice (also targets[0])");
  // an unnamed target whose URL gives another's name
  CHECK(error_of("targets:\n  - {name: h_v2, base_url: http://h/v1}\n  - {base_url: http://h/v2}\n") ==
        "targets.yaml: targets[0] (h_v2) and targets[1] (no name; its base URL gives 'h_v2') would write the same "
        "files, h_v2.* (a target's files are named after its name: lower case, a-z 0-9 . _ -, any other character -): "
        "give each a name of its own");
  CHECK(error_of("targets:\n  - {base_url: [http://h/v1]}\n") == "targets.yaml: targets[0]: base_url: expected a single value");
  CHECK(error_of("targets:\n  - {base_url: http://h/v1, headers: [X-A]}\n")
            .find("headers: expected a mapping") != std::string::npos);
  CHECK(error_of("targets:\n  - {base_url: http://h/v1, params: 3}\n").find("params: expected a mapping") != std::string::npos);
  CHECK(error_of("targets:\n  - http://h/v1\n") == "targets.yaml: targets[0]: expected a mapping of keys");
  CHECK(error_of("targets:\n  - {base_url: http://h/v1, \"ra\\et\": 1}\n").find("unknown key 'ra\\x1bt'") != std::string::npos);
  // not YAML, not a mapping
  CHECK(error_of("targets: [ {base_url: \n").find("targets.yaml: not valid YAML") == 0);
  CHECK(error_of("- a\n- b\n").find("targets.yaml: expected a mapping") == 0);
  CHECK(error_of("").find("targets.yaml: expected a mapping") == 0);
}

TEST_CASE("batch targets: a header value is never in an error message") {
  const std::string secret = "Bearer s3cr3t-h34der-v4lue";
  for (const std::string& yaml : {
           "targets:\n  - {base_url: http://h/v1, headers: {Authorization: [\"" + secret + "\"]}}\n",
           "targets:\n  - {base_url: http://h/v1, headers: {Authorization: {v: \"" + secret + "\"}}}\n",
           "targets:\n  - {base_url: http://h/v1, headers: {Authorization: \"" + secret + "\"}, rat: 1}\n",
           "defaults: {headers: {Authorization: \"" + secret + "\"}}\ntargets:\n  - {name: x}\n",
           "defaults: {headers: {Authorization: \"" + secret + "\"}}\ntargets: []\n",
           "targets:\n  - {name: a, base_url: http://h/v1, headers: {X-Key: \"" + secret + "\"}}\n  - {name: a, base_url: http://h/v2}\n",
           "targets:\n  - {base_url: http://h/v1, headers: {X-Key: \"" + secret + "\" }\n",  // not YAML
           "targets:\n  - base_url: http://h/v1\n    headers:\n      X-Key: \"" + secret + "\"\n    bogus: 1\n",
           "targets:\n  - base_url: http://h/v1\n    headers:\n      X-Key: \"" + secret + "\"\n   - x\n",  // not YAML
       }) {
    CAPTURE(yaml);
    auto message = error_of(yaml);
    CHECK(message != "(no error)");
    CHECK(message.find("s3cr3t") == std::string::npos);
    CHECK(message.find("h34der") == std::string::npos);
  }
  // the header is named instead
  CHECK(error_of("targets:\n  - {base_url: http://h/v1, headers: {Authorization: [\"" + secret + "\"]}}\n")
            .find("header Authorization: expected a single value") != std::string::npos);
}

TEST_CASE("batch targets: stem_of") {
  CHECK(batch::stem_of("https://api.example.nl") == "api.example.nl");
  CHECK(batch::stem_of("https://api.example.nl/") == "api.example.nl");
  CHECK(batch::stem_of("https://api.example.nl/bag/v2") == "api.example.nl_bag_v2");
  CHECK(batch::stem_of("http://127.0.0.1:8080/v1") == "127.0.0.1_8080_v1");
  CHECK(batch::stem_of("https://api.example.nl:443/v1") == "api.example.nl_443_v1");  // explicit: kept
  CHECK(batch::stem_of("http://[::1]:8080/v1") == "--1_8080_v1");
  CHECK(batch::stem_of("http://[::1]/v1").find("_80") == std::string::npos);
  // userinfo is neither a port nor part of the name
  CHECK(batch::stem_of("http://user:s3cret@api.example.nl/v1") == "api.example.nl_v1");
  CHECK(batch::stem_of("http://user:s3cret@api.example.nl:8080/v1") == "api.example.nl_8080_v1");
  // odd characters become '-', never a path separator or a hidden file
  auto odd = batch::stem_of("https://h/a%20b/c'd/..%2F../%C3%BC/~x");
  CAPTURE(odd);
  CHECK(odd.find('/') == std::string::npos);
  CHECK(odd.find('%') == std::string::npos);
  CHECK(odd.find(' ') == std::string::npos);
  CHECK(odd.rfind("h_", 0) == 0);
  for (char c : odd) CHECK(((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_'));
  CHECK(batch::stem_of("...") == "target");
  CHECK(batch::stem_of("").size() > 0);
  CHECK(batch::stem_of("http://.hidden/x")[0] != '.');
  auto long_stem = batch::stem_of("https://h/" + std::string(500, 'a'));
  CHECK(long_stem.size() <= 120);
  CHECK(long_stem.rfind("h_aaa", 0) == 0);
}

TEST_CASE("batch targets: files are named after the target, never after its URL") {
  auto targets = batch::parse_targets(R"(
targets:
  - {name: one, base_url: "https://api.example.nl/v1"}
  - {name: two, base_url: "https://api.example.nl/v1/"}
  - {name: three, base_url: "https://api.example.nl/v2"}
  - {name: "KVK Handelsregister", base_url: "https://api.example.nl/v1"}
)",
                                      "t.yaml");
  REQUIRE(targets.size() == 4);
  // targets that share a host and path (tenants, two editions) are told apart by name alone
  CHECK(targets[0].stem == "one");
  CHECK(targets[1].stem == "two");
  CHECK(targets[2].stem == "three");
  CHECK(targets[3].stem == "kvk-handelsregister");
  CHECK(targets[3].name == "KVK Handelsregister");  // shown as written
  // the same file whatever the order of the register (--baseline-dir looks it up)
  auto reordered = batch::parse_targets(R"(
targets:
  - {name: "KVK Handelsregister", base_url: "https://api.example.nl/v1"}
  - {name: one, base_url: "https://other.example.nl/v9"}
)",
                                        "t.yaml");
  CHECK(reordered[0].stem == "kvk-handelsregister");
  CHECK(reordered[1].stem == "one");
  // unnamed ones are named by their URL; two with one URL need names
  CHECK(batch::parse_targets("targets:\n  - {base_url: https://H/V1}\n", "t.yaml")[0].stem == "h_v1");
  auto twice = error_of("targets:\n  - {base_url: https://h/v1}\n  - {base_url: https://h/v1/}\n");
  CHECK(twice.find("targets[0] (no name; its base URL gives 'h_v1') and targets[1] (no name; its base URL gives 'h_v1') "
                   "would write the same files, h_v1.*") != std::string::npos);
  CHECK(twice.find("give each a name of its own") != std::string::npos);
}

TEST_CASE("batch targets: file_stem folds a name into a file name") {
  CHECK(batch::file_stem("bag") == "bag");
  CHECK(batch::file_stem("KVK_v1") == "kvk_v1");
  CHECK(batch::file_stem("BAG API v2.1") == "bag-api-v2.1");
  CHECK(batch::file_stem("S\xc3\xba" "dwest") == "s-dwest");          // one '-' for the character, not per byte
  CHECK(batch::file_stem("\xe2\x80\xae\xf0\x9f\x98\x80x") == "--x");  // U+202E, U+1F600
  CHECK(batch::file_stem("../../etc/passwd") == "-.-..-etc-passwd");
  CHECK(batch::file_stem(".hidden") == "-hidden");
  CHECK(batch::file_stem(".") == "-");
  CHECK(batch::file_stem("..") == "-.");
  CHECK(batch::file_stem("") == "-");
  CHECK(batch::file_stem("a/b\\c:d\ne") == "a-b-c-d-e");
  for (unsigned c = 1; c < 256; ++c) {
    std::string stem = batch::file_stem(std::string("x") + static_cast<char>(c));
    CAPTURE(c);
    CHECK(stem.size() == 2);
    CHECK(std::string("abcdefghijklmnopqrstuvwxyz0123456789._-").find(stem[1]) != std::string::npos);
  }
}

TEST_CASE("batch targets: names that differ in case only are refused, naming both") {
  // reports kvk_v1.json and KVK_v1.json are one file on a case-insensitive file system
  auto message = error_of("targets:\n  - {name: KVK_v1, base_url: https://h/KVK/v1}\n"
                          "  - {name: bag, base_url: https://h/bag}\n  - {name: kvk_v1, base_url: https://h/kvk/v1}\n");
  CHECK(message ==
        "targets.yaml: targets[0] (KVK_v1) and targets[2] (kvk_v1) would write the same files, kvk_v1.* (a target's "
        "files are named after its name: lower case, a-z 0-9 . _ -, any other character -): give one of them a name "
        "of its own");
  // and names the folding makes equal
  CHECK(error_of("targets:\n  - {name: \"a b\", base_url: https://h/1}\n  - {name: a-b, base_url: https://h/2}\n")
            .find("targets[0] (a b) and targets[1] (a-b) would write the same files, a-b.*") != std::string::npos);
  // unnamed targets whose URLs differ in case only
  CHECK(error_of("targets:\n  - {base_url: https://h/KVK/v1}\n  - {base_url: https://h/kvk/v1}\n")
            .find("would write the same files, h_kvk_v1.*") != std::string::npos);
}

namespace {
const std::vector<std::string> every_extension{"txt", "json", "xml", "html", "md", "sarif", "gitlab.json", "prom"};
const std::vector<std::string> summary_files{"summary.json", "summary.html", "summary.prom"};

std::string file_names_error(const std::string& yaml) {
  try {
    batch::check_file_names(batch::parse_targets(yaml, "t.yaml"), every_extension, summary_files, "t.yaml");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("batch targets: no two files of a register share a name, whatever the formats") {
  CHECK(file_names_error("targets:\n  - {name: bag, base_url: https://h/bag}\n  - {name: kvk, base_url: https://h/kvk}\n") ==
        "(no error)");
  // v1's GitLab file is v1.gitlab's JSON report
  CHECK(file_names_error("targets:\n  - {name: v1, base_url: https://h/v1}\n  - {name: v1.gitlab, base_url: https://h/v1.gitlab}\n") ==
        "t.yaml: targets[1] (v1.gitlab) and targets[0] (v1) would both write v1.gitlab.json (its .json file, and the "
        "other's .gitlab.json file): give one of them another name");
  // the same without names: the URLs give them
  CHECK(file_names_error("targets:\n  - {base_url: https://h/v1}\n  - {base_url: https://h/v1.gitlab}\n")
            .find("would both write h_v1.gitlab.json") != std::string::npos);
  // in any case: V1.GITLAB folds to v1.gitlab
  CHECK(file_names_error("targets:\n  - {name: V1.GITLAB, base_url: https://h/a}\n  - {name: v1, base_url: https://h/b}\n")
            .find("would both write v1.gitlab.json") != std::string::npos);
  // the batch's own files and stem
  CHECK(file_names_error("targets:\n  - {name: Summary, base_url: https://h/a}\n") ==
        "t.yaml: targets[0] (Summary): the name 'summary' is the batch's (summary.json, summary.html, ...): give the "
        "target another name");
  CHECK(file_names_error("targets:\n  - {base_url: http://summary}\n").find("the name 'summary' is the batch's") !=
        std::string::npos);
  CHECK(batch::parse_targets("targets:\n  - {name: summary.x, base_url: https://h/a}\n", "t.yaml")[0].stem == "summary.x");
  try {
    batch::check_file_names(batch::parse_targets("targets:\n  - {name: x, base_url: https://h/a}\n", "t.yaml"),
                            {"json"}, {"X.JSON"}, "t.yaml");
    FAIL("x.json is reserved");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) == "t.yaml: targets[0] (x): its .json file would be x.json, the batch's own: give the "
                                   "target another name");
  }
}

TEST_CASE("batch targets: a name too long for a file system is refused at load") {
  // 243 bytes + ".gitlab.json" is 255: the longest a file system takes
  std::string longest(243, 'n');
  CHECK(file_names_error("targets:\n  - {name: " + longest + ", base_url: https://h/a}\n") == "(no error)");
  auto message = file_names_error("targets:\n  - {name: " + longest + "x, base_url: https://h/a}\n");
  CHECK(message.find("t.yaml: targets[0] (" + longest + "x): its files would have names of up to 256 bytes (nnnn") == 0);
  CHECK(message.find("more than the 255 a file system allows: give it a name of at most 243 bytes") != std::string::npos);
  // eleven targets sharing a 130-character path and names of their own: refused, whatever -o asks for
  std::string path(130, 'p'), yaml = "targets:\n";
  for (int i = 0; i < 11; ++i)
    yaml += "  - {name: " + path + "_" + path.substr(0, 115) + "_" + std::to_string(i) + ", base_url: https://h/" + path + "}\n";
  CHECK(file_names_error(yaml).find("t.yaml: targets[0] (") == 0);
  CHECK(file_names_error(yaml).find("more than the 255 a file system allows") != std::string::npos);
}

TEST_CASE("batch targets: parse_shard") {
  auto s = batch::parse_shard("0/2");
  CHECK(s.k == 0);
  CHECK(s.n == 2);
  s = batch::parse_shard("1/2");
  CHECK(s.k == 1);
  CHECK(s.n == 2);
  s = batch::parse_shard("0/1");
  CHECK(s.n == 1);
  auto rejects = [](const std::string& text, const std::string& why) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(batch::parse_shard(text), doctest::Contains(why.c_str()), std::invalid_argument);
  };
  rejects("2/2", "must be less than N");
  rejects("3/2", "must be less than N");
  rejects("x/2", "whole numbers");
  rejects("1/y", "whole numbers");
  rejects("-1/2", "whole numbers");
  rejects("1", "expected K/N");
  rejects("", "expected K/N");
  rejects("0/0", "N must be 1 or more");
  rejects("/2", "whole numbers");
  rejects("1/", "whole numbers");
  rejects("0/2/3", "whole numbers");
  rejects(" 0/2", "whole numbers");
  rejects("99999999999999999999/2", "whole numbers");
  rejects("0/99999999999999999999", "whole numbers");
  rejects("0/1000000", "N must be at most 999999");
  rejects("0/1000000000000", "N must be at most 999999");
  CHECK(batch::parse_shard("999998/999999").n == batch::max_shards);
  // the one check --shard and a shard's summary.json share
  CHECK(batch::checked_shard(1, 2, "x").k == 1);
  CHECK_THROWS_WITH_AS(batch::checked_shard(0, batch::max_shards + 1, "shard 0/1000000"),
                       "shard 0/1000000: N must be at most 999999", std::invalid_argument);
  CHECK_THROWS_WITH_AS(batch::checked_shard(0, 0, "s"), "s: N must be 1 or more", std::invalid_argument);
  CHECK_THROWS_WITH_AS(batch::checked_shard(3, 3, "s"), doctest::Contains("s: K counts from 0"), std::invalid_argument);
  rejects("\x1b[31m/2", "\\x1b");
}

TEST_CASE("batch targets: over N shards every target is taken exactly once, in register order") {
  for (std::size_t count = 0; count <= 20; ++count) {
    std::vector<batch::Target> all(count);
    for (std::size_t i = 0; i < count; ++i) {
      all[i].index = i;
      all[i].name = "t" + std::to_string(i);
    }
    for (std::size_t n = 1; n <= 7; ++n) {
      CAPTURE(count);
      CAPTURE(n);
      std::vector<int> taken(count, 0);
      for (std::size_t k = 0; k < n; ++k) {
        auto mine = batch::select(all, batch::parse_shard(std::to_string(k) + "/" + std::to_string(n)));
        for (std::size_t j = 1; j < mine.size(); ++j) CHECK(mine[j - 1].index < mine[j].index);
        // shards differ by one target at most
        CHECK(mine.size() >= count / n);
        CHECK(mine.size() <= count / n + 1);
        for (const auto& t : mine) ++taken[t.index];
      }
      for (std::size_t i = 0; i < count; ++i) CHECK(taken[i] == 1);
    }
  }
}

TEST_CASE("batch targets: ${VAR} comes out of YAML exactly where and as it was written, quoting untouched") {
  auto value_of = [](const std::string& headers_yaml) {
    auto targets = batch::parse_targets("targets:\n  - base_url: http://h/v1\n    headers:\n" + headers_yaml, "t.yaml");
    REQUIRE(targets.size() == 1);
    REQUIRE(targets[0].headers.size() == 1);
    return targets[0].headers[0].second;
  };
  // Hostile input III, item 9: 'list=[${TOK}]' became list=["${TOK}"] (a corrupted credential)
  CHECK(value_of("      X-A: 'list=[${TOK}]'\n") == "list=[${TOK}]");
  CHECK(value_of("      X-A: \"list=[${TOK}]\"\n") == "list=[${TOK}]");
  CHECK(value_of("      X-A: list=[${TOK}]\n") == "list=[${TOK}]");  // plain, block context
  CHECK(value_of("      X-A: \"a,${TOK}\"\n") == "a,${TOK}");       // was a misleading YAML error
  CHECK(value_of("      X-A: \"{${A}}, [${B}]\"\n") == "{${A}}, [${B}]");
  CHECK(value_of("      X-A: '${A}''${B}'\n") == "${A}'${B}");
  CHECK(value_of("      X-A: \"\\t${A}\\u0021\"\n") == "\t${A}!");  // YAML's escapes still apply around it
  CHECK(value_of("      X-A: ${A}${B}_${C_1}\n") == "${A}${B}_${C_1}");
  CHECK(value_of("      X-A: |-\n        x=[${TOK}]\n") == "x=[${TOK}]");  // a block scalar
  CHECK(value_of("      X-A: Bearer ${TOKEN}  # the ${COMMENT} is no value\n") == "Bearer ${TOKEN}");
  // not a variable reference: left to expand_env's message, as written
  CHECK(value_of("      X-A: \"${1X} ${} ${A\"\n") == "${1X} ${} ${A");
  // CLI.md's own example, a bare ${VAR} in a flow mapping, and more around it there
  auto targets = batch::parse_targets("targets:\n  - {base_url: http://h/v1, headers: {X-Api-Key: ${BAG_KEY}, "
                                      "X-B: Bearer ${B}, X-C: ${C}-x}}\n",
                                      "t.yaml");
  REQUIRE(targets.size() == 1);
  CHECK(targets[0].headers == std::vector<std::pair<std::string, std::string>>{
                                  {"X-Api-Key", "${BAG_KEY}"}, {"X-B", "Bearer ${B}"}, {"X-C", "${C}-x"}});
  // a text that holds the placeholder's own letters keeps them
  targets = batch::parse_targets("targets:\n  - base_url: http://h/v1\n    headers: {X-A: 'Zadrprobeenv0q ${A} "
                                 "Zadrprobeenv7q'}\n",
                                 "t.yaml");
  CHECK(targets[0].headers[0].second == "Zadrprobeenv0q ${A} Zadrprobeenv7q");
  // a long run of blanks is no stack overflow
  std::string blanks = "targets:\n  - {base_url: http://h/v1, headers: {X-A:" + std::string(500000, ' ') + "${UA}}}\n";
  targets = batch::parse_targets(blanks, "t.yaml");
  CHECK(targets[0].headers[0].second == "${UA}");
}

TEST_CASE("batch targets: ${VAR} where nothing expands it is refused, naming the place") {
  CHECK(error_of("targets:\n  - {base_url: 'http://${HOST}/v1'}\n") ==
        "targets.yaml: targets[0]: base_url: ${VAR} is read from the environment in header values and oauth2's client_secret only");
  CHECK(error_of("targets:\n  - {name: '${N}', base_url: http://h/v1}\n") ==
        "targets.yaml: targets[0]: name: ${VAR} is read from the environment in header values and oauth2's client_secret only");
  CHECK(error_of("defaults: {user_agent: 'probe ${CI_JOB_ID}'}\ntargets:\n  - {base_url: http://h/v1}\n") ==
        "targets.yaml: defaults: user_agent: ${VAR} is read from the environment in header values and oauth2's client_secret only");
  CHECK(error_of("targets:\n  - {base_url: http://h/v1, params: {id: ${ID}}}\n") ==
        "targets.yaml: targets[0]: params: ${VAR} is read from the environment in header values and oauth2's client_secret only");
  CHECK(error_of("targets:\n  - {base_url: http://h/v1, headers: {'X-${N}': v}}\n") ==
        "targets.yaml: targets[0]: headers: header X-${N}: ${VAR} is read from the environment in header values only");
  // a ${ that is not ${NAME} and breaks the YAML: said so
  CHECK(error_of("targets:\n  - {base_url: http://h/v1, headers: {X-A: ${}}}\n").find("is not ${NAME}") != std::string::npos);
}

TEST_CASE("batch targets: register text that is not UTF-8 is refused, naming its line (Hostile input III, item 8)") {
  // Latin-1 "Súdwest": written as U+FFFD, it never matched its own baseline.
  CHECK(error_of("targets:\n  - name: S\xfa" "dwest\n    base_url: http://h/v1\n") ==
        "targets.yaml: line 2, column 12: not UTF-8 (save the register as UTF-8)");
  CHECK(error_of("# \xc3\n" "targets:\n  - {base_url: http://h/v1}\n").find("line 1, column 3: not UTF-8") != std::string::npos);
  CHECK(error_of("targets:\n  - {base_url: http://h/v1}\n# \xed\xa0\x80\n").find("line 3, column 3") != std::string::npos);
  // a header value is never shown, not even its bytes
  auto message = error_of("targets:\n  - {base_url: http://h/v1, headers: {X-A: \"s3cr3t\xff\"}}\n");
  CHECK(message.find("line 2, column 51") != std::string::npos);
  CHECK(message.find("s3cr3t") == std::string::npos);
  // the same name in UTF-8 is read as written
  auto targets = batch::parse_targets("targets:\n  - name: S\xc3\xba" "dwest\n    base_url: http://h/v1\n", "t.yaml");
  CHECK(targets[0].name == "S\xc3\xba" "dwest");
}

TEST_CASE("batch targets: a register's work is bounded like its text: values counted per target, headers capped") {
  // 100 headers a target; one more is refused
  std::string headers;
  for (std::size_t i = 0; i < batch::max_target_headers; ++i) headers += fmt::format("X-H{}: v, ", i);
  auto targets = batch::parse_targets("targets:\n  - {base_url: http://h/v1, headers: {" + headers + "x-h0: w}}\n", "t.yaml");
  CHECK(targets[0].headers.size() == batch::max_target_headers);
  CHECK(error_of("targets:\n  - {base_url: http://h/v1, headers: {" + headers + "X-Last: v}}\n") ==
        "targets.yaml: targets[0]: headers: more than 100 headers");
  // defaults fill every target: 3,000 params in 400 targets are 1.2 million values
  std::string params;
  for (int i = 0; i < 3000; ++i) params += fmt::format("p{}: v, ", i);
  std::string many = "defaults: {params: {" + params + "}}\ntargets:\n";
  for (int i = 0; i < 400; ++i) many += fmt::format("  - {{base_url: http://h/v{}}}\n", i);
  CHECK(error_of(many).find("the register holds more than 1000000 values") != std::string::npos);
  // and so does a YAML alias
  std::string aliased = "targets:\n  - {base_url: http://h/v0, params: &p {" + params + "}}\n";
  for (int i = 1; i < 400; ++i) aliased += fmt::format("  - {{base_url: http://h/v{}, params: *p}}\n", i);
  CHECK(error_of(aliased).find("the register holds more than 1000000 values") != std::string::npos);
  // 300 targets of those are read
  CHECK(batch::parse_targets(many.substr(0, many.find("  - {base_url: http://h/v300}")), "t.yaml").size() == 300);
}

TEST_CASE("batch targets: oauth2 in defaults and per target, key by key; ${VAR} in client_secret only") {
  auto targets = batch::parse_targets(
      "defaults:\n"
      "  oauth2: {token_url: 'https://auth.example.nl/token', client_id: nightly, client_secret: ${OAUTH_SECRET}}\n"
      "targets:\n"
      "  - {base_url: http://h/v1}\n"
      "  - {base_url: http://h/v2, oauth2: {client_id: other, scope: read}}\n",
      "targets.yaml");
  REQUIRE(targets.size() == 2);
  CHECK(targets[0].oauth2 == std::map<std::string, std::string>{{"token_url", "https://auth.example.nl/token"},
                                                                {"client_id", "nightly"},
                                                                {"client_secret", "${OAUTH_SECRET}"}});
  CHECK(targets[1].oauth2.at("client_id") == "other");
  CHECK(targets[1].oauth2.at("scope") == "read");
  CHECK(targets[1].oauth2.at("client_secret") == "${OAUTH_SECRET}");
  CHECK(error_of("targets:\n  - {base_url: http://h/v1, oauth2: {token_uri: x}}\n") ==
        "targets.yaml: targets[0]: oauth2: unknown key 'token_uri' (known: token_url, client_id, client_secret, scope, auth)");
  CHECK(error_of("targets:\n  - {base_url: http://h/v1, oauth2: x}\n").find("oauth2: expected a mapping") != std::string::npos);
  CHECK(error_of("targets:\n  - {base_url: http://h/v1, oauth2: {client_id: '${ID}'}}\n") ==
        "targets.yaml: targets[0]: oauth2: client_id: ${VAR} is read from the environment in header values and oauth2's "
        "client_secret only");
}

TEST_CASE("batch targets: don_adr_score, DON's score of the API, a number from 0 to 100 or null, per target") {
  auto targets = batch::parse_targets(R"(
targets:
  - {name: a, base_url: "https://a.example/v1", don_adr_score: 85}
  - {name: b, base_url: "https://b.example/v1", don_adr_score: 42.5}
  - {name: c, base_url: "https://c.example/v1", don_adr_score: ~}
  - {name: d, base_url: "https://d.example/v1"}
)", "targets.yaml");
  CHECK(targets[0].don_adr_score == 85);
  CHECK(targets[1].don_adr_score == 42.5);
  CHECK_FALSE(targets[2].don_adr_score);
  CHECK_FALSE(targets[3].don_adr_score);
  CHECK(error_of("targets: [{base_url: x, don_adr_score: high}]").find("don_adr_score: expected a number from 0 to 100") !=
        std::string::npos);
  CHECK(error_of("targets: [{base_url: x, don_adr_score: 101}]").find("expected a number") != std::string::npos);
  CHECK(error_of("targets: [{base_url: x, don_adr_score: 0x1A}]").find("expected a number") != std::string::npos);
  CHECK(error_of("defaults: {don_adr_score: 1}\ntargets: [{base_url: x}]").find("belongs to each target") !=
        std::string::npos);
}

TEST_CASE("batch targets: owner and label values are capped, naming the target (Hostile input IV, item 9)") {
  // A 100 KB owner went onto every series of summary.prom: 3.1 MB for one target.
  const std::string at_cap(batch::max_carried_bytes, 'o');
  auto targets = batch::parse_targets(
      "targets:\n  - {name: bag, base_url: http://h/v1, owner: " + at_cap + ", labels: {tier: " + at_cap + "}}\n", "t.yaml");
  CHECK(targets[0].owner == at_cap);
  CHECK(targets[0].labels.front().second == at_cap);
  CHECK(error_of("targets:\n  - {name: bag, base_url: http://h/v1, owner: " + std::string(100 * 1024, 'o') + "}\n") ==
        "targets.yaml: targets[0] (bag): owner is 102400 bytes long, more than the 256 a value every series of the "
        "target carries may have");
  CHECK(error_of("targets:\n  - {base_url: http://h/v1}\n  - {name: kvk, base_url: http://h/v2, labels: {tier: " +
                 at_cap + "x}}\n") ==
        "targets.yaml: targets[1] (kvk): labels: tier is 257 bytes long, more than the 256 a value every series of the "
        "target carries may have");
  // bytes, not characters: 129 two-byte characters are 258 bytes
  std::string accented;
  for (int i = 0; i < 129; ++i) accented += "\xc3\xba";
  CHECK(error_of("targets:\n  - {name: bag, base_url: http://h/v1, owner: " + accented + "}\n").find("owner is 258 bytes") !=
        std::string::npos);
  // a default's owner is the defaults' mistake
  CHECK(error_of("defaults: {owner: " + at_cap + "x}\ntargets:\n  - {name: bag, base_url: http://h/v1}\n")
            .find("targets.yaml: defaults: owner is 257 bytes long") == 0);
}

TEST_CASE("batch targets: label names Prometheus or summary.prom set are refused (Hostile input IV, item 9)") {
  // job and instance: a scrape or the Pushgateway sets them and renames a pushed one to exported_job
  for (const char* name : {"job", "instance", "register", "target", "owner", "rule", "verdict", "outcome", "change", "state", "le"}) {
    CAPTURE(name);
    CHECK_FALSE(batch::label_name(name));
    CHECK(error_of(fmt::format("targets:\n  - {{name: bag, base_url: http://h/v1, labels: {{{}: x}}}}\n", name)) ==
          fmt::format("targets.yaml: targets[0]: labels: '{}' is a label summary.prom or Prometheus sets itself (as are "
                      "{}): give it another name",
                      name, "target, owner, rule, edition, base_url, state, outcome, verdict, change, job, instance, register, le, "
                      "quantile"));
  }
  // names Prometheus keeps for itself, and names that are none
  for (const char* name : {"__name__", "__tier", "1tier", "tier-x", "tïer", "exported job"}) {
    CAPTURE(name);
    CHECK_FALSE(batch::label_name(name));
    CHECK(error_of(fmt::format("targets:\n  - {{name: bag, base_url: http://h/v1, labels: {{\"{}\": x}}}}\n", name))
              .find("is not a label name ([a-zA-Z_][a-zA-Z0-9_]*, at most 64 characters, not starting with __") !=
          std::string::npos);
  }
  CHECK_FALSE(batch::label_name(std::string(65, 't')));
  for (const char* name : {"tier", "_team", "exported_job", "Job", "jobs", "instance_id"}) {
    CAPTURE(name);
    CHECK(batch::label_name(name));
  }
  CHECK(batch::label_name(std::string(64, 't')));
}

TEST_CASE("batch targets: a name with an invisible character is another name, and its error shows it (Hostile input IV)") {
  auto targets = batch::parse_targets("targets:\n  - {name: bag, base_url: http://h/v1}\n"
                                      "  - {name: \"bag\\u200B\", base_url: http://h/v2}\n",
                                      "t.yaml");
  REQUIRE(targets.size() == 2);
  CHECK(targets[1].name == "bag\u200B");
  CHECK(targets[1].stem == "bag-");  // files apart
  CHECK(error_of("targets:\n  - {name: \"bag\\u200B\"}\n") == "targets.yaml: targets[0] (bag\\xe2\\x80\\x8b): 'base_url' is missing");
}
