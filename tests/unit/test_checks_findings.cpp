#include <doctest/doctest.h>

#include "checks/findings.hpp"

using namespace adrprobe;

TEST_CASE("findings: one entry per check, worst first") {
  checks::Findings f("NT-2");
  f.add(Verdict::pass, "", {1});
  f.add(Verdict::warn, "GET /a/ → 401", {2});
  f.add(Verdict::fail, "GET /b/ served (200)", {3});
  auto r = f.result("all good");
  CHECK(r.verdict == Verdict::fail);
  CHECK(r.message.rfind("GET /b/ served (200)", 0) == 0);
  CHECK(r.exchanges == std::vector<int>{3, 2});
  checks::Findings ok("NT-2");
  ok.add(Verdict::pass, "", {1});
  ok.add(Verdict::skip, "not probed: /x/{id}");
  auto r2 = ok.result("1 URL answered 404");
  CHECK(r2.verdict == Verdict::pass);
  CHECK(r2.message == "1 URL answered 404; not probed: /x/{id}");
  checks::Findings none("HM-0");
  CHECK(none.result("nothing to warn about").verdict == Verdict::pass);  // nothing found is a pass
}

namespace {
http::Exchange failed(int id, const std::string& method, const std::string& url, const std::string& error) {
  http::Exchange e;
  e.id = id;
  e.method = method;
  e.url = url;
  e.error = error;
  return e;
}
}  // namespace

TEST_CASE("findings: identical transport errors are one entry, naming the count and the first requests") {
  checks::Findings f("HM-1");
  const std::string refused = "Failed to connect to 127.0.0.1 port 1: Connection refused";
  f.add_error(failed(1, "GET", "https://h/v1", refused));
  f.add_error(failed(2, "HEAD", "https://h/v1", refused));
  f.add_error(failed(3, "GET", "https://h/v1/a", refused));
  f.add_error(failed(4, "GET", "https://h/v1/b", "timeout after 10 s (--timeout)"));
  auto r = f.result("all good");
  CHECK(r.verdict == Verdict::error);
  CHECK(r.message == "3 requests: " + refused + " (GET /v1, HEAD /v1 and 1 more); GET /v1/b: timeout after 10 s (--timeout)");
  CHECK(r.exchanges == std::vector<int>{1, 2, 3, 4});

  checks::Findings one("NT-2");
  one.add_error(failed(7, "GET", "https://h/v1/", refused));
  CHECK(one.result("").message == "GET /v1/: " + refused);
}

TEST_CASE("findings: the same finding twice is kept once, and each exchange is cited once") {
  checks::Findings f("NT-2");
  f.add(Verdict::fail, "GET /v1/ served (200)", {1});
  f.add(Verdict::fail, "GET /v1/ served (200)", {1});  // the base URL and a documented '/'
  f.add(Verdict::warn, "no X-Frame-Options", {5});
  f.add(Verdict::warn, "no Content-Type", {5});
  CHECK(f.size() == 3);
  auto r = f.result("");
  CHECK(r.message == "GET /v1/ served (200); no X-Frame-Options; no Content-Type");
  CHECK(r.exchanges == std::vector<int>{1, 5});
}

TEST_CASE("findings: a long message is cut between findings, never inside one, with (+N more)") {
  checks::Findings f("VH-4");
  for (int i = 0; i < 40; ++i) f.add(Verdict::warn, "GET /v1/gebouwen/" + std::to_string(1000 + i) + " → 200", {i + 1});
  auto r = f.result("", 1000);
  CHECK(r.message.size() <= checks::Findings::kMessageBytes);
  auto tail = r.message.rfind("; … (+");
  REQUIRE(tail != std::string::npos);
  std::string shown = r.message.substr(0, tail);
  const std::string whole = " → 200";
  CHECK(shown.substr(shown.size() - whole.size()) == whole);  // the last one shown is whole
  std::size_t listed = 1;
  for (auto at = shown.find("; "); at != std::string::npos; at = shown.find("; ", at + 1)) ++listed;
  CHECK(r.message.substr(tail) == "; … (+" + std::to_string(40 - listed) + " more)");
  CHECK(r.exchanges.size() == 40);  // the evidence is complete
  CHECK(checks::join_within({"a", "b"}, 100) == "a; b");
  CHECK(checks::join_within({"a", "b"}, 100, 3) == "a; b; … (+3 more)");
}

TEST_CASE("findings: the places of the problems, worst first, each once; a pass has none") {
  checks::Findings f("KC-1");
  f.add_at(Verdict::warn, "/servers/0/url", "w");
  f.add_at(Verdict::fail, "/paths/~1a", "a");
  f.add_at(Verdict::fail, "/paths/~1a", "a again");
  f.add_at(Verdict::pass, "/paths/~1ok", "");
  f.add(Verdict::fail, "no place");
  auto r = f.result("ok");
  REQUIRE(r.locations.size() == 2);
  CHECK(r.locations[0].pointer == "/paths/~1a");
  CHECK(r.locations[1].pointer == "/servers/0/url");
  checks::Findings ok("KC-1");
  ok.add_at(Verdict::pass, "/paths/~1ok", "");
  CHECK(ok.result("ok").locations.empty());
  CHECK(checks::located({"DO-1", Verdict::fail, "x", {}}, "").locations.size() == 1);  // the document as a whole
  CHECK(checks::located({"DO-1", Verdict::pass, "x", {}}, "/openapi").locations.empty());
}

TEST_CASE("findings: distinct fields behind one $ref of the root are distinct places; the same place once") {
  checks::Findings f("DT-3");
  f.add_at_places(Verdict::fail, "archiefactiedatum, startdatum: no format",
                  {{"/components/schemas/ZaakZoek", std::nullopt, "zrc.yaml#/ZaakZoek/properties/archiefactiedatum"},
                   {"/components/schemas/ZaakZoek", std::nullopt, "zrc.yaml#/ZaakZoek/properties/startdatum"}});
  f.add_at_places(Verdict::fail, "registratiedatum: no format",
                  {{"/components/schemas/ZaakZoek", std::nullopt, "zrc.yaml#/ZaakZoek/properties/registratiedatum"},
                   {"/components/schemas/ZaakZoek", std::nullopt, "zrc.yaml#/ZaakZoek/properties/startdatum"}});
  f.add(Verdict::fail, "einddatum: no format", {}, "/components/schemas/Zaak/properties/einddatum");
  auto r = f.result("fine", 10);
  REQUIRE(r.locations.size() == 4);
  CHECK(r.locations[0].target == "zrc.yaml#/ZaakZoek/properties/archiefactiedatum");
  CHECK(r.locations[1].target == "zrc.yaml#/ZaakZoek/properties/startdatum");
  CHECK(r.locations[2].target == "zrc.yaml#/ZaakZoek/properties/registratiedatum");
  CHECK(r.locations[3].pointer == "/components/schemas/Zaak/properties/einddatum");
  CHECK(r.locations[3].target.empty());
}

TEST_CASE("findings: plain passes (one exchange, no message) are counted and cited as before, in the order added") {
  checks::Findings f("HM-1");
  f.add(Verdict::pass, "", {3});
  f.add(Verdict::pass, "", {1});
  f.add(Verdict::pass, "", {3});  // the same request for two targets: once
  CHECK(f.size() == 2);
  f.add(Verdict::skip, "not probed: /x", {7});
  f.add(Verdict::pass, "", {2});
  f.add(Verdict::pass, "", {1});  // once, also after another finding
  f.add(Verdict::pass, "", {-4});  // hand-made evidence
  f.add(Verdict::pass, "", {-4});
  CHECK(f.size() == 5);
  auto r = f.result("all good");
  CHECK(r.verdict == Verdict::pass);
  CHECK(r.message == "all good; not probed: /x");
  CHECK(r.exchanges == std::vector<int>{3, 1, 7, 2, -4});
  // A transport error on an exchange a plain pass cited is not added again.
  http::Exchange e;
  e.id = 2;
  e.method = "GET";
  e.url = "https://api.example.nl/v1/a";
  e.error = "Connection refused";
  f.add_error(e);
  CHECK(f.size() == 5);
  // A finding that is not plain (a message, a place, two exchanges) keeps its own entry.
  f.add(Verdict::pass, "", {2, 3});
  f.add(Verdict::fail, "GET /b → 405", {3});
  CHECK(f.size() == 7);
  r = f.result("all good");
  CHECK(r.verdict == Verdict::fail);
  CHECK(r.message == "GET /b → 405");
  CHECK(r.exchanges == std::vector<int>{3});
}
