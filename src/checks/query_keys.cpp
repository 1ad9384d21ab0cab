// /core/query-keys-camel-case (2.2.0): QK-1 (document).
#include <fmt/format.h>

#include "checks/check.hpp"

namespace adrprobe::checks {
namespace {

CheckResult not_yet(const Evidence&, const CheckRef& ref) { return {ref.id, Verdict::skip, "not implemented yet", {}}; }

}  // namespace

extern const Check qk1{
    .id = "QK-1",
    .needs = document,
    .title = "Query keys are camelCase",
    .sends = "nothing (static); reads the query parameters of every operation and apiKey schemes in the query",
    .passes = "every key matches ^\\$?[a-z][a-z\\d]*([A-Z][a-z\\d]*)*$: pass; else fail",
    .judge = not_yet};

}  // namespace adrprobe::checks
