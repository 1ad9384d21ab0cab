// Acquire: judging a document fetch, and reading a document for lint.
#include <doctest/doctest.h>
#include <httplib.h>

#include <cstdio>
#include <fstream>
#include <optional>
#include <vector>

#include "counting_api.hpp"
#include "engine/acquire.hpp"
#include "oas/lines.hpp"

using namespace adrprobe;

namespace {
struct Fetches {
  std::deque<http::Exchange> exchanges;
  http::Result add(int status, std::string body, std::map<std::string, std::string> headers = {}) {
    http::Exchange e;
    e.id = static_cast<int>(exchanges.size()) + 1;
    e.method = "GET";
    e.url = "https://h/v1/openapi.json";
    e.status = status;
    e.body = std::move(body);
    e.response_headers = std::move(headers);
    exchanges.push_back(e);
    return http::Result{{e.id}};
  }
};
}  // namespace

TEST_CASE("judge_fetch: a JSON object is a document; everything else says why not") {
  oas::Limits limits;
  Fetches f;
  oas::DocPtr doc;
  auto ok = engine::judge_fetch(f.exchanges, f.add(200, R"({"openapi":"3.0.3"})"), limits, true, &doc);
  CHECK(ok.ok());
  REQUIRE(doc);
  CHECK(oas::to_json(doc->root()) == oas::json{{"openapi", "3.0.3"}});
  CHECK(ok.message == "GET /v1/openapi.json → 200, a JSON object");
  auto status = engine::judge_fetch(f.exchanges, f.add(401, ""), limits, true, nullptr);
  CHECK(status.outcome == engine::DocumentFetch::Outcome::http_status);
  CHECK(status.message == "GET /v1/openapi.json → 401");
  auto array = engine::judge_fetch(f.exchanges, f.add(200, "[1]"), limits, true, nullptr);
  CHECK(array.outcome == engine::DocumentFetch::Outcome::not_object);
  auto yaml = engine::judge_fetch(f.exchanges, f.add(200, "openapi: 3.0.3\n"), limits, true, nullptr);
  CHECK(yaml.outcome == engine::DocumentFetch::Outcome::not_json);  // {base}/openapi.json must be JSON
  doc.reset();
  auto yaml_ok = engine::judge_fetch(f.exchanges, f.add(200, "openapi: 3.0.3\n"), limits, false, &doc);
  CHECK(yaml_ok.ok());  // --openapi and lint take YAML too
  REQUIRE(doc);
  CHECK(oas::to_json(doc->root()) == oas::json{{"openapi", "3.0.3"}});
}

TEST_CASE("judge_fetch: redirects, truncation and transport errors") {
  oas::Limits limits;
  Fetches f;
  http::Result chain = f.add(301, "", {{"location", "/v2/openapi.json"}});
  chain.chain.push_back(f.add(200, "{}").last());
  auto redirected = engine::judge_fetch(f.exchanges, chain, limits, true, nullptr);
  CHECK(redirected.ok());
  CHECK(redirected.redirects == 1);
  CHECK(redirected.chain == std::vector<int>{1, 2});
  auto loop = engine::judge_fetch(f.exchanges, f.add(302, ""), limits, true, nullptr);
  CHECK(loop.outcome == engine::DocumentFetch::Outcome::too_many_redirects);
  http::Result big = f.add(200, "{\"a\":");
  f.exchanges.back().body_truncated = true;
  CHECK(engine::judge_fetch(f.exchanges, big, limits, true, nullptr).outcome ==
        engine::DocumentFetch::Outcome::too_large);
  http::Result down = f.add(200, "");
  f.exchanges.back().status.reset();
  f.exchanges.back().error = "Connection refused";
  auto t = engine::judge_fetch(f.exchanges, down, limits, true, nullptr);
  CHECK(t.transport());
  CHECK(t.message == "GET /v1/openapi.json: Connection refused");
}

TEST_CASE("acquire_for_lint: a local YAML file with a relative $ref; a missing file says why") {
  char dir[] = "/tmp/adrprobe-acquire-XXXXXX";
  REQUIRE(mkdtemp(dir));
  std::string root = std::string(dir) + "/openapi.yaml";
  std::ofstream(root) << "openapi: 3.0.3\ninfo: {title: t, version: 1.0.0}\npaths:\n  /a:\n    get:\n"
                         "      responses: {'200': {$ref: 'common.yaml#/R'}}\n";
  std::ofstream(std::string(dir) + "/common.yaml") << "R: {description: ok}\n";
  http::Client client(http::ClientSettings{});
  engine::Evidence ev;
  ev.settings.openapi = root;
  engine::acquire_for_lint(client, ev);
  REQUIRE(ev.document.docs);
  CHECK(ev.document.url == "file://" + root);
  CHECK(ev.document.unresolved.empty());
  CHECK(ev.document.docs->external_count() == 1);
  CHECK(client.exchanges().empty());  // nothing sent for local files
  // The text is not held: the lines of report locations read the file again.
  CHECK(ev.document.text_file == root);
  CHECK(ev.document_lines({"/paths/~1a/get", "/info/version"}) == std::vector<std::optional<int>>{5, 2});

  engine::Evidence missing;
  missing.settings.openapi = std::string(dir) + "/nope.json";
  engine::acquire_for_lint(client, missing);
  CHECK_FALSE(missing.document.docs);
  CHECK(missing.document.missing_reason.find("cannot read") != std::string::npos);
  std::remove((std::string(dir) + "/common.yaml").c_str());
  std::remove(root.c_str());
  std::remove(dir);
}

TEST_CASE("acquire_for_lint: the lines of locations come from the file as read, or none when it changed since") {
  char dir[] = "/tmp/adrprobe-acquire-XXXXXX";
  REQUIRE(mkdtemp(dir));
  std::string root = std::string(dir) + "/openapi.json";
  std::ofstream(root) << "{\n  \"openapi\": \"3.0.3\",\n  \"info\": {\"title\": \"t\", \"version\": \"1.0.0\"},\n"
                         "  \"paths\": {\n    \"/a\": {}\n  }\n}\n";
  http::Client client(http::ClientSettings{});
  engine::Evidence ev;
  ev.settings.openapi = root;
  engine::acquire_for_lint(client, ev);
  REQUIRE(ev.document.docs);
  CHECK(ev.document_lines({"/paths/~1a", "/nope"}) == std::vector<std::optional<int>>{5, std::nullopt});
  // written again (another size): its lines would be another text's
  std::ofstream(root) << "{\"openapi\": \"3.0.3\", \"paths\": {\"/a\": {}}}";
  CHECK(ev.document_lines({"/paths/~1a"}) == std::vector<std::optional<int>>{std::nullopt});
  std::remove(root.c_str());
  CHECK(ev.document_lines({"/paths/~1a"}) == std::vector<std::optional<int>>{std::nullopt});
  std::remove(dir);
}

namespace {
// A description document of n paths, JSON or YAML.
std::string document_text(int paths, bool yaml) {
  std::string text;
  if (yaml) {
    text = "openapi: 3.0.3\ninfo:\n  title: t\n  version: 1.0.0\npaths:\n";
    for (int i = 0; i < paths; ++i)
      text += "  /p" + std::to_string(i) + ":\n    get:\n      description: \"\u00e9\u00e9n pad " +
              std::to_string(i * 7919) + "\"\n      responses:\n        '200':\n          description: OK\n";
    return text;
  }
  text = "{\n  \"openapi\": \"3.0.3\",\n  \"info\": {\"title\": \"t\", \"version\": \"1.0.0\"},\n  \"paths\": {";
  for (int i = 0; i < paths; ++i)
    text += std::string(i ? "," : "") + "\n    \"/p" + std::to_string(i) +
            "\": {\"get\": {\"description\": \"\u00e9\u00e9n \\\"pad\\\" " + std::to_string(i * 7919) +
            "\", \"responses\": {\"200\": {\"description\": \"OK\"}}}}";
  return text + "\n  }\n}\n";
}

// That document on 127.0.0.1, as a server sends it.
struct DocumentServer {
  std::string text;
  testing::CountingApi api;
  explicit DocumentServer(int paths, bool yaml = false)
      : text(document_text(paths, yaml)),
        api([this](const httplib::Request&, httplib::Response& res) { res.set_content(text, "application/json"); }) {}
  std::string url() const { return api.base() + "/openapi.json"; }
};

// lint's acquire of the server's document, by its URL.
void acquire_from(const DocumentServer& api, http::Client& client, engine::Evidence& ev) {
  ev.settings.openapi = api.url();
  engine::acquire_for_lint(client, ev);
  REQUIRE(ev.document.docs);
  REQUIRE(ev.document.text_exchange > 0);
}
}  // namespace

TEST_CASE("acquire_for_lint: a large fetched document is kept deflated; its lines are the body's") {
  DocumentServer api(8000);  // about 850 KB
  REQUIRE(api.text.size() > 512 * 1024);
  http::Client client(http::ClientSettings{});
  engine::Evidence ev;
  acquire_from(api, client, ev);
  CHECK_FALSE(ev.document.text_deflated.empty());
  CHECK(ev.document.text_deflated.size() < api.text.size() / 4);
  CHECK(client.exchange(ev.document.text_exchange).body.empty());  // let go
  ev.exchanges = client.release_exchanges();
  std::vector<std::string> pointers{"/paths/~1p0", "/paths/~1p4321/get/description", "/paths/~1p7999", "/info/title",
                                    "/paths/~1nope"};
  auto lines = ev.document_lines(pointers);
  CHECK(lines == oas::lines_of(api.text, pointers));
  CHECK(lines == std::vector<std::optional<int>>{5, 4326, 8004, 3, std::nullopt});
}

TEST_CASE("acquire_for_lint: a small fetched document keeps its body for its lines") {
  DocumentServer api(3);
  http::Client client(http::ClientSettings{});
  engine::Evidence ev;
  acquire_from(api, client, ev);
  CHECK(ev.document.text_deflated.empty());
  CHECK(client.exchange(ev.document.text_exchange).body == api.text);
  ev.exchanges = client.release_exchanges();
  CHECK(ev.document_lines({"/paths/~1p2"}) == std::vector<std::optional<int>>{7});
}

TEST_CASE("acquire_for_lint: a large fetched YAML document is kept deflated; its lines are the body's") {
  DocumentServer api(6000, true);  // about 700 KB of YAML: the line reader reads it again from the start
  REQUIRE(api.text.size() > 512 * 1024);
  http::Client client(http::ClientSettings{});
  engine::Evidence ev;
  acquire_from(api, client, ev);
  CHECK_FALSE(ev.document.text_deflated.empty());
  ev.exchanges = client.release_exchanges();
  std::vector<std::string> pointers{"/paths/~1p0", "/paths/~1p5999/get/description", "/info/title", "/paths/~1nope"};
  auto lines = ev.document_lines(pointers);
  CHECK(lines == oas::lines_of(api.text, pointers));
  CHECK(lines == std::vector<std::optional<int>>{6, 5999 * 6 + 8, 3, std::nullopt});
}
