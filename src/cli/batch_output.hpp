// What `batch` and `summary` both write: summary.json, summary.html and
// summary.prom in a directory, a line per target on stdout, and the exit
// status of many targets.
#pragma once
#include <string>
#include <vector>

#include "cli/push.hpp"
#include "report/summary.hpp"

namespace adrprobe::cli {

// The files write_summary writes: no target's file may have one of these names.
const std::vector<std::string>& summary_file_names();
// "" when every summary file can be written into dir (util/files.hpp's
// write_problem: never through a symbolic link), else "--out-dir DIR: ..."
// naming the first that cannot: asked before any request or merge.
std::string summary_write_problem(const std::string& dir);
// Writes summary.json, summary.html, summary.prom, summary.md into dir, each in one step
// (util/files.hpp's write_file); throws UsageError when it cannot. Then, with
// a push that has a URL, PUTs summary.prom to the group of the summary's
// register_name (cli/push.hpp: a failure is a warning, never an exception).
void write_summary(const std::string& dir, const report::Summary& summary, const Push& push = {});
// The widths of the name and URL columns of the lines of a batch (the longest
// of each, as shown): every target's line is known to be one of them, so the
// columns line up whichever target finishes first.
struct LineColumns {
  std::size_t name = 0, url = 0;
};
LineColumns line_columns(const std::vector<std::pair<std::string, std::string>>& names_and_urls);
LineColumns line_columns(const std::vector<report::SummaryTarget>& rows);
// One line of the table on stdout: "  fail  bag  https://...  87.5 %  2 fail · 1 error  new-fail: ...",
// name and URL padded to `columns`, the counts to the width of two-digit counts.
std::string target_line(const report::SummaryTarget& t, bool color, const LineColumns& columns = {});
// The closing line: how many targets, passing, failing, not tested.
std::string totals_line(const report::Summary& summary, const std::string& dir);
// CLI.md's status over targets: 1 when one has a rule at the --fail-on level,
// else 3 when one could not be completed, else 0.
int summary_exit_status(const report::Summary& summary, report::FailOn fail_on);

}  // namespace adrprobe::cli
