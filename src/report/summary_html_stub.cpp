// TEMPORARY until the HTML renderer lands.
#include "report/summary.hpp"
namespace adrprobe::report {
std::string render_summary_html(const Summary&) { return "<!DOCTYPE html><title>summary</title>\n"; }
}
