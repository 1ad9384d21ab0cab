// HM-0..HM-3 (/core/http-methods) on hand-made evidence, and what they plan in safe and unsafe mode.
#include <algorithm>
#include <set>

#include "fake_run.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;

namespace {


oas::json empty_operation() { return oas::json::object(); }

// /gebouwen: GET, POST; /gebouwen/{id}: GET, PUT, DELETE, OPTIONS; /status: GET, TRACE.
oas::json methods_doc() {
  oas::json id_param = oas::json::array({{{"name", "id"}, {"in", "path"}, {"required", true}, {"example", "1"}}});
  return openapi_doc({{"/gebouwen", {{"get", empty_operation()}, {"post", empty_operation()}}},
                      {"/gebouwen/{id}", {{"parameters", id_param}, {"get", empty_operation()}, {"put", empty_operation()}, {"delete", empty_operation()}, {"options", empty_operation()}}},
                      {"/status", {{"get", empty_operation()}, {"trace", empty_operation()}}}});
}

// A run over methods_doc() with its paths probed.
FakeRun methods_run(bool allow_unsafe = false) {
  FakeRun run;
  run.ev.settings.allow_unsafe = allow_unsafe;
  run.document(methods_doc());
  run.probe_paths();
  return run;
}

// A run over one documented path with the given operations.
FakeRun one_path(std::initializer_list<const char*> methods, const std::string& path = "/gebouwen") {
  oas::json item = oas::json::object();
  for (const char* m : methods) item[m] = empty_operation();
  FakeRun run;
  run.document(openapi_doc({{path, item}}));
  run.probe_paths();
  return run;
}

std::vector<std::string> requests(const std::vector<http::Request>& planned) {
  std::vector<std::string> out;
  for (const auto& r : planned) out.push_back(r.method + " " + r.url);
  return out;
}

bool contains_item(const std::vector<std::string>& v, const std::string& item) { return std::find(v.begin(), v.end(), item) != v.end(); }

}  // namespace

// ---- HM-0 -------------------------------------------------------------------

TEST_CASE("HM-0: only get, post, put, patch and delete pass") {
  auto run = one_path({"get", "post", "put", "patch", "delete"});
  expect(run.judge("HM-0"), Verdict::pass, {"operations use only GET, POST, PUT, PATCH and DELETE"});
}

TEST_CASE("HM-0: head, options and trace operations warn, each named") {
  FakeRun run;
  run.document(openapi_doc({{"/gebouwen", {{"get", empty_operation()}, {"head", empty_operation()}}},
                            {"/adressen", {{"get", empty_operation()}, {"options", empty_operation()}}},
                            {"/status", {{"trace", empty_operation()}}}}));
  auto r = run.judge("HM-0");
  expect(r, Verdict::warn,
         {"/gebouwen documents HEAD (outside the rule's method table)", "/adressen documents OPTIONS",
          "/status documents TRACE"});
}

TEST_CASE("HM-0: no document is the prerequisite") {
  FakeRun run;
  run.unpublished(404);
  expect(run.judge("HM-0"), Verdict::fail, {"prerequisite not met"});
}

// ---- HM-1 -------------------------------------------------------------------

TEST_CASE("HM-1: plans GET and HEAD for the base URL and every probed path") {
  auto run = methods_run();
  auto planned = requests(run.plan("HM-1"));
  CHECK(planned == std::vector<std::string>{"GET " + kBase, "HEAD " + kBase, "GET " + kBase + "/gebouwen",
                                            "HEAD " + kBase + "/gebouwen", "GET " + kBase + "/gebouwen/1",
                                            "HEAD " + kBase + "/gebouwen/1", "GET " + kBase + "/status",
                                            "HEAD " + kBase + "/status"});
}

TEST_CASE("HM-1: neither GET nor HEAD answered 405 passes") {
  auto run = one_path({"get"});
  run.respond(engine::probe_request("GET", kBase), 200);
  run.respond(engine::probe_request("HEAD", kBase), 200);
  run.respond(engine::probe_request("GET", kBase + "/gebouwen"), 401);
  run.respond(engine::probe_request("HEAD", kBase + "/gebouwen"), 404);
  auto r = run.judge("HM-1");
  expect(r, Verdict::pass, {"(4 requests)"});
  CHECK(r.exchanges == std::vector<int>{1, 2, 3, 4});
}

TEST_CASE("HM-1: a 405 to GET or HEAD fails, naming method and path") {
  auto run = one_path({"get"});
  run.respond(engine::probe_request("GET", kBase), 405);
  run.respond(engine::probe_request("HEAD", kBase), 200);
  run.respond(engine::probe_request("GET", kBase + "/gebouwen"), 200);
  int head = run.respond(engine::probe_request("HEAD", kBase + "/gebouwen"), 405);
  auto r = run.judge("HM-1");
  expect(r, Verdict::fail, {"GET /v1 → 405", "HEAD /v1/gebouwen → 405"});
  CHECK(std::find(r.exchanges.begin(), r.exchanges.end(), head) != r.exchanges.end());
}

TEST_CASE("HM-1: a transport error, or a request that was not sent, is error") {
  FakeRun run;
  run.respond(engine::probe_request("GET", kBase), 200);
  int id = run.fail(engine::probe_request("HEAD", kBase), "Connection reset by peer");
  auto r = run.judge("HM-1");
  expect(r, Verdict::error, {"HEAD /v1: Connection reset by peer"});
  CHECK(r.exchanges == std::vector<int>{id});

  FakeRun unsent;
  expect(unsent.judge("HM-1"), Verdict::error, {"GET /v1 was not sent"});
}

TEST_CASE("HM-1: every documented path answering GET with 404 warns: is the base URL right?") {
  FakeRun run;
  run.document(openapi_doc({{"/a", {{"get", empty_operation()}}}, {"/b", {{"get", empty_operation()}}}}));
  run.probe_paths();
  run.respond(engine::probe_request("GET", kBase), 200);
  run.respond(engine::probe_request("HEAD", kBase), 200);
  for (const char* p : {"/a", "/b"}) {
    run.respond(engine::probe_request("GET", kBase + p), 404);
    run.respond(engine::probe_request("HEAD", kBase + p), 404);
  }
  expect(run.judge("HM-1"), Verdict::warn, {"every documented path answered 404 to GET: is the base URL right?"});
}

// ---- HM-2 -------------------------------------------------------------------

TEST_CASE("HM-2: safe mode plans only the documented OPTIONS, never for the base URL") {
  auto run = methods_run();
  CHECK(requests(run.plan("HM-2")) == std::vector<std::string>{"OPTIONS " + kBase + "/gebouwen/1"});
  FakeRun base_only;
  CHECK(base_only.plan("HM-2").empty());
}

TEST_CASE("HM-2: with --allow-unsafe every documented optional method is planned") {
  auto run = methods_run(true);
  auto planned = requests(run.plan("HM-2"));
  CHECK(planned.size() == 5);
  for (const std::string& r : {"POST " + kBase + "/gebouwen", "PUT " + kBase + "/gebouwen/1",
                               "DELETE " + kBase + "/gebouwen/1", "OPTIONS " + kBase + "/gebouwen/1",
                               "TRACE " + kBase + "/status"}) {
    CAPTURE(r);
    CHECK(contains_item(planned, r));
  }
}

TEST_CASE("HM-2: a documented OPTIONS not refused passes; the unsent methods are named as needing --allow-unsafe") {
  auto run = methods_run();
  int id = run.respond(engine::probe_request("OPTIONS", kBase + "/gebouwen/1"), 204, {{"allow", "GET, PUT, DELETE, OPTIONS"}});
  auto r = run.judge("HM-2");
  expect(r, Verdict::pass,
         {"documented optional methods are not refused with 405", "not sent, needs --allow-unsafe:", "POST /gebouwen",
          "PUT /gebouwen/{id}", "DELETE /gebouwen/{id}"});
  CHECK(r.exchanges == std::vector<int>{id});
}

TEST_CASE("HM-2: a documented method answered 405 fails") {
  auto run = methods_run();
  int id = run.respond(engine::probe_request("OPTIONS", kBase + "/gebouwen/1"), 405);
  auto r = run.judge("HM-2");
  expect(r, Verdict::fail, {"OPTIONS /v1/gebouwen/1 → 405, although the document says it is supported"});
  CHECK(r.exchanges == std::vector<int>{id});

  auto unsafe = methods_run(true);
  for (const auto& req : unsafe.plan("HM-2"))
    unsafe.respond(engine::probe_request(req.method, req.url), req.method == "DELETE" ? 405 : 200);
  expect(unsafe.judge("HM-2"), Verdict::fail, {"DELETE /v1/gebouwen/1 → 405"});
}

TEST_CASE("HM-2: only unsafe methods documented is skip 'needs --allow-unsafe'; none at all is skip") {
  auto run = one_path({"get", "post", "delete"});
  auto r = run.judge("HM-2");
  expect(r, Verdict::skip, {"documented", "DELETE /gebouwen", "POST /gebouwen", "needs --allow-unsafe"});
  CHECK(run.plan("HM-2").empty());

  auto get_only = one_path({"get"});
  expect(get_only.judge("HM-2"), Verdict::skip, {"no documented optional method to send"});
}

TEST_CASE("HM-2: a transport error is error") {
  auto run = methods_run();
  run.fail(engine::probe_request("OPTIONS", kBase + "/gebouwen/1"), "Connection refused");
  expect(run.judge("HM-2"), Verdict::error, {"OPTIONS /v1/gebouwen/1: Connection refused"});
}

// ---- HM-3 -------------------------------------------------------------------

TEST_CASE("HM-3: safe mode plans TRACE on documented paths, not on the base URL or on paths documenting trace") {
  auto run = methods_run();
  CHECK(requests(run.plan("HM-3")) ==
        std::vector<std::string>{"TRACE " + kBase + "/gebouwen", "TRACE " + kBase + "/gebouwen/1"});
}

TEST_CASE("HM-3: with --allow-unsafe also the undocumented DELETE, PUT, PATCH and POST, without a body") {
  auto run = methods_run(true);
  auto planned = run.plan("HM-3");
  CHECK(requests(planned) == std::vector<std::string>{
                                 "TRACE " + kBase + "/gebouwen", "DELETE " + kBase + "/gebouwen", "PUT " + kBase + "/gebouwen",
                                 "PATCH " + kBase + "/gebouwen", "TRACE " + kBase + "/gebouwen/1",
                                 "PATCH " + kBase + "/gebouwen/1", "POST " + kBase + "/gebouwen/1",
                                 "DELETE " + kBase + "/status", "PUT " + kBase + "/status", "PATCH " + kBase + "/status",
                                 "POST " + kBase + "/status"});
  for (const auto& r : planned) CHECK((!r.body || r.body->empty()));
}

TEST_CASE("safety: in safe mode no check plans anything but GET, HEAD, OPTIONS or TRACE, nor a body") {
  auto run = methods_run();
  std::set<std::string> methods;
  for (const auto* c : checks::registry().checks)
    for (const auto& r : run.plan(std::string(c->id))) {
      CAPTURE(c->id);
      CAPTURE(r.method);
      CHECK(!r.body);
      methods.insert(r.method);
    }
  CHECK(methods == std::set<std::string>{"GET", "HEAD", "OPTIONS", "TRACE"});
}

TEST_CASE("HM-3: 405 with an Allow header that lists the documented methods passes") {
  auto run = one_path({"get", "post"});
  int id = run.respond(engine::probe_request("TRACE", kBase + "/gebouwen"), 405, {{"allow", "GET, HEAD, POST"}});
  auto r = run.judge("HM-3");
  expect(r, Verdict::pass, {"unsupported methods are answered 405 with an Allow header"});
  CHECK(r.exchanges == std::vector<int>{id});

  auto lower = one_path({"get", "post"});  // compared case-insensitively (edition decision)
  lower.respond(engine::probe_request("TRACE", kBase + "/gebouwen"), 405, {{"allow", "get,post"}});
  expect(lower.judge("HM-3"), Verdict::pass);
}

TEST_CASE("HM-3: 405 without Allow fails") {
  auto run = one_path({"get"});
  int id = run.respond(engine::probe_request("TRACE", kBase + "/gebouwen"), 405);
  auto r = run.judge("HM-3");
  expect(r, Verdict::fail, {"TRACE /v1/gebouwen → 405 without an Allow header"});
  CHECK(r.exchanges == std::vector<int>{id});
}

TEST_CASE("HM-3: any status other than 405 fails, even with Allow") {
  for (int status : {404, 501, 200, 400, 403}) {
    CAPTURE(status);
    auto run = one_path({"get"});
    int id = run.respond(engine::probe_request("TRACE", kBase + "/gebouwen"), status, {{"allow", "GET"}});
    auto r = run.judge("HM-3");
    expect(r, Verdict::fail, {"TRACE /v1/gebouwen → " + std::to_string(status) + " (expected 405 with Allow)"});
    CHECK(r.exchanges == std::vector<int>{id});
  }
}

TEST_CASE("HM-3: Allow omitting a documented method, or listing the probed one, warns") {
  auto omits = one_path({"get", "post"});
  omits.respond(engine::probe_request("TRACE", kBase + "/gebouwen"), 405, {{"allow", "GET"}});
  expect(omits.judge("HM-3"), Verdict::warn, {"TRACE /v1/gebouwen → 405, Allow: GET omits documented POST"});

  auto lists = one_path({"get"});
  lists.respond(engine::probe_request("TRACE", kBase + "/gebouwen"), 405, {{"allow", "GET, TRACE"}});
  expect(lists.judge("HM-3"), Verdict::warn, {"TRACE /v1/gebouwen → 405 but Allow: GET, TRACE lists TRACE"});
}

TEST_CASE("HM-3: an empty Allow is present and lists no method: it omits the documented ones and warns") {
  auto run = one_path({"get", "post"});
  int id = run.respond(engine::probe_request("TRACE", kBase + "/gebouwen"), 405, {{"allow", ""}});
  auto r = run.judge("HM-3");
  expect(r, Verdict::warn, {"omits documented GET, POST"});
  CHECK(r.message.find("without an Allow header") == std::string::npos);
  CHECK(r.exchanges == std::vector<int>{id});
}

TEST_CASE("HM-3: unsafe methods are judged like TRACE") {
  auto run = one_path({"get", "post"});
  run.ev.settings.allow_unsafe = true;
  run.respond(engine::probe_request("TRACE", kBase + "/gebouwen"), 405, {{"allow", "GET, POST"}});
  run.respond(engine::probe_request("DELETE", kBase + "/gebouwen"), 405, {{"allow", "GET, POST"}});
  run.respond(engine::probe_request("PUT", kBase + "/gebouwen"), 405, {{"allow", "GET, POST"}});
  run.respond(engine::probe_request("PATCH", kBase + "/gebouwen"), 200);
  expect(run.judge("HM-3"), Verdict::fail, {"PATCH /v1/gebouwen → 200 (expected 405 with Allow)"});
}

TEST_CASE("HM-3: nothing to send is skip; a transport error is error") {
  auto trace = one_path({"get", "trace"}, "/status");
  expect(trace.judge("HM-3"), Verdict::skip, {"every probed path documents TRACE"});
  CHECK(trace.plan("HM-3").empty());

  FakeRun base_only;
  expect(base_only.judge("HM-3"), Verdict::skip, {"no documented path probed"});

  auto down = one_path({"get"});
  down.fail(engine::probe_request("TRACE", kBase + "/gebouwen"), "Connection reset by peer");
  expect(down.judge("HM-3"), Verdict::error, {"TRACE /v1/gebouwen: Connection reset by peer"});

  auto unsent = one_path({"get"});
  expect(unsent.judge("HM-3"), Verdict::error, {"TRACE /v1/gebouwen was not sent"});
}

TEST_CASE("HM-2, HM-3: POST-only documented paths are probed too") {
  FakeRun run;
  run.document(openapi_doc({{"/gebouwen", {{"get", empty_operation()}}}, {"/zaken/_zoek", {{"post", empty_operation()}, {"options", empty_operation()}}}}));
  run.probe_paths();
  CHECK(contains_item(requests(run.plan("HM-3")), "TRACE " + kBase + "/zaken/_zoek"));
  CHECK(contains_item(requests(run.plan("HM-2")), "OPTIONS " + kBase + "/zaken/_zoek"));
}

TEST_CASE("HM-1: with every documented path answering 404, a fail stays a fail") {
  FakeRun run;
  run.document(openapi_doc({{"/a", {{"get", empty_operation()}}}}));
  run.probe_paths();
  run.respond(engine::probe_request("GET", kBase), 200);
  run.respond(engine::probe_request("HEAD", kBase), 405);
  run.respond(engine::probe_request("GET", kBase + "/a"), 404);
  run.respond(engine::probe_request("HEAD", kBase + "/a"), 404);
  expect(run.judge("HM-1"), Verdict::fail, {"HEAD /v1 → 405"});
}

TEST_CASE("HM-1: paths without GET are not sent GET or HEAD; identical transport errors are grouped") {
  FakeRun run;
  run.document(openapi_doc({{"/a", {{"get", empty_operation()}}}, {"/zaken/_zoek", {{"post", empty_operation()}}}}));
  run.probe_paths();
  CHECK(requests(run.plan("HM-1")) ==
        std::vector<std::string>{"GET " + kBase, "HEAD " + kBase, "GET " + kBase + "/a", "HEAD " + kBase + "/a"});
  for (const auto& req : run.plan("HM-1")) run.fail(engine::probe_request(req.method, req.url), "Failed to connect to api.example.nl port 443: Connection refused");
  auto r = run.judge("HM-1");
  expect(r, Verdict::error,
         {"4 requests: Failed to connect to api.example.nl port 443: Connection refused (GET /v1, HEAD /v1 and 2 more)"});
  CHECK(r.exchanges.size() == 4);
}

TEST_CASE("HM-2, HM-3: a POST-only path is judged like any other") {
  FakeRun run;
  run.document(openapi_doc({{"/zaken/_zoek", {{"post", empty_operation()}, {"options", empty_operation()}}}}));
  run.probe_paths();
  run.respond(engine::probe_request("OPTIONS", kBase + "/zaken/_zoek"), 204, {{"allow", "POST, OPTIONS"}});
  expect(run.judge("HM-2"), Verdict::pass, {"(not sent, needs --allow-unsafe: POST /zaken/_zoek)"});
  run.respond(engine::probe_request("TRACE", kBase + "/zaken/_zoek"), 405, {{"allow", "OPTIONS"}});
  expect(run.judge("HM-3"), Verdict::warn, {"TRACE /v1/zaken/_zoek → 405, Allow: OPTIONS omits documented POST"});
}

TEST_CASE("HM-2: nothing to send says which paths were probed and which could not be") {
  FakeRun run;
  run.document(openapi_doc({{"/a", {{"get", empty_operation()}}}, {"/b/{id}", {{"get", empty_operation()}, {"options", empty_operation()}}}}));
  run.probe_paths();
  expect(run.judge("HM-2"), Verdict::skip,
         {"no documented optional method to send: the probed path documents only GET or HEAD", "not probed: /b/{id}"});
}

TEST_CASE("HM-3: an empty Allow names the omitted methods without an empty value in the message") {
  auto run = one_path({"get"});
  run.respond(engine::probe_request("TRACE", kBase + "/gebouwen"), 405, {{"allow", ""}});
  expect(run.judge("HM-3"), Verdict::warn, {"TRACE /v1/gebouwen → 405 with an empty Allow, which omits documented GET"});
}

TEST_CASE("HM-0: a document without paths is skip, as NT-1 is") {
  FakeRun run;
  oas::json doc = openapi_doc();
  doc.erase("paths");
  run.document(doc);
  expect(run.judge("HM-0"), Verdict::skip, {"no paths in the document (see DO-3)"});
  expect(run.judge("NT-1"), Verdict::skip, {"no paths in the document (see DO-3)"});
}

namespace {
std::vector<std::string> http_methods_hints(const engine::Evidence& ev) {
  const auto* h = checks::find_hints("http-methods");
  REQUIRE(h);
  return h->produce(ev);
}
bool mentions(const std::vector<std::string>& hints, std::string_view fragment) {
  for (const auto& h : hints)
    if (h.find(fragment) != std::string::npos) return true;
  return false;
}
}  // namespace

TEST_CASE("http-methods hints (2.2.0): would-fail outcomes one each, would-pass ones counted, HM-0 as information") {
  FakeRun run("https://api.example.nl/v1", "2.2.0");
  run.document(openapi_doc({{"/gebouwen", {{"get", oas::json::object()}, {"head", oas::json::object()}}},
                            {"/zaken", {{"get", oas::json::object()}}}}));
  run.probe_paths();
  const std::string b = "https://api.example.nl/v1";
  for (const char* p : {"", "/zaken"}) {
    run.respond(engine::probe_request("GET", b + p), 200);
    run.respond(engine::probe_request("HEAD", b + p), 200);
  }
  run.respond(engine::probe_request("GET", b + "/gebouwen"), 200);
  int head405 = run.respond(engine::probe_request("HEAD", b + "/gebouwen"), 405);
  run.respond(engine::probe_request("TRACE", b + "/gebouwen"), 405);
  run.respond(engine::probe_request("TRACE", b + "/zaken"), 405, {{"allow", "GET, HEAD"}});
  auto hints = http_methods_hints(run.ev);
  INFO(hints);
  CHECK(mentions(hints, "HM-0: documented operations outside get/put/post/delete/patch: HEAD /gebouwen"));
  CHECK(mentions(hints, "HM-1: HEAD /v1/gebouwen → 405; RFC 9110 §9.1: GET and HEAD MUST be supported (exchange #" + std::to_string(head405) + ")"));
  CHECK(mentions(hints, "HM-1: 2 paths answer GET and HEAD"));
  CHECK(mentions(hints, "HM-3: TRACE /v1/gebouwen → 405 without an Allow header"));
  CHECK(mentions(hints, "HM-3: 1 path answers undocumented methods with 405"));
}

TEST_CASE("http-methods hints: the producer uses HM-0..HM-3, so a 2.2.0 run still sends their requests") {
  const auto* h = checks::find_hints("http-methods");
  REQUIRE(h);
  CHECK(h->uses == std::vector<std::string_view>{"HM-0", "HM-1", "HM-2", "HM-3"});
  const auto* e = catalogue::Catalogue::builtin().edition("2.2.0");
  for (const auto& rule : e->rules)
    if (rule.id == "/core/http-methods") {
      CHECK(rule.kind == "functional");
      CHECK(rule.hints == std::vector<std::string>{"http-methods"});
    }
}
