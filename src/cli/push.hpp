// summary.prom to a Prometheus Pushgateway (CLI.md, "Nightly monitoring"):
// `summary --pushgateway URL`, and `batch --pushgateway URL` for a night of one
// shard, PUT it to the group job="adrprobe", register="<name>". A PUT replaces
// the whole group; a POST replaces only the metric families it carries, so a
// family with no sample tonight (adrprobe_rule_change after a night without a
// change) would keep last night's samples, and an alert on them never clears.
#pragma once
#include <string>
#include <vector>

#include "http/exchange.hpp"

namespace adrprobe::cli {

// The options of a push, as given (summary, batch).
struct PushArgs {
  std::string url;            // --pushgateway; empty: no push
  std::string register_name;  // --register-name; empty: the register's own name
  std::vector<std::string> headers, header_files;  // 'Name: value' (${VAR}), and files of them
};

// A validated push: where and with what. No URL: no push.
struct Push {
  std::string url;  // the Pushgateway's base URL, without a trailing slash
  std::vector<http::Header> headers;  // -H (summary) or --pushgateway-header (batch), ${VAR} expanded
  double timeout_s = 10;
  std::string ca_file, user_agent;
};

// --pushgateway: an http(s) URL without query or fragment (a path prefix, as
// behind a reverse proxy, is kept), returned without a trailing slash.
// UsageError for anything else, and for a URL that names a group already
// (".../metrics/job/..."): adrprobe adds the group itself.
std::string parse_pushgateway_url(const std::string& text);
// The push `args` ask for, checked before anything is run (UsageError; a
// header's errors name `header_option`, never its value). The timeout, CA
// file and User-Agent are the command's.
Push to_push(const PushArgs& args, const std::string& header_option, double timeout_s, const std::string& ca_file,
             const std::string& user_agent);
// "" when `name` can name a register's group (not empty, UTF-8 without
// control characters: it becomes a label value), else why not.
std::string register_name_problem(const std::string& name);
// The group's URL: base + "/metrics/job/adrprobe/register/" + name. A name of
// other than unreserved characters (RFC 3986) goes in the Pushgateway's
// base64url form, "register@base64/<name in base64url>": a "/" must not reach
// the path, percent-encoded or not (proxies decode %2F).
std::string pushgateway_group_url(const std::string& base, const std::string& register_name);

// PUTs summary.prom (the text format, which it is written in) to the group of
// `register_name`. Never throws and never changes the exit status: a failure
// (no register name, the Pushgateway unreachable, an answer other than 2xx)
// is one warning on stderr, "adrprobe: warning: push to URL failed: why",
// with the headers' values and the URL's password masked. Returns whether the
// Pushgateway took it.
bool push_summary(const Push& push, const std::string& register_name, const std::string& text);

}  // namespace adrprobe::cli
