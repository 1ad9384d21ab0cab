// report/json: a JSON report read back (--baseline, batch --baseline-dir,
// diff) is someone else's file: it is read or refused with a message, never a
// crash (a file nested 200,000 deep was a stack overflow). Reading is
// deterministic, and a report that reads has what report.schema.json requires
// of a rule (an id, a verdict) and reads back the same after it is written.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "fuzz.hpp"
#include "report/formats.hpp"
#include "report/json.hpp"
#include "report/model.hpp"

namespace adrprobe::report {
std::string render_json(const Report&, const RenderOptions&);  // formats.cpp's table holds it
}

using namespace adrprobe;
using namespace adrprobe::report;

namespace {

// Everything parse_json_report fills in, as one string to compare.
std::string fields(const Report& r) {
  std::string out = r.tool_version + '\0' + r.base_url + '\0' + r.openapi_url.value_or("-") + '\0' +
                    r.name.value_or("-") + '\0' + r.edition + '\0' + r.generated_at + '\0' +
                    std::to_string(r.duration_ms) + '\0' + r.mode + '\0';
  out += std::to_string(r.score.pass) + ' ' + std::to_string(r.score.warn) + ' ' + std::to_string(r.score.fail) + ' ' +
         std::to_string(r.score.error) + ' ' + std::to_string(r.score.applicable) + ' ' +
         (r.score.percent ? std::to_string(*r.score.percent) : "-") + '\0';
  for (const auto& rule : r.rules) {
    out += rule.id + '\0' + rule.title + '\0' + rule.kind + '\0' + rule.level + '\0' + rule.url + '\0' +
           to_string(rule.verdict) + '\0' + rule.summary + '\0' + rule.change.value_or("-") + '\0' + rule.review + '\0';
    for (const auto& a : rule.aliases) out += a + '\1';
    for (const auto& h : rule.hints) out += h + '\2';
    for (const auto& c : rule.checks) {
      out += c.id + '\0' + to_string(c.verdict) + '\0' + c.message + '\0';
      for (int e : c.exchanges) out += std::to_string(e) + ',';
      for (const auto& d : c.details) out += d + '\3';
    }
  }
  for (const auto& n : r.notes) out += n + '\4';
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(fuzz::as_text(data, size));
  Report first;
  std::string error;
  try {
    first = parse_json_report(text);
  } catch (const std::runtime_error& e) {
    error = e.what();
    FUZZ_ASSERT(!error.empty());
  }
  // The same text reads the same way, or fails with the same message.
  try {
    Report again = parse_json_report(text);
    FUZZ_ASSERT(error.empty());
    FUZZ_ASSERT(fields(again) == fields(first));
  } catch (const std::runtime_error& e) {
    FUZZ_ASSERT(error == e.what());
  }
  if (!error.empty()) return 0;
  // What the schema requires of a rule; a check's verdict is always one of the six.
  for (const auto& rule : first.rules) {
    FUZZ_ASSERT(!rule.id.empty());
    FUZZ_ASSERT(verdict_from_string(to_string(rule.verdict)).has_value());
  }
  FUZZ_ASSERT(first.mode == "check" || first.mode == "lint");
  // Written as a JSON report, it reads back as itself (what a baseline directory receives every night).
  std::string written = render_json(first, RenderOptions{});
  Report back = parse_json_report(written);
  FUZZ_ASSERT(fields(back) == fields(first));
  return 0;
}
