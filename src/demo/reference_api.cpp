#include "demo/reference_api.hpp"

#include <openssl/ssl.h>

#include "demo/certificates.hpp"

#include <fmt/format.h>
#include <httplib.h>
#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <chrono>
#include <thread>

namespace adrprobe::demo {

using json = nlohmann::ordered_json;

namespace {

const char* kVersion = "1.0.0";

json description(Profile profile) {
  bool broken = profile == Profile::broken;
  json gebouw = {{"type", "object"},
                 {"required", {"identificatie", "bouwjaar"}},
                 {"properties",
                  {{"identificatie", {{"type", "string"}, {"description", "Pandidentificatie uit de BAG."}}},
                   {"bouwjaar", {{"type", "integer"}, {"example", 1923}}},
                   {"status", {{"type", "string"}, {"enum", {"in gebruik", "gesloopt"}}}}}}};
  json doc = {
      {"openapi", "3.0.3"},
      {"info",
       {{"title", "Gebouwen API (adrprobe-referentie)"},
        {"description", "Referentie-API van adrprobe: bevraagt gebouwen. Volgt de REST API Design Rules."},
        {"version", broken ? "1.0" : kVersion},
        {"contact", {{"name", "Team adrprobe"}, {"url", "https://adrprobe.example/contact"}, {"email", "api@adrprobe.example"}}}}},
      {"servers", {{{"url", broken ? "/api/v1.0" : "/v1"}}}},
      {"paths", json::object()},
      {"components",
       {{"parameters",
         {{"identificatie",
           {{"name", "identificatie"}, {"in", "path"}, {"required", true}, {"schema", {{"type", "string"}}},
            {"example", "0363100012345678"}}}}},
        {"schemas",
         {{"Gebouw", gebouw},
          {"GebouwCollectie", {{"type", "object"}, {"properties", {{"gebouwen", {{"type", "array"}, {"items", {{"$ref", "#/components/schemas/Gebouw"}}}}}}}}},
          {"Foutbericht", {{"type", "object"}, {"properties", {{"status", {{"type", "integer"}}}, {"title", {{"type", "string"}}}}}}}}}}}};
  auto ok = [](const std::string& schema) {
    return json{{"description", "OK"},
                {"content", {{"application/json", {{"schema", {{"$ref", "#/components/schemas/" + schema}}}}}}}};
  };
  doc["paths"]["/gebouwen"] = {{"get", {{"operationId", "zoekGebouwen"}, {"summary", "Alle gebouwen"}, {"responses", {{"200", ok("GebouwCollectie")}}}}}};
  doc["paths"]["/gebouwen/{identificatie}"] = {
      {"get",
       {{"operationId", "raadpleegGebouw"},
        {"summary", "Eén gebouw"},
        {"parameters", {{{"$ref", "#/components/parameters/identificatie"}}}},
        {"responses", {{"200", ok(broken ? "Bouwwerk" : "Gebouw")}, {"404", ok("Foutbericht")}}}}}};
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

json problem(int status, const std::string& title) {
  return {{"status", status}, {"title", title}};
}

}  // namespace

struct ReferenceApi::Impl {
  Profile profile;
  Credentials credentials;
  std::unique_ptr<httplib::Server> server_ptr;
  httplib::Server& server() { return *server_ptr; }
  std::thread thread;
  std::string json_text, yaml_text;

  void respond(const httplib::Request& req, httplib::Response& res) {
    bool broken = profile == Profile::broken;
    const std::string& m = req.method;
    const std::string& p = req.path;
    auto send = [&](int status, const json& body, const char* type = "application/json") {
      res.status = status;
      res.set_content(body.dump(), type);
    };
    // Headers of every response (security headers for the transport checks).
    if (!broken || p == "/v1") res.set_header("API-Version", broken ? "v1.0" : kVersion);
    res.set_header("X-Content-Type-Options", "nosniff");
    if (!broken) {
      res.set_header("Cache-Control", "no-store");
      res.set_header("X-Frame-Options", "DENY");
      res.set_header("Content-Security-Policy", "frame-ancestors 'none'");
      res.set_header("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    } else {
      res.set_header("X-Powered-By", "Express");
      res.set_header("Set-Cookie", "JSESSIONID=demo-session; Path=/");
    }
    if (p.size() > 1 && p.back() == '/') {
      if (broken) {
        res.status = 301;
        res.set_header("Location", p.substr(0, p.size() - 1));
        return;
      }
      return send(404, problem(404, "Niet gevonden: een URI eindigt nooit op een slash"), "application/problem+json");
    }
    bool readable = m == "GET" || m == "HEAD";
    auto not_allowed = [&] {
      if (broken) return send(501, problem(501, "Not Implemented"), "application/problem+json");
      res.set_header("Allow", "GET, HEAD");
      send(405, problem(405, "Methode niet toegestaan"), "application/problem+json");
    };
    if (broken && m == "HEAD" && p.rfind("/v1/gebouwen", 0) == 0) return send(405, problem(405, "HEAD not allowed"));
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
      return send(200, {{"gebouwen", {{{"identificatie", "0363100012345678"}, {"bouwjaar", 1923}, {"status", "in gebruik"}}}}});
    }
    if (p.rfind("/v1/gebouwen/", 0) == 0 && p.find('/', 13) == std::string::npos) {
      if (!readable) return not_allowed();
      if (p.substr(13) == "0363100012345678")
        return send(200, {{"identificatie", "0363100012345678"}, {"bouwjaar", 1923}, {"status", "in gebruik"}});
      return send(404, problem(404, "Gebouw niet gevonden"), "application/problem+json");
    }
    send(404, problem(404, "Niet gevonden"), "application/problem+json");
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

std::string ReferenceApi::start() {
  auto* impl = impl_.get();
  if (!impl->server().is_valid()) throw std::runtime_error("demo: the HTTPS server could not be set up");
  impl->server().set_pre_routing_handler([impl](const httplib::Request& req, httplib::Response& res) {
    impl->respond(req, res);
    return httplib::Server::HandlerResponse::Handled;
  });
  impl->server().set_keep_alive_max_count(1000);
  int port = impl->server().bind_to_any_port("127.0.0.1");
  if (port <= 0) throw std::runtime_error("demo: cannot bind a port on 127.0.0.1");
  impl->thread = std::thread([impl] { impl->server().listen_after_bind(); });
  for (int i = 0; i < 200 && !impl->server().is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return fmt::format("{}://127.0.0.1:{}/v1", impl->profile == Profile::conformant ? "https" : "http", port);
}

void ReferenceApi::stop() {
  if (!impl_ || !impl_->server_ptr) return;
  impl_->server().stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

}  // namespace adrprobe::demo
