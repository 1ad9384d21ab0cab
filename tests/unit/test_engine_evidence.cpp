// What the evidence says about the run as a whole: an unreachable target, a base
// URL under which every documented path answers 404.
#include "fake_run.hpp"
#include "oas/walk.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;

namespace {
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
  // A name with a capital inside keeps its case (Hostile input IV: "openSSL/3.0.22: ...").
  CHECK(engine::transport_cause("OpenSSL/3.0.13: error:0A000126:SSL routines::unexpected eof while reading") ==
        "OpenSSL/3.0.13: error:0A000126:SSL routines::unexpected eof while reading");
  CHECK(engine::transport_cause("OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to h:443 ") ==
        "OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to h:443");
  CHECK(engine::transport_cause("Recv failure: Connection reset by peer") == "recv failure: Connection reset by peer");
  CHECK(engine::transport_cause("A") == "a");
  CHECK(engine::transport_cause("").empty());
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

TEST_CASE("evidence: a result is found by the key it was declared with, nothing else") {
  FakeRun run;
  auto get = engine::probe_request("GET", "https://api.example.nl/v1/a");
  run.respond(get, 200);
  CHECK(run.ev.result(get) != nullptr);
  CHECK(run.ev.last(get)->status == 200);
  auto with_origin = get;
  with_origin.extra_headers = {{"Origin", "https://o.example"}};
  CHECK(run.ev.result(with_origin) == nullptr);  // another request
  CHECK(run.ev.result(engine::probe_request("HEAD", "https://api.example.nl/v1/a")) == nullptr);
}

TEST_CASE("evidence: describe, transport errors and the missing-document prerequisite") {
  FakeRun run;
  int ok = run.respond(engine::probe_request("GET", "https://api.example.nl/v1/a/"), 404);
  int down = run.fail(engine::probe_request("GET", "https://api.example.nl/v1/b"), "Connection refused");
  CHECK(run.ev.describe(ok) == "GET /v1/a/ → 404");
  CHECK(run.ev.describe(down) == "GET /v1/b: Connection refused");
  CHECK_FALSE(run.ev.transport_error("X-1", ok));
  auto err = run.ev.transport_error("X-1", down);
  REQUIRE(err);
  CHECK(err->verdict == Verdict::error);
  CHECK(err->exchanges == std::vector<int>{down});
  run.ev.document.missing_reason = "GET /v1/openapi.json → 404";
  CHECK(run.ev.prerequisite("DO-1").verdict == Verdict::fail);
  run.ev.document.missing_is_error = true;
  CHECK(run.ev.prerequisite("DO-1").verdict == Verdict::error);
  CHECK(run.ev.prerequisite("DO-1").message == "prerequisite not met: GET /v1/openapi.json → 404");
}

TEST_CASE("evidence: the published document is what PO-3 compares with") {
  FakeRun run;
  run.publish(openapi_doc());
  REQUIRE(run.ev.published());
  CHECK(oas::string_member(run.ev.published(), "openapi") == "3.0.3");
  run.ev.document.published_other = oas::from_json(oas::json{{"openapi", "3.1.0"}});  // --openapi gave another document
  CHECK(oas::string_member(run.ev.published(), "openapi") == "3.1.0");
  CHECK(engine::info_version(oas::from_json(openapi_doc())->root()) == "1.0.0");
  CHECK_FALSE(engine::info_version(oas::from_json(oas::json{{"info", {{"version", 1}}}})->root()).has_value());
}

TEST_CASE("without_paths: the prerequisite without a document, skip without paths, nothing with them") {
  adrprobe::testing::FakeRun none;
  none.unpublished(404);
  auto r = none.ev.without_paths("KC-1");
  REQUIRE(r);
  CHECK(r->verdict == adrprobe::report::Verdict::fail);
  CHECK(r->message.rfind("prerequisite not met", 0) == 0);
  adrprobe::testing::FakeRun no_paths;
  adrprobe::oas::json doc = adrprobe::testing::openapi_doc();
  doc["paths"] = adrprobe::oas::json::array();
  no_paths.document(doc);
  r = no_paths.ev.without_paths("KC-1");
  REQUIRE(r);
  CHECK(r->verdict == adrprobe::report::Verdict::skip);
  CHECK(r->message == "no paths in the document (see DO-3)");
  CHECK(no_paths.ev.doc_paths() == nullptr);
  adrprobe::testing::FakeRun ok;
  ok.document(adrprobe::testing::openapi_doc({{"/a", {{"get", adrprobe::oas::json::object()}}}}));
  CHECK_FALSE(ok.ev.without_paths("KC-1"));
  REQUIRE(ok.ev.doc_paths());
  CHECK(oas::contains(*ok.ev.doc_paths(), "/a"));
}
