// The report model: every renderer (report/formats.cpp) reads this, and only this.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <deque>
#include <vector>

#include "http/exchange.hpp"
#include "verdict/verdict.hpp"
#include "tls/probe.hpp"

namespace adrprobe::report {

using adrprobe::CheckResult;
using adrprobe::Location;
using adrprobe::severity;
using adrprobe::to_string;
using adrprobe::Verdict;
using adrprobe::verdict_from_string;
using adrprobe::worst;

struct RuleResult {
  std::string id;
  // The module of the rules it belongs to ("geo": module-geo.md), "" for the
  // edition's own rules. A module's rules follow the edition's and count in
  // the score only through the edition's rule for the module (/core/geospatial).
  std::string module;
  std::vector<std::string> aliases;
  std::string title;
  std::string kind;
  std::string level;
  std::string statement;
  std::string review;
  std::string url;  // the rule's own text in the edition's publication
  Verdict verdict = Verdict::skip;
  std::string summary;
  std::vector<CheckResult> checks;
  std::vector<std::string> hints;
  std::optional<std::string> change;  // --baseline
  // A failing rule: the generated_at of the first report of its unbroken
  // failing streak (CLI.md, "Nightly monitoring"), carried from the baseline
  // by report::date_streaks; nullopt when it does not fail.
  std::optional<std::string> failing_since;
};

// A module of the rules judged beside the edition (JSON `modules[]`, CLI.md):
// which, its version, and why it was judged ("judged: /collections and
// application/geo+json in the document").
struct ModuleInfo {
  std::string id;       // "geo"
  std::string title;    // "Geospatial"
  std::string version;  // "1.0.2"
  std::string reason;
};

struct Score {
  int pass = 0, warn = 0, fail = 0, error = 0, applicable = 0;
  // nullopt when no technical rule got pass, warn or fail (JSON null, shown n/a).
  std::optional<double> percent;
};

// How the run was made (JSON `run`), for auditors; the command that ran it
// fills it in. Names of the headers given, never their values.
struct RunInfo {
  std::string command;        // check | lint | demo (JSON run.subcommand)
  // The command line as given, each argument shell-quoted, secrets masked
  // (-H values, URL passwords; the Redactor masks every other form). JSON run.command.
  std::string command_line;
  std::vector<std::string> rules_selected;  // --rules, as the edition names them ("" : all)
  std::string edition_asked;  // --edition as given ("2.0.1", "latest"); Report::edition is the catalogue used
  std::string edition_note;   // why that name is judged by that edition ("editorial changes only")
  double timeout_s = 0, rate = 0, deadline_s = 0;
  int concurrency = 0;
  std::size_t max_paths = 0;
  std::size_t max_requests = 0;  // 0: no limit
  bool insecure = false, allow_unsafe = false, ca_file = false, client_cert = false;
  std::string user_agent;
  std::string ref_hosts;                         // public | any
  std::vector<std::string> header_names;         // -H and --header-file
  // --oauth2-token-url (its password masked) and the HTTP status of the
  // token's fetch; empty: no OAuth 2.0 token. Never the token. JSON run.oauth2.
  std::string oauth2_token_url;
  int oauth2_status = 0;
  std::map<std::string, std::string> libraries;  // libcurl, openssl
};

// A rule's verdict in the last report in which the target was up (CLI.md,
// "Nightly monitoring"): what a down report carries forward, so the night it
// answers again is compared with that night.
struct LastUp {
  std::string generated_at;
  std::string edition;
  std::string base_url;
  std::vector<RuleResult> rules;  // id, aliases, kind, verdict and failing_since only
};

struct Report {
  std::string mode = "check";  // check | lint
  std::string tool_version;
  std::string base_url;
  std::optional<std::string> openapi_url;
  std::optional<std::string> name;
  std::string edition;
  std::string edition_name;
  std::string generated_at;  // RFC 3339, UTC
  long long duration_ms = 0;
  Score score;
  std::vector<RuleResult> rules;
  std::vector<ModuleInfo> modules;  // judged beside the edition; their rules are in `rules`, after the edition's
  std::deque<http::Exchange> exchanges;  // ids are 1-based positions; a deque: tens of thousands on a wide API, never two copies
  std::optional<tls::Facts> tls;  // the handshakes, when the run made them
  std::vector<std::string> notes;  // run facts: paths skipped, left out, limits hit
  // The one run fact a reader must see first, at the top (also the first note):
  // the server requires a client certificate.
  std::string headline;
  // The first `leading_notes` notes say something about the whole report (the
  // target could not be reached, the base URL looks wrong): shown first.
  std::size_t leading_notes = 0;
  // Neither the base URL nor the document answered (transport): the first note
  // says why, and the checks that could not run need no line each. The
  // target's `state` is then "down" (CLI.md, "Nightly monitoring"): its score
  // is n/a, every format shows one entry ("down: <cause>"), no rule is marked.
  bool unreachable = false;
  // From the register (batch): who answers for the API, and free labels.
  std::string owner;
  std::vector<std::pair<std::string, std::string>> labels;
  // The ADR score DON's API register gives the API (don_adr_score of the
  // register): its static score, shown beside the live one in the summary.
  std::optional<double> don_adr_score;
  // Against a baseline (--baseline, batch --baseline-dir):
  bool compared = false;      // a baseline was applied (a down report has no rule marks to tell)
  bool went_down = false;     // down now, up in the baseline
  bool came_back = false;     // up now, down in the baseline (compared with its last_up)
  std::string moved_from;     // the baseline's base URL, when the target moved
  std::optional<LastUp> last_up;  // a down report: the last up report's verdicts
  std::string down_since;     // a down report: the generated_at of the first report of its outage
  int paths_probed = 0;
  // Documented paths --max-requests left out (the first leading note names them too).
  std::vector<std::string> left_out;
  std::optional<RunInfo> run;
};

// What an auditor signs (CLI.md, `conclusion`): conforms is false when a
// technical MUST rule fails, nullopt when none fails but one is error (or the
// target is down), else true. Failing SHOULD rules are deviations; functional
// rules always await a reviewer. Rules not selected (--rules) count nowhere.
struct Conclusion {
  std::optional<bool> conforms;
  int must_failed = 0, should_failed = 0, warned = 0, errors = 0, functional_pending = 0;
  std::vector<std::string> must_ids, should_ids;  // the failing rules, for the text
  std::string text;  // one sentence: "does not conform to 2.2.0: ..."
};
Conclusion conclude(const Report& report);

// Aggregates check verdicts into the rule verdict (no checks: skip).
Verdict aggregate(const std::vector<CheckResult>& checks);
// Technical rules only: percent = 100 * (pass + warn) / (pass + warn + fail + error).
Score compute_score(const std::vector<RuleResult>& rules);

// Shared by the renderers; the strings returned are raw report text (server
// text included): each renderer escapes them for its format.
// The bytes of a response body a report keeps (response_body).
inline constexpr std::size_t kReportBodyBytes = 2048;
// An exchange made a report record: its body cut to the first kReportBodyBytes
// (at a UTF-8 character boundary; body_truncated says so) where the report
// shows it (status >= 400, or a body a check judged), else dropped with its
// storage; the request's purpose (for -v logs) dropped.
void slim(http::Exchange& e);
// The exchange with this id, or nullptr.
const http::Exchange* find_exchange(const Report& report, int id);
// Which request proves a finding: "GET https://x/v1/a → 404", or
// "GET https://x/v1/a ✗ Connection refused" when there was no response.
std::string exchange_line(const http::Exchange& e);
// The response headers a check judged, as found on e: "content-type: text/html",
// "content-type: (none)" when absent; "" when e has no response or names is empty.
// Raw report text, like exchange_line.
std::string judged_headers_line(const http::Exchange& e, const std::vector<std::string>& names);
// The description document as the user named it: the path given to lint
// ("api/openapi.yaml"), else the document URL the run read (or the base URL).
std::string document_location(const Report& report);
// A stable id of one finding: SHA-256 (hex) of the rule id, the check id, its
// first location and its message; the same finding gets the same fingerprint
// in every run, two findings of one report never share one.
// `scope` tells apart the same finding on two targets of a batch (their URL and name).
std::string fingerprint(const std::string& rule_id, const CheckResult& check, const std::string& scope = "");

// The target's state: "up" or "down" (Report::unreachable).
inline const char* state_of(const Report& report) { return report.unreachable ? "down" : "up"; }
// Why a down target is down: its first note ("could not reach ...: connection refused").
std::string down_cause(const Report& report);
// A down target's one entry where a format lists findings (SARIF, GitLab):
// its rule (check) name, and a fingerprint stable from night to night (of the
// target's name and URL, not of the cause, which may change while it stays down).
inline constexpr const char* kDownCheck = "adrprobe/down";
std::string down_fingerprint(const Report& report);

enum class FailOn { fail, warn, regressed, never };
// Exit status of CLI.md: 0 ok, 1 a rule at/above fail_on, else 3 when a rule is
// error (with --fail-on never too, whatever failed), else 0. With `regressed`:
// 1 when a rule is new-fail or regressed, or the target went down, against
// the baseline; else 0 (no baseline: nothing compared, 0).
int exit_status(const Report& report, FailOn fail_on);

}  // namespace adrprobe::report
