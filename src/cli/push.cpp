#include "cli/push.hpp"

#include "cli/output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <exception>

#include "cli/settings.hpp"
#include "http/client.hpp"
#include "report/redact.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::cli {

std::string parse_pushgateway_url(const std::string& text) {
  std::string base;
  try {
    base = parse_base_url(text);  // http(s), a host, no query or fragment; errors never show a password
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("--pushgateway: {}", e.what()));
  }
  if (parse_url(base)->path.find("/metrics/job/") != std::string::npos)
    throw UsageError(fmt::format("--pushgateway '{}': give the Pushgateway's own URL; adrprobe adds the group "
                                 "(/metrics/job/adrprobe/register/NAME)",
                                 mask_url_password(text)));
  return base;
}

Push to_push(const PushArgs& args, const std::string& header_option, double timeout_s, const std::string& ca_file,
             const std::string& user_agent) {
  Push push;
  if (!args.register_name.empty())
    if (std::string problem = register_name_problem(args.register_name); !problem.empty())
      throw UsageError("--register-name: " + problem);
  if (args.url.empty()) return push;
  push.url = parse_pushgateway_url(args.url);
  push.headers = read_headers(args.headers, args.header_files, header_option);
  check_timeout(timeout_s);
  check_ca_file(ca_file);
  push.timeout_s = timeout_s;
  push.ca_file = ca_file;
  push.user_agent = user_agent;
  return push;
}

std::string register_name_problem(const std::string& name) {
  if (name.empty()) return "no register name";
  // escape_control changes control characters, bidi controls and invalid UTF-8, nothing else.
  if (escape_control(name) != name) return "the register name holds control characters or is not UTF-8";
  return "";
}

std::string pushgateway_group_url(const std::string& base, const std::string& register_name) {
  bool plain = std::all_of(register_name.begin(), register_name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' || c == '~';
  });
  // "." and ".." are dot segments, which a router resolves away.
  if (plain && !register_name.empty() && register_name != "." && register_name != "..")
    return base + "/metrics/job/adrprobe/register/" + register_name;
  // The Pushgateway's README: base64url, the padding may be left out.
  std::string encoded = base64_encode(register_name);
  encoded.erase(encoded.find_last_not_of('=') + 1);
  std::replace(encoded.begin(), encoded.end(), '+', '-');
  std::replace(encoded.begin(), encoded.end(), '/', '_');
  return base + "/metrics/job/adrprobe/register@base64/" + encoded;
}

namespace {

// What the Pushgateway said against a push: its status and the first line
// of its answer ("pushed metrics are invalid or inconsistent ...").
std::string refusal(const http::Exchange& ex) {
  std::string line = trim(ex.body.substr(0, ex.body.find('\n')));
  return line.empty() ? fmt::format("HTTP {}", *ex.status) : fmt::format("HTTP {}: {}", *ex.status, truncate_utf8(line, 300));
}

}  // namespace

bool push_summary(const Push& push, const std::string& register_name, const std::string& text) {
  std::string url = pushgateway_group_url(push.url, register_name);
  auto failed = [&](const std::string& shown_url, const std::string& why) {
    // The headers' values and the URL's password, in whatever form the Pushgateway's answer echoes them.
    report::Redactor redactor(push.headers);
    redactor.add_url(push.url);
    add_proxy_secrets(redactor);
    fmt::print(stderr, "adrprobe: warning: push to {} failed: {}\n",
               escape_control(redactor.apply(mask_url_password(shown_url))), escape_control(redactor.apply(why)));
    return false;
  };
  if (std::string problem = register_name_problem(register_name); !problem.empty())
    return failed(push.url, problem + " (give --register-name)");
  http::ClientSettings settings;
  settings.timeout_s = push.timeout_s;
  settings.rate = 0;
  settings.concurrency = 1;
  settings.ca_file = push.ca_file;
  settings.user_agent = push.user_agent;
  // The client refuses a PUT and a body unless told: that guard keeps a probe
  // from changing the API under test. This client talks to the Pushgateway
  // the user named, and only PUTs summary.prom there.
  settings.allow_unsafe = true;
  http::Request request;
  request.method = "PUT";
  request.url = url;
  request.headers = push.headers;
  // summary.prom is written in the text format both read (report/openmetrics.cpp);
  // the Pushgateway takes that format, not OpenMetrics' media type.
  request.headers.emplace_back("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
  request.body = text;
  request.body_limit = 1024;  // the first line of a refusal
  request.to_api = false;
  request.purpose = "push summary.prom";
  try {
    http::Client client(settings);
    const http::Exchange& ex = client.exchange(client.run_one(std::move(request)).last());
    if (ex.error || !ex.status) return failed(url, ex.error.value_or("no answer"));
    if (!ex.is_success()) return failed(url, refusal(ex));
  } catch (const std::exception& e) {
    return failed(url, e.what());
  }
  return true;
}

}  // namespace adrprobe::cli
