// What one run is asked to do: the CLI (or a batch file) fills this in, once,
// validated; the engine and the checks only read it.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "http/client.hpp"
#include "oas/limits.hpp"

namespace adrprobe::engine {

struct Settings {
  // {base}: the API's base URL without trailing slash. Empty for `lint`, which
  // judges a document alone.
  std::string base_url;
  // --openapi FILE|URL for `check`; the document itself for `lint`.
  std::optional<std::string> openapi;
  std::vector<http::Header> headers;          // -H: sent on probes, never on the public document
  // OAuth 2.0 client credentials (--oauth2-*): the token endpoint that gave
  // the Authorization header in `headers` and its HTTP status (the run
  // record names both, never the token), and the client's id and secret (the
  // Redactor masks the secret). An empty token_url: none.
  struct OAuth2 {
    std::string token_url;
    int status = 0;
    std::string client_id, client_secret;
  };
  OAuth2 oauth2;
  std::map<std::string, std::string> params;  // --param: values for path parameters
  bool allow_unsafe = false;                  // --allow-unsafe
  bool insecure = false;                      // --insecure: go on after a certificate failure
  bool ref_hosts_any = false;                 // --ref-hosts any: external $refs from any address
  std::size_t max_paths = 250;                // --max-paths (0 = all)
  oas::Limits limits;
  http::ClientSettings client;  // its deadline is set from deadline_s when the run starts
  double deadline_s = 600;      // --deadline
  // Threads judging the checks at once (engine::judge); 0: one for a short
  // run or a batch's target, up to four for a long run.
  int judges = 0;
  std::string tool_version;
  // --rules: the edition's ids of the rules to judge; empty: every rule. Only
  // their checks (and the checks their hint producers use) are planned; the
  // others are `skip` ("not selected").
  std::set<std::string> rules;
  bool selected(const std::string& rule_id) const { return rules.empty() || rules.count(rule_id) > 0; }
  // --modules: "auto" judges a module of the rules (probes/module-*.yaml) when
  // its detector sees what it is about, "none" never, a module's id ("geo")
  // always (its rules skip on an API that shows none of it).
  std::string modules = "auto";

  bool live() const { return !base_url.empty(); }
};

}  // namespace adrprobe::engine
