// summary.md: what changed since the previous run (placeholder until the digest lands).
#include "report/summary.hpp"

namespace adrprobe::report {

std::string render_summary_markdown(const Summary& summary) { return "# adrprobe summary " + summary.generated_at + "\n"; }

}  // namespace adrprobe::report
