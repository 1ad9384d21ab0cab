// PO-1, PO-2 and PO-3 (/core/publish-openapi) on hand-made evidence.
#include "fake_run.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;

namespace {

const std::string kOpenapiUrl = "https://api.example.nl/v1/openapi.json";
const std::string kYaml = "https://api.example.nl/v1/openapi.yaml";
const std::map<std::string, std::string> kJsonContent{{"content-type", "application/json"}};

// PO-2's request: the PO-1 GET (no -H, redirects followed) with the run's Origin.
RequestSpec cors_request(const FakeRun& run) {
  RequestSpec r = engine::document_request(kOpenapiUrl);
  r.body = engine::BodyLimit::probe;
  r.extra_headers = {{"Origin", run.ev.origin}};
  return r;
}

// PO-3's request: openapi.yaml without the user's headers, redirects not followed.
RequestSpec yaml_request() {
  RequestSpec r = engine::document_request(kYaml);
  r.max_redirects = 0;
  return r;
}

}  // namespace

// ---- PO-1 -------------------------------------------------------------------

TEST_CASE("PO-1: plans GET {base}/openapi.json without the -H headers, redirects followed") {
  FakeRun run;
  run.ev.settings.headers = {{"Authorization", "Bearer secret"}};
  auto planned = run.plan("PO-1");
  REQUIRE(planned.size() == 1);
  CHECK(planned[0].method == "GET");
  CHECK(planned[0].url == kOpenapiUrl);
  CHECK(planned[0].headers.empty());
  CHECK(planned[0].max_redirects == 5);
}

TEST_CASE("PO-1: a 2xx JSON object passes") {
  FakeRun run;
  run.publish(openapi_doc());
  auto r = run.judge("PO-1");
  expect(r, Verdict::pass, {"GET /v1/openapi.json → 200, a JSON object"});
  CHECK(r.exchanges == std::vector<int>{1});
}

TEST_CASE("PO-1: a followed redirect is warn and says where the document is served") {
  FakeRun run;
  RequestSpec spec = engine::published_document(run.ev.settings);
  run.respond(spec, 302, {{"location", "https://cdn.example.nl/api/openapi.json"}});
  run.hop(spec, "https://cdn.example.nl/api/openapi.json", 200, kJsonContent, openapi_doc().dump());
  run.acquire();
  auto r = run.judge("PO-1");
  expect(r, Verdict::warn, {"served only after 1 redirect (302) to https://cdn.example.nl/api/openapi.json"});
  CHECK(r.exchanges == std::vector<int>{1, 2});
  // The document is still read by the other checks.
  CHECK(run.judge("DO-1").verdict == Verdict::pass);
}

TEST_CASE("PO-1: more than 5 redirects fail") {
  FakeRun run;
  RequestSpec spec = engine::published_document(run.ev.settings);
  run.respond(spec, 302, {{"location", "/v1/a"}});
  for (int i = 0; i < 5; ++i) run.hop(spec, "https://api.example.nl/v1/a", 302, {{"location", "/v1/a"}});
  run.acquire();
  auto r = run.judge("PO-1");
  expect(r, Verdict::fail, {"still redirecting after 5 redirects"});
  CHECK(r.exchanges.size() == 6);
}

TEST_CASE("PO-1: 401 and 403 fail as 'requires authentication'; another status fails with the status") {
  for (int status : {401, 403}) {
    CAPTURE(status);
    FakeRun run;
    run.unpublished(status);
    auto r = run.judge("PO-1");
    expect(r, Verdict::fail, {"requires authentication", "GET /v1/openapi.json → " + std::to_string(status)});
    CHECK(r.exchanges == std::vector<int>{1});
  }
  FakeRun missing;
  missing.unpublished(404);
  auto r = missing.judge("PO-1");
  expect(r, Verdict::fail, {"GET /v1/openapi.json → 404"});
  CHECK(r.message.find("authentication") == std::string::npos);
}

TEST_CASE("PO-1: a document served only with the -H headers fails as 'requires authentication ... with them'") {
  FakeRun run;
  run.unpublished(404);
  run.with_headers(openapi_doc());
  auto r = run.judge("PO-1");
  expect(r, Verdict::fail,
         {"requires authentication: GET /v1/openapi.json → 404 without the -H headers, a JSON document with them"});
  CHECK(r.exchanges == std::vector<int>{1, 2});
  // The other checks read the document fetched with the headers.
  CHECK(run.judge("DO-1").verdict == Verdict::pass);
}

TEST_CASE("PO-1: a transport error is error, not fail") {
  FakeRun run;
  run.unreachable("Connection refused");
  auto r = run.judge("PO-1");
  expect(r, Verdict::error, {"GET /v1/openapi.json: Connection refused"});
  CHECK(r.exchanges == std::vector<int>{1});
  // Every check that reads the document then reports the prerequisite as error.
  expect(run.judge("DO-1"), Verdict::error, {"prerequisite not met: GET /v1/openapi.json: Connection refused"});
}

TEST_CASE("PO-1: a body that is not JSON, or JSON that is not an object, fails") {
  FakeRun html;
  html.respond(engine::published_document(html.ev.settings), 200, {{"content-type", "text/html"}}, "<html>docs</html>");
  html.acquire();
  expect(html.judge("PO-1"), Verdict::fail, {"GET /v1/openapi.json → 200", "is not JSON"});
  CHECK_FALSE(html.ev.doc());

  FakeRun yaml;  // the rule asks for JSON at openapi.json: YAML there is not enough
  yaml.respond(engine::published_document(yaml.ev.settings), 200, {}, "openapi: 3.0.3\ninfo: {}\n");
  yaml.acquire();
  expect(yaml.judge("PO-1"), Verdict::fail, {"is not JSON"});

  FakeRun array;
  array.respond(engine::published_document(array.ev.settings), 200, kJsonContent, "[1, 2]");
  array.acquire();
  expect(array.judge("PO-1"), Verdict::fail, {"not an object"});
  // The prerequisite of the document checks names why.
  expect(array.judge("DO-3"), Verdict::fail, {"prerequisite not met: GET /v1/openapi.json → 200", "not an object"});
}

TEST_CASE("PO-1: a document that was never fetched is error") {
  FakeRun run;
  expect(run.judge("PO-1"), Verdict::error, {"not fetched"});
}

// ---- PO-2 -------------------------------------------------------------------

TEST_CASE("PO-2: plans the PO-1 GET with the run's random Origin") {
  FakeRun run;
  run.ev.settings.headers = {{"Authorization", "Bearer secret"}};
  auto planned = run.plan("PO-2");
  REQUIRE(planned.size() == 1);
  CHECK(planned[0].url == kOpenapiUrl);
  CHECK(planned[0].max_redirects == 5);
  CHECK(planned[0].headers == std::vector<http::Header>{{"Origin", run.ev.origin}});
}

TEST_CASE("PO-2: Access-Control-Allow-Origin '*' or the echoed origin passes") {
  FakeRun star;
  star.publish(openapi_doc());
  int id = star.respond(cors_request(star), 200, {{"access-control-allow-origin", "*"}});
  auto r = star.judge("PO-2");
  expect(r, Verdict::pass, {"Origin: https://adrprobe-0123456789ab.example", "Access-Control-Allow-Origin: *"});
  CHECK(r.exchanges == std::vector<int>{id});

  FakeRun echo;
  echo.publish(openapi_doc());
  echo.respond(cors_request(echo), 200, {{"access-control-allow-origin", echo.ev.origin}});
  expect(echo.judge("PO-2"), Verdict::pass, {"the origin is echoed"});
}

TEST_CASE("PO-2: another origin, or no Access-Control-Allow-Origin, fails") {
  FakeRun other;
  other.publish(openapi_doc());
  int id = other.respond(cors_request(other), 200, {{"access-control-allow-origin", "https://portal.example.nl"}});
  auto r = other.judge("PO-2");
  expect(r, Verdict::fail, {"Access-Control-Allow-Origin: https://portal.example.nl (not every origin)"});
  CHECK(r.exchanges == std::vector<int>{id});

  FakeRun none;
  none.publish(openapi_doc());
  none.respond(cors_request(none), 200, kJsonContent);
  expect(none.judge("PO-2"), Verdict::fail, {"no Access-Control-Allow-Origin header"});
}

TEST_CASE("PO-2: redirects are followed and the final response is judged") {
  FakeRun run;
  run.publish(openapi_doc());
  RequestSpec spec = cors_request(run);
  int first = run.respond(spec, 301, {{"location", "https://cdn.example.nl/openapi.json"}});
  int last = run.hop(spec, "https://cdn.example.nl/openapi.json", 200, {{"access-control-allow-origin", "*"}});
  auto r = run.judge("PO-2");
  expect(r, Verdict::pass, {"GET /openapi.json with Origin"});
  CHECK(r.exchanges == std::vector<int>{first, last});
}

TEST_CASE("PO-2: prerequisite not met when PO-1 failed; error when PO-1 or the CORS request had a transport error") {
  FakeRun failed;
  failed.unpublished(404);
  auto r = failed.judge("PO-2");
  expect(r, Verdict::fail, {"prerequisite not met: GET /v1/openapi.json → 404"});
  CHECK(r.exchanges == std::vector<int>{1});

  FakeRun down;
  down.unreachable("Connection refused");
  expect(down.judge("PO-2"), Verdict::error, {"prerequisite not met", "Connection refused"});

  FakeRun reset;
  reset.publish(openapi_doc());
  int id = reset.fail(cors_request(reset), "Connection reset by peer");
  auto e = reset.judge("PO-2");
  expect(e, Verdict::error, {"Connection reset by peer"});
  CHECK(e.exchanges == std::vector<int>{id});
}

// ---- PO-3 -------------------------------------------------------------------

TEST_CASE("PO-3: plans GET {base}/openapi.yaml without -H, redirects not followed") {
  FakeRun run;
  run.ev.settings.headers = {{"Authorization", "Bearer secret"}};
  auto planned = run.plan("PO-3");
  REQUIRE(planned.size() == 1);
  CHECK(planned[0].url == kYaml);
  CHECK(planned[0].max_redirects == 0);
  CHECK(planned[0].headers.empty());
}

TEST_CASE("PO-3: 404 or 410 is skip (YAML is optional); any other status warns") {
  for (int status : {404, 410}) {
    CAPTURE(status);
    FakeRun run;
    run.publish(openapi_doc());
    int id = run.respond(yaml_request(), status);
    auto r = run.judge("PO-3");
    expect(r, Verdict::skip, {"no YAML variant (it is optional)"});
    CHECK(r.exchanges == std::vector<int>{id});
  }
  for (int status : {500, 401, 301}) {  // a 3xx is not followed: "any other status"
    CAPTURE(status);
    FakeRun run;
    run.publish(openapi_doc());
    int id = run.respond(yaml_request(), status, {{"location", "/elsewhere"}});
    auto r = run.judge("PO-3");
    expect(r, Verdict::warn, {"GET /v1/openapi.yaml → " + std::to_string(status), "expected 2xx, or 404/410"});
    CHECK(r.exchanges == std::vector<int>{id});
  }
}

TEST_CASE("PO-3: the same document passes: 1 equals 1.0 and key order does not matter") {
  FakeRun run;
  oas::json doc = openapi_doc();
  doc["x-count"] = 1;
  run.publish(doc);
  const char* yaml = R"(x-count: 1.0
paths: {}
servers:
  - url: /v1
info:
  contact: {email: a@x.example, url: "https://x.example", name: n}
  version: 1.0.0
  title: t
openapi: 3.0.3
)";
  int id = run.respond(yaml_request(), 200, {{"content-type", "application/yaml"}}, yaml);
  auto r = run.judge("PO-3");
  expect(r, Verdict::pass, {"the same document as openapi.json"});
  CHECK(r.exchanges == std::vector<int>{id});
}

TEST_CASE("PO-3: a string against a number differs, and the first differing pointer is named") {
  FakeRun run;
  oas::json doc = openapi_doc();
  doc["info"]["version"] = "1.0";
  run.publish(doc);
  const char* yaml = R"(openapi: 3.0.3
info:
  title: t
  version: 1.0
  contact: {name: n, url: "https://x.example", email: a@x.example}
servers: [{url: /v1}]
paths: {}
)";
  int id = run.respond(yaml_request(), 200, {}, yaml);
  auto r = run.judge("PO-3");
  expect(r, Verdict::fail, {"differs from openapi.json at '/info/version'"});
  CHECK(r.exchanges == std::vector<int>{id});
}

TEST_CASE("PO-3: a member missing from the YAML is a difference, named by its escaped pointer") {
  FakeRun run;
  run.publish(openapi_doc({{"/gebouwen", {{"get", oas::json::object()}}}}));
  const char* yaml = R"(openapi: 3.0.3
info: {title: t, version: 1.0.0, contact: {name: n, url: "https://x.example", email: a@x.example}}
servers: [{url: /v1}]
paths: {}
)";
  run.respond(yaml_request(), 200, {}, yaml);
  expect(run.judge("PO-3"), Verdict::fail, {"differs from openapi.json at '/paths/~1gebouwen'"});
}

TEST_CASE("PO-3: a YAML parse error fails; so does a body over the document limit") {
  FakeRun run;
  run.publish(openapi_doc());
  int id = run.respond(yaml_request(), 200, {}, "openapi: [3.0.3\ninfo: {title: t\n");
  auto r = run.judge("PO-3");
  expect(r, Verdict::fail, {"GET /v1/openapi.yaml → 200: "});
  CHECK(r.message.find("same document") == std::string::npos);
  CHECK(r.exchanges == std::vector<int>{id});

  FakeRun big;
  big.publish(openapi_doc());
  int big_id = big.respond(yaml_request(), 200, {}, "openapi: 3.0.3\n");
  big.ev.exchanges[static_cast<std::size_t>(big_id - 1)].body_truncated = true;
  expect(big.judge("PO-3"), Verdict::fail, {"larger than"});
}

TEST_CASE("PO-3: prerequisite not met when PO-1 failed; a transport error is error") {
  FakeRun failed;
  failed.unpublished(401);
  failed.respond(yaml_request(), 404);
  auto r = failed.judge("PO-3");
  expect(r, Verdict::fail, {"prerequisite not met: GET /v1/openapi.json → 401"});
  CHECK(r.exchanges == std::vector<int>{1});

  FakeRun down;
  down.publish(openapi_doc());
  int id = down.fail(yaml_request(), "Operation timed out");
  auto e = down.judge("PO-3");
  expect(e, Verdict::error, {"Operation timed out"});
  CHECK(e.exchanges == std::vector<int>{id});
}
