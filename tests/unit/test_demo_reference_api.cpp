// The reference API of `adrprobe demo`, served on 127.0.0.1 and read back over
// HTTP(S): the conformant profile keeps the rules of edition 2.2.0 (kebab-case
// paths, camelCase query keys, date and date-time formats, problem details for
// every error, 400 for operations with input), the broken profile breaks them.
#include <doctest/doctest.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <tuple>
#include <string>
#include <vector>

#include "demo/reference_api.hpp"
#include "http/client.hpp"

using namespace adrprobe;
using json = nlohmann::json;

namespace {

struct Served {
  demo::ReferenceApi api;
  std::string base;
  http::Client client;
  explicit Served(demo::Profile profile) : api(profile), base(api.start()), client(settings()) {}
  static http::ClientSettings settings() {
    http::ClientSettings cs;
    cs.rate = 0;
    cs.insecure = true;  // the run's own CA; TLS itself is the transport checks' business
    return cs;
  }
  http::Exchange send(const std::string& method, const std::string& path) {
    http::Request r;
    r.method = method;
    r.url = base + path;
    r.body_limit = 1 << 20;
    return client.exchange(client.run_one(r).last());
  }
  json document() {
    auto e = send("GET", "/openapi.json");
    REQUIRE(e.status == 200);
    return json::parse(e.body);
  }
};

// A local "$ref" resolved (once per level, as the document uses them).
const json& resolve(const json& doc, const json& node) {
  const json* cur = &node;
  for (int i = 0; i < 10 && cur->is_object() && cur->contains("$ref"); ++i)
    cur = &doc.at(json::json_pointer(cur->at("$ref").get<std::string>().substr(1)));
  return *cur;
}

struct Operation {
  std::string method, path;
  const json* op;
};

std::vector<Operation> operations(const json& doc) {
  std::vector<Operation> out;
  for (const auto& [path, item] : doc.at("paths").items())
    for (const auto& [method, op] : item.items()) out.push_back({method, path, &op});
  return out;
}

std::vector<std::string> query_keys(const json& doc, const json& op) {
  std::vector<std::string> keys;
  for (const auto& p : op.value("parameters", json::array())) {
    const json& param = resolve(doc, p);
    if (param.at("in") == "query") keys.push_back(param.at("name"));
  }
  return keys;
}

bool is_error_key(const std::string& key) { return key == "default" || key[0] == '4' || key[0] == '5'; }

const std::regex kKebab("^[a-z0-9]+(-[a-z0-9]+)*$");
const std::regex kTemplate("^\\{[^{}/]+\\}$");
const std::regex kCamel("^\\$?[a-z][a-z\\d]*([A-Z][a-z\\d]*)*$");
const std::regex kDate("^\\d{4}-\\d{2}-\\d{2}$");
const std::regex kUtcDateTime("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$");

// The path key's segments, one trailing slash left off.
std::vector<std::string> segments(std::string path) {
  if (path.size() > 1 && path.back() == '/') path.pop_back();
  std::vector<std::string> out;
  for (std::size_t start = 1; start <= path.size();) {
    std::size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    out.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

bool kebab_path(const std::string& path) {
  for (const auto& s : segments(path))
    if (!std::regex_match(s, kKebab) && !std::regex_match(s, kTemplate)) return false;
  return true;
}

// An RFC 9457 problem: problem+json, a JSON object with status = the HTTP status, title and detail.
void check_problem(const http::Exchange& e, int status) {
  CAPTURE(e.method);
  CAPTURE(e.url);
  CAPTURE(e.body);
  REQUIRE(e.status == status);
  REQUIRE(e.header("content-type"));
  CHECK(*e.header("content-type") == "application/problem+json");
  json body = json::parse(e.body);
  REQUIRE(body.is_object());
  CHECK(body["status"].is_number_integer());
  CHECK(body["status"] == status);
  CHECK(body["title"].is_string());
  CHECK(body["detail"].is_string());
  // The headers every response carries.
  CHECK(e.header("api-version"));
  CHECK(e.header("x-content-type-options"));
  CHECK(e.header("cache-control"));
  CHECK(e.header("strict-transport-security"));
}

}  // namespace

TEST_CASE("demo conformant: the document keeps the 2.2.0 rules") {
  Served s(demo::Profile::conformant);
  json doc = s.document();
  REQUIRE(doc.at("servers").size() == 1);
  CHECK(doc["servers"][0]["url"] == "/v1");
  std::set<std::string> keys;
  int error_responses = 0;
  // No structured bindings where CAPTURE names them: clang 14 lets no lambda capture one.
  for (const auto& operation : operations(doc)) {
    const std::string& method = operation.method;
    const std::string& path = operation.path;
    const json* op = operation.op;
    CAPTURE(method);
    CAPTURE(path);
    CHECK(kebab_path(path));
    auto query = query_keys(doc, *op);
    for (const auto& k : query) {
      CHECK(std::regex_match(k, kCamel));
      keys.insert(k);
    }
    const json& responses = op->at("responses");
    if (!query.empty() || op->contains("requestBody")) CHECK(responses.contains("400"));
    for (const auto& item : responses.items()) {
      const std::string& code = item.key();
      const json& r = item.value();
      if (!is_error_key(code)) continue;
      ++error_responses;
      CAPTURE(code);
      const json& content = resolve(doc, r).at("content");
      CHECK(content.size() == 1);
      REQUIRE(content.contains("application/problem+json"));
      const json& props = resolve(doc, content["application/problem+json"].at("schema")).at("properties");
      for (const char* member : {"status", "title", "detail"}) CHECK(props.contains(member));
    }
  }
  CHECK(keys == std::set<std::string>{"pagina", "bouwjaarVanaf"});
  CHECK(error_responses >= 4);
  const json& gebouw = doc["components"]["schemas"]["Gebouw"]["properties"];
  CHECK(gebouw["registratieDatum"]["type"] == "string");
  CHECK(gebouw["registratieDatum"]["format"] == "date");
  CHECK(gebouw["tijdstipLaatsteWijziging"]["type"] == "string");
  CHECK(gebouw["tijdstipLaatsteWijziging"]["format"] == "date-time");
}

TEST_CASE("demo conformant: dates, UTC datetimes and the query parameters live") {
  Served s(demo::Profile::conformant);
  auto all = s.send("GET", "/gebouwen");
  REQUIRE(all.status == 200);
  CHECK(*all.header("content-type") == "application/json");
  json gebouwen = json::parse(all.body)["gebouwen"];
  REQUIRE(gebouwen.size() == 2);
  for (const auto& g : gebouwen) {
    CHECK(std::regex_match(g["registratieDatum"].get<std::string>(), kDate));
    CHECK(std::regex_match(g["tijdstipLaatsteWijziging"].get<std::string>(), kUtcDateTime));
  }
  auto one = s.send("GET", "/gebouwen/0363100012345678");
  REQUIRE(one.status == 200);
  CHECK(json::parse(one.body)["registratieDatum"] == "2023-04-01");
  CHECK(json::parse(s.send("GET", "/gebouwen?bouwjaarVanaf=1950").body)["gebouwen"].size() == 1);
  CHECK(json::parse(s.send("GET", "/gebouwen?pagina=2").body)["gebouwen"].empty());
  // Every invalid query parameter in one 400.
  auto bad = s.send("GET", "/gebouwen?pagina=0&bouwjaarVanaf=twintig");
  check_problem(bad, 400);
  json invalid = json::parse(bad.body)["invalidParams"];
  REQUIRE(invalid.size() == 2);
  CHECK(invalid[0]["name"] == "pagina");
  CHECK(invalid[1]["name"] == "bouwjaarVanaf");
}

TEST_CASE("demo conformant: every error is problem details") {
  Served s(demo::Profile::conformant);
  check_problem(s.send("GET", "/"), 404);  // {base}/ stays 404 (no-trailing-slash of editions before 2.2.0)
  check_problem(s.send("GET", "/gebouwen/"), 404);
  check_problem(s.send("GET", "/gebouwen/0363100012345678/"), 404);
  check_problem(s.send("GET", "/bestaat-niet"), 404);
  check_problem(s.send("GET", "/gebouwen/0363100099999999"), 404);
  check_problem(s.send("GET", "/gebouwen/123"), 400);
  for (const char* path : {"/gebouwen", "/gebouwen/0363100012345678", "/openapi.json"}) {
    for (const char* method : {"TRACE", "OPTIONS"}) {
      auto e = s.send(method, path);
      check_problem(e, 405);
      REQUIRE(e.header("allow"));
      CHECK(*e.header("allow") == "GET, HEAD");
    }
  }
  // Errors of the HTTP layer too: a URI longer than the server takes.
  check_problem(s.send("GET", "/" + std::string(9000, 'a')), 414);
  // A HEAD answer has headers only.
  auto head = s.send("HEAD", "/bestaat-niet");
  CHECK(head.status == 404);
  CHECK(*head.header("content-type") == "application/problem+json");
  CHECK(head.body.empty());
}

TEST_CASE("demo broken: the document breaks the 2.2.0 rules") {
  Served s(demo::Profile::broken);
  json doc = s.document();
  std::set<std::string> non_kebab, non_camel, without_400, non_problem;
  for (const auto& [method, path, op] : operations(doc)) {
    if (!kebab_path(path)) non_kebab.insert(path);
    auto query = query_keys(doc, *op);
    for (const auto& k : query)
      if (!std::regex_match(k, kCamel)) non_camel.insert(k);
    if (!query.empty() && !op->at("responses").contains("400")) without_400.insert(method + " " + path);
    for (const auto& [code, r] : op->at("responses").items())
      if (is_error_key(code) && !resolve(doc, r).at("content").contains("application/problem+json"))
        non_problem.insert(method + " " + path + " " + code);
  }
  CHECK(non_kebab == std::set<std::string>{"/getGebouwen/"});
  CHECK(non_camel == std::set<std::string>{"bouwjaar_vanaf"});
  CHECK(without_400 == std::set<std::string>{"get /gebouwen"});
  CHECK(non_problem == std::set<std::string>{"get /gebouwen/{identificatie} 404"});
  const json& foutbericht = doc["components"]["schemas"]["Foutbericht"]["properties"];
  for (const char* member : {"status", "title", "detail"}) CHECK_FALSE(foutbericht.contains(member));
  const json& gebouw = doc["components"]["schemas"]["Gebouw"]["properties"];
  CHECK(gebouw["registratieDatum"]["format"] == "date-time");
  CHECK(gebouw["tijdstipLaatsteWijziging"]["format"] == "date-time-local");
  CHECK_FALSE(gebouw["sloopDatum"].contains("format"));
}

TEST_CASE("demo broken: plain JSON errors and datetimes without offset live") {
  Served s(demo::Profile::broken);
  for (auto request : {std::tuple{"GET", "/bestaat-niet", 404}, std::tuple{"TRACE", "/gebouwen", 501},
                       std::tuple{"GET", "/gebouwen?bouwjaar_vanaf=x", 422}}) {
    auto [method, path_, status] = request;
    const char* path = path_;  // CAPTURE takes no structured binding under clang 14
    auto e = s.send(method, path);
    CAPTURE(path);
    CHECK(e.status == status);
    CHECK(*e.header("content-type") == "application/json");
    json body = json::parse(e.body);
    for (const char* member : {"status", "title", "detail"}) CHECK_FALSE(body.contains(member));
  }
  auto all = s.send("GET", "/gebouwen");
  REQUIRE(all.status == 200);
  json g = json::parse(all.body)["gebouwen"][0];
  CHECK(g["registratieDatum"] == "2023-04-01T00:00:00");
  CHECK_FALSE(std::regex_match(g["tijdstipLaatsteWijziging"].get<std::string>(), kUtcDateTime));
}

// --- the port to bind (demo --serve --port N) ---

namespace {

// A socket listening on 127.0.0.1 (plain SO_REUSEADDR, as most servers), on a free port.
struct DemoPortHolder {
  int fd = -1;
  int port = 0;
  DemoPortHolder() {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    REQUIRE(::listen(fd, 4) == 0);
    socklen_t len = sizeof addr;
    REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
    port = ntohs(addr.sin_port);
  }
  ~DemoPortHolder() { release(); }
  void release() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

std::string demo_port_suffix(int port) { return ":" + std::to_string(port) + "/v1"; }

}  // namespace

TEST_CASE("demo: start binds the port it is given, 0 a free one") {
  demo::ReferenceApi any(demo::Profile::broken);
  std::string base = any.start(0);
  CHECK(base.starts_with("http://127.0.0.1:"));
  CHECK(any.running());
  any.stop();
  CHECK_FALSE(any.running());

  DemoPortHolder free_port;
  int port = free_port.port;
  free_port.release();
  demo::ReferenceApi api(demo::Profile::conformant);
  std::string given = api.start(port);
  CHECK(given == "https://127.0.0.1" + demo_port_suffix(port));
  http::Client client(Served::settings());
  http::Request r;
  r.method = "GET";
  r.url = given;
  r.body_limit = 1 << 20;
  CHECK(client.exchange(client.run_one(r).last()).status == 200);
}

TEST_CASE("demo: a port in use is PortUnavailable, whoever holds it") {
  DemoPortHolder held;
  demo::ReferenceApi api(demo::Profile::conformant);
  try {
    api.start(held.port);
    FAIL("start bound a port in use");
  } catch (const demo::PortUnavailable& e) {
    CHECK(std::string(e.what()) == "port " + std::to_string(held.port) + " on 127.0.0.1 is in use");
  }

  // Another reference API on that port: no SO_REUSEPORT sharing between the two.
  held.release();
  demo::ReferenceApi first(demo::Profile::broken);
  REQUIRE(first.start(held.port) == "http://127.0.0.1" + demo_port_suffix(held.port));
  demo::ReferenceApi second(demo::Profile::broken);
  CHECK_THROWS_AS(second.start(held.port), demo::PortUnavailable);
  CHECK(first.running());

  CHECK_THROWS_AS(demo::ReferenceApi(demo::Profile::broken).start(65536), demo::PortUnavailable);
  CHECK_THROWS_AS(demo::ReferenceApi(demo::Profile::broken).start(-1), demo::PortUnavailable);
}
