// The rule catalogue: editions of the design rules, loaded from probes/*.yaml.
#pragma once
#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

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
  std::string url;    // the rule's own text: the edition's rule_url with source and id filled in
  std::vector<CheckRef> checks;
  std::vector<std::string> decisions;
  std::string review;               // functional rules: what a reviewer looks at
  std::vector<std::string> hints;   // hint producers
  bool technical() const { return kind == "technical"; }
};

// A module of the rules (probes/module-*.yaml: the Geospatial module): rules
// judged beside an edition whose rule `required_by` (or a rule with it among
// its aliases) requires the module, when the run judges the module (--modules).
struct Module {
  std::string id;       // "geo"
  std::string title;    // "Geospatial"
  std::string version;  // "1.0.2"
  std::string name;     // "API Design rules Module: Geospatial 1.0.2"
  std::string source;
  std::string required_by;  // "/core/geospatial"
  // In an edition's copy: the id of the edition's rule that requires it
  // (2.2.0: "/core/modules/geospatial"); "" in Catalogue::modules().
  std::string rule;
  std::string absent;      // every rule's skip when forced on an API that shows none
  std::string not_judged;  // the requiring rule's hint when the module is not judged
  std::vector<Rule> rules;
};

struct Edition {
  std::string edition;  // "2.0.0"
  std::string extends;  // the edition this one was derived from ("" for none)
  std::string name;
  std::string source;
  std::string ncsc;     // version of the NCSC TLS table TS-2..TS-4 judge by ("" = the newest)
  // Other names this edition answers to (patch releases judged by the same
  // rules, e.g. 2.0.1 and 2.0.2 for 2.0.0), and why (aliases_note).
  std::vector<std::string> aliases;
  std::string aliases_note;
  SemverGrammar semver = SemverGrammar::full;
  std::vector<Rule> rules;
  // The modules one of its rules requires (Module::rule set), in file order.
  std::vector<Module> modules;
  const Module* module(std::string_view id) const {
    for (const auto& m : modules)
      if (m.id == id) return &m;
    return nullptr;
  }
};

// The NCSC TLS guideline levels (probes/ncsc-tls-*.yaml): good, sufficient,
// phase_out, insufficient, and the verdict each level gives.
struct NcscTable {
  std::string version;
  std::string title;
  std::map<std::string, std::string> verdicts;   // level -> pass|warn|fail
  std::map<std::string, std::string> protocols;  // "TLSv1.2" -> level
  std::map<std::string, std::string> ciphers;    // OpenSSL name -> level
  std::string cipher_otherwise = "insufficient";
  std::map<std::string, std::string> groups;
  std::string group_otherwise = "insufficient";
  int rsa_min_bits = 2048;
  int rsa_phase_out_below = 0;  // RSA keys of rsa_min_bits up to this (exclusive): phase out (0: none)
  std::vector<std::string> insufficient_signatures;
  std::vector<std::string> phase_out_signatures;  // digest names (2025-05: sha224)
  std::vector<std::string> phase_out_ec_curves;   // certificate EC curves (2025-05: secp224r1)
  std::vector<std::string> good_ec_curves;        // certificate EC curves the guidelines name good or sufficient
  // An EC key on a named curve in neither list: "insufficient" (2025-05), or
  // empty where the guidelines give other curves no band (2021: not judged).
  std::string ec_curve_otherwise;
  int expiry_warn_days = 14;

  std::string protocol_level(const std::string& name) const;
  std::string cipher_level(const std::string& name) const;
  std::string group_level(const std::string& name) const;
  std::string verdict_of(const std::string& level) const;  // "pass" | "warn" | "fail"
};

// One line of probes/baseline.yaml: a rule whose verdict is one of `now`
// and whose verdict in the earlier report was one of `before` ("absent": the
// earlier report does not have the rule) is marked `change`.
struct ChangeRule {
  std::string change;  // new-fail | regressed | fixed
  std::vector<std::string> now, before;
};

// Advice for one check on one stack (probes/fixes/<stack>.yaml): the change as
// code or configuration, and the documentation it follows.
struct FixAdvice {
  std::string check;   // "NT-2"
  std::string text;
  std::string source;  // URL of the framework's documentation, or kRuleText
  // `source: rule`: the text of the rule the check belongs to, in the edition judged
  // (the judge puts the rule's URL in its place), so a 2.0.0 report cites 2.0.0's text.
  static constexpr std::string_view kRuleText = "rule";
  // The verdicts it is given for ("fail", "warn"); empty: both. NT-2's warn
  // (behind authentication, or a wrong base URL) is no trailing-slash problem.
  std::vector<std::string> verdicts;
  bool for_verdict(const std::string& verdict) const {
    return verdicts.empty() || std::find(verdicts.begin(), verdicts.end(), verdict) != verdicts.end();
  }
};

// One response of a stack told by its body and headers together: a 4xx/5xx
// from the API whose body is exactly `body` and that has every header part.
// For a stack whose error body alone is too common (Hono's "404 Not Found" as
// "text/plain; charset=UTF-8", where Go, Koa and Starlette write "utf-8").
struct ResponseSignature {
  std::vector<std::pair<std::string, std::string>> headers;  // lower-case name, substring (exact case) of its value
  std::string body;                                          // the whole body, exact
};

// A server stack: how the exchanges a run already made show it, and the fixes
// proven on it (tests/fixes/<stack>/). The generic advice is a stack with an
// empty id and no signatures (probes/fixes/generic.yaml, `stack: any`).
struct Stack {
  std::string id;    // "express"
  std::string name;  // "Express"
  // When several stacks are seen (a framework behind nginx), the lower rank's
  // advice is taken first: frameworks 1, servers and proxies 2.
  int rank = 1;
  std::vector<std::pair<std::string, std::string>> headers;  // lower-case name, substring (any case) of its value
  std::vector<std::string> bodies;    // substring (exact case) of a 4xx/5xx body from the API
  std::vector<std::string> document;  // JSON pointer that exists in the description document
  std::vector<ResponseSignature> responses;  // one exchange with that whole body and those headers
  std::vector<FixAdvice> fixes;
  const FixAdvice* fix_for(const std::string& check) const {
    for (const auto& f : fixes)
      if (f.check == check) return &f;
    return nullptr;
  }
};

class Catalogue {
 public:
  // The catalogue compiled into the binary (parsed once).
  static const Catalogue& builtin();
  // Parses catalogue files given as {file name, YAML text}; throws on bad data.
  static Catalogue load(const std::vector<std::pair<std::string, std::string>>& files);
  // The same, of files already read into trees (catalogue/tree.hpp).
  static Catalogue load_trees(std::vector<std::pair<std::string, nlohmann::ordered_json>> files);

  // The edition of exactly that name.
  const Edition* edition(const std::string& name) const;
  // What --edition accepts: an edition, one of its aliases, or "latest" (the
  // newest edition). nullptr when none.
  const Edition* resolve(const std::string& name) const;
  // The newest edition (by version number).
  const Edition* latest() const;
  std::vector<std::string> edition_names() const;
  // Every name resolve() accepts: the editions, their aliases, "latest".
  std::vector<std::string> accepted_names() const;
  // Every module (probes/module-*.yaml), and the one of that id (nullptr when none).
  const std::vector<Module>& modules() const { return modules_; }
  const Module* module(std::string_view id) const;
  // The NCSC TLS table of that version, or the newest when version is empty
  // (nullptr when there is none).
  const NcscTable* ncsc(const std::string& version = "") const;
  // How a verdict compares with a baseline's (probes/baseline.yaml), first match wins.
  const std::vector<ChangeRule>& baseline() const { return baseline_; }
  // The stacks of probes/fixes/, in file order, and the generic advice.
  const std::vector<Stack>& stacks() const { return stacks_; }
  const Stack& generic_fixes() const { return generic_; }

 private:
  std::vector<Stack> stacks_;
  Stack generic_;
  std::map<std::string, NcscTable> ncsc_;  // by version
  std::vector<ChangeRule> baseline_;
  std::vector<Edition> editions_;
  std::vector<Module> modules_;
};

}  // namespace adrprobe::catalogue
