#include <doctest/doctest.h>

#include "engine/planner.hpp"

using namespace adrprobe;

TEST_CASE("planner: identical requests from different checks are sent once") {
  engine::Settings s;
  s.base_url = "https://h/v1";
  s.headers = {{"X-Api-Key", "k"}};
  engine::Planner p(s);
  p.add(engine::probe_request("GET", "https://h/v1"), "VH-1");
  p.add(engine::probe_request("GET", "https://h/v1"), "HM-1");
  p.add(engine::probe_request("HEAD", "https://h/v1"), "HM-1");
  auto origin = engine::probe_request("GET", "https://h/v1");
  origin.extra_headers = {{"Origin", "https://o.example"}};
  p.add(origin, "TS-7");  // another header: another request
  auto batch = p.take();
  REQUIRE(batch.size() == 3);
  CHECK(batch[0].second.purpose == "VH-1,HM-1");
  CHECK(batch[0].second.headers == std::vector<http::Header>{{"X-Api-Key", "k"}});
  CHECK(batch[2].second.headers.size() == 2);
  // Already sent: not planned again.
  p.add(engine::probe_request("GET", "https://h/v1"), "TS-5");
  CHECK(p.size() == 0);
}

TEST_CASE("planner: the public document goes without -H, redirects followed, up to the document limit") {
  engine::Settings s;
  s.base_url = "https://h/v1";
  s.headers = {{"Authorization", "Bearer x"}};
  engine::Planner p(s);
  p.add(engine::document_request("https://h/v1/openapi.json"), "PO-1");
  auto batch = p.take();
  REQUIRE(batch.size() == 1);
  const auto& r = batch[0].second;
  CHECK(r.headers.empty());
  CHECK(r.max_redirects == 5);
  CHECK(r.body_limit == s.limits.max_document_bytes + 1);
  CHECK(r.to_api);
}

TEST_CASE("planner: a request that follows redirects connects only to public addresses and the hosts given") {
  // Hostile input IV, item 4: {base}/openapi.json answered 302 to http://10.0.0.5/internal-admin/.
  engine::Settings s;
  s.base_url = "https://api.example.nl/v1";
  s.openapi = "https://docs.example.nl/openapi.yaml";
  auto document = engine::build_request(s, engine::document_request("https://api.example.nl/v1/openapi.json"));
  CHECK(document.address_policy == http::AddressPolicy::public_only);
  CHECK(document.exempt_hosts == std::vector<std::string>{"api.example.nl", "docs.example.nl"});
  // lint: the document's own host
  engine::Settings lint;
  lint.openapi = "http://127.0.0.1:8080/openapi.json";
  CHECK(engine::build_request(lint, engine::document_request(*lint.openapi)).exempt_hosts ==
        std::vector<std::string>{"127.0.0.1"});
  engine::Settings file = lint;
  file.openapi = "openapi.yaml";
  CHECK(engine::build_request(file, engine::document_request("https://x.example/a.json")).exempt_hosts.empty());
  // --ref-hosts any lifts it; a probe follows no redirect and goes to the base URL alone
  s.ref_hosts_any = true;
  CHECK(engine::build_request(s, engine::document_request("https://api.example.nl/v1/openapi.json")).address_policy ==
        http::AddressPolicy::any);
  s.ref_hosts_any = false;
  auto probe = engine::build_request(s, engine::probe_request("GET", "https://api.example.nl/v1"));
  CHECK(probe.address_policy == http::AddressPolicy::any);
  CHECK(probe.exempt_hosts.empty());
}

TEST_CASE("planner: a target over budget is taken back whole") {
  engine::Settings s;
  s.base_url = "https://h/v1";
  engine::Planner p(s);
  p.add(engine::probe_request("GET", "https://h/v1/a"), "HM-1");
  std::size_t before = p.size();
  p.add(engine::probe_request("GET", "https://h/v1/b"), "HM-1");
  p.add(engine::probe_request("HEAD", "https://h/v1/b"), "HM-1");
  p.truncate(before);
  CHECK(p.size() == 1);
  p.add(engine::probe_request("GET", "https://h/v1/b"), "HM-1");  // may be planned again later
  CHECK(p.size() == 2);
}

TEST_CASE("planner: a key declared by many checks is found by its index, not by scanning the batch") {
  engine::Settings s;
  s.base_url = "https://h/v1";
  engine::Planner p(s);
  for (int i = 0; i < 5000; ++i) p.add(engine::probe_request("GET", "https://h/v1/p" + std::to_string(i)), "HM-1");
  for (int i = 0; i < 5000; ++i) p.add(engine::probe_request("GET", "https://h/v1/p" + std::to_string(i)), "NT-2");
  p.add(engine::probe_request("GET", "https://h/v1/p7"), "NT-2");  // named once
  CHECK(p.size() == 5000);
  std::size_t before = p.size();
  p.add(engine::probe_request("GET", "https://h/v1/q"), "HM-1");
  p.truncate(before);
  p.add(engine::probe_request("GET", "https://h/v1/q"), "TS-5");  // taken back: planned anew, for its new asker
  auto batch = p.take();
  REQUIRE(batch.size() == 5001);
  CHECK(batch[7].second.purpose == "HM-1,NT-2");
  CHECK(batch[4999].second.purpose == "HM-1,NT-2");
  CHECK(batch[5000].second.purpose == "TS-5");
  // A later batch: the keys are known, nothing is pending to be named.
  p.add(engine::probe_request("GET", "https://h/v1/p1"), "VH-1");
  CHECK(p.size() == 0);
  CHECK(p.take().empty());
}

TEST_CASE("planner: a request's key names everything that makes it another request") {
  auto probe = engine::probe_request("HEAD", "http://127.0.0.1:8080/v1/x");
  CHECK(probe.key() == "HEAD http://127.0.0.1:8080/v1/x h=1 r=0 b=probe");
  auto doc = engine::document_request("https://api.example.nl/v1/openapi.json");
  CHECK(doc.key() == "GET https://api.example.nl/v1/openapi.json h=0 r=5 b=doc");
  probe.extra_headers = {{"Origin", "https://a.example"}, {"Access-Control-Request-Method", "GET"}};
  probe.max_redirects = 12;
  CHECK(probe.key() ==
        "HEAD http://127.0.0.1:8080/v1/x h=1 r=12 b=probe Origin: https://a.example Access-Control-Request-Method: GET");
  // Keys differ where the requests do.
  auto other = probe;
  other.extra_headers[0].second = "https://b.example";
  CHECK(other.key() != probe.key());
  other = probe;
  other.user_headers = false;
  CHECK(other.key() != probe.key());
}
