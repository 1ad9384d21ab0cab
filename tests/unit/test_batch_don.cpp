// A register from DON's API register: its answers read within bounds, and the
// batch file written so that batch::parse_targets reads back exactly the
// values DON gave (however hostile), merged into a hand-kept register.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "batch/don.hpp"
#include "batch/targets.hpp"

using namespace adrprobe;
using batch::don::Api;

namespace {

Api don_api(const std::string& id, const std::string& title, const std::string& server,
            const std::string& organisation = "Kadaster") {
  Api api;
  api.id = id;
  api.title = title;
  api.organisation_uri = "https://www.kadaster.nl";
  api.organisation_label = organisation;
  api.lifecycle = "active";
  api.adr_score = 85;
  if (!server.empty()) api.servers.push_back(server);
  api.oas_url = server + "/openapi.json";
  api.auth = {"API Key"};
  return api;
}

batch::don::Written write_apis(std::vector<Api> apis, const std::string& merge = "") {
  batch::don::WriteInput input;
  input.apis = std::move(apis);
  input.source = "https://register.example/v1";
  input.merge_text = merge;
  input.merge_file = "apis.yaml";
  return batch::don::write_register(input);
}

const batch::Target& target_named(const std::vector<batch::Target>& targets, const std::string& name) {
  for (const auto& t : targets)
    if (t.name == name) return t;
  throw std::runtime_error("no target " + name);
}

std::string label_value(const batch::Target& t, const std::string& key) {
  for (const auto& [k, v] : t.labels)
    if (k == key) return v;
  return "(none)";
}

}  // namespace

TEST_CASE("don register: every hostile value DON gives parses back exactly, and none injects a key") {
  const std::vector<std::string> hostile{
      "line one\nline two\n",
      ": # & * ! | > ' \" % @",
      "- leading dash",
      "-",
      "key: value",
      "x\n  injected: yes\ny",
      "\xe2\x80\xae" "txt.exe",  // U+202E, right-to-left override
      "\xe2\x81\xa6" "isolated\xe2\x81\xa9",
      std::string(10 * 1024, 'n'),
      "~",
      "null",
      "",
      " leading and trailing spaces ",
      "true",
      "0x1F",
      "{flow: map}",
      "[flow, seq]",
      "tab\there",
      "back\\slash",
      "control \x01\x1b[31m",
      "é ü Fryslân",
      "#comment",
      "!tag",
      "&anchor",
      "*alias",
      "|",
      ">",
      "'single'",
      "\"double\"",
      "%directive",
      "@at",
      "---",
      "...",
  };
  std::vector<Api> apis;
  for (std::size_t i = 0; i < hostile.size(); ++i) {
    Api api = don_api(fmt::format("id-{}", i), hostile[i], fmt::format("https://api{}.example.nl/v1/a'b&c!d*e", i),
                      hostile[i]);
    api.lifecycle = hostile[i].empty() ? "active" : "active";
    api.auth = {hostile[i], "OAuth2"};
    api.oas_url = fmt::format("https://docs.example.nl/{}/openapi.json?x=1&y=%20", i);
    apis.push_back(api);
  }
  auto written = write_apis(apis);
  auto targets = batch::parse_targets(written.yaml, "written.yaml");
  // An owner or label longer than a register holds (the 10 KiB one, as organisation and auth) is left out, with why.
  auto carried = [](const std::string& s) { return (s + ", OAuth2").size() <= batch::max_carried_bytes; };
  REQUIRE(targets.size() == static_cast<std::size_t>(std::count_if(hostile.begin(), hostile.end(), carried)));
  CHECK(written.yaml.find("a value is longer than the 256 bytes a target's owner or label may hold") != std::string::npos);
  for (std::size_t i = 0; i < hostile.size(); ++i) {
    CAPTURE(i);
    auto it = std::find_if(targets.begin(), targets.end(),
                           [&](const batch::Target& t) { return label_value(t, "don_id") == fmt::format("id-{}", i); });
    if (!carried(hostile[i])) {
      CHECK(it == targets.end());
      continue;
    }
    REQUIRE(it != targets.end());
    CHECK(it->owner == hostile[i]);
    CHECK(it->base_url == fmt::format("https://api{}.example.nl/v1/a'b&c!d*e", i));
    CHECK(it->options.at("openapi") == fmt::format("https://docs.example.nl/{}/openapi.json?x=1&y=%20", i));
    CHECK(label_value(*it, "auth") == hostile[i] + ", OAuth2");
    CHECK(label_value(*it, "lifecycle") == "active");
    CHECK(it->don_adr_score == 85);
    // Only the keys register writes: no value became a key of its own.
    CHECK(it->options.size() == 1);
    CHECK(it->labels.size() == 3);
    CHECK(it->headers.empty());
  }
  // A bidi control is escaped in the file, not written raw.
  CHECK(written.yaml.find("\xe2\x80\xae") == std::string::npos);
  CHECK(written.yaml.find("\\u202e") != std::string::npos);
}

TEST_CASE("don register: names are unique slugs, DON's id when titles collide; output is sorted and deterministic") {
  std::vector<Api> apis{don_api("b2", "BAG API", "https://bag.example.nl/v2", "Kadaster"),
                        don_api("b1", "BAG API", "https://bag.example.nl/v1", "Kadaster"),
                        don_api("k1", "KVK Handelsregister!", "https://kvk.example.nl/v1", "KVK"),
                        don_api("SAME", "", "https://x.example.nl/v1", "KVK"),
                        don_api("same", "", "https://y.example.nl/v1", "KVK")};
  auto written = write_apis(apis);
  auto targets = batch::parse_targets(written.yaml, "written.yaml");
  REQUIRE(targets.size() == 5);
  // Owner, then name (in byte order: "KVK" before "Kadaster").
  CHECK(targets[0].name == "SAME");
  CHECK(targets[1].name == "kvk-handelsregister");
  CHECK(targets[3].name == "b1");
  CHECK(targets[4].name == "b2");
  CHECK(targets[4].owner == "Kadaster");
  CHECK(target_named(targets, "kvk-handelsregister").base_url == "https://kvk.example.nl/v1");
  CHECK(target_named(targets, "SAME").base_url == "https://x.example.nl/v1");
  CHECK(target_named(targets, "same-2").base_url == "https://y.example.nl/v1");  // one file name in lower case
  std::reverse(apis.begin(), apis.end());
  CHECK(write_apis(apis).yaml == written.yaml);
  CHECK(written.yaml.find("don_adr_score: 85") != std::string::npos);
}

TEST_CASE("don register: APIs without a usable server URL are listed with the reason, never dropped silently") {
  Api none = don_api("n1", "No servers", "");
  Api file = don_api("f1", "File server", "file:///etc/passwd");
  Api js = don_api("j1", "Script", "javascript:alert(1)");
  Api env = don_api("e1", "Env ${HOME}", "https://e.example.nl/v1");
  // an organisation a register cannot carry on every series (Hostile input IV, item 9)
  Api verbose = don_api("l1", "Long", "https://l.example.nl/v1", std::string(batch::max_carried_bytes + 1, 'o'));
  Api retired = don_api("r1", "Old", "https://old.example.nl/v1");
  retired.state = Api::State::filtered;
  retired.why = "retired";
  Api ok = don_api("o1", "Fine", "https://fine.example.nl/v1");
  ok.oas_url = "file:///etc/shadow";
  Api unfetched = don_api("u1", "Slow", "");
  unfetched.state = Api::State::unfetched;
  unfetched.why = "GET /apis/{id} failed: timeout";
  batch::don::WriteInput input;
  input.apis = {none, file, js, env, verbose, retired, ok, unfetched};
  input.unreadable = {"page 1: entry 3 of a page: no id"};
  input.source = "https://register.example/v1";
  input.address_note = [](const std::string& host) { return host == "fine.example.nl" ? "a private address" : ""; };
  auto written = batch::don::write_register(input);
  auto targets = batch::parse_targets(written.yaml, "written.yaml");
  REQUIRE(targets.size() == 1);
  CHECK(targets[0].options.count("openapi") == 0);  // a file: oasUrl is never written
  CHECK(written.left_out.size() == 8);
  for (const char* expected : {"No servers (n1): no server URL", "File server (f1): its server URL is not http(s)",
                               "Script (j1): its server URL", "(e1): a value holds '${'", "Old (r1): retired",
                               "Long (l1): a value is longer than the 256 bytes a target's owner or label may hold",
                               "Slow (u1): GET /apis/{id} failed: timeout", "page 1: entry 3 of a page: no id",
                               "Fine (o1): a private address", "Fine (o1): its oasUrl is not an http(s) URL"}) {
    CAPTURE(expected);
    CHECK(written.yaml.find(expected) != std::string::npos);
  }
}

TEST_CASE("don register: --merge keeps a hand-kept register's settings and marks what DON no longer lists") {
  std::string hand = R"(defaults:
  edition: "2.1.0"
  headers: {X-Api-Key: ${SHARED_KEY}}
targets:
  - name: bag
    base_url: https://bag.example.nl/v1
    owner: Team Adressen
    edition: "1.0"
    rate: 2
    headers: {Authorization: "Bearer ${BAG_TOKEN}"}
    labels: {tier: gold, don_id: b1, lifecycle: active, auth: ""}
  - name: kvk-by-url
    base_url: https://kvk.example.nl/v1/
    params: {kvkNummer: "12345678"}
  - name: internal
    base_url: https://internal.example.nl/v1
    labels: {tier: bronze}
  - name: gone
    base_url: https://gone.example.nl/v1
    labels: {don_id: r1}
)";
  Api bag = don_api("b1", "Basisregistratie Adressen", "https://bag.example.nl/v2");
  bag.adr_score = std::nullopt;
  Api kvk = don_api("k1", "KVK", "https://kvk.example.nl/v1", "KVK");
  Api fresh = don_api("n1", "New API", "https://new.example.nl/v1", "Aardappel");
  Api gone = don_api("r1", "Gone", "https://gone.example.nl/v1");
  gone.state = Api::State::filtered;
  gone.why = "retired";
  auto written = write_apis({bag, kvk, fresh, gone}, hand);
  auto targets = batch::parse_targets(written.yaml, "apis.yaml");
  REQUIRE(targets.size() == 4);
  const auto& b = target_named(targets, "bag");
  CHECK(b.base_url == "https://bag.example.nl/v2");  // DON's field, refreshed
  CHECK(b.owner == "Team Adressen");
  CHECK(b.options.at("edition") == "1.0");
  CHECK(b.options.at("rate") == "2");
  CHECK(b.headers.size() == 2);
  CHECK(b.headers[1].second == "Bearer ${BAG_TOKEN}");
  CHECK(label_value(b, "tier") == "gold");
  CHECK(label_value(b, "auth") == "API Key");
  CHECK_FALSE(b.don_adr_score);
  const auto& k = target_named(targets, "kvk-by-url");
  CHECK(label_value(k, "don_id") == "k1");  // matched by base_url
  CHECK(k.params.at("kvkNummer") == "12345678");
  CHECK(k.options.at("edition") == "2.1.0");  // the defaults, kept
  CHECK(k.headers[0].second == "${SHARED_KEY}");
  CHECK(label_value(target_named(targets, "internal"), "don") == "absent");
  CHECK(label_value(target_named(targets, "new-api"), "don_id") == "n1");
  CHECK(written.absent == 1);
  CHECK(written.from_don == 1);
  CHECK(written.yaml.find("Gone (r1): retired") != std::string::npos);
  // The nightly run again over its own output: nothing changes.
  CHECK(write_apis({bag, kvk, fresh, gone}, written.yaml).yaml == written.yaml);
  // Back in DON: the absent mark goes.
  Api internal = don_api("i1", "Internal", "https://internal.example.nl/v1");
  auto again = batch::parse_targets(write_apis({bag, kvk, fresh, internal}, written.yaml).yaml, "apis.yaml");
  CHECK(label_value(target_named(again, "internal"), "don") == "(none)");
  CHECK(label_value(target_named(again, "internal"), "tier") == "bronze");
  CHECK_THROWS_WITH_AS(write_apis({bag}, "targets: [{base_url: x, rat: 1}]"), doctest::Contains("unknown key 'rat'"),
                       std::runtime_error);
}

TEST_CASE("don register: pages, details and Link headers are read within bounds") {
  auto page = batch::don::parse_page(R"([{"id": "a", "title": "A", "organisation": {"uri": "u", "label": "L"},
      "lifecycle": {"status": "active"}, "adrScore": 70.5}, {"title": "no id"}, 5, {"id": ""}])");
  REQUIRE(page.apis.size() == 1);
  CHECK(page.apis[0].adr_score == 70.5);
  CHECK(page.apis[0].organisation_label == "L");
  CHECK(page.unreadable.size() == 3);
  CHECK(batch::don::parse_page(fmt::format(R"([{{"id": "{}"}}])", std::string(300, 'i'))).unreadable.size() == 1);
  // A page of many unreadable entries: all counted, the first listed.
  std::string junk = "[";
  for (int i = 0; i < 1000; ++i) junk += "{},";
  auto many = batch::don::parse_page(junk + R"({"id": "b"}])");
  CHECK(many.apis.size() == 1);
  CHECK(many.unreadable_count == 1000);
  CHECK(many.unreadable.size() == batch::don::kMaxUnreadableListed);
  CHECK(many.unreadable.back() == "entry 100 of a page: no id");
  CHECK_THROWS_AS(batch::don::parse_page(R"({"apis": []})"), std::runtime_error);
  CHECK_THROWS_AS(batch::don::parse_page("<html>"), std::runtime_error);
  CHECK(batch::don::parse_page(R"([{"id": "a", "adrScore": 1e9}])").apis[0].adr_score == std::nullopt);

  Api api;
  api.id = "a";
  batch::don::read_detail(R"({"id": "a", "title": "A", "servers": [{"url": "https://a.example/v1"}, {"url": "https://b"}],
      "oasUrl": null, "auth": ["OAuth2", 3]})", api);
  CHECK(api.servers == std::vector<std::string>{"https://a.example/v1", "https://b"});
  CHECK_FALSE(api.oas_url);
  CHECK(api.auth == std::vector<std::string>{"OAuth2"});
  CHECK_THROWS_WITH_AS(batch::don::read_detail(R"({"id": "b"})", api), "the answer is about another id", std::runtime_error);

  using batch::don::link_has_next;
  CHECK(link_has_next("<https://x/apis?page=2>; rel='prev', <https://x/apis?page=3>; rel='next'"));
  CHECK(link_has_next("<https://x/apis?page=3>; rel=\"next last\""));
  CHECK(link_has_next("<https://x/apis?page=3>; REL=next"));
  CHECK_FALSE(link_has_next("<https://x/apis?page=1>; rel=\"prev\", <https://x/apis?page=1>; rel=\"first\""));
  CHECK_FALSE(link_has_next("<https://x/next>; rel=\"nextpage\""));
  CHECK_FALSE(link_has_next(""));
}
