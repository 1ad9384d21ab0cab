// The summary of a batch (CLI.md, summary.json): one row per target, read by
// summary.json, summary.html and summary.prom. `adrprobe summary DIR...` merges
// the summaries of several shards into one.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "report/model.hpp"

namespace adrprobe::report {

// What changed against a baseline: rule ids (of the target's edition).
struct Changes {
  std::vector<std::string> new_fail, fixed, regressed;
  bool down = false;     // down now, up in the baseline: one event, no rule marks
  bool back_up = false;  // up now, down in the baseline
};

// One run of one target, as summary.json's `history` keeps it (the last
// max_history runs, carried forward by `summary --previous`).
struct HistoryPoint {
  std::string generated_at;
  bool up = true;
  std::optional<double> percent;
  int pass = 0, warn = 0, fail = 0, error = 0;
};
constexpr std::size_t max_history = 30;

// A module judged beside the edition (Report::modules): what summary.html's
// matrix heads its columns with and summary.prom labels its rules' series by.
struct SummaryModule {
  std::string id;       // "geo"
  std::string heading;  // "Geospatial module 1.0.2"
  std::vector<std::string> rules;  // its technical rules' ids, in `verdicts` after the edition's
};

struct SummaryTarget {
  std::string name;
  std::string base_url;  // passwords masked
  std::string edition;
  std::string report;    // the JSON report's file name, relative to the summary
  // Every report file of the target by format name ("json", "html", "junit",
  // ...), relative to the summary, as written (-o of batch): what summary.html
  // links. Empty: only `report`.
  std::vector<std::pair<std::string, std::string>> files;
  Score score;
  std::vector<std::string> failing;    // rules with verdict fail
  // Since when (CLI.md, "Nightly monitoring"): each failing rule's failing_since,
  // in the order of `failing`; a down target's down_since.
  std::vector<std::pair<std::string, std::string>> failing_since;
  std::string down_since;
  std::vector<std::string> erroring;   // rules with verdict error
  std::optional<Changes> change;       // null without a baseline
  std::optional<int> cert_days_left;   // the certificate of an https target
  std::string note;                    // the report's first leading note (e.g. "could not reach ...")
  int exit_status = 0;                 // CLI.md's status of this target alone
  bool reachable = true;               // false: the target is down (neither the base URL nor the document answered)
  std::string owner;                   // from the register
  std::vector<std::pair<std::string, std::string>> labels;
  std::optional<double> don_adr_score;  // from the register (DON's static score), when it has one
  std::string moved_from;              // the baseline's base URL, when the API moved
  std::string generated_at;            // of the target's report
  // Every technical rule with its verdict, in the edition's order (per-rule
  // gauges), then each module's: compared by `diff` like the edition's. A
  // module's rules are in `score`, `failing` and `erroring` only through the
  // edition's rule for the module.
  std::vector<std::pair<std::string, Verdict>> verdicts;
  std::vector<SummaryModule> modules;
  // The report's conclusion (CLI.md): what summary.prom's first gauges say.
  // None: a row of a summary.json written before it was kept.
  std::optional<Conclusion> conclusion;
};

struct Summary {
  std::string tool_version;
  std::string generated_at;  // RFC 3339, UTC
  std::vector<SummaryTarget> targets;
  // The part of the register this summary covers: shard k of n (0/1: all) of
  // a register of `register_size` targets. A merge of shards is complete when
  // every k of 0..n-1 is in it.
  std::size_t shard_k = 0, shard_n = 1, register_size = 0;
  // The register's name (batch: --register-name, else the file's stem): the
  // Pushgateway group summary.prom goes to, which `summary` reads back from
  // the shards. Empty: not known (a summary.json of an earlier version, or
  // shards that name different registers).
  std::string register_name;
  bool complete = true;
  std::vector<std::string> notes;  // what a reader must know first (a shard missing, a baseline unreadable)
  // Per target name, its last runs, oldest first, this run's last (summary --previous).
  std::map<std::string, std::vector<HistoryPoint>> history;
  std::string previous_generated_at;  // of the --previous summary, when one was read
};

// This run's point of a row (its report's time, else `fallback_time`).
HistoryPoint history_point(const SummaryTarget& t, const std::string& fallback_time);
// summary.history: for every target of `summary`, the previous summary's
// points for the same name (or its row, when it kept no history), then this
// run's, the newest max_history kept. Targets no longer in the register drop out.
void carry_history(Summary& summary, const Summary* previous);

// Whether a row changed tonight (new-fail, regressed, fixed, down, back up),
// and whether it got worse (new-fail, regressed, down): what --fail-on
// regressed, summary.html's order and summary.md go by.
bool changed(const SummaryTarget& t);
bool got_worse(const SummaryTarget& t);
// Down, and down in the baseline too: no change, but what a reader must not forget.
bool still_down(const SummaryTarget& t);
// The order of rows in summary.html and summary.md, what needs a reader first:
// the changed (0 went down, 1 new-fail, 2 regressed, 3 fixed or back up), then
// 4 still down, 5 failing, 6 not completely tested (a rule in error), 7 passing.
int row_rank(const SummaryTarget& t);
// How long a streak of target `name` that began with its run of `since` has
// lasted, from the summary's history: "8 nights" (this run included); "" when
// the history does not reach back to it (it began later, or was cut at max_history).
std::string nights_since(const Summary& summary, const std::string& name, const std::string& since);
// A row's failing rules (but those in `except`) by the date their failure
// began, the oldest first; those without one (a row of an earlier version) under "".
std::map<std::string, std::vector<std::string>> failing_by_since(const SummaryTarget& t,
                                                                 const std::vector<std::string>& except = {});

// The module of one of a row's `verdicts`: nullptr for the edition's rules.
const SummaryModule* module_of(const SummaryTarget& t, const std::string& rule_id);

// A target's row, from its finished report (secrets already masked):
// `report_file` is the JSON report's name relative to the summary.
SummaryTarget summarize(const Report& report, const std::string& name, const std::string& report_file, FailOn fail_on);

// The largest summary.json `adrprobe summary` reads: a row is about 2 KiB,
// so some 30,000 targets.
constexpr std::size_t max_summary_bytes = 64u << 20;
// Its longest stretch from one string, number or literal to the next
// (oas::Limits::max_stretch_bytes; a note, a URL, a row's brackets: far less).
// The text is read whole, and the parser holds such a stretch whole, twice:
// a few times this much more, never the file again.
constexpr std::size_t max_summary_stretch_bytes = 4u << 20;
// A history point's generated_at (an RFC 3339 time): a longer one is no time,
// and max_history of them per target are kept.
constexpr std::size_t max_history_time_bytes = 64;

// Whose history parse_summary_json reads: a target name gets its newest
// max_history points when this says true; every other list is skipped as it
// is parsed. Empty: every name's. no_history: none (a shard's summary is
// merged without its history, diff compares the rows).
using HistoryWanted = std::function<bool(const std::string& name)>;
inline bool no_history(const std::string&) { return false; }

// summary.json (CLI.md, "adrprobe-summary/1") and back (adrprobe summary DIR...);
// parse throws std::runtime_error on a file that is not one: larger than
// max_summary_bytes, nested deeper than a report may be, a stretch over
// max_summary_stretch_bytes, a shard K/N that --shard would refuse, a number
// out of range or a wrong type (in any history point it reads). The history
// is read point by point, never whole: a list of millions costs max_history
// points (the newest by generated_at, in the list's order; of two at one
// time, the later).
std::string render_summary_json(const Summary& summary);
Summary parse_summary_json(const std::string& text, const HistoryWanted& wanted = {});
// summary.html: one self-contained page, a row per target, linking each report.
std::string render_summary_html(const Summary& summary);
// summary.prom: the per-target gauges of the OpenMetrics format.
std::string render_summary_openmetrics(const Summary& summary);
// summary.md: what changed since the previous run, grouped by owner.
std::string render_summary_markdown(const Summary& summary);

}  // namespace adrprobe::report
