#include "cli/oauth2.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "http/address.hpp"
#include "oas/parse.hpp"
#include "report/redact.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::cli {

namespace {

// "--oauth2-client-id" or "oauth2: client_id", as the user wrote it.
std::string setting_name(OAuth2Names names, const std::string& key) {
  if (names == OAuth2Names::batch_keys) return "oauth2: " + key;
  return "--oauth2-" + replace_all(key, "_", "-");
}

bool loopback_host(const std::string& host) {
  if (iequals(host, "localhost")) return true;
  auto kind = http::classify(host);
  return kind && *kind == http::AddressKind::loopback;
}

// A setting that goes into a form body or a header: one line of text.
void check_line(const std::string& value, const std::string& name) {
  if (value.find_first_of("\r\n") != std::string::npos || escape_control(value) != value)
    throw UsageError(name + ": must be one line of text without control characters");
}

}  // namespace

OAuth2Args with_keys(OAuth2Args args, const std::map<std::string, std::string>& keys) {
  for (const auto& [key, value] : keys) {
    if (key == "token_url") args.token_url = value;
    else if (key == "client_id") args.client_id = value;
    else if (key == "client_secret") args.client_secret = value;
    else if (key == "scope") args.scope = value;
    else if (key == "auth") args.auth = value;
  }
  return args;
}

OAuth2 to_oauth2(const OAuth2Args& a, OAuth2Names names) {
  OAuth2 o;
  if (!a.given()) return o;
  auto name = [&](const std::string& key) { return setting_name(names, key); };
  if (a.token_url.empty())
    throw UsageError(fmt::format("{} is missing: the OAuth 2.0 settings need the token endpoint", name("token_url")));
  std::string error;
  auto url = parse_url(a.token_url, &error);
  std::string shown = mask_url_password(a.token_url);
  if (!url) throw UsageError(fmt::format("{} '{}': {}", name("token_url"), escape_control(shown), error));
  // The client's secret goes there: never in clear over a network.
  if (!(url->scheme == "https" || (url->scheme == "http" && loopback_host(url->host))))
    throw UsageError(fmt::format("{} '{}': the token endpoint must be https (http only on a loopback address): the "
                                 "client secret is sent to it",
                                 name("token_url"), escape_control(shown)));
  if (a.token_url.find('#') != std::string::npos)
    throw UsageError(fmt::format("{} '{}': a token endpoint has no fragment", name("token_url"), escape_control(shown)));
  if (a.client_id.empty()) throw UsageError(fmt::format("{} is missing: give the OAuth 2.0 client id", name("client_id")));
  if (a.client_secret.empty())
    throw UsageError(fmt::format("{} is missing: give the client secret (${{VAR}} reads it from the environment)",
                                 name("client_secret")));
  check_line(a.client_id, name("client_id"));
  check_line(a.scope, name("scope"));
  std::string auth = a.auth.empty() ? "basic" : a.auth;
  if (auth != "basic" && auth != "post")
    throw UsageError(fmt::format("{}: expected basic or post, not '{}'", name("auth"), escape_control(auth)));
  o.token_url = a.token_url;
  o.client_id = a.client_id;
  o.client_secret = expand_env(a.client_secret, name("client_secret"));  // its errors never show the value
  if (o.client_secret.empty()) throw UsageError(fmt::format("{}: the secret is empty", name("client_secret")));
  if (o.client_secret.find_first_of("\r\n") != std::string::npos || escape_control(o.client_secret) != o.client_secret)
    throw UsageError(fmt::format("{}: the secret holds control characters (it is not shown)", name("client_secret")));
  o.scope = trim(a.scope);
  o.basic = auth == "basic";
  return o;
}

TokenAnswer read_token_answer(int status, const std::string& body, bool cut) {
  std::string http = fmt::format("HTTP {}", status);
  if (cut)
    throw std::runtime_error(fmt::format("{}: the answer is larger than {} KiB, not a token response", http,
                                         max_token_answer / 1024));
  oas::Limits limits;
  limits.max_document_bytes = max_token_answer;
  limits.max_depth = 16;  // a token response is a flat object
  auto parsed = oas::parse_json(body, limits);
  const bool object = parsed.ok && parsed.value.is_object();
  // RFC 6749 §5.2: error (an ASCII code) and error_description; shown escaped and short.
  if (object && parsed.value.contains("error")) {
    const auto& e = parsed.value["error"];
    std::string code = e.is_string() ? e.get<std::string>() : e.dump();
    std::string text = fmt::format("{}: {}", http, truncate_utf8(escape_control(code), 100));
    if (auto d = parsed.value.find("error_description"); d != parsed.value.end() && d->is_string())
      text += ": " + truncate_utf8(escape_control(d->get<std::string>()), 300);
    throw std::runtime_error(text);
  }
  if (status < 200 || status > 299)
    throw std::runtime_error(fmt::format("{}{}", http, object ? " (no OAuth error in the answer)" : ""));
  if (!object)
    throw std::runtime_error(fmt::format("{}, but the answer is not a JSON object (RFC 6749 §5.1){}", http,
                                         parsed.ok ? "" : ": " + truncate_utf8(escape_control(parsed.error), 200)));
  const auto& v = parsed.value;
  auto token = v.find("access_token");
  if (token == v.end() || !token->is_string() || token->get<std::string>().empty())
    throw std::runtime_error(http + ", but the answer has no access_token");
  TokenAnswer out;
  out.token = token->get<std::string>();
  if (out.token.size() > max_token)
    throw std::runtime_error(fmt::format("{}, but the access_token is {} bytes, more than {} KiB", http, out.token.size(),
                                         max_token / 1024));
  // It goes into a header line: visible ASCII only, no space.
  if (std::any_of(out.token.begin(), out.token.end(), [](char c) { return c < 0x21 || c > 0x7e; }))
    throw std::runtime_error(http + ", but the access_token holds characters a bearer token cannot (RFC 6750 §2.1)");
  if (auto type = v.find("token_type"); type != v.end() && !(type->is_string() && iequals(type->get<std::string>(), "bearer")))
    throw std::runtime_error(fmt::format("{}, but the token_type is {}, not Bearer", http,
                                         truncate_utf8(escape_control(type->dump()), 100)));
  if (auto e = v.find("expires_in"); e != v.end() && !e->is_null()) {
    double seconds = NAN;
    if (e->is_number()) seconds = e->get<double>();
    // Some servers send the number as a string ("3600").
    else if (e->is_string() && !e->get<std::string>().empty() &&
             e->get<std::string>().find_first_not_of("0123456789") == std::string::npos &&
             e->get<std::string>().size() < 10)
      seconds = std::stod(e->get<std::string>());
    if (!(seconds > 0) || !std::isfinite(seconds))
      throw std::runtime_error(fmt::format("{}, but expires_in {} is not a positive number of seconds", http,
                                           truncate_utf8(escape_control(e->dump()), 100)));
    out.expires_in = seconds;
  }
  return out;
}

TokenSource::TokenSource(OAuth2 config, const http::ClientSettings& client) : config_(std::move(config)) {
  // The run's transport settings, nothing of its probing: one request, no rate.
  client_.timeout_s = client.timeout_s;
  client_.ca_file = client.ca_file;
  client_.insecure = client.insecure;
  client_.resolve = client.resolve;
  client_.user_agent = client.user_agent;
  client_.concurrency = 1;
  client_.rate = 0;
  // The client refuses a POST and a body unless told: that guard keeps a
  // probe from changing the API under test. This client talks only to the
  // token endpoint the user named, and only asks it for a token.
  client_.allow_unsafe = true;
}

TokenSource::Token TokenSource::request_token() {
  auto form = [](const std::string& s) { return percent_encode(s); };  // application/x-www-form-urlencoded
  http::Request request;
  request.method = "POST";
  request.url = config_.token_url;
  request.headers = {{"Content-Type", "application/x-www-form-urlencoded"}, {"Accept", "application/json"}};
  std::string body = "grant_type=client_credentials";
  if (!config_.scope.empty()) body += "&scope=" + form(config_.scope);
  if (config_.basic)  // RFC 6749 §2.3.1: each part form-encoded, then Basic
    request.headers.emplace_back("Authorization",
                                 "Basic " + base64_encode(form(config_.client_id) + ":" + form(config_.client_secret)));
  else
    body += "&client_id=" + form(config_.client_id) + "&client_secret=" + form(config_.client_secret);
  request.body = std::move(body);
  request.body_limit = max_token_answer;
  request.to_api = false;
  request.purpose = "OAuth 2.0 token";

  // Whatever the endpoint echoes of the secret is masked in the message.
  auto failed = [&](const std::string& why) {
    report::Redactor redactor({});
    redactor.add_credential(config_.client_id, config_.client_secret);
    redactor.add_url(config_.token_url);
    return TokenError(escape_control(redactor.apply(fmt::format(
        "the OAuth 2.0 token endpoint {} gave no token: {}", mask_url_password(config_.token_url), why))));
  };
  auto started = http::Clock::now();
  http::Client client(client_);
  const http::Exchange& ex = client.exchange(client.run_one(std::move(request)).last());
  if (!ex.status) throw failed("it could not be reached: " + ex.error.value_or("no answer"));
  if (ex.error && !ex.body_truncated) throw failed(fmt::format("HTTP {}: {}", *ex.status, *ex.error));
  status_ = *ex.status;
  TokenAnswer answer;
  try {
    answer = read_token_answer(*ex.status, ex.body, ex.body_truncated);
  } catch (const std::runtime_error& e) {
    throw failed(e.what());
  }
  Token token{"Bearer " + answer.token, std::nullopt};
  if (answer.expires_in) {
    // Renewed a little before it expires: a quarter of its life, at most 30 s.
    double margin = std::min(30.0, *answer.expires_in / 4);
    token.renew_at = started + std::chrono::duration_cast<http::Clock::duration>(
                                   std::chrono::duration<double>(std::min(*answer.expires_in - margin, 1e9)));
  }
  return token;
}

void TokenSource::fetch() {
  std::lock_guard lock(mutex_);
  token_ = request_token();
  first_ = token_.authorization;
}

std::string TokenSource::current() {
  std::lock_guard lock(mutex_);
  // Once: a token that expires again during the run is not fetched a third time.
  if (!renewed_ && token_.renew_at && http::Clock::now() >= *token_.renew_at) {
    renewed_ = true;
    try {
      Token next = request_token();
      if (on_renewed) on_renewed({"Authorization", next.authorization});
      token_ = std::move(next);
      spdlog::debug("the OAuth 2.0 token was about to expire: renewed");
    } catch (const TokenError& e) {
      spdlog::warn("{} (renewing it; the run goes on with the token it has)", e.what());
    }
  }
  return token_.authorization;
}

void TokenSource::refresh(std::vector<http::Header>& headers) {
  for (auto& [name, value] : headers)
    if (name == "Authorization" && value == first_) value = current();
}

void check_no_authorization(const std::vector<http::Header>& headers, const std::string& where) {
  for (const auto& h : headers)
    if (iequals(h.first, "Authorization"))
      throw UsageError(fmt::format("{}: an Authorization header and an OAuth 2.0 token would both be sent: give one",
                                   where));
}

std::shared_ptr<TokenSource> oauth2_token(const OAuth2Args& args, engine::Settings& settings) {
  OAuth2 config = to_oauth2(args, OAuth2Names::options);
  if (!config.enabled()) return nullptr;
  check_no_authorization(settings.headers, "-H");
  auto source = std::make_shared<TokenSource>(std::move(config), settings.client);
  source->fetch();
  authorise(settings, source);
  return source;
}

void authorise(engine::Settings& s, const std::shared_ptr<TokenSource>& source) {
  check_no_authorization(s.headers, "-H");
  s.headers.emplace_back("Authorization", source->first_authorization());
  s.client.before_send = [source](std::vector<http::Header>& headers) { source->refresh(headers); };
  s.oauth2.token_url = source->config().token_url;
  s.oauth2.status = source->status();
  s.oauth2.client_id = source->config().client_id;
  s.oauth2.client_secret = source->config().client_secret;
}

}  // namespace adrprobe::cli
