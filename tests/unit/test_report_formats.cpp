// The table of formats, and the two renderers built so far.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <set>

#include "report/formats.hpp"
#include "report/json.hpp"
#include "report_sample.hpp"

#include <algorithm>

using namespace adrprobe;
using report::Verdict;

namespace {
report::Report formats_sample() {
  report::Report r;
  r.tool_version = "0.2.0";
  r.base_url = "https://api.example.nl/v1";
  r.edition = "2.0.0";
  r.edition_name = "REST API Design Rules 2.0.0";
  report::RuleResult rule;
  rule.id = "/core/no-trailing-slash";
  rule.title = "Leave off trailing slashes from URIs";
  rule.kind = "technical";
  rule.verdict = Verdict::fail;
  rule.checks = {{"NT-2", Verdict::fail, "GET /v1/a/ served (200)", {1}}};
  r.rules.push_back(rule);
  http::Exchange e;
  e.id = 1;
  e.method = "GET";
  e.url = "https://api.example.nl/v1/a/";
  e.status = 200;
  e.response_headers = {{"x-bad", "\xff\xfe"}};  // invalid UTF-8 from a server
  r.exchanges.push_back(e);
  r.score = report::compute_score(r.rules);
  return r;
}
}  // namespace

TEST_CASE("formats: one table; names unique; the contract's formats are all listed") {
  std::set<std::string> names;
  for (const auto& f : report::formats()) {
    CHECK(names.insert(std::string(f.name)).second);
    CHECK_FALSE(f.extension.empty());
  }
  for (const char* n : {"text", "json", "junit", "html", "markdown", "sarif", "gitlab", "openmetrics"})
    CHECK(names.count(n));
  CHECK((report::find_format("json")->render != nullptr));
  for (const auto& f : report::formats()) CHECK((f.render != nullptr));  // all of CLI.md's are built
  CHECK(report::find_format("pdf") == nullptr);
  CHECK(report::format_names().rfind("text, json", 0) == 0);
}

TEST_CASE("json: valid JSON even with invalid UTF-8 from a server") {
  std::string out = report::render("json", formats_sample());
  auto j = nlohmann::json::parse(out);
  CHECK(j["schema"] == "adrprobe-report/1");
  CHECK(j["rules"][0]["checks"][0]["exchanges"][0] == 1);
  CHECK_FALSE(j.contains("run"));  // a report made without a command (tests) has none
  report::Report lint = formats_sample();
  lint.mode = "lint";
  CHECK(nlohmann::json::parse(report::render("json", lint))["run"]["subcommand"] == "lint");
}

TEST_CASE("json: the run's options and libraries for auditors; each rule's level and link") {
  report::Report r = formats_sample();
  r.rules[0].level = "MUST";
  r.rules[0].url = "https://gitdocumentatie.logius.nl/publicatie/api/adr/2.0.0/#/core/no-trailing-slash";
  report::RunInfo run;
  run.command = "check";
  run.edition_asked = "2.0.1";
  run.edition_note = "editorial changes only";
  run.timeout_s = 10;
  run.rate = 20;
  run.deadline_s = 600;
  run.concurrency = 4;
  run.max_paths = 250;
  run.ca_file = true;
  run.user_agent = "adrprobe/0.2.0";
  run.ref_hosts = "public";
  run.header_names = {"X-Api-Key"};
  run.libraries = {{"libcurl", "7.88.1"}, {"openssl", "3.0.19"}};
  r.run = run;
  auto j = nlohmann::json::parse(report::render("json", r, {}));
  CHECK(j["edition"] == "2.0.0");
  CHECK(j["rules"][0]["level"] == "MUST");
  CHECK(j["rules"][0]["url"] == r.rules[0].url);
  const auto& o = j["run"]["options"];
  CHECK(j["run"]["command"] == "adrprobe check");  // no command line recorded: the subcommand
  CHECK(j["run"]["subcommand"] == "check");
  CHECK(o["edition"] == "2.0.0");
  CHECK(o["edition_asked"] == "2.0.1");
  CHECK(o["edition_note"] == "editorial changes only");
  CHECK(o["timeout"] == 10.0);
  CHECK(o["max_paths"] == 250);
  CHECK(o["ca_file"] == true);
  CHECK(o["client_cert"] == false);
  CHECK(o["header_names"] == nlohmann::json::array({"X-Api-Key"}));
  CHECK(j["run"]["libraries"]["libcurl"] == "7.88.1");
}

TEST_CASE("text: the edition asked and the catalogue used; -v links each rule; -q keeps the target and the score") {
  report::Report r = formats_sample();
  r.rules[0].level = "MUST";
  r.rules[0].url = "https://example.nl/adr/#/core/no-trailing-slash";
  report::RunInfo run;
  run.edition_asked = "2.0.1";
  run.edition_note = "editorial changes only";
  r.run = run;
  std::string out = report::render("text", r, {false, 0, report::FailOn::fail});
  CHECK(out.find("edition 2.0.1 (judged by the 2.0.0 catalogue: editorial changes only)") != std::string::npos);
  CHECK(out.find("https://example.nl/adr/") == std::string::npos);  // links only with -v
  std::string verbose = report::render("text", r, {false, 1, report::FailOn::fail});
  CHECK(verbose.find("MUST · https://example.nl/adr/#/core/no-trailing-slash") != std::string::npos);
  r.run->edition_asked = "latest";
  r.run->edition_note.clear();
  CHECK(report::render("text", r, {false, 0, report::FailOn::fail}).find("REST API Design Rules 2.0.0 (--edition latest)") !=
        std::string::npos);
  std::string quiet = report::render("text", r, {false, -1, report::FailOn::fail});
  // The conclusion first, even with -q; then the target.
  CHECK(quiet.rfind("Does not conform to 2.0.0: 1 MUST rule fails (/core/no-trailing-slash).\n Target   https://api.example.nl/v1\n", 0) == 0);
  CHECK(quiet.find("FAIL   /core/no-trailing-slash") != std::string::npos);
  CHECK(quiet.find("Score") != std::string::npos);
  CHECK(quiet.find("adrprobe 0.2.0") == std::string::npos);
  r.mode = "lint";
  r.openapi_url = "openapi.yaml";
  CHECK(report::render("text", r, {false, -1, report::FailOn::fail}).find("\n Document openapi.yaml\n") != std::string::npos);
}

TEST_CASE("text: one line a rule, the failing check with its evidence, the score; colour only when asked") {
  std::string plain = report::render("text", formats_sample(), {false, 0, report::FailOn::fail});
  CHECK(plain.find("FAIL   /core/no-trailing-slash") != std::string::npos);
  CHECK(plain.find("NT-2 fail GET /v1/a/ served (200)") != std::string::npos);
  CHECK(plain.find("#1 GET https://api.example.nl/v1/a/ → 200") != std::string::npos);
  CHECK(plain.find("Score  0.0 %") != std::string::npos);
  CHECK(plain.find('\x1b') == std::string::npos);
  std::string coloured = report::render("text", formats_sample(), {true, 0, report::FailOn::fail});
  CHECK(coloured.find("\x1b[") != std::string::npos);
}

TEST_CASE("text: server text shows control characters and invalid UTF-8 as \\xNN; only the colour codes are raw") {
  report::Report r = formats_sample();
  r.exchanges[0].response_headers = {{"api-version", "1.0.0\x1b]0;pwned\x07"}, {"location", "/v1/a\xc2\x9b" "31m\xff"}};
  r.rules[0].checks[0].message = "API-Version \"1.0.0\x1b]0;pwned\x07\"";
  r.rules[0].hints = {"Server: nginx/1.25\x1b[2J"};
  r.notes = {"not probed: /a\x1b[1m"};
  r.base_url = "https://h/v1\r\n";
  for (bool colour : {false, true}) {
    std::string out = report::render("text", r, {colour, 1, report::FailOn::fail});
    CHECK(out.find("API-Version \"1.0.0\\x1b]0;pwned\\x07\"") != std::string::npos);
    CHECK(out.find("location: /v1/a\\xc2\\x9b31m\\xff") != std::string::npos);
    CHECK(out.find("not probed: /a\\x1b[1m") != std::string::npos);
    CHECK(out.find("https://h/v1\\x0d\\x0a") != std::string::npos);
    CHECK(out.find('\x07') == std::string::npos);
    CHECK(out.find('\r') == std::string::npos);
    CHECK(out.find("\xc2\x9b") == std::string::npos);
    // Every ESC left is the start of one of the renderer's own SGR sequences.
    for (std::size_t i = out.find('\x1b'); i != std::string::npos; i = out.find('\x1b', i + 1)) {
      CHECK(colour);
      std::size_t m = out.find('m', i);
      REQUIRE(m != std::string::npos);
      CHECK(out.substr(i + 1, 1) == "[");
      CHECK(out.substr(i + 2, m - i - 2).find_first_not_of("0123456789;") == std::string::npos);
    }
  }
}

TEST_CASE("json: control characters from a server are \\u escapes, C1 included; the values load back intact") {
  report::Report r = formats_sample();
  r.exchanges[0].response_headers = {{"api-version", "1.0.0\x1b]0;pwned\x07"}, {"location", "/a\xc2\x9b" "31m é"}};
  std::string out = report::render("json", r, {});
  CHECK(out.find('\x1b') == std::string::npos);
  CHECK(out.find('\x07') == std::string::npos);
  CHECK(out.find("\xc2\x9b") == std::string::npos);
  CHECK(out.find("\\u001b]0;pwned\\u0007") != std::string::npos);
  CHECK(out.find("\\u009b31m é") != std::string::npos);  // other non-ASCII stays as it is
  auto j = nlohmann::json::parse(out);
  CHECK(j["exchanges"][0]["response_headers"]["location"] == "/a\xc2\x9b" "31m é");
}

TEST_CASE("json: bidi controls are \\u escapes too (sarif and gitlab write through dump_json); the values load back intact") {
  report::Report r = formats_sample();
  r.exchanges[0].response_headers = {{"x-title", "Gebouwen \u202Etxt.exe \u061C\u200F\u2066"}};
  for (const char* format : {"json", "sarif", "gitlab"}) {
    std::string out = report::render(format, r, {});
    for (const char* raw : {"\u202E", "\u061C", "\u200F", "\u2066"}) CHECK(out.find(raw) == std::string::npos);
  }
  std::string out = report::render("json", r, {});
  CHECK(out.find("Gebouwen \\u202etxt.exe \\u061c\\u200f\\u2066") != std::string::npos);
  auto j = nlohmann::json::parse(out);
  CHECK(j["exchanges"][0]["response_headers"]["x-title"] == "Gebouwen \u202Etxt.exe \u061C\u200F\u2066");
}

TEST_CASE("json: the conclusion the first key, run.command the command line, each place with its target") {
  report::Report r = formats_sample();
  r.rules[0].checks[0].locations = {{"/paths/~1a", 3, ""}, {"/components/schemas/Z", 9, "common.yaml#/components/schemas/Z/properties/startdatum"}};
  report::RunInfo run;
  run.command = "check";
  run.command_line = "adrprobe check https://api.example.nl/v1 -H 'X-Api-Key: ***'";
  run.rules_selected = {"/core/no-trailing-slash"};
  r.run = run;
  auto j = nlohmann::ordered_json::parse(report::render("json", r, {}));
  CHECK(j["conclusion"]["conforms"] == false);
  CHECK(j["conclusion"]["must_failed"] == 1);
  CHECK(j["conclusion"]["functional_pending"] == 0);
  CHECK(j["conclusion"]["text"].get<std::string>().rfind("Does not conform to 2.0.0", 0) == 0);
  // The first key of the report (CLI.md: every format shows it first), in the text too.
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  REQUIRE_FALSE(keys.empty());
  CHECK(keys.front() == "conclusion");
  CHECK(report::render("json", r, {}).rfind("{\n  \"conclusion\": {\n    \"conforms\": false,", 0) == 0);
  // A down report says so first too: conforms null.
  report::Report down = test::down(formats_sample());
  auto jd = nlohmann::ordered_json::parse(report::render("json", down, {}));
  CHECK(jd.begin().key() == "conclusion");
  CHECK(jd["conclusion"]["conforms"].is_null());
  CHECK(j["run"]["command"] == "adrprobe check https://api.example.nl/v1 -H 'X-Api-Key: ***'");
  CHECK(j["run"]["subcommand"] == "check");
  CHECK(j["run"]["options"]["rules"] == nlohmann::ordered_json::array({"/core/no-trailing-slash"}));
  const auto& l = j["rules"][0]["checks"][0]["locations"];
  REQUIRE(l.size() == 2);
  CHECK_FALSE(l[0].contains("target"));
  CHECK(l[1]["target"] == "common.yaml#/components/schemas/Z/properties/startdatum");
  // Read back (a baseline): the subcommand, and an older report's run.command "lint" alike.
  auto back = report::parse_json_report(report::render("json", r, {}));
  CHECK(back.mode == "check");
}

TEST_CASE("text: the conclusion first; summaries whole off a terminal, cut on one; 1 more hint; the judged header") {
  report::Report r = formats_sample();
  std::string long_summary(150, 'x');
  r.rules[0].verdict = Verdict::pass;
  r.rules[0].summary = long_summary + " (fine for operations)";
  r.rules[0].checks[0].verdict = Verdict::pass;
  report::RuleResult f;
  f.id = "/core/naming";
  f.title = "Naming";
  f.kind = "functional";
  f.verdict = Verdict::manual;
  f.hints = {"h1", "h2", "h3", "h4"};
  r.rules.push_back(f);
  report::RenderOptions file{false, 0, report::FailOn::fail};
  std::string out = report::render("text", r, file);
  CHECK(out.rfind("Conforms to 2.0.0 in its technical rules: no MUST rule fails; 1 functional rule awaits a reviewer.\n", 0) == 0);
  CHECK(out.find("(fine for operations)") != std::string::npos);
  CHECK(out.find("(1 more hint: -v)") != std::string::npos);
  CHECK(out.find("more hints") == std::string::npos);
  report::RenderOptions tty = file;
  tty.terminal = true;
  CHECK(report::render("text", r, tty).find("(fine for operations)") == std::string::npos);
  report::Report e = formats_sample();
  e.rules[0].checks[0].judged_headers = {"content-type"};
  e.exchanges[0].response_headers["content-type"] = "text/html";
  CHECK(report::render("text", e, file).find("#1 GET https://api.example.nl/v1/a/ → 200  content-type: text/html") !=
        std::string::npos);
}

TEST_CASE("text -v, html, markdown: VH-1's API-Version and TS-7's CORS headers on their evidence lines, absent ones too") {
  report::Report r = formats_sample();
  r.rules[0].id = "/core/version-header";
  r.rules[0].checks = {{"VH-1", Verdict::fail, "GET /v1 → 200 without an API-Version header", {2}}};
  r.rules[0].checks[0].judged_headers = {"api-version"};
  report::RuleResult cors;
  cors.id = "/core/transport/cors";
  cors.title = "CORS";
  cors.kind = "technical";
  cors.verdict = Verdict::fail;
  cors.checks = {{"TS-7", Verdict::fail, "GET /v1/a with Origin: https://o.example → the origin is echoed", {3}}};
  cors.checks[0].judged_headers = {"access-control-allow-origin", "access-control-allow-credentials"};
  r.rules.push_back(cors);
  http::Exchange base;
  base.id = 2;
  base.method = "GET";
  base.url = "https://api.example.nl/v1";
  base.status = 200;
  base.response_headers = {{"content-type", "application/json"}};
  http::Exchange echoed = base;
  echoed.id = 3;
  echoed.url = "https://api.example.nl/v1/a";
  echoed.response_headers = {{"access-control-allow-origin", "https://o.example"},
                             {"access-control-allow-credentials", "true"}};
  r.exchanges = {r.exchanges[0], base, echoed};
  r.score = report::compute_score(r.rules);

  report::RenderOptions verbose{false, 1, report::FailOn::fail};
  std::string text = report::render("text", r, verbose);
  CHECK(text.find("#2 GET https://api.example.nl/v1 → 200  api-version: (none)") != std::string::npos);
  CHECK(text.find("#3 GET https://api.example.nl/v1/a → 200  access-control-allow-origin: https://o.example"
                  "  access-control-allow-credentials: true") != std::string::npos);

  std::string html = report::render("html", r);
  CHECK(html.find("<span class=\"key judged\"><b>api-version:</b> (none)</span>") != std::string::npos);
  CHECK(html.find("<span class=\"key judged\"><b>access-control-allow-origin:</b> https://o.example</span>") !=
        std::string::npos);
  CHECK(html.find("<span class=\"key judged\"><b>access-control-allow-credentials:</b> true</span>") !=
        std::string::npos);

  // Markdown escapes the server's text (a word joiner keeps a URL from becoming a link).
  std::string md = report::render("markdown", r);
  CHECK(md.find("  - GET https\\:\u2060//api.example.nl/v1 → 200 · api-version\\: \\(none\\)\n") != std::string::npos);
  CHECK(md.find("  - GET https\\:\u2060//api.example.nl/v1/a → 200 · access-control-allow-origin\\: https\\:\u2060//o.example · "
                "access-control-allow-credentials\\: true\n") != std::string::npos);
}

TEST_CASE("fix: the change prints whole and as written (tabs, lines) in text, markdown and HTML; server text stays escaped") {
  report::Report r = formats_sample();
  auto& c = r.rules[0].checks[0];
  c.message = "GET /v1/a/ served (200) with\ta tab";  // a server's text carries its tab
  c.fix = Fix{"go-net-http", "Go net/http", "mux.HandleFunc(\"/\", func(w http.ResponseWriter, r *http.Request) {\n"
                                                      "\tw.WriteHeader(http.StatusNotFound)\n\n})\n",
                      "https://pkg.go.dev/net/http#ServeMux"};
  for (bool terminal : {false, true}) {
    report::RenderOptions style;
    style.terminal = terminal;
    std::string text = report::render("text", r, style);
    INFO(text);
    CHECK(text.find("fix (Go net/http): https://pkg.go.dev/net/http#ServeMux\n") != std::string::npos);
    CHECK(text.find("\n                mux.HandleFunc(\"/\", func(w http.ResponseWriter, r *http.Request) {\n"
                    "                \tw.WriteHeader(http.StatusNotFound)\n\n                })\n") != std::string::npos);
    CHECK(text.find("-v)") == std::string::npos);  // all of it without -v
    CHECK(text.find("with\\x09a tab") != std::string::npos);
    report::RenderOptions quiet = style;
    quiet.verbosity = -1;
    CHECK(report::render("text", r, quiet).find("w.WriteHeader") == std::string::npos);
  }
  std::string md = report::render("markdown", r);
  CHECK(md.find("    \tw.WriteHeader(http.StatusNotFound)\n") != std::string::npos);
  CHECK(md.find("with\\\\x09a tab") != std::string::npos);
  std::string html = report::render("html", r);
  CHECK(html.find("\n\tw.WriteHeader(http.StatusNotFound)\n") != std::string::npos);
  CHECK(html.find("with\\x09a tab") != std::string::npos);
  CHECK(html.find("\\x09w.WriteHeader") == std::string::npos);
}

TEST_CASE("text: a module's rules under their own heading, with their count and reason, after the edition's") {
  report::Report r = test::with_geo(test::ci_sample());
  std::string out = report::render("text", r, {false, 0, report::FailOn::fail});
  std::size_t functional = out.find(" Functional rules (manual review)");
  std::size_t heading = out.find("\n Geospatial module 1.0.2  1 pass · 0 warn · 1 fail · 0 error of 2 applicable rules\n");
  REQUIRE(functional != std::string::npos);
  REQUIRE(heading != std::string::npos);
  CHECK(functional < heading);  // the edition's rules first
  CHECK(out.find("  judged: /collections and application/geo+json in the document\n", heading) != std::string::npos);
  // A check id of five characters keeps a space before its verdict.
  r.rules[8].checks[0].id = "GE-12";
  CHECK(report::render("text", r, {false, 1, report::FailOn::fail}).find("         GE-12 pass every collection") !=
        std::string::npos);
  std::size_t crs = out.find("  FAIL   /geo/crs-list", heading);
  REQUIRE(crs != std::string::npos);
  CHECK(out.find("GE-1 fail /collections: crs entry EPSG:28992 is no URI", crs) != std::string::npos);
  CHECK(out.find("#1 GET https://api.example.nl/v1/a/ → 200", crs) != std::string::npos);  // its evidence
  CHECK(out.find("  PASS   /geo/storage-crs", heading) != std::string::npos);
  CHECK(out.find("  MANUAL /geo/geometric-context", heading) != std::string::npos);
  CHECK(out.find("hint: /zoek returns members of 2 types", heading) != std::string::npos);
  CHECK(out.find("\x1b]0;pwned") == std::string::npos);  // server text in a module's message is escaped too
  // The edition's lines are as wide as its own ids, not the module's longer ones.
  CHECK(out.find("  PASS   /core/passing   summary of /core/passing") != std::string::npos);
  // The score is the edition's.
  CHECK(out.find(" Score  40.0 %  1 pass · 1 warn · 2 fail · 1 error of 5 applicable technical rules") != std::string::npos);
  // -q: the failing module rule with its heading; -q without a failing module rule: no heading.
  std::string quiet = report::render("text", r, {false, -1, report::FailOn::fail});
  CHECK(quiet.find("Geospatial module 1.0.2") != std::string::npos);
  CHECK(quiet.find("/geo/storage-crs") == std::string::npos);
  r.rules[7].verdict = Verdict::pass;
  CHECK(report::render("text", r, {false, -1, report::FailOn::fail}).find("Geospatial module") == std::string::npos);
}

TEST_CASE("text, markdown, junit, sarif, gitlab, openmetrics, html: a report without a module renders as before") {
  // Only a listed module (or a rule naming one) adds to the output: no trace of modules otherwise.
  report::Report r = test::ci_sample();
  for (const char* format : {"text", "markdown", "junit", "sarif", "gitlab", "openmetrics", "html"}) {
    CAPTURE(format);
    std::string out = report::render(format, r);
    CHECK(out.find("module") == std::string::npos);
    CHECK(out.find("Geospatial") == std::string::npos);
  }
}

TEST_CASE("text: a rule judged from a module's rules names them under its title") {
  report::Report r = test::with_geo(test::ci_sample());
  report::RuleResult geospatial;
  geospatial.id = "/core/geospatial";
  geospatial.kind = "technical";
  geospatial.title = "Apply the geospatial module for geospatial data";
  geospatial.verdict = Verdict::fail;
  geospatial.summary = "Geospatial module 1.0.2: fail: /geo/crs-list";
  r.rules.insert(r.rules.begin(), geospatial);
  std::string out = report::render("text", r, {false, 0, report::FailOn::fail});
  std::size_t line = out.find("/core/geospatial");
  REQUIRE(line != std::string::npos);
  CHECK(out.find("\n         Geospatial module 1.0.2: fail: /geo/crs-list\n", line) != std::string::npos);
}
