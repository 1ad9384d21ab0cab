// KC-1 and KC-2 on hand-made documents.
#include "fake_run.hpp"

using namespace adrprobe;
using namespace adrprobe::testing;

namespace {

CheckResult kc1(std::initializer_list<const char*> keys) {
  oas::json paths = oas::json::object();
  for (const char* k : keys) paths[k] = {{"get", oas::json::object()}};
  FakeRun run("https://api.example.nl/v1", "2.2.0");
  run.document(openapi_doc(paths));
  return run.judge("KC-1");
}

}  // namespace

TEST_CASE("KC-1: kebab-case, whole templates and the '_' last segment pass; the root and openapi locations are exempt") {
  expect(kc1({"/organisaties/_zoek", "/_zoek", "/zaken/_zoek-uitgebreid", "/_check-logic", "/v1/met-versie-nummer",
              "/organisaties/{organisationId}", "/a1/b-2/{x_y}", "/", "/openapi.json", "/openapi.yaml"}),
         Verdict::pass, {"7 paths"});
  expect(kc1({"/suffix-slash/"}), Verdict::pass);  // the trailing slash is NT-1's
  expect(kc1({"/", "/openapi.json"}), Verdict::pass, {"no path to judge"});
}

TEST_CASE("KC-1: every kind of offending segment fails, naming path, segment, reason and pointer") {
  expect(kc1({"/camelCasePad"}), Verdict::fail, {"/camelCasePad: uppercase letters in 'camelCasePad' (/paths/~1camelCasePad)"});
  expect(kc1({"/financiele_claims"}), Verdict::fail, {"'_' inside 'financiele_claims'"});
  expect(kc1({"/_zoek/resultaten"}), Verdict::fail, {"'_zoek'"});
  expect(kc1({"/-organisatie"}), Verdict::fail, {"hyphen"});
  expect(kc1({"/organisatie-"}), Verdict::fail, {"hyphen"});
  expect(kc1({"/a--b"}), Verdict::fail, {"hyphen"});
  expect(kc1({"/schema.txt"}), Verdict::fail, {"a dot"});
  expect(kc1({"/sc\xc3\xa8nes"}), Verdict::fail, {"non-ASCII"});
  expect(kc1({"/a%20b"}), Verdict::fail, {"percent-encoding"});
  expect(kc1({"/a//b"}), Verdict::fail, {"an empty segment"});
  expect(kc1({"/talen/{language_code}.json"}), Verdict::fail, {"template mixed with literal text"});
  expect(kc1({"/gebouw-{id}"}), Verdict::fail, {"template mixed"});
  expect(kc1({"/a+b"}), Verdict::fail, {"the character '+'"});
  expect(kc1({"gebouwen"}), Verdict::fail, {"does not begin with '/'"});
  // Only the exact openapi locations are exempt (the linter skips any path containing yaml).
  expect(kc1({"/specs/openapi.yaml"}), Verdict::fail, {"a dot"});
  auto many = kc1({"/A1", "/A2", "/A3", "/A4", "/A5", "/A6", "/A7", "/A8", "/A9", "/A10", "/A11", "/A12"});
  expect(many, Verdict::fail, {"more"});
  CHECK(many.details.size() == 12);
}

TEST_CASE("KC-1: no paths is skip; no document is the prerequisite") {
  FakeRun run("https://api.example.nl/v1", "2.2.0");
  oas::json doc = openapi_doc();
  doc.erase("paths");
  run.document(doc);
  expect(run.judge("KC-1"), Verdict::skip, {"see DO-3"});
  FakeRun none("https://api.example.nl/v1", "2.2.0");
  none.unpublished(404);
  expect(none.judge("KC-1"), Verdict::fail, {"prerequisite not met"});
  expect(none.judge("KC-2"), Verdict::fail, {"prerequisite not met"});
}

TEST_CASE("KC-2: server URL and base URL segments warn when not kebab-case; variables by their default") {
  FakeRun run("https://api.example.nl/Gebouwen_API/v1", "2.2.0");
  oas::json doc = openapi_doc();
  doc["servers"] = {{{"url", "https://virtserver.swaggerhub.com/KorverInformatica/{version}"},
                     {"variables", {{"version", {{"default", "0.9.0"}}}}}},
                    {{"url", "/v1"}}};
  run.document(doc);
  auto r = run.judge("KC-2");
  expect(r, Verdict::warn, {"'KorverInformatica'", "'0.9.0'", "'Gebouwen_API'"});
  FakeRun ok("https://api.example.nl/gebouwen-api/v1", "2.2.0");
  ok.document(openapi_doc());
  expect(ok.judge("KC-2"), Verdict::pass, {"2 URLs"});
  // lint: only the servers.
  FakeRun lint("", "2.2.0");
  oas::json none = openapi_doc();
  none.erase("servers");
  lint.document(none, "file:///tmp/openapi.json");
  expect(lint.judge("KC-2"), Verdict::pass, {"no servers urls"});
}

TEST_CASE("KC-1: the last segment's '_' is judged by what follows it") {
  expect(kc1({"/x/_"}), Verdict::fail, {"nothing after '_'"});
  expect(kc1({"/x/_Zoek"}), Verdict::fail, {"uppercase letters in '_Zoek'"});
  expect(kc1({"/x/_zo_ek"}), Verdict::fail, {"'_' inside"});
  // A long non-ASCII segment is cut between characters, never inside one.
  std::string long_key = "/" + std::string(70, 'a');
  for (int i = 0; i < 10; ++i) long_key += "\xc3\xa8";
  auto r = kc1({long_key.c_str()});
  CHECK(r.message.find("\xc3'") == std::string::npos);
}

TEST_CASE("KC-2: the path of a server URL as written: no query, a templated host, relative URLs; a non-string url") {
  FakeRun run("", "2.2.0");
  oas::json doc = openapi_doc();
  doc["servers"] = {{{"url", "https://{tenant}.example.nl/v1"}}, {{"url", "https://api.example.nl/v1?Foo=Bar"}},
                    {{"url", "v1"}}, {{"url", 5}}};
  run.document(doc, "file:///tmp/My_Dir/openapi.json");
  expect(run.judge("KC-2"), Verdict::pass, {"3 URLs"});
}
