// Acquire: the description document the checks read, and the documents its
// $refs reach. `check` reads {base}/openapi.json (as published, without -H)
// or --openapi FILE|URL; `lint` reads the document it is given. JSON or YAML.
#pragma once
#include "engine/evidence.hpp"
#include "engine/planner.hpp"
#include "http/client.hpp"

namespace adrprobe::engine {

// The published document, as PO-1 and the acquisition both request it.
RequestSpec published_document(const Settings& settings);

// check, phase one: declares the document requests.
void plan_acquire(Planner& planner, const Settings& settings);
// check, after phase one: judges the published document, asks again with -H
// when that may help, chooses the document the checks read and resolves its $refs.
void acquire_for_check(http::Client& client, Evidence& ev);
// lint: the document alone (a file or a URL) and its $refs.
void acquire_for_lint(http::Client& client, Evidence& ev);

// Judges one document fetch (with its redirect chain) and parses the body into *out:
// json_only for {base}/openapi.json (the rule asks for JSON there), else JSON or YAML.
DocumentFetch judge_fetch(const std::deque<http::Exchange>& exchanges, const http::Result& result,
                          const oas::Limits& limits, bool json_only, oas::DocPtr* out);

}  // namespace adrprobe::engine
