// checks/stack: the stack the evidence shows, and the fix a failing check gets.
#include "checks/stack.hpp"

#include "engine/judge.hpp"
#include "fake_run.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;

namespace {
std::vector<std::string> stack_ids(const engine::Evidence& ev) {
  std::vector<std::string> out;
  for (const auto* s : checks::detect_stacks(ev, catalogue::Catalogue::builtin())) out.push_back(s->id);
  return out;
}

catalogue::Catalogue stack_catalogue(const std::string& yaml) {
  return catalogue::Catalogue::load({{"fixes/x.yaml", yaml}});
}
}  // namespace

TEST_CASE("the built-in stacks load, each fix with its documentation, and the generic advice") {
  const auto& cat = catalogue::Catalogue::builtin();
  REQUIRE(cat.stacks().size() >= 5);
  for (const auto& s : cat.stacks()) {
    CHECK_FALSE(s.name.empty());
    CHECK_FALSE(s.fixes.empty());
    CHECK((!s.headers.empty() || !s.bodies.empty() || !s.document.empty() || !s.responses.empty()));
    for (const auto& f : s.fixes) CHECK(checks::find_check(f.check));  // a fix for a check that exists
  }
  CHECK(cat.generic_fixes().id.empty());
  CHECK(cat.generic_fixes().fix_for("EH-2"));
  for (const auto& f : cat.generic_fixes().fixes) CHECK(checks::find_check(f.check));
}

TEST_CASE("stacks are seen in response headers, error bodies and the document, from the API only") {
  FakeRun run;
  CHECK(stack_ids(run.ev).empty());
  run.exchange("GET", "https://api.example.nl/v1", 200, {{"x-powered-by", "Express"}});
  CHECK(stack_ids(run.ev) == std::vector<std::string>{"express"});

  FakeRun werkzeug;  // the header's value compares in any case
  werkzeug.exchange("GET", "https://api.example.nl/v1", 308, {{"server", "werkzeug/2.2.2 Python/3.11.2"}});
  CHECK(stack_ids(werkzeug.ev) == std::vector<std::string>{"flask"});

  FakeRun page;  // an error page's body, only on a 4xx/5xx
  page.exchange("GET", "https://api.example.nl/v1/x", 200, {}, "<center>nginx</center>");
  CHECK(stack_ids(page.ev).empty());
  page.exchange("GET", "https://api.example.nl/v1/x/", 404, {}, "<hr><center>nginx</center>");
  CHECK(stack_ids(page.ev) == std::vector<std::string>{"nginx"});

  FakeRun many;  // the same error body many times, then another one with the signature
  for (int i = 0; i < 50; ++i) many.exchange("GET", "https://api.example.nl/v1/x" + std::to_string(i), 404, {}, "Not Found");
  CHECK(stack_ids(many.ev).empty());
  many.exchange("TRACE", "https://api.example.nl/v1/x", 405, {}, "<pre>Cannot TRACE /v1/x</pre>");
  CHECK(stack_ids(many.ev) == std::vector<std::string>{"express"});
  FakeRun elsewhere;  // an error body from another host is not the API's, even when the API sends the same
  int at = elsewhere.exchange("GET", "https://elders.example/x", 404, {}, "<pre>Cannot GET /x</pre>");
  elsewhere.ev.exchanges[static_cast<std::size_t>(at - 1)].to_api = false;
  CHECK(stack_ids(elsewhere.ev).empty());

  FakeRun other;  // a host of an external $ref is not the API
  int id = other.exchange("GET", "https://elders.example/common.json", 200, {{"server", "nginx/1.25"}});
  other.ev.exchanges[static_cast<std::size_t>(id - 1)].to_api = false;
  CHECK(stack_ids(other.ev).empty());

  FakeRun fastapi;  // the generated document's schema
  oas::json doc = openapi_doc();
  doc["components"]["schemas"]["HTTPValidationError"] = oas::json::object();
  fastapi.document(doc);
  CHECK(stack_ids(fastapi.ev) == std::vector<std::string>{"fastapi"});
}

TEST_CASE("a response signature: one error response with that whole body and those headers, in exact case") {
  FakeRun hono;  // Hono's default 404
  hono.exchange("GET", "https://api.example.nl/v1/x", 404, {{"content-type", "text/plain; charset=UTF-8"}}, "404 Not Found");
  CHECK(stack_ids(hono.ev) == std::vector<std::string>{"hono"});

  FakeRun lower;  // the same body as Go, Koa or Starlette spell the type
  lower.exchange("GET", "https://api.example.nl/v1/x", 404, {{"content-type", "text/plain; charset=utf-8"}}, "404 Not Found");
  CHECK(stack_ids(lower.ev).empty());

  FakeRun nginx;  // the text inside a page is not the whole body
  nginx.exchange("GET", "https://api.example.nl/v1/x", 404, {{"content-type", "text/plain; charset=UTF-8"}},
                 "<html><head><title>404 Not Found</title></head></html>");
  CHECK(stack_ids(nginx.ev).empty());

  FakeRun split;  // body and header on two responses
  split.exchange("GET", "https://api.example.nl/v1/x", 404, {{"content-type", "text/html"}}, "404 Not Found");
  split.exchange("GET", "https://api.example.nl/v1/y", 400, {{"content-type", "text/plain; charset=UTF-8"}}, "bad");
  CHECK(stack_ids(split.ev).empty());

  FakeRun ok;  // only an error response
  ok.exchange("GET", "https://api.example.nl/v1/x", 200, {{"content-type", "text/plain; charset=UTF-8"}}, "404 Not Found");
  CHECK(stack_ids(ok.ev).empty());

  auto cat = stack_catalogue("stack: s\nname: S\ndetect:\n  responses:\n    - {body: 'Gone', headers: ['X-A: b', 'x-c: D']}\n"
                             "fixes:\n  - {check: NT-2, text: t, source: 'https://s.example/'}\n");
  REQUIRE(cat.stacks().size() == 1);
  const auto& sig = cat.stacks()[0].responses.at(0);
  CHECK(sig.body == "Gone");
  CHECK(sig.headers == std::vector<std::pair<std::string, std::string>>{{"x-a", "b"}, {"x-c", "D"}});
  FakeRun both;
  both.exchange("GET", "https://api.example.nl/v1/x", 410, {{"x-a", "abc"}, {"x-c", "D"}}, "Gone");
  CHECK(checks::detect_stacks(both.ev, cat).size() == 1);
  FakeRun one;
  one.exchange("GET", "https://api.example.nl/v1/x", 410, {{"x-a", "abc"}, {"x-c", "d"}}, "Gone");
  CHECK(checks::detect_stacks(one.ev, cat).empty());
}

TEST_CASE("Koa: its 404 with Node.js's Keep-Alive; Starlette's, byte for byte the same, has none") {
  FakeRun koa;
  koa.exchange("GET", "https://api.example.nl/v1/x", 404,
               {{"content-type", "text/plain; charset=utf-8"}, {"keep-alive", "timeout=5"}}, "Not Found");
  CHECK(stack_ids(koa.ev) == std::vector<std::string>{"koa"});

  FakeRun starlette;  // uvicorn sends no Keep-Alive header
  starlette.exchange("GET", "https://api.example.nl/v1/x", 404, {{"content-type", "text/plain; charset=utf-8"}}, "Not Found");
  CHECK(stack_ids(starlette.ev).empty());

  FakeRun other_body;  // Node.js's header alone is any Node.js server's
  other_body.exchange("GET", "https://api.example.nl/v1/x", 404,
                      {{"content-type", "text/plain; charset=utf-8"}, {"keep-alive", "timeout=5"}}, "Not Found.");
  CHECK(stack_ids(other_body.ev).empty());
}

TEST_CASE("a framework behind a proxy: the framework's fix first, the proxy's where it has one") {
  FakeRun run;
  run.exchange("GET", "https://api.example.nl/v1", 200, {{"server", "nginx"}, {"x-powered-by", "Express"}});
  CHECK(stack_ids(run.ev) == std::vector<std::string>{"express", "nginx"});
  const auto& cat = catalogue::Catalogue::builtin();
  auto seen = checks::detect_stacks(run.ev, cat);
  auto nt2 = checks::fix_for(seen, cat, "NT-2");
  REQUIRE(nt2);
  CHECK(nt2->stack == "express");
  CHECK(nt2->name == "Express");
  CHECK(nt2->text.find("strict: true") != std::string::npos);
  CHECK(nt2->source.rfind("https://expressjs.com/", 0) == 0);
  auto eh2 = checks::fix_for(seen, cat, "EH-2");  // both have one: the framework's
  REQUIRE(eh2);
  CHECK(eh2->stack == "express");
  auto ts5 = checks::fix_for(seen, cat, "TS-5");  // only the proxy has one
  REQUIRE(ts5);
  CHECK(ts5->stack == "nginx");
  auto vh2 = checks::fix_for(seen, cat, "VH-2");  // neither has one: the advice for any server
  REQUIRE(vh2);
  CHECK(vh2->stack.empty());
  CHECK(vh2->name.empty());
  CHECK_FALSE(checks::fix_for(seen, cat, "KC-1"));
  // NT-2 warns behind authentication or on a wrong base URL: no trailing-slash change is advised.
  CHECK(checks::fix_for(seen, cat, "NT-2", Verdict::fail));
  CHECK_FALSE(checks::fix_for(seen, cat, "NT-2", Verdict::warn));
  CHECK(checks::fix_for(seen, cat, "TS-5", Verdict::warn));  // TS-5 warns in 2.0.0: the same change
}

TEST_CASE("the judge gives failing and warning checks their fix, and no other") {
  FakeRun run("", "2.2.0");
  run.ev.settings.openapi = "/tmp/openapi.json";
  // FastAPI's document: a 422 as application/json (EH-1 fails), the HTTPValidationError schema.
  oas::json op = {{"parameters", oas::json::array({{{"name", "limit"}, {"in", "query"}, {"schema", {{"type", "integer"}}}}})},
                  {"responses", {{"200", {{"description", "ok"}}},
                                 {"422", {{"description", "v"}, {"content", {{"application/json", {{"schema", oas::json::object()}}}}}}}}}};
  oas::json doc = openapi_doc({{"/items", {{"get", op}}}});
  doc["components"]["schemas"]["HTTPValidationError"] = oas::json::object();
  run.document(doc, "file:///tmp/openapi.json");
  const auto& edition = *catalogue::Catalogue::builtin().edition("2.2.0");
  auto rules = engine::judge(run.ev, edition, checks::registry(), engine::Mode::lint);
  std::map<std::string, std::string> fixed;
  for (const auto& r : rules)
    for (const auto& c : r.checks) {
      if (c.verdict != Verdict::fail && c.verdict != Verdict::warn) CHECK_FALSE(c.fix);
      if (c.fix) fixed[c.id] = c.fix->stack;
    }
  CHECK(fixed["EH-1"] == "fastapi");
  CHECK(fixed["EI-1"] == "fastapi");
  // A registry without an advisor (an engine test's) gives none.
  engine::Registry bare{checks::registry().checks, checks::registry().hints};
  for (const auto& r : engine::judge(run.ev, edition, bare, engine::Mode::lint))
    for (const auto& c : r.checks) CHECK_FALSE(c.fix);
}

TEST_CASE("a stack file is checked when it loads") {
  CHECK_NOTHROW(stack_catalogue("stack: s\nname: S\ndetect: {headers: ['server: s']}\nfixes:\n"
                                "  - {check: NT-2, text: t, source: 'https://s.example/doc'}\n"));
  // no signature, a header signature without a value, a fix without its documentation, two fixes for a check
  CHECK_THROWS(stack_catalogue("stack: s\nname: S\nfixes: []\n"));
  CHECK_THROWS(stack_catalogue("stack: s\nname: S\ndetect: {headers: ['server']}\n"));
  CHECK_THROWS(stack_catalogue("stack: s\nname: S\ndetect: {bodies: [x]}\nfixes:\n  - {check: NT-2, text: t}\n"));
  CHECK_THROWS(stack_catalogue("stack: s\nname: S\ndetect: {bodies: [x]}\nfixes:\n"
                               "  - {check: NT-2, text: t, source: 'http://s.example/'}\n"));
  CHECK_THROWS(stack_catalogue("stack: s\nname: S\ndetect: {bodies: [x]}\nfixes:\n"
                               "  - {check: NT-2, text: t, source: 'https://s.example/'}\n"
                               "  - {check: NT-2, text: u, source: 'https://s.example/'}\n"));
  CHECK_THROWS(stack_catalogue("stack: s\nname: S\ndetect: {bodies: [x]}\nfixes:\n"  // markdown shows it in a code span
                               "  - {check: NT-2, text: t, source: 'https://s.example/`x`'}\n"));
  CHECK_THROWS(stack_catalogue("stack: s\nname: S\ndetect: {bodies: [x]}\nfixes:\n"  // a fix is for fail or warn
                               "  - {check: NT-2, text: t, source: 'https://s.example/', verdicts: [pass]}\n"));
  CHECK(stack_catalogue("stack: s\nname: S\ndetect: {bodies: [x]}\nfixes:\n"
                        "  - {check: NT-2, text: t, source: 'https://s.example/', verdicts: [fail]}\n")
            .stacks()[0].fixes[0].verdicts == std::vector<std::string>{"fail"});
  CHECK_THROWS(stack_catalogue("stack: s\nname: S\ndetect: {document: [components]}\n"));  // not a pointer
  CHECK_THROWS(stack_catalogue("stack: s\nname: S\ndetect: {bodies: [x]}\nfix: []\n"));   // unknown key
  // a response signature needs its body and its headers, and knows no other key
  CHECK_THROWS(stack_catalogue("stack: s\nname: S\ndetect: {responses: [{body: x}]}\n"));
  CHECK_THROWS(stack_catalogue("stack: s\nname: S\ndetect: {responses: [{headers: ['a: b']}]}\n"));
  CHECK_THROWS(stack_catalogue("stack: s\nname: S\ndetect: {responses: [{body: x, headers: ['a: b'], status: 404}]}\n"));
  CHECK_THROWS(stack_catalogue("stack: s\nname: S\ndetect: {responses: {body: x, headers: ['a: b']}}\n"));
  auto generic = stack_catalogue("stack: any\nfixes:\n  - {check: VH-1, text: t, source: 'https://s.example/'}\n");
  CHECK(generic.stacks().empty());
  CHECK(generic.generic_fixes().fix_for("VH-1"));
}
