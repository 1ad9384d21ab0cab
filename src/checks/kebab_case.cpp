// /core/path-segments-kebab-case (2.2.0): KC-1, KC-2 (document).
#include <fmt/format.h>

#include "checks/check.hpp"

namespace adrprobe::checks {
namespace {

CheckResult not_yet(const Evidence&, const CheckRef& ref) { return {ref.id, Verdict::skip, "not implemented yet", {}}; }

}  // namespace

extern const Check kc1{
    .id = "KC-1",
    .needs = document,
    .title = "Path segments are kebab-case",
    .sends = "nothing (static); reads the keys of {oas}.paths",
    .passes = "every segment kebab-case, a whole {template}, or _kebab-case in the last segment: pass; else fail",
    .judge = not_yet};
extern const Check kc2{
    .id = "KC-2",
    .needs = document,
    .title = "Server URL segments are kebab-case",
    .sends = "nothing (static); reads servers[].url and, in check, the base URL",
    .passes = "every non-empty segment kebab-case or a template: pass; else warn",
    .judge = not_yet};

}  // namespace adrprobe::checks
