// What the evidence says about the run as a whole: an unreachable target, a base
// URL under which every documented path answers 404.
#include "fake_run.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;

namespace {
const std::string kBase = "https://api.example.nl/v1";
const std::string kRefused = "Failed to connect to api.example.nl port 443: Connection refused";
}  // namespace

TEST_CASE("evidence: unreachable when neither the base URL nor the document answers") {
  FakeRun run;
  run.fail(engine::probe_request("GET", kBase), kRefused);
  run.unreachable(kRefused);
  CHECK(run.ev.unreachable() == "could not reach https://api.example.nl/v1: connection refused");

  FakeRun answers;  // the base URL answers: reachable, whatever openapi.json does
  answers.respond(engine::probe_request("GET", kBase), 404);
  answers.unreachable(kRefused);
  CHECK(answers.ev.unreachable().empty());

  FakeRun document;  // openapi.json answers (with a 404): reachable
  document.fail(engine::probe_request("GET", kBase), kRefused);
  document.unpublished(404);
  CHECK(document.ev.unreachable().empty());
}

TEST_CASE("evidence: the cause of a transport error for one line") {
  CHECK(engine::transport_cause(kRefused) == "connection refused");
  CHECK(engine::transport_cause("Could not resolve host: api.example.invalid") == "could not resolve host: api.example.invalid");
  CHECK(engine::transport_cause("timeout after 10 s (--timeout)") == "timeout after 10 s (--timeout)");
  CHECK(engine::transport_cause("SSL certificate problem: self-signed certificate") ==
        "SSL certificate problem: self-signed certificate");
}

TEST_CASE("evidence: every probed documented path with a GET answering 404 is counted; one other answer clears it") {
  FakeRun run;
  run.document(openapi_doc({{"/a", {{"get", oas::json::object()}}},
                            {"/b", {{"get", oas::json::object()}}},
                            {"/zoek", {{"post", oas::json::object()}}}}));
  run.probe_paths();
  run.respond(engine::probe_request("GET", kBase), 200);
  run.respond(engine::probe_request("GET", kBase + "/a"), 404);
  run.respond(engine::probe_request("GET", kBase + "/b"), 404);
  CHECK(run.ev.all_documented_404() == 2);  // the POST-only path has no GET to judge

  run.ev.results.erase(engine::probe_request("GET", kBase + "/b").key());
  run.respond(engine::probe_request("GET", kBase + "/b"), 200);
  CHECK(run.ev.all_documented_404() == 0);

  FakeRun none;  // no documented path probed
  none.respond(engine::probe_request("GET", kBase), 404);
  CHECK(none.ev.all_documented_404() == 0);
}
