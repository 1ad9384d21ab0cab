// What a check produces: its verdict, message, evidence ids and places. A
// small header below the engine, the checks and the report, which all speak
// of verdicts; the report model (report/model.hpp) is built from these.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace adrprobe {

enum class Verdict { pass, warn, fail, error, skip, manual };

std::string to_string(Verdict v);
std::optional<Verdict> verdict_from_string(const std::string& s);
// Severity order for aggregation: fail > error > warn > pass > skip (manual lowest).
int severity(Verdict v);
Verdict worst(Verdict a, Verdict b);

// A place in the description document a finding is about: a JSON pointer
// into the root document ("/paths/~1a/get"; a finding inside another file of
// a multi-file document stands at the root's $ref that leads there) and its
// line in the root document's text (1-based), when the run could tell.
//
// Several fields in another file reached through one $ref of the root share
// that $ref's pointer: `target` tells them apart ("common.yaml#/components/
// schemas/Z/properties/startdatum"), so each distinct field is one place.
struct Location {
  std::string pointer;
  std::optional<int> line;
  std::string target;  // where the finding is written when not in the root document, else ""
  bool operator==(const Location&) const = default;
};

// What to change so a failing or warning check passes (CLI.md `fix`), for the
// server stack the evidence shows (probes/fixes/<stack>.yaml), or advice that
// holds for any server (stack empty, rendered as null).
struct Fix {
  std::string stack;  // "express"; "" = any server
  std::string name;   // "Express" (for people); "" = any server
  std::string text;   // the change, as code or configuration
  std::string source; // the framework's documentation, or the rule's own text in the edition judged
  bool operator==(const Fix&) const = default;
};

struct CheckResult {
  CheckResult() = default;
  CheckResult(std::string id, Verdict verdict, std::string message, std::vector<int> exchanges = {})
      : id(std::move(id)), verdict(verdict), message(std::move(message)), exchanges(std::move(exchanges)) {}
  std::string id;
  Verdict verdict = Verdict::skip;
  std::string message;
  std::vector<int> exchanges;
  // The complete list behind a message that shows only the first few (one
  // item a line, e.g. every unresolved $ref of DO-2); in JSON only.
  std::vector<std::string> details;
  // Where in the document the findings are (static checks), the first one
  // first; empty when the check is not about a place in the document.
  std::vector<Location> locations;
  // The response headers the check judged (lower case, "content-type" for
  // EH-2): every evidence line of this check shows them, present or not.
  std::vector<std::string> judged_headers;
  // Set by the judge for a fail or warn when advice exists (engine/judge.cpp).
  std::optional<Fix> fix;
};

}  // namespace adrprobe
