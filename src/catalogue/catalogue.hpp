// The rule catalogue: editions of the design rules, loaded from probes/*.yaml.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "util/semver.hpp"

namespace adrprobe::catalogue {

struct CheckRef {
  std::string id;                             // "NT-2"
  std::map<std::string, std::string> params;  // per-edition settings of the check (e.g. missing: fail)
};

struct Rule {
  std::string id;
  std::vector<std::string> aliases;
  std::string kind;   // technical | functional
  std::string level;  // MUST | SHOULD
  std::string title;
  std::string statement;
  std::vector<CheckRef> checks;
  std::vector<std::string> decisions;
  std::string review;               // functional rules: what a reviewer looks at
  std::vector<std::string> hints;   // hint producers
  bool technical() const { return kind == "technical"; }
};

struct Edition {
  std::string edition;  // "2.0.0"
  std::string name;
  std::string source;
  SemverGrammar semver = SemverGrammar::full;
  std::vector<Rule> rules;
};

struct CheckInfo {
  std::string id, rule, title, sends, passes;
  bool per_path = false;  // probes every documented path: unprobed ones are listed under it as skip
};

class Catalogue {
 public:
  // The catalogue compiled into the binary (parsed once).
  static const Catalogue& builtin();
  // Parses catalogue files given as {file name, YAML text}; throws on bad data.
  static Catalogue load(const std::vector<std::pair<std::string, std::string>>& files);

  const Edition* edition(const std::string& name) const;
  std::vector<std::string> edition_names() const;
  const CheckInfo* check(const std::string& id) const;

 private:
  std::vector<Edition> editions_;
  std::map<std::string, CheckInfo> checks_;
};

}  // namespace adrprobe::catalogue
