// /core/error-handling/problem-details and /core/error-handling/invalid-input (2.2.0): EH-1, EI-1 (document), EH-2 (live).
#include <fmt/format.h>

#include "checks/check.hpp"

namespace adrprobe::checks {
namespace {

CheckResult not_yet(const Evidence&, const CheckRef& ref) { return {ref.id, Verdict::skip, "not implemented yet", {}}; }

}  // namespace

extern const Check eh1{
    .id = "EH-1",
    .needs = document,
    .title = "Error responses are documented as problem details",
    .sends = "nothing (static); reads the 4xx, 5xx and default responses of every operation",
    .passes = "problem+json/xml with status, title and detail: pass; else fail (warn for default)",
    .judge = not_yet};
extern const Check eh2{
    .id = "EH-2",
    .needs = requests,
    .title = "Error responses received are problem details",
    .sends = "nothing of its own; reads the 4xx/5xx responses the run received under the base URL",
    .passes = "problem media type and members status (= HTTP status), title, detail: pass; else fail; none received: skip",
    .judge = not_yet};
extern const Check ei1{
    .id = "EI-1",
    .needs = document,
    .title = "Operations taking input document 400",
    .sends = "nothing (static); reads the operations with query parameters or a request body",
    .passes = "400 or 4XX documented: pass; else fail",
    .judge = not_yet};

}  // namespace adrprobe::checks
