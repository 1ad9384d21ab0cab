#include "demo/reference_api.hpp"

#include <openssl/ssl.h>

#include "demo/certificates.hpp"

#include <fmt/format.h>
#include <httplib.h>
#include <yaml-cpp/yaml.h>

#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <thread>

namespace adrprobe::demo {

using json = nlohmann::ordered_json;

namespace {

const char* kVersion = "1.0.0";

// The data the API serves. Dates are calendar dates, times UTC with `Z`.
struct Gebouw {
  const char* identificatie;
  int bouwjaar;
  const char* status;
  const char* registratie_datum;          // format date
  const char* tijdstip_laatste_wijziging;  // format date-time, UTC
};
const Gebouw kGebouwen[] = {
    {"0363100012345678", 1923, "in gebruik", "2023-04-01", "2024-05-17T09:30:00Z"},
    {"0363100012171966", 1964, "in gebruik", "2019-11-12", "2024-02-29T16:05:12Z"},
};
constexpr int kPaginaGrootte = 20;

json schema_ref(const std::string& name) { return {{"$ref", "#/components/schemas/" + name}}; }

// The conformant profile documents every error as problem details (RFC 9457)
// through shared component responses; the broken one as plain JSON without
// the problem members, the way many frameworks answer by default.
json description(Profile profile) {
  bool broken = profile == Profile::broken;
  json gebouw_properties = {
      {"identificatie", {{"type", "string"}, {"description", "Pandidentificatie uit de BAG."}}},
      {"bouwjaar", {{"type", "integer"}, {"example", 1923}}},
      {"status", {{"type", "string"}, {"enum", {"in gebruik", "gesloopt"}}}}};
  if (broken) {
    // A date documented as date-time, a datetime without offset, a date without format.
    gebouw_properties["registratieDatum"] = {{"type", "string"}, {"format", "date-time"}};
    gebouw_properties["tijdstipLaatsteWijziging"] = {{"type", "string"}, {"format", "date-time-local"}};
    gebouw_properties["sloopDatum"] = {{"type", "string"}, {"nullable", true}};
  } else {
    gebouw_properties["identificatie"]["pattern"] = "^[0-9]{16}$";
    gebouw_properties["registratieDatum"] = {{"type", "string"},
                                             {"format", "date"},
                                             {"description", "Datum waarop het gebouw is geregistreerd."},
                                             {"example", "2023-04-01"}};
    gebouw_properties["tijdstipLaatsteWijziging"] = {{"type", "string"},
                                                     {"format", "date-time"},
                                                     {"description", "Tijdstip van de laatste wijziging, in UTC."},
                                                     {"example", "2024-05-17T09:30:00Z"}};
  }
  json gebouw = {{"type", "object"}, {"required", {"identificatie", "bouwjaar"}}, {"properties", gebouw_properties}};

  json schemas = {
      {"Gebouw", gebouw},
      {"GebouwCollectie",
       {{"type", "object"}, {"properties", {{"gebouwen", {{"type", "array"}, {"items", schema_ref("Gebouw")}}}}}}}};
  json parameters = {{"identificatie",
                      {{"name", "identificatie"},
                       {"in", "path"},
                       {"required", true},
                       {"schema", broken ? json{{"type", "string"}} : json{{"type", "string"}, {"pattern", "^[0-9]{16}$"}}},
                       {"example", "0363100012345678"}}},
                     {"pagina",
                      {{"name", "pagina"},
                       {"in", "query"},
                       {"description", fmt::format("Paginanummer; een pagina bevat ten hoogste {} gebouwen.", kPaginaGrootte)},
                       {"schema", {{"type", "integer"}, {"minimum", 1}, {"default", 1}}}}}};
  // The query key of the year filter: camelCase, or snake_case in the broken profile.
  const char* vanaf = broken ? "bouwjaar_vanaf" : "bouwjaarVanaf";
  parameters[vanaf] = {{"name", vanaf},
                       {"in", "query"},
                       {"description", "Alleen gebouwen met dit bouwjaar of later."},
                       {"schema", {{"type", "integer"}}},
                       {"example", 1900}};
  json components = {{"parameters", parameters}, {"schemas", schemas}};

  auto version_header = json{{"API-Version", {{"$ref", "#/components/headers/API-Version"}}}};
  auto ok = [&](const std::string& schema) {
    json r = {{"description", "OK"}, {"content", {{"application/json", {{"schema", schema_ref(schema)}}}}}};
    if (!broken) r["headers"] = version_header;
    return r;
  };
  auto response_ref = [](const std::string& name) { return json{{"$ref", "#/components/responses/" + name}}; };
  auto param_ref = [](const std::string& name) { return json{{"$ref", "#/components/parameters/" + name}}; };

  json zoek = {{"operationId", "zoekGebouwen"},
               {"summary", "Alle gebouwen"},
               {"parameters", {param_ref("pagina"), param_ref(vanaf)}},
               {"responses", {{"200", ok("GebouwCollectie")}}}};
  json raadpleeg = {{"operationId", "raadpleegGebouw"},
                    {"summary", "Eén gebouw"},
                    {"parameters", {param_ref("identificatie")}},
                    {"responses", {{"200", ok(broken ? "Bouwwerk" : "Gebouw")}}}};
  if (broken) {
    // Errors as plain JSON ({code, message}), not as problem details; no 400 for the query parameters.
    components["schemas"]["Foutbericht"] = {
        {"type", "object"},
        {"properties", {{"code", {{"type", "integer"}}}, {"message", {{"type", "string"}}}}}};
    raadpleeg["responses"]["404"] = {{"description", "Niet gevonden"},
                                     {"content", {{"application/json", {{"schema", schema_ref("Foutbericht")}}}}}};
  } else {
    components["headers"] = {{"API-Version",
                              {{"description", "De volledige versie van de API (Semantic Versioning)."},
                               {"schema", {{"type", "string"}, {"example", kVersion}}}}}};
    components["schemas"]["Probleem"] = {
        {"type", "object"},
        {"description", "Problem details (RFC 9457)."},
        {"required", {"status", "title", "detail"}},
        {"properties",
         {{"type", {{"type", "string"}, {"format", "uri-reference"}, {"description", "Soort probleem; standaard about:blank."}}},
          {"title", {{"type", "string"}, {"description", "Korte omschrijving van het soort probleem."}}},
          {"status", {{"type", "integer"}, {"minimum", 400}, {"maximum", 599}, {"description", "De HTTP-statuscode."}}},
          {"detail", {{"type", "string"}, {"description", "Uitleg bij dit geval van het probleem."}}},
          {"instance", {{"type", "string"}, {"format", "uri-reference"}}},
          {"invalidParams",
           {{"type", "array"},
            {"description", "Alle ongeldige parameters van het verzoek (bij 400)."},
            {"items",
             {{"type", "object"},
              {"properties", {{"name", {{"type", "string"}}}, {"reason", {{"type", "string"}}}}}}}}}}}};
    auto problem_response = [&](const std::string& description) {
      return json{{"description", description},
                  {"headers", version_header},
                  {"content", {{"application/problem+json", {{"schema", schema_ref("Probleem")}}}}}};
    };
    components["responses"] = {{"OngeldigeInvoer", problem_response("Ongeldige invoer: een parameter is ongeldig.")},
                               {"NietGevonden", problem_response("Niet gevonden.")},
                               {"Fout", problem_response("Onverwachte fout.")}};
    zoek["responses"]["400"] = response_ref("OngeldigeInvoer");
    zoek["responses"]["default"] = response_ref("Fout");
    raadpleeg["responses"]["400"] = response_ref("OngeldigeInvoer");
    raadpleeg["responses"]["404"] = response_ref("NietGevonden");
    raadpleeg["responses"]["default"] = response_ref("Fout");
  }

  json doc = {
      {"openapi", "3.0.3"},
      {"info",
       {{"title", "Gebouwen API (adrprobe-referentie)"},
        {"description", "Referentie-API van adrprobe: bevraagt gebouwen. Volgt de REST API Design Rules."},
        {"version", broken ? "1.0" : kVersion},
        {"contact", {{"name", "Team adrprobe"}, {"url", "https://adrprobe.example/contact"}, {"email", "api@adrprobe.example"}}}}},
      {"servers", {{{"url", broken ? "/api/v1.0" : "/v1"}}}},
      {"paths", json::object()},
      {"components", components}};
  doc["paths"]["/gebouwen"] = {{"get", zoek}};
  doc["paths"]["/gebouwen/{identificatie}"] = {{"get", raadpleeg}};
  if (broken) {
    doc["paths"]["/getGebouwen/"] = {{"get", {{"responses", {{"200", ok("GebouwCollectie")}}}}}};
    doc["paths"]["/gebouwen"]["head"] = {{"responses", {{"200", {{"description", "OK"}}}}}};
  }
  return doc;
}

void emit(YAML::Emitter& out, const json& v) {
  if (v.is_object()) {
    out << YAML::BeginMap;
    for (auto it = v.begin(); it != v.end(); ++it) {
      out << YAML::Key << YAML::DoubleQuoted << it.key() << YAML::Value;
      emit(out, it.value());
    }
    out << YAML::EndMap;
  } else if (v.is_array()) {
    out << YAML::BeginSeq;
    for (const auto& item : v) emit(out, item);
    out << YAML::EndSeq;
  } else if (v.is_string()) {
    out << YAML::DoubleQuoted << v.get<std::string>();
  } else if (v.is_null()) {
    out << YAML::Null;
  } else {
    out << v.dump();  // numbers and booleans as JSON writes them are plain YAML scalars
  }
}

std::string to_yaml(const json& v) {
  YAML::Emitter out;
  emit(out, v);
  return std::string(out.c_str()) + "\n";
}

// JSON text of a body; text from the request (a path) may be any bytes.
std::string dump(const json& body) { return body.dump(-1, ' ', false, json::error_handler_t::replace); }

// Problem titles by status, for the errors of the HTTP layer too (400 for an
// unparsable request, 413, 414, 431, ...).
std::string title_of(int status) {
  switch (status) {
    case 400: return "Ongeldig verzoek";
    case 401: return "Niet geauthenticeerd";
    case 403: return "Geen toegang";
    case 404: return "Niet gevonden";
    case 405: return "Methode niet toegestaan";
    case 413: return "Verzoek te groot";
    case 414: return "URI te lang";
    case 416: return "Bereik niet beschikbaar";
    case 431: return "Headers te groot";
    case 500: return "Interne fout";
    case 501: return "Niet geïmplementeerd";
    case 503: return "Dienst niet beschikbaar";
    default: return status < 500 ? "Fout in het verzoek" : "Fout in de server";
  }
}

bool is_identificatie(const std::string& s) {
  return s.size() == 16 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

json gebouw_json(const Gebouw& g, bool broken) {
  json out = {{"identificatie", g.identificatie}, {"bouwjaar", g.bouwjaar}, {"status", g.status}};
  if (broken) {
    // As documented there: the date as a datetime, times without offset.
    std::string tijdstip = g.tijdstip_laatste_wijziging;
    out["registratieDatum"] = std::string(g.registratie_datum) + "T00:00:00";
    out["tijdstipLaatsteWijziging"] = tijdstip.substr(0, tijdstip.size() - 1);
    out["sloopDatum"] = nullptr;
  } else {
    out["registratieDatum"] = g.registratie_datum;
    out["tijdstipLaatsteWijziging"] = g.tijdstip_laatste_wijziging;
  }
  return out;
}

}  // namespace

struct ReferenceApi::Impl {
  Profile profile;
  Credentials credentials;
  std::unique_ptr<httplib::Server> server_ptr;
  httplib::Server& server() { return *server_ptr; }
  int port = 0;  // once started
  std::thread thread;
  std::string json_text, yaml_text;

  bool broken() const { return profile == Profile::broken; }

  // Headers of every response, the HTTP layer's errors included (security
  // headers for the transport checks).
  void common_headers(const httplib::Request& req, httplib::Response& res) const {
    if (!broken() || req.path == "/v1") res.set_header("API-Version", broken() ? "v1.0" : kVersion);
    res.set_header("X-Content-Type-Options", "nosniff");
    if (!broken()) {
      res.set_header("Cache-Control", "no-store");
      res.set_header("X-Frame-Options", "DENY");
      res.set_header("Content-Security-Policy", "frame-ancestors 'none'");
      res.set_header("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    } else {
      res.set_header("X-Powered-By", "Express");
      res.set_header("Set-Cookie", "JSESSIONID=demo-session; Path=/");
    }
  }

  // An error response: problem details (RFC 9457) with status, title and
  // detail; the broken profile answers plain JSON ({code, message}) instead.
  void error(const httplib::Request& req, httplib::Response& res, int status, const std::string& detail,
             const json& invalid_params = json::array()) const {
    res.status = status;
    if (broken()) {
      std::string message = status == 404 ? "Cannot " + req.method + " " + req.path : detail;
      res.set_content(dump({{"code", status}, {"message", message}}), "application/json");
      return;
    }
    json body = {{"status", status}, {"title", title_of(status)}, {"detail", detail}};
    if (!invalid_params.empty()) body["invalidParams"] = invalid_params;
    res.set_content(dump(body), "application/problem+json");
  }

  // GET /v1/gebouwen[?pagina=N][&bouwjaarVanaf=J]: every invalid query
  // parameter is named in one answer (400; 422 in the broken profile).
  void list(const httplib::Request& req, httplib::Response& res) const {
    const char* vanaf_key = broken() ? "bouwjaar_vanaf" : "bouwjaarVanaf";
    json invalid = json::array();
    auto integer = [&](const char* name, int minimum, int& out) {
      if (!req.has_param(name)) return;
      std::string text = req.get_param_value(name);
      int value = 0;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (ec != std::errc() || end != text.data() + text.size())
        invalid.push_back({{"name", name}, {"reason", "moet een geheel getal zijn"}});
      else if (value < minimum)
        invalid.push_back({{"name", name}, {"reason", fmt::format("moet ten minste {} zijn", minimum)}});
      else
        out = value;
    };
    int pagina = 1, vanaf = std::numeric_limits<int>::min();
    integer("pagina", 1, pagina);
    integer(vanaf_key, std::numeric_limits<int>::min(), vanaf);
    if (!invalid.empty()) {
      std::string names;
      for (const auto& i : invalid) names += (names.empty() ? "" : ", ") + i["name"].get<std::string>();
      if (broken()) return error(req, res, 422, "invalid query parameters: " + names);
      return error(req, res, 400, "Ongeldige queryparameters: " + names + ".", invalid);
    }
    json gebouwen = json::array();
    int skip = (pagina - 1) * kPaginaGrootte;
    for (const auto& g : kGebouwen) {
      if (g.bouwjaar < vanaf || skip-- > 0) continue;
      if (static_cast<int>(gebouwen.size()) < kPaginaGrootte) gebouwen.push_back(gebouw_json(g, broken()));
    }
    res.status = 200;
    res.set_content(dump({{"gebouwen", gebouwen}}), "application/json");
  }

  void respond(const httplib::Request& req, httplib::Response& res) {
    bool broken = this->broken();
    const std::string& m = req.method;
    const std::string& p = req.path;
    auto send = [&](int status, const json& body) {
      res.status = status;
      res.set_content(dump(body), "application/json");
    };
    common_headers(req, res);
    // Trailing slash, the root `/v1/` included: 404 (the broken profile redirects).
    if (p.size() > 1 && p.back() == '/') {
      if (broken) {
        res.status = 301;
        res.set_header("Location", p.substr(0, p.size() - 1));
        return;
      }
      return error(req, res, 404, "Een URI eindigt nooit op een slash: gebruik hem zonder de slash aan het eind.");
    }
    bool readable = m == "GET" || m == "HEAD";
    auto not_allowed = [&] {
      if (broken) return error(req, res, 501, m + " is not implemented");
      res.set_header("Allow", "GET, HEAD");
      error(req, res, 405, "Deze resource ondersteunt alleen GET en HEAD, niet " + m + ".");
    };
    if (broken && m == "HEAD" && p.rfind("/v1/gebouwen", 0) == 0) return error(req, res, 405, "HEAD not allowed");
    if (p == "/v1/openapi.json" || p == "/v1/openapi.yaml") {
      if (!readable) return not_allowed();
      if (!broken) res.set_header("Access-Control-Allow-Origin", "*");
      res.status = 200;
      if (p.ends_with(".json")) res.set_content(json_text, "application/json");
      else res.set_content(yaml_text, "application/yaml");
      return;
    }
    if (p == "/v1") {
      if (!readable) return not_allowed();
      return send(200, {{"naam", "Gebouwen API"}, {"_links", {{"gebouwen", {{"href", "/v1/gebouwen"}}}, {"openapi", {{"href", "/v1/openapi.json"}}}}}});
    }
    if (p == "/v1/gebouwen") {
      if (!readable) return not_allowed();
      return list(req, res);
    }
    if (p.rfind("/v1/gebouwen/", 0) == 0 && p.find('/', 13) == std::string::npos) {
      if (!readable) return not_allowed();
      std::string id = p.substr(13);
      if (!broken && !is_identificatie(id))
        return error(req, res, 400, "Een identificatie bestaat uit 16 cijfers.",
                     json::array({{{"name", "identificatie"}, {"reason", "moet uit 16 cijfers bestaan"}}}));
      for (const auto& g : kGebouwen)
        if (id == g.identificatie) return send(200, gebouw_json(g, broken));
      return error(req, res, 404, "Er is geen gebouw met deze identificatie.");
    }
    error(req, res, 404, "Deze URI bestaat niet in de Gebouwen API.");
  }
};

ReferenceApi::ReferenceApi(Profile profile) : impl_(std::make_unique<Impl>()) {
  impl_->profile = profile;
  if (profile == Profile::conformant) {
    impl_->credentials = make_credentials();
    auto* creds = &impl_->credentials;
    // TLS 1.2 and 1.3 with the NCSC's "good" suites only.
    impl_->server_ptr = std::make_unique<httplib::SSLServer>([creds](SSL_CTX& ctx) {
      SSL_CTX_set_min_proto_version(&ctx, TLS1_2_VERSION);
      SSL_CTX_set_cipher_list(&ctx, "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES128-GCM-SHA256");
      SSL_CTX_set_options(&ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION);
      return SSL_CTX_use_certificate(&ctx, creds->cert.get()) == 1 && SSL_CTX_use_PrivateKey(&ctx, creds->key.get()) == 1;
    });
  } else {
    impl_->server_ptr = std::make_unique<httplib::Server>();
  }
  json doc = description(profile);
  impl_->json_text = doc.dump(2);
  json yaml_doc = doc;
  if (profile == Profile::broken) yaml_doc["info"]["version"] = "0.9.0";  // drifted from the JSON
  impl_->yaml_text = to_yaml(yaml_doc);
}

ReferenceApi::~ReferenceApi() { stop(); }

const std::string& ReferenceApi::ca_pem() const { return impl_->credentials.ca_pem; }

std::string ReferenceApi::start(int port) {
  if (port < 0 || port > 65535) throw PortUnavailable(fmt::format("port {} is not a TCP port (0 to 65535)", port));
  auto* impl = impl_.get();
  if (!impl->server().is_valid()) throw std::runtime_error("demo: the HTTPS server could not be set up");
  impl->server().set_pre_routing_handler([impl](const httplib::Request& req, httplib::Response& res) {
    impl->respond(req, res);
    return httplib::Server::HandlerResponse::Handled;
  });
  // Errors of the HTTP layer itself (an unparsable request, a URI too long, ...)
  // get the same headers and error format as the API's own.
  impl->server().set_error_handler(httplib::Server::HandlerWithResponse([impl](const httplib::Request& req, httplib::Response& res) {
    if (res.has_header("Content-Type")) return httplib::Server::HandlerResponse::Unhandled;  // the API's own error
    impl->common_headers(req, res);
    impl->error(req, res, res.status, "Het verzoek kon niet worden verwerkt.");
    return httplib::Server::HandlerResponse::Handled;
  }));
  impl->server().set_exception_handler([impl](const httplib::Request& req, httplib::Response& res, std::exception_ptr) {
    res.headers.clear();
    impl->common_headers(req, res);
    impl->error(req, res, 500, "Er ging iets mis in de server.");
  });
  impl->server().set_keep_alive_max_count(1000);
  // Patient with a slow client, as nginx is (keepalive_timeout 75 s,
  // client_header_timeout 60 s): cpp-httplib's 5 s for the TLS handshake and
  // for each request on a connection closed a fresh connection whose client
  // (adrprobe under the sanitizers on a loaded 2-core CI, its TLS checks
  // beside it) sent its first request later than that: "Failed sending data
  // to the peer: Broken pipe" on the document, half the rules `error`.
  impl->server().set_read_timeout(30, 0);
  impl->server().set_keep_alive_timeout(30);
  // One worker per connection, kept while the connection is kept alive:
  // cpp-httplib's default of max(8, cores - 1) workers is taken by a run's
  // idle keep-alive connections (two senders at --concurrency, TS-3's
  // handshakes), and the next connection waits for one to time out. Seen as
  // timeouts in a nightly test on a loaded 2-core CI.
  impl->server().new_task_queue = [] { return new httplib::ThreadPool(64); };
  // SO_REUSEADDR only: cpp-httplib's default adds SO_REUSEPORT, with which a
  // second server (another `demo --serve --port N`) would share a port in use
  // and the kernel would split the connections between the two.
  impl->server().set_socket_options([](int sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  if (port == 0) {
    port = impl->server().bind_to_any_port("127.0.0.1");
    if (port <= 0) throw std::runtime_error("demo: cannot bind a port on 127.0.0.1");
  } else {
    errno = 0;
    if (!impl->server().bind_to_port("127.0.0.1", port)) {
      int err = errno;
      throw PortUnavailable(err == EADDRINUSE || err == 0
                                ? fmt::format("port {} on 127.0.0.1 is in use", port)
                                : fmt::format("port {} on 127.0.0.1 cannot be bound: {}", port, std::strerror(err)));
    }
  }
  impl->port = port;
  impl->thread = std::thread([impl] { impl->server().listen_after_bind(); });
  for (int i = 0; i < 200 && !impl->server().is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return fmt::format("{}://127.0.0.1:{}/v1", impl->profile == Profile::conformant ? "https" : "http", port);
}

bool ReferenceApi::running() const { return impl_ && impl_->server_ptr && impl_->server_ptr->is_running(); }

namespace {
// Shuts down the connections the server accepted on `port` (local port
// `port`, not listening): cpp-httplib's workers wait on a kept-alive
// connection until its timeout before the server's stop() returns, 30 s with
// a client that keeps one open; shut down, they see its end at once. The
// process's sockets are found among its open files (cpp-httplib 0.11 gives
// no hook on the sockets it accepts); a client's socket in the same process
// (a test) has another local port.
void shut_down_connections(int port) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd", ec)) {
    int fd = -1;
    std::string name = entry.path().filename().string();
    if (std::from_chars(name.data(), name.data() + name.size(), fd).ec != std::errc{}) continue;
    sockaddr_storage local{};
    socklen_t size = sizeof local;
    int listening = 0;
    socklen_t flag_size = sizeof listening;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &size) != 0 || local.ss_family != AF_INET) continue;
    if (ntohs(reinterpret_cast<const sockaddr_in&>(local).sin_port) != port) continue;
    if (::getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &flag_size) != 0 || listening) continue;
    ::shutdown(fd, SHUT_RDWR);
  }
}
}  // namespace

void ReferenceApi::stop() {
  if (!impl_ || !impl_->server_ptr) return;
  impl_->server().stop();
  if (impl_->port > 0) shut_down_connections(impl_->port);
  if (impl_->thread.joinable()) impl_->thread.join();
}

}  // namespace adrprobe::demo
