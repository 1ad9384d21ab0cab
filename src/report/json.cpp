// JSON report per report.schema.json ("adrprobe-report/1").
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <algorithm>
#include <array>
#include <functional>
#include <memory>
#include <string_view>
#include <nlohmann/json.hpp>

#include "oas/parse.hpp"
#include "report/formats.hpp"
#include "report/json.hpp"
#include "util/release.hpp"
#include "util/strings.hpp"

namespace adrprobe::report {

using json = nlohmann::ordered_json;

json exchange_json(const http::Exchange& e) {
  json j;
  j["id"] = e.id;
  j["method"] = e.method;
  j["url"] = e.url;
  json req = json::object();
  for (const auto& [k, v] : e.request_headers) req[k] = v;
  j["request_headers"] = req;
  j["status"] = e.status ? json(*e.status) : json(nullptr);
  // One member per name, in byte order; a name sent on several lines has them
  // joined (", ", Set-Cookie's by a line feed: each line stays whole).
  json resp = json::object();
  for (auto& [k, v] : e.response_headers.by_name()) resp[k] = std::move(v);
  j["response_headers"] = resp;
  if ((e.status && *e.status >= 400) || e.body_judged) {
    j["response_body"] = e.body.substr(0, kReportBodyBytes);
    j["response_body_truncated"] = e.body_truncated || e.body.size() > kReportBodyBytes;
  }
  j["duration_ms"] = std::round(e.duration_ms * 1000.0) / 1000.0;
  j["error"] = e.error ? json(*e.error) : json(nullptr);
  return j;
}

namespace {

// A JSON string as dump_json writes it (nlohmann's dump, ensure_ascii off,
// invalid UTF-8 replaced, then escape_dump): plain ASCII as it is, anything
// else through both.
void put_string(std::string& out, std::string_view s) {
  bool plain = std::all_of(s.begin(), s.end(), [](char ch) {
    auto c = static_cast<unsigned char>(ch);
    return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
  });
  if (!plain) {  // with dump_json's escapes (C1 and bidi controls); plain ASCII has neither
    escape_dump_into(out, json(std::string(s)).dump(-1, ' ', false, json::error_handler_t::replace));
    return;
  }
  out += '"';
  out += s;
  out += '"';
}

// An object of string members one level into an exchange, as dump(2) writes
// it. A name given twice keeps its first place and its last value, which is
// what assigning the lines to an ordered_json in turn gives.
template <typename Lines>
void put_headers(std::string& out, const Lines& lines, const std::string& indent) {
  std::vector<std::pair<std::string_view, std::string_view>> members;
  for (const auto& line : lines) {
    std::string_view name = line.first;  // not a structured binding: clang before 16 cannot capture one
    auto same = std::find_if(members.begin(), members.end(), [&](const auto& m) { return m.first == name; });
    if (same != members.end()) same->second = line.second;
    else members.emplace_back(name, line.second);
  }
  if (members.empty()) {
    out += "{}";
    return;
  }
  out += "{";
  bool first = true;
  for (const auto& [name, value] : members) {
    out += first ? "\n" : ",\n";
    first = false;
    out += indent;
    out += "    ";
    put_string(out, name);
    out += ": ";
    put_string(out, value);
  }
  out += "\n";
  out += indent;
  out += "  }";
}

}  // namespace

// The text of the last header blocks written: a run's records share a few
// blocks (http::HeaderLines, SharedHeaders), written once each while they
// recur. A fixed few, so the cache never grows with the run.
class BlockTexts {
 public:
  template <typename Render>
  const std::string& get(const void* identity, Render&& render) {
    if (identity)
      for (const auto& [id, text] : entries_)
        if (id == identity) return text;
    auto& slot = entries_[next_++ % entries_.size()];
    slot.first = identity;
    slot.second.clear();
    render(slot.second);
    return slot.second;
  }

 private:
  std::array<std::pair<const void*, std::string>, 16> entries_{};
  std::size_t next_ = 0;
};

void write_exchange(std::string& out, const http::Exchange& e, ExchangeWriter& cache) {
  const std::string& indent = cache.indent;
  auto member = [&](std::string_view name, bool first = false) {
    out += first ? "{\n" : ",\n";
    out += indent;
    out += "  \"";
    out += name;
    out += "\": ";
  };
  member("id", true);
  out += std::to_string(e.id);
  member("method");
  put_string(out, e.method);
  member("url");
  put_string(out, e.url);
  member("request_headers");
  out += cache.requests->get(e.request_headers.identity(),
                             [&](std::string& text) { put_headers(text, e.request_headers, indent); });
  member("status");
  out += e.status ? std::to_string(*e.status) : "null";
  member("response_headers");
  out += cache.responses->get(e.response_headers.identity(),
                              [&](std::string& text) { put_headers(text, e.response_headers.by_name(), indent); });
  if ((e.status && *e.status >= 400) || e.body_judged) {
    member("response_body");
    put_string(out, std::string_view(e.body).substr(0, kReportBodyBytes));
    member("response_body_truncated");
    out += e.body_truncated || e.body.size() > kReportBodyBytes ? "true" : "false";
  }
  member("duration_ms");
  out += json(std::round(e.duration_ms * 1000.0) / 1000.0).dump();
  member("error");
  if (e.error) put_string(out, *e.error);
  else out += "null";
  out += "\n";
  out += indent;
  out += "}";
}

ExchangeWriter::ExchangeWriter(std::string indent)
    : indent(std::move(indent)), requests(std::make_unique<BlockTexts>()), responses(std::make_unique<BlockTexts>()) {}
ExchangeWriter::~ExchangeWriter() = default;

namespace {
// The TLS facts (keys in alphabetical order, as in adrprobe 0.1.0).
nlohmann::json tls_json(const tls::Facts& t) {
  nlohmann::json j;
  j["host"] = t.host;
  j["port"] = t.port;
  j["handshake"] = t.handshake_ok;
  if (!t.handshake_ok) j["error"] = t.error;
  j["protocol"] = t.protocol;
  j["cipher"] = t.cipher;
  j["group"] = t.group;
  std::vector<std::string> accepted;
  nlohmann::json protocols = nlohmann::json::array();
  for (const auto& p : t.protocols) {
    if (p.accepted) accepted.push_back(p.name);
    nlohmann::json jp{{"name", p.name}, {"accepted", p.accepted}, {"testable", p.testable}};
    if (p.accepted) {
      jp["cipher"] = p.cipher;
      // TS-3: every suite accepted with this version, its NCSC level and key exchange.
      nlohmann::json suites = nlohmann::json::array();
      for (const auto& s : p.suites) {
        nlohmann::json js{{"name", s.name}, {"level", s.level}};
        js["kx"] = s.kx.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.kx);
        js["kx_level"] = s.kx_level.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.kx_level);
        suites.push_back(js);
      }
      jp["suites"] = suites;
      jp["suites_complete"] = p.suites_complete;
      if (p.deadline_reached) jp["deadline_reached"] = true;  // why not complete
    } else {
      jp["error"] = p.error;
      if (p.deadline_reached) jp["deadline_reached"] = true;  // unknown, not refused
    }
    protocols.push_back(jp);
  }
  j["accepted_protocols"] = accepted;
  j["protocols"] = protocols;
  j["handshakes"] = t.handshakes;
  if (t.deadline_reached) j["deadline_reached"] = true;  // the run's deadline ended the handshakes early
  j["trusted"] = t.trusted;
  j["trust_error"] = t.trusted ? nlohmann::json(nullptr) : nlohmann::json(t.trust_error);
  nlohmann::json chain = nlohmann::json::array();
  for (const auto& c : t.chain)
    chain.push_back({{"subject", c.subject}, {"issuer", c.issuer}, {"sans", c.sans}, {"not_before", c.not_before},
                     {"not_after", c.not_after}, {"days_left", c.days_left}, {"key", c.key}, {"signature", c.signature}});
  if (!chain.empty()) j["certificate"] = chain.front();
  j["chain"] = chain;
  j["ocsp_stapled"] = t.ocsp_stapled;
  j["compression"] = t.compression;
  // null on TLS 1.3, which has no renegotiation, and when no handshake negotiated a
  // protocol (earlier reports said false or true there).
  j["secure_renegotiation"] = t.renegotiation() ? nlohmann::json(*t.renegotiation()) : nlohmann::json(nullptr);
  if (!t.proxy.empty()) j["proxy"] = t.proxy;
  j["client_certificate"] = {{"requested", t.client_cert_requested}, {"sent", t.client_cert_sent}};
  if (!t.client_cert_refusal.empty()) j["client_certificate"]["refused"] = t.client_cert_refusal;
  j["duration_ms"] = std::round(t.duration_ms);
  return j;
}

// How the run was made: the options that shape its verdicts, never a header value.
json run_json(const RunInfo& run, const std::string& edition) {
  json options;
  options["edition"] = edition;  // the catalogue used
  options["edition_asked"] = run.edition_asked;
  if (!run.edition_note.empty()) options["edition_note"] = run.edition_note;
  options["timeout"] = run.timeout_s;
  options["rate"] = run.rate;
  options["concurrency"] = run.concurrency;
  options["max_paths"] = run.max_paths;
  options["max_requests"] = run.max_requests;
  options["deadline"] = run.deadline_s;
  options["insecure"] = run.insecure;
  options["allow_unsafe"] = run.allow_unsafe;
  options["ca_file"] = run.ca_file;
  options["client_cert"] = run.client_cert;
  options["user_agent"] = run.user_agent;
  options["ref_hosts"] = run.ref_hosts;
  options["header_names"] = run.header_names;  // never their values
  json libraries = json::object();
  for (const auto& [name, version] : run.libraries) libraries[name] = version;
  // run.command is the command line as given (CLI.md), secrets masked; the
  // subcommand (check, lint, demo) is run.subcommand.
  if (!run.rules_selected.empty()) options["rules"] = run.rules_selected;
  json out{{"command", run.command_line.empty() ? "adrprobe " + run.command : run.command_line},
           {"subcommand", run.command},
           {"options", options},
           {"libraries", libraries}};
  // Where the bearer token came from and what the endpoint answered; never the token.
  if (!run.oauth2_token_url.empty())
    out["oauth2"] = {{"token_url", run.oauth2_token_url}, {"status", run.oauth2_status}};
  return out;
}

}  // namespace

json conclusion_json(const Conclusion& c) {
  return {{"conforms", c.conforms ? json(*c.conforms) : json(nullptr)},
          {"must_failed", c.must_failed},
          {"should_failed", c.should_failed},
          {"warned", c.warned},
          {"errors", c.errors},
          {"functional_pending", c.functional_pending},
          {"text", c.text}};
}

json score_json(const Score& s) {
  return {{"pass", s.pass}, {"warn", s.warn}, {"fail", s.fail}, {"error", s.error}, {"applicable", s.applicable},
          {"percent", s.percent ? json(*s.percent) : json(nullptr)}};
}

namespace {

json since_json(const RuleResult& rule) { return rule.failing_since ? json(*rule.failing_since) : json(nullptr); }

json to_json(const Report& r) {
  json j;
  // CLI.md: every format shows the conclusion first; here it is the first key.
  j["conclusion"] = conclusion_json(conclude(r));
  j["schema"] = "adrprobe-report/1";
  j["tool"] = {{"name", "adrprobe"}, {"version", r.tool_version}};
  j["target"] = {{"base_url", r.base_url}, {"openapi_url", r.openapi_url ? json(*r.openapi_url) : json(nullptr)}};
  if (r.name) j["target"]["name"] = *r.name;
  if (!r.owner.empty()) j["target"]["owner"] = r.owner;
  if (!r.labels.empty()) {
    json labels = json::object();
    for (const auto& [key, value] : r.labels) labels[key] = value;
    j["target"]["labels"] = labels;
  }
  if (!r.moved_from.empty()) j["target"]["moved_from"] = r.moved_from;
  j["edition"] = r.edition;
  // The modules judged beside the edition (CLI.md): empty when none.
  j["modules"] = json::array();
  for (const auto& m : r.modules)
    j["modules"].push_back({{"id", m.id}, {"title", m.title}, {"version", m.version}, {"reason", m.reason}});
  j["generated_at"] = r.generated_at;
  j["duration_ms"] = r.duration_ms;
  // CLI.md, "Nightly monitoring": up, or down (with why); against a baseline,
  // whether the target went down or came back since.
  j["state"] = state_of(r);
  if (r.unreachable) {
    j["down_cause"] = down_cause(r);
    // Since when: the first report of this outage (CLI.md, "Nightly monitoring").
    j["down_since"] = r.down_since.empty() ? json(nullptr) : json(r.down_since);
  }
  if (r.compared) j["state_change"] = {{"down", r.went_down}, {"back_up", r.came_back}};
  if (r.last_up) {
    json verdicts = json::array();
    for (const auto& rule : r.last_up->rules) {
      verdicts.push_back({{"id", rule.id}, {"aliases", rule.aliases}, {"kind", rule.kind}, {"verdict", to_string(rule.verdict)},
                          {"failing_since", since_json(rule)}});
      if (!rule.module.empty()) verdicts.back()["module"] = rule.module;
    }
    j["last_up"] = {{"generated_at", r.last_up->generated_at}, {"edition", r.last_up->edition},
                    {"base_url", r.last_up->base_url}, {"rules", verdicts}};
  }
  j["score"] = score_json(r.score);
  json rules = json::array();
  for (const auto& rule : r.rules) {
    json jr;
    jr["id"] = rule.id;
    if (!rule.module.empty()) jr["module"] = rule.module;  // a module's rule; the edition's have none
    jr["aliases"] = rule.aliases;
    jr["title"] = rule.title;
    jr["kind"] = rule.kind;
    if (!rule.level.empty()) jr["level"] = rule.level;
    if (!rule.url.empty()) jr["url"] = rule.url;
    jr["verdict"] = to_string(rule.verdict);
    jr["summary"] = rule.summary;
    if (rule.change) jr["change"] = *rule.change;
    jr["failing_since"] = since_json(rule);
    json checks = json::array();
    for (const auto& c : rule.checks) {
      json jc{{"id", c.id}, {"verdict", to_string(c.verdict)}, {"message", c.message}, {"exchanges", c.exchanges}};
      if (!c.details.empty()) jc["details"] = c.details;
      if (!c.locations.empty()) {
        json locations = json::array();
        for (const auto& l : c.locations) {
          json jl{{"pointer", l.pointer}};
          if (l.line) jl["line"] = *l.line;
          if (!l.target.empty()) jl["target"] = l.target;
          locations.push_back(std::move(jl));
        }
        jc["locations"] = std::move(locations);
      }
      if (c.fix)
        jc["fix"] = {{"stack", c.fix->stack.empty() ? json(nullptr) : json(c.fix->stack)},
                     {"text", c.fix->text},
                     {"source", c.fix->source}};
      checks.push_back(std::move(jc));
    }
    jr["checks"] = std::move(checks);
    jr["hints"] = rule.hints;
    if (!rule.review.empty()) jr["review"] = rule.review;
    rules.push_back(std::move(jr));
  }
  j["rules"] = std::move(rules);
  j["exchanges"] = json::array();  // written one at a time by stream_json, in this place
  if (r.tls) j["tls"] = tls_json(*r.tls);
  if (r.run) j["run"] = run_json(*r.run, r.edition);
  else if (r.mode != "check") j["run"] = {{"command", "adrprobe " + r.mode}, {"subcommand", r.mode}};
  j["notes"] = r.notes;
  if (!r.left_out.empty()) j["paths_left_out"] = r.left_out;
  return j;
}

}  // namespace

void stream_json(const Report& r, const std::function<void(std::string_view)>& sink) {
  // The report without its exchanges is small; the exchanges are written into
  // its empty array one at a time, so no tree or copy of them all is built.
  std::string head = dump_json(to_json(r));
  constexpr std::string_view empty = "\n  \"exchanges\": [],\n";  // top level: a string holds no raw newline
  auto at = head.find(empty);
  if (at == std::string::npos || r.exchanges.empty()) {
    sink(head);
    return;
  }
  std::string_view text(head);
  sink(text.substr(0, at));
  sink("\n  \"exchanges\": [");
  std::string item;
  ExchangeWriter writer("    ");  // two levels deep: inside "exchanges"
  for (std::size_t i = 0; i < r.exchanges.size(); ++i) {
    item.assign(i ? ",\n    " : "\n    ");
    write_exchange(item, r.exchanges[i], writer);
    sink(item);
  }
  sink("\n  ],\n");
  sink(text.substr(at + empty.size()));
}

std::string render_json(const Report& r, const RenderOptions&) {
  std::string out;
  stream_json(r, [&](std::string_view part) { out += part; });
  return out;
}

namespace {
// Invalid UTF-8 from a server (a header value) is replaced, never a crash;
// C0 controls and DEL come out as \u escapes.
std::string dump_raw(const nlohmann::ordered_json& j) { return j.dump(2, ' ', false, json::error_handler_t::replace); }
}  // namespace

std::string dump_json(const nlohmann::ordered_json& j) { return escape_dump(dump_raw(j)) + "\n"; }

std::string dump_json(nlohmann::ordered_json&& j) {
  // A report's rules are 3 MB of text at 10,000 paths, and more as a tree:
  // the tree goes once written out, the text once escaped.
  std::string raw = dump_raw(j);
  j = nullptr;
  std::string escaped = escape_dump(raw);
  release(raw);
  escaped += '\n';
  return escaped;
}

std::string escape_dump(const std::string& out) {
  std::string escaped;
  escaped.reserve(out.size());
  escape_dump_into(escaped, out);
  return escaped;
}

void escape_dump_into(std::string& escaped, std::string_view out, std::string_view newline) {
  // So do the C1 controls (U+0080..U+009F, which some terminals obey) and
  // the invisible characters (U+202E and the other bidi controls, which
  // reorder a line shown raw; U+200B and the others of invisible_character,
  // which make two strings look one): the same string, visible where the file
  // is read as text. The dump is valid UTF-8, so C2 80..C2 9F is always one
  // whole such character, and both only occur inside a string. Bytes that
  // cannot begin either (nearly all of a report: ASCII) are copied a run at a time.
  std::size_t run = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    auto c = static_cast<unsigned char>(out[i]);
    if (c < 0xC2 && (c != '\n' || newline.empty())) continue;
    auto next = i + 1 < out.size() ? static_cast<unsigned char>(out[i + 1]) : 0;
    bool c1 = c == 0xC2 && next >= 0x80 && next <= 0x9F;
    auto [invisible, length] = c1 || c == '\n' ? std::pair<char32_t, std::size_t>{0, 0} : invisible_character(out.substr(i));
    if (!c1 && !length && c != '\n') continue;
    escaped.append(out, run, i - run);
    if (c == '\n') {
      escaped += newline;
    } else if (c1) {
      escaped += fmt::format("\\u{:04x}", next);
      ++i;
    } else if (invisible > 0xFFFF) {  // a surrogate pair, as JSON writes a character beyond the BMP
      char32_t v = invisible - 0x10000;
      escaped += fmt::format("\\u{:04x}\\u{:04x}", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF));
      i += length - 1;
    } else {
      escaped += fmt::format("\\u{:04x}", static_cast<unsigned>(invisible));
      i += length - 1;
    }
    run = i + 1;
  }
  escaped.append(out, run, out.size() - run);
}

namespace json_in {

std::optional<long long> whole_number(const json& v, long long lo, long long hi) {
  if (v.is_number_unsigned()) {
    auto u = v.get<std::uint64_t>();
    if (hi >= 0 && u <= static_cast<std::uint64_t>(hi)) return static_cast<long long>(u);
  } else if (v.is_number_integer()) {
    auto i = v.get<std::int64_t>();
    if (i >= lo && i <= hi) return i;
  } else if (v.is_number_float()) {
    // 2^63 is where long long ends; (double)LLONG_MAX rounds up to it.
    double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && d >= static_cast<double>(lo) && d <= static_cast<double>(hi) &&
        d < 9223372036854775808.0)
      return static_cast<long long>(d);
  }
  return std::nullopt;
}

const json& object(const json& parent, const char* key) {
  static const json empty = json::object();
  if (!parent.is_object()) return empty;
  auto it = parent.find(key);
  return it != parent.end() && it->is_object() ? *it : empty;
}

}  // namespace json_in

std::string read_error(const std::string& parse_error, const char* what) {
  constexpr std::string_view invalid = "invalid JSON: ";
  if (parse_error.compare(0, invalid.size(), invalid) == 0)
    return fmt::format("not JSON ({})", parse_error.substr(invalid.size()));
  return fmt::format("{}: not an adrprobe {}", parse_error, what);
}

oas::Limits report_limits() {
  oas::Limits limits;
  limits.max_document_bytes = max_report_bytes;
  limits.max_depth = max_report_depth;
  return limits;
}

namespace {
// A rule's failing_since: absent or null (a passing rule, a report of an earlier version) is none.
std::optional<std::string> since_of(const json_in::json& rule, const std::string& where) {
  std::string since = json_in::member<std::string>(rule, "failing_since", "", where);
  return since.empty() ? std::nullopt : std::optional<std::string>(since);
}
}  // namespace

Report parse_json_report(const std::string& text) {
  using json_in::member;
  using json_in::object;
  // Size and nesting are checked on the text before anything is built, and
  // the document is built without recursion: a file nested 200,000 deep is a
  // message, not a stack overflow.
  auto parsed = oas::parse_json(text, report_limits());
  if (!parsed.ok) throw std::runtime_error(read_error(parsed.error, "report"));
  const oas::json& j = parsed.value;
  if (!j.is_object() || member<std::string>(j, "schema", "", "report") != "adrprobe-report/1")
    throw std::runtime_error("not an adrprobe report (no \"schema\": \"adrprobe-report/1\")");
  Report r;
  r.tool_version = member<std::string>(object(j, "tool"), "version", "", "tool");
  const auto& target = object(j, "target");
  r.base_url = member<std::string>(target, "base_url", "", "target");
  if (auto url = member<std::string>(target, "openapi_url", "", "target"); !url.empty()) r.openapi_url = url;
  if (auto name = member<std::string>(target, "name", "", "target"); !name.empty()) r.name = name;
  r.edition = member<std::string>(j, "edition", "", "report");
  r.generated_at = member<std::string>(j, "generated_at", "", "report");
  r.duration_ms = member<long long>(j, "duration_ms", 0, "report");
  const auto& score = object(j, "score");
  r.score.pass = member<int>(score, "pass", 0, "score");
  r.score.warn = member<int>(score, "warn", 0, "score");
  r.score.fail = member<int>(score, "fail", 0, "score");
  r.score.error = member<int>(score, "error", 0, "score");
  r.score.applicable = member<int>(score, "applicable", 0, "score");
  if (auto percent = score.find("percent"); percent != score.end() && percent->is_number())
    r.score.percent = percent->get<double>();
  auto rules = j.find("rules");
  if (rules == j.end() || !rules->is_array()) throw std::runtime_error("not an adrprobe report (no \"rules\" list)");
  for (const auto& jr : *rules) {
    if (!jr.is_object()) throw std::runtime_error("rules[] holds something that is not a rule");
    RuleResult rule;
    rule.id = member<std::string>(jr, "id", "", "rule");
    if (rule.id.empty()) throw std::runtime_error("a rule without an id");
    std::string where = "rule " + rule.id;
    rule.module = member<std::string>(jr, "module", "", where);  // absent before modules, and on the edition's rules
    rule.aliases = member<std::vector<std::string>>(jr, "aliases", {}, where);
    rule.title = member<std::string>(jr, "title", "", where);
    rule.kind = member<std::string>(jr, "kind", "", where);
    rule.level = member<std::string>(jr, "level", "", where);
    rule.url = member<std::string>(jr, "url", "", where);
    auto verdict = verdict_from_string(member<std::string>(jr, "verdict", "", where));
    if (!verdict) throw std::runtime_error(where + " has no valid verdict");
    rule.verdict = *verdict;
    rule.summary = member<std::string>(jr, "summary", "", where);
    if (auto change = member<std::string>(jr, "change", "", where); !change.empty()) rule.change = change;
    rule.failing_since = since_of(jr, where);
    rule.hints = member<std::vector<std::string>>(jr, "hints", {}, where);
    rule.review = member<std::string>(jr, "review", "", where);
    if (auto checks = jr.find("checks"); checks != jr.end() && checks->is_array()) {
      for (const auto& jc : *checks) {
        if (!jc.is_object()) continue;
        CheckResult c;
        c.id = member<std::string>(jc, "id", "", where);
        c.verdict = verdict_from_string(member<std::string>(jc, "verdict", "", where)).value_or(Verdict::skip);
        c.message = member<std::string>(jc, "message", "", where);
        c.exchanges = member<std::vector<int>>(jc, "exchanges", {}, where);
        c.details = member<std::vector<std::string>>(jc, "details", {}, where);
        if (auto fx = jc.find("fix"); fx != jc.end() && fx->is_object()) {
          Fix f;
          if (auto st = fx->find("stack"); st != fx->end() && st->is_string()) f.stack = st->get<std::string>();
          f.text = member<std::string>(*fx, "text", "", where);
          f.source = member<std::string>(*fx, "source", "", where);
          c.fix = std::move(f);
        }
        rule.checks.push_back(std::move(c));
      }
    }
    r.rules.push_back(std::move(rule));
  }
  // Absent in reports of earlier versions (0.5): no module judged.
  if (auto modules = j.find("modules"); modules != j.end() && modules->is_array())
    for (const auto& jm : *modules) {
      if (!jm.is_object()) continue;
      ModuleInfo m{member<std::string>(jm, "id", "", "module"), member<std::string>(jm, "title", "", "module"),
                   member<std::string>(jm, "version", "", "module"), member<std::string>(jm, "reason", "", "module")};
      if (!m.id.empty()) r.modules.push_back(std::move(m));
    }
  r.notes = member<std::vector<std::string>>(j, "notes", {}, "report");
  r.unreachable = member<std::string>(j, "state", "up", "report") == "down";
  // Absent in reports of earlier versions: date_streaks then dates from generated_at.
  if (r.unreachable) r.down_since = member<std::string>(j, "down_since", "", "report");
  r.owner = member<std::string>(target, "owner", "", "target");
  for (const auto& [key, value] : object(target, "labels").items())
    if (value.is_string()) r.labels.emplace_back(key, value.get<std::string>());
  r.moved_from = member<std::string>(target, "moved_from", "", "target");
  if (const auto& last = object(j, "last_up"); !last.empty()) {
    LastUp l;
    l.generated_at = member<std::string>(last, "generated_at", "", "last_up");
    l.edition = member<std::string>(last, "edition", "", "last_up");
    l.base_url = member<std::string>(last, "base_url", "", "last_up");
    if (auto list = last.find("rules"); list != last.end() && list->is_array())
      for (const auto& jr : *list) {
        if (!jr.is_object()) continue;
        RuleResult rule;
        rule.id = member<std::string>(jr, "id", "", "last_up rule");
        auto verdict = verdict_from_string(member<std::string>(jr, "verdict", "", "last_up rule"));
        if (rule.id.empty() || !verdict) continue;
        rule.aliases = member<std::vector<std::string>>(jr, "aliases", {}, "last_up rule");
        rule.kind = member<std::string>(jr, "kind", "", "last_up rule");
        rule.module = member<std::string>(jr, "module", "", "last_up rule");
        rule.verdict = *verdict;
        rule.failing_since = since_of(jr, "last_up rule");
        l.rules.push_back(std::move(rule));
      }
    r.last_up = std::move(l);
  }
  if (auto run = j.find("run"); run != j.end() && run->is_object())
  {
    // run.subcommand; a report of an earlier version has the subcommand in run.command.
    std::string sub = member<std::string>(*run, "subcommand", "", "run");
    std::string command = member<std::string>(*run, "command", "check", "run");
    r.mode = sub == "lint" || command == "lint" || command.rfind("adrprobe lint", 0) == 0 ? "lint" : "check";
  }
  return r;
}

}  // namespace adrprobe::report
