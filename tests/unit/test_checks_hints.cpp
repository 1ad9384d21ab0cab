// Hint producers for functional rules (naming, plural, language, implementation,
// stateless, geospatial, sensitive-uris) on hand-made evidence: hints, never verdicts.
#include "fake_run.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;

namespace {


std::vector<std::string> hints(const FakeRun& run, const char* producer) {
  const checks::HintProducer* p = checks::find_hints(producer);
  REQUIRE(p);
  return p->produce(run.ev);
}

// Asserts that one hint contains every fragment.
void expect_hint(const std::vector<std::string>& hs, std::initializer_list<std::string_view> fragments) {
  INFO("hints: " << doctest::toString(hs));
  bool found = false;
  for (const auto& h : hs) {
    bool all = true;
    for (auto f : fragments) all = all && h.find(f) != std::string::npos;
    found = found || all;
  }
  CHECK(found);
}

// Asserts that no hint mentions the text.
void expect_no_hint(const std::vector<std::string>& hs, std::string_view text) {
  INFO("hints: " << doctest::toString(hs));
  for (const auto& h : hs) CHECK(h.find(text) == std::string::npos);
}

// A run whose document has these paths (all with a GET).
FakeRun paths_run(std::initializer_list<const char*> paths) {
  oas::json p = oas::json::object();
  for (const char* path : paths) p[path] = {{"get", oas::json::object()}};
  FakeRun run;
  run.document(openapi_doc(p));
  return run;
}

}  // namespace

TEST_CASE("hints: a plain Dutch API without tell-tale responses gets none") {
  auto run = paths_run({"/gebouwen", "/gebouwen/{id}", "/zaken/_zoek", "/adressen"});
  run.exchange("GET", kBase + "/gebouwen", 200, {{"server", "nginx"}, {"api-version", "1.0.0"}}, "[]");
  run.exchange("GET", kBase + "/onbekend", 404, {{"content-type", "application/problem+json"}},
               R"({"status":404,"title":"Not Found","detail":"Geen resource"})");
  for (const auto& p : checks::hint_producers()) {
    CAPTURE(p.name);
    CHECK(p.produce(run.ev).empty());
  }
}

TEST_CASE("hints: without a document or exchanges there is nothing to say") {
  FakeRun run;
  run.unpublished(404);
  for (const char* name : {"naming", "plural", "language", "geospatial", "sensitive-uris", "stateless"}) {
    CAPTURE(name);
    CHECK(hints(run, name).empty());
  }
}

// ---- naming -----------------------------------------------------------------

TEST_CASE("naming: verb-like segments are hinted, also as the head of camelCase or kebab-case") {
  auto run = paths_run({"/getGebouwen", "/gebouwen/zoeken", "/gebouwen/create-new", "/addItem", "/verwijder_zaak"});
  auto hs = hints(run, "naming");
  expect_hint(hs, {"'getGebouwen' in /getGebouwen looks like a verb: resources are nouns"});
  expect_hint(hs, {"'zoeken' in /gebouwen/zoeken looks like a verb"});
  expect_hint(hs, {"'create-new' in /gebouwen/create-new"});
  expect_hint(hs, {"'addItem' in /addItem"});
  expect_hint(hs, {"'verwijder_zaak'"});
  CHECK(hs.size() == 5);
}

TEST_CASE("naming: operation resources (_zoek), parameters and nouns that start like verbs are not hinted") {
  auto run = paths_run({"/zaken/_zoek", "/gebouwen/{get}", "/settings", "/addresses", "/documenten"});
  CHECK(hints(run, "naming").empty());
}

TEST_CASE("naming: at most 10 hints, each once") {
  auto run = paths_run({"/get", "/get/a", "/create", "/update", "/delete", "/remove", "/add", "/list", "/fetch", "/set",
                        "/save", "/insert"});
  auto hs = hints(run, "naming");
  CHECK(hs.size() == 10);
}

// ---- plural -----------------------------------------------------------------

TEST_CASE("plural: a collection followed by an identifier that does not look plural is hinted") {
  auto run = paths_run({"/gebouw/{id}", "/gebouwen/{id}", "/buildings/{id}", "/auto's/{id}", "/status", "/gebouwen/{id}/adres"});
  auto hs = hints(run, "plural");
  expect_hint(hs, {"'gebouw' in /gebouw/{id} is followed by an identifier but does not look plural"});
  CHECK(hs.size() == 1);
}

// ---- language ---------------------------------------------------------------

TEST_CASE("language: English words in paths are hinted, Dutch ones are not") {
  auto run = paths_run({"/users", "/Orders/{id}", "/gebruikers", "/bestellingen"});
  auto hs = hints(run, "language");
  expect_hint(hs, {"'users' in /users is English", "define interfaces in Dutch"});
  expect_hint(hs, {"'Orders' in /Orders/{id}"});
  CHECK(hs.size() == 2);
}

// ---- implementation ---------------------------------------------------------

TEST_CASE("implementation: platform names in paths are hinted") {
  auto run = paths_run({"/index.php", "/cgi-bin/zaken", "/gebouwen"});
  auto hs = hints(run, "implementation");
  expect_hint(hs, {"'index.php' in /index.php names a platform, framework or database"});
  expect_hint(hs, {"'cgi-bin' in /cgi-bin/zaken"});
  CHECK(hs.size() == 2);
}

TEST_CASE("implementation: X-Powered-By and a Server version are hinted once, with how many responses showed them") {
  FakeRun run;
  int first = run.exchange("GET", kBase, 200, {{"x-powered-by", "Express"}, {"server", "nginx/1.25.3"}});
  run.exchange("GET", kBase + "/gebouwen", 200, {{"x-powered-by", "Express"}});
  run.exchange("GET", kBase + "/adressen", 200, {{"server", "Apache"}});  // no version: nothing disclosed
  auto hs = hints(run, "implementation");
  expect_hint(hs, {"X-Powered-By: Express (2 responses, e.g. exchange #" + std::to_string(first) + ")"});
  expect_hint(hs, {"Server: nginx/1.25.3 discloses a product version (exchange #" + std::to_string(first) + ")"});
  expect_no_hint(hs, "Apache");
  CHECK(hs.size() == 2);
}

TEST_CASE("implementation: a stack trace in an error body is hinted; in a 2xx body it is not") {
  FakeRun run;
  int py = run.exchange("GET", kBase + "/gebouwen/x", 500, {},
                        "Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n");
  int java = run.exchange("TRACE", kBase + "/gebouwen", 405, {},
                          "java.lang.IllegalStateException\n\tat nl.example.api.Handler.handle(Handler.java:42)\n");
  run.exchange("GET", kBase + "/docs", 200, {}, "Traceback (most recent call last): an example in the docs");
  auto hs = hints(run, "implementation");
  expect_hint(hs, {"GET /v1/gebouwen/x → 500: the error body looks like a stack trace (exchange #" + std::to_string(py) + ")"});
  expect_hint(hs, {"TRACE /v1/gebouwen → 405", "#" + std::to_string(java)});
  expect_no_hint(hs, "/docs");
}

TEST_CASE("implementation: responses from outside the API and transport errors are ignored") {
  FakeRun run;
  int external = run.exchange("GET", "https://schemas.example.org/common.yaml", 500, {{"x-powered-by", "PHP/8.2"}},
                              "Stack trace: #0 {main}");
  run.ev.exchanges[static_cast<std::size_t>(external - 1)].to_api = false;
  run.fail(engine::probe_request("GET", kBase), "Connection refused");
  CHECK(hints(run, "implementation").empty());
}

// ---- stateless --------------------------------------------------------------

TEST_CASE("stateless: Set-Cookie is hinted by the cookie's name, never its value") {
  FakeRun run;
  int first = run.exchange("GET", kBase, 200, {{"set-cookie", "JSESSIONID=s3cr3t-v4lue; Path=/; HttpOnly"}});
  run.exchange("GET", kBase + "/gebouwen", 200, {{"set-cookie", "JSESSIONID=0ther-s3cr3t; Path=/"}});
  run.exchange("GET", kBase + "/adressen", 200, {{"set-cookie", " lb_route =node-2"}});
  auto hs = hints(run, "stateless");
  expect_hint(hs, {"sets cookie 'JSESSIONID': session state on the server? (2 responses, e.g. exchange #" +
                   std::to_string(first) + ")"});
  expect_hint(hs, {"sets cookie 'lb_route'"});
  CHECK(hs.size() == 2);
  expect_no_hint(hs, "s3cr3t");
  expect_no_hint(hs, "node-2");
}

TEST_CASE("stateless: cookies from outside the API are ignored") {
  FakeRun run;
  int id = run.exchange("GET", "https://schemas.example.org/common.yaml", 200, {{"set-cookie", "tracker=1"}});
  run.ev.exchanges[static_cast<std::size_t>(id - 1)].to_api = false;
  CHECK(hints(run, "stateless").empty());
}

// ---- geospatial -------------------------------------------------------------

TEST_CASE("geospatial: geometry-like properties are hinted with their pointer") {
  FakeRun run;
  oas::json doc = openapi_doc();
  doc["components"] = {{"schemas",
                        {{"Gebouw", {{"type", "object"}, {"properties", {{"naam", {{"type", "string"}}}, {"geometrie", {{"type", "object"}}}}}}},
                         {"Perceel", {{"properties", {{"bbox", {{"type", "array"}}}}}}}}}};
  run.document(doc);
  auto hs = hints(run, "geospatial");
  expect_hint(hs, {"property 'geometrie' at #/components/schemas/Gebouw/properties/geometrie looks geospatial",
                   "apply the geospatial module"});
  expect_hint(hs, {"property 'bbox' at #/components/schemas/Perceel/properties/bbox"});
  CHECK(hs.size() == 2);
}

TEST_CASE("geospatial: geometry words outside schema properties are not hinted") {
  FakeRun run;
  oas::json doc = openapi_doc();
  doc["components"] = {{"schemas", {{"geometry", {{"type", "object"}, {"properties", {{"naam", {{"type", "string"}}}}}}}}}};
  doc["info"]["x-point"] = "geometry";
  run.document(doc);
  CHECK(hints(run, "geospatial").empty());
}

// ---- sensitive-uris ---------------------------------------------------------

TEST_CASE("sensitive-uris: sensitive path segments and path or query parameters are hinted") {
  FakeRun run;
  oas::json params = oas::json::array({{{"name", "bsn"}, {"in", "path"}, {"required", true}},
                                       {{"name", "api_key"}, {"in", "query"}},
                                       {{"name", "Authorization"}, {"in", "header"}},
                                       {{"name", "session-token"}, {"in", "header"}},
                                       {{"name", "wachtwoord"}, {"in", "cookie"}}});
  run.document(openapi_doc({{"/personen/{bsn}", {{"get", {{"parameters", params}}}}}, {"/gebouwen", {{"get", oas::json::object()}}}}));
  auto hs = hints(run, "sensitive-uris");
  expect_hint(hs, {"'{bsn}' in /personen/{bsn} may put sensitive data in the URI"});
  expect_hint(hs, {"path parameter 'bsn' may put sensitive data in the URI"});
  expect_hint(hs, {"query parameter 'api_key'"});
  expect_no_hint(hs, "session-token");  // headers and cookies are not in the URI
  expect_no_hint(hs, "wachtwoord");
  expect_no_hint(hs, "/gebouwen");
  CHECK(hs.size() == 3);
}

TEST_CASE("sensitive-uris and implementation: the words match in any case and spelling the former patterns did") {
  FakeRun run;
  oas::json params = oas::json::array({{{"name", "X-API-Key"}, {"in", "query"}},
                                       {{"name", "SessionId"}, {"in", "query"}},
                                       {{"name", "session_ID"}, {"in", "query"}},
                                       {{"name", "apiKeyX"}, {"in", "query"}},
                                       {{"name", "api.key"}, {"in", "query"}},      // no: a dot is not [-_]
                                       {{"name", "sessie"}, {"in", "query"}}});     // no
  run.document(openapi_doc({{"/Burgerservicenummers/{PinCode}", {{"get", {{"parameters", params}}}}},
                            {"/Index.PHP", {{"get", oas::json::object()}}},
                            {"/ASPX/zaken", {{"get", oas::json::object()}}}}));
  auto hs = hints(run, "sensitive-uris");
  expect_hint(hs, {"'Burgerservicenummers' in /Burgerservicenummers/{PinCode}"});
  expect_hint(hs, {"'{PinCode}' in /Burgerservicenummers/{PinCode}"});
  expect_hint(hs, {"query parameter 'X-API-Key'"});
  expect_hint(hs, {"query parameter 'SessionId'"});
  expect_hint(hs, {"query parameter 'session_ID'"});
  expect_hint(hs, {"query parameter 'apiKeyX'"});
  expect_no_hint(hs, "api.key");
  expect_no_hint(hs, "sessie");
  CHECK(hs.size() == 6);
  auto tech = hints(run, "implementation");
  expect_hint(tech, {"'Index.PHP' in /Index.PHP names a platform"});
  expect_no_hint(tech, "ASPX");  // ".asp" needs its dot
  CHECK(tech.size() == 1);
}

TEST_CASE("stack traces are recognised by one scan, as the former pattern did") {
  using checks::looks_like_stack_trace;
  CHECK(looks_like_stack_trace("Traceback (most recent call last):\n  File \"x.py\""));
  CHECK(looks_like_stack_trace("x Exception in thread \"main\" java.lang.Error"));
  CHECK(looks_like_stack_trace("\tat com.example.Foo.bar(Foo.java:12)"));
  CHECK(looks_like_stack_trace("at org.spring$Proxy.run("));
  CHECK(looks_like_stack_trace("System.NullReferenceException: Object reference"));
  CHECK(looks_like_stack_trace("PHP Stack trace: #0"));
  CHECK(looks_like_stack_trace("SQLSTATE[42S02]: Base table"));
  CHECK(looks_like_stack_trace("ORA-00942: table or view does not exist"));
  CHECK_FALSE(looks_like_stack_trace(""));
  CHECK_FALSE(looks_like_stack_trace("{\"title\": \"Not Found\", \"status\": 404}"));
  CHECK_FALSE(looks_like_stack_trace("that com.example.Foo.bar("));      // "at" inside a word
  CHECK_FALSE(looks_like_stack_trace("at Com.example.Foo("));           // starts upper case
  CHECK_FALSE(looks_like_stack_trace("at com("));                        // no dotted part
  CHECK_FALSE(looks_like_stack_trace("at com.example.Foo1.bar("));      // a digit ends the part
  CHECK_FALSE(looks_like_stack_trace("System.Exception"));               // nothing before Exception
  CHECK_FALSE(looks_like_stack_trace("ORA-0094"));                       // four digits
  CHECK_FALSE(looks_like_stack_trace("Traceback (most recent call"));
}

TEST_CASE("stateless: every Set-Cookie line is seen, not only the first") {
  FakeRun run;
  run.exchange("GET", "https://h/v1", 200, {});
  run.ev.exchanges.back().response_headers = {{"set-cookie", "a=1; Path=/"}, {"set-cookie", "sessie=2; Expires=Wed, 21 Oct 2026 07:28:00 GMT"}};
  auto hints = checks::find_hints("stateless")->produce(run.ev);
  std::string all;
  for (const auto& h : hints) all += h + "\n";
  CHECK(all.find("'a'") != std::string::npos);
  CHECK(all.find("'sessie'") != std::string::npos);
}
