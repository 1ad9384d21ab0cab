// What a check reads: the run's settings, the plan and the recorded exchanges.
// Checks never send anything; the engine gathered all evidence before.
#pragma once
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catalogue/catalogue.hpp"
#include "http/client.hpp"
#include "oas/paths.hpp"
#include "oas/refs.hpp"
#include "report/model.hpp"
#include "tls/probe.hpp"

namespace adrprobe::checks {

struct RunSettings {
  std::string base_url;                    // {base}: no trailing slash
  std::optional<std::string> openapi_url;  // --openapi
  std::vector<http::Header> headers;       // -H
  std::map<std::string, std::string> params;
  bool allow_unsafe = false;
  bool insecure = false;  // --insecure: go on after a certificate failure
  std::size_t max_paths = 250;
  oas::Limits limits;
  bool ref_hosts_any = false;  // hostile-II: --ref-hosts any (external $refs to any address)
};

// One probed resource: the base URL or a documented path with a GET operation.
struct ProbedPath {
  bool is_base = false;
  oas::PathPlan plan;  // empty for the base URL
  std::string url;
  int get = 0, head = 0, slash = 0;                      // exchange ids (HM-1, NT-2)
  std::vector<std::pair<std::string, int>> supported;    // HM-2: documented optional methods sent
  std::vector<std::string> supported_unsent;             // HM-2: documented, needs --allow-unsafe
  std::vector<std::pair<std::string, int>> unsupported;  // HM-3: undocumented methods sent
  std::string display() const { return is_base ? "the base URL" : plan.template_path; }
};

struct DocumentState {
  std::optional<oas::DocumentSet> docs;  // the description document, when one could be had
  std::string url;                       // where it came from
  // Why there is none ("prerequisite not met: ..."), and whether that was a
  // transport problem (error) or the API's behaviour (fail).
  std::string missing_reason;
  bool missing_is_error = false;
  std::vector<oas::Unresolved> unresolved;  // DO-2
  std::vector<int> ref_exchanges;
};

// How fetching a description document went (PO-1, --openapi, external refs).
struct DocumentFetch {
  enum class Outcome { ok, transport_error, http_status, too_many_redirects, too_large, not_json, not_object };
  Outcome outcome = Outcome::transport_error;
  std::string message;  // one line: what was received, or why there is no document
  int last_exchange = 0;
  int redirects = 0;
  std::string final_url;
  bool ok() const { return outcome == Outcome::ok; }
  bool transport() const { return outcome == Outcome::transport_error; }
};

struct Evidence {
  http::Result po1, po2, po3;
  DocumentFetch po1_fetch;
  std::optional<DocumentFetch> po1_with_headers_fetch;
  // openapi.json as published, when the checks read another document (--openapi).
  std::optional<oas::json> published_json;
  std::optional<http::Result> po1_with_headers;  // only when PO-1 failed and -H was given
  std::optional<http::Result> openapi_option;    // --openapi fetch
  std::string po2_origin;
  int base_get = 0;
  DocumentState document;
  std::vector<ProbedPath> probed;        // base URL first
  std::vector<oas::PathPlan> all_paths;  // every documented path
  std::size_t left_out = 0;              // beyond --max-paths
  // Documented GET paths that could not be probed: "/gebouwen/{id}: no value for id ...".
  std::vector<std::string> not_probed;
  bool https = false;                // the base URL's scheme
  std::optional<tls::Facts> tls;     // handshakes, when https
  int cors_probe = 0;                // TS-7: GET on an API resource with a random Origin
  std::string cors_origin;
  // The certificate is not trusted and --insecure was not given: only the
  // handshake checks can be judged (probes.md).
  bool untrusted_stop = false;
};

class Findings;

// {oas}.info.version when it is a string, else nullptr.
const std::string* info_version(const oas::json& doc);

struct Context {
  const RunSettings& settings;
  const catalogue::Edition& edition;
  const std::deque<http::Exchange>& exchanges;
  const Evidence& evidence;
  const catalogue::NcscTable* ncsc = nullptr;

  const http::Exchange& ex(int id) const { return exchanges.at(static_cast<std::size_t>(id - 1)); }
  const oas::json* doc() const { return evidence.document.docs ? &evidence.document.docs->root() : nullptr; }
  // {base}/openapi.json as published (PO-3 compares openapi.yaml with it).
  const oas::json* published() const {
    if (evidence.published_json) return &*evidence.published_json;
    return evidence.po1_fetch.ok() ? doc() : nullptr;
  }
  // PO-1 failed: the checks of the publish-openapi rule have nothing to build on.
  bool publication_failed() const { return !evidence.po1_fetch.ok(); }
  // The result for a check that needs the document when there is none.
  report::CheckResult prerequisite(const std::string& id) const;
  // "GET /v1/gebouwen/ → 301" for messages.
  std::string describe(int exchange_id) const;
  // The verdict a transport error gives (error), with its message.
  std::optional<report::CheckResult> transport_error(const std::string& id, int exchange_id) const;
};

}  // namespace adrprobe::checks

namespace adrprobe::checks {

// Gathers per-path findings of one check into its single report entry: the
// worst verdict, a message led by the worst findings, and the evidence ids.
class Findings {
 public:
  explicit Findings(std::string id) : id_(std::move(id)) {}
  void add(report::Verdict verdict, std::string message, std::vector<int> exchanges = {});
  bool empty() const { return items_.empty(); }
  // pass_message is used when every finding passed (or skipped).
  report::CheckResult result(const std::string& pass_message, std::size_t shown = 5) const;

 private:
  struct Item {
    report::Verdict verdict;
    std::string message;
    std::vector<int> exchanges;
  };
  std::string id_;
  std::vector<Item> items_;
};

}  // namespace adrprobe::checks
