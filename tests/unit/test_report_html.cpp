// The HTML audit report (report/html.cpp) and the batch summary page
// (report/summary_html.cpp): what a reviewer must find in them, and that no
// text from a server or a document can become markup, script or a link.
#include <doctest/doctest.h>

#include <regex>
#include <string>

#include "report/formats.hpp"
#include "report/html_page.hpp"
#include "report/summary.hpp"
#include "report_sample.hpp"

using namespace adrprobe;
using report::Verdict;

namespace {

const std::string kScript = "<script>document.body.setAttribute('data-pwned','1')</script>";

report::Report html_sample() {
  report::Report r;
  r.tool_version = "0.3.0";
  r.base_url = "https://api.example.nl/v1";
  r.openapi_url = "https://api.example.nl/v1/openapi.json";
  r.name = "Gebouwen API";
  r.edition = "2.0.0";
  r.edition_name = "REST API Design Rules 2.0.0";
  r.generated_at = "2026-11-23T10:00:00Z";
  r.paths_probed = 2;

  report::RuleResult nt;
  nt.id = "/core/no-trailing-slash";
  nt.aliases = {"API-48"};
  nt.title = "Leave off trailing slashes from URIs";
  nt.kind = "technical";
  nt.level = "MUST";
  nt.url = "https://gitdocumentatie.logius.nl/publicatie/api/adr/2.0.0/#/core/no-trailing-slash";
  nt.verdict = Verdict::fail;
  nt.summary = "NT-2: GET /v1/a/ served";
  nt.checks = {{"NT-1", Verdict::pass, "no documented path ends with '/'"},
               {"NT-2", Verdict::fail, "GET /v1/a/ served (200) " + kScript, {1, 2}}};
  nt.checks[1].details = {"/a/ " + kScript, "/b/"};
  r.rules.push_back(nt);

  report::RuleResult vh;
  vh.id = "/core/version-header";
  vh.title = "Return the full version number in a response header";
  vh.kind = "technical";
  vh.level = "MUST";
  vh.url = "javascript:alert(1)";  // never an href, whatever the catalogue says
  vh.verdict = Verdict::warn;
  vh.checks = {{"VH-3", Verdict::warn, "API-Version differs", {2}}, {"VH-1", Verdict::error, "deadline reached"}};
  r.rules.push_back(vh);

  report::RuleResult sv;
  sv.id = "/core/semver";
  sv.title = "Adhere to Semantic Versioning " + kScript;
  sv.kind = "technical";
  sv.verdict = Verdict::pass;
  sv.checks = {{"SV-1", Verdict::pass, "info.version 1.0.0"}};
  r.rules.push_back(sv);

  report::RuleResult ts;
  ts.id = "/core/transport-security";
  ts.title = "Apply transport security";
  ts.kind = "technical";
  ts.verdict = Verdict::skip;
  ts.checks = {{"TS-1", Verdict::skip, "needs a live API"}};
  r.rules.push_back(ts);

  report::RuleResult nr;
  nr.id = "/core/naming-resources";
  nr.aliases = {"API-05"};
  nr.title = "Use nouns to name resources";
  nr.kind = "functional";
  nr.level = "MUST";
  nr.statement = "Resources are named\nwith nouns.";
  nr.review = "Read every path.";
  nr.url = "https://gitdocumentatie.logius.nl/publicatie/api/adr/2.0.0/#/core/naming-resources";
  nr.verdict = Verdict::manual;
  nr.hints = {"'getGebouwen' looks like a verb " + kScript, "X-Powered-By: Express (exchange #3)"};
  r.rules.push_back(nr);

  http::Exchange a;
  a.id = 1;
  a.method = "GET";
  a.url = "https://api.example.nl/v1/a/";
  a.status = 200;
  a.duration_ms = 12.4;
  a.response_headers = {{"content-type", "application/json"}, {"x-evil", kScript}, {"x-bad", "\xff\x1b[2J"}};
  http::Exchange b;
  b.id = 2;
  b.method = "GET";
  b.url = "javascript:alert(document.domain)//";
  b.request_headers = {{"Origin", "https://x.example"}};
  b.status = 301;
  b.response_headers = {{"location", "javascript:alert(1)"}, {"api-version", "1.0.1"}};
  http::Exchange c;
  c.id = 3;
  c.method = "HEAD";
  c.url = "https://api.example.nl/v1/b";
  c.error = "Connection refused " + kScript;
  r.exchanges = {a, b, c};
  r.notes = {"could not reach the document " + kScript, "2 paths not probed"};
  r.leading_notes = 1;
  r.score = report::compute_score(r.rules);
  return r;
}

std::size_t occurrences(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

// Every href and src of the page.
std::vector<std::string> urls(const std::string& page, const std::string& attr) {
  std::vector<std::string> out;
  std::regex re(attr + "\\s*=\\s*\"([^\"]*)\"", std::regex::icase);
  for (std::sregex_iterator it(page.begin(), page.end(), re), end; it != end; ++it) out.push_back((*it)[1]);
  return out;
}

}  // namespace

TEST_CASE("html: the format table has it; one self-contained page with the CSP and A4 print") {
  CHECK((report::find_format("html")->render != nullptr));
  std::string out = report::render("html", html_sample());
  CHECK(out.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(out.find("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
                 "'unsafe-inline'; img-src data:\">") != std::string::npos);
  CHECK(out.find("@page { size: A4;") != std::string::npos);
  CHECK(out.find("@media print") != std::string::npos);
  // Only the compact checklist folds (each functional rule's text); nothing else is folded away.
  CHECK(occurrences(out, "<details>") == occurrences(out, "<tr class=\"review-row\""));
  CHECK(out.find("<script") == std::string::npos);
  CHECK(out.find("<link") == std::string::npos);
  CHECK(out.find("<img") == std::string::npos);
  CHECK(out.find("url(") == std::string::npos);
  CHECK(out.find("@import") == std::string::npos);
  CHECK(urls(out, "src").empty());
}

TEST_CASE("html: every rule with its verdict as icon and word; the target, edition, score, notes") {
  std::string out = report::render("html", html_sample());
  for (const char* id : {"/core/no-trailing-slash", "/core/version-header", "/core/semver", "/core/transport-security",
                         "/core/naming-resources"})
    CHECK(occurrences(out, std::string(">") + id + "<") >= 2);  // the summary table and its section
  for (const char* label : {"✖ fail", "⚠ warn", "✔ pass", "– skip", "☐ manual", "! error"})
    CHECK(out.find(label) != std::string::npos);
  CHECK(out.find("API-48") != std::string::npos);
  CHECK(out.find("Gebouwen API") != std::string::npos);
  CHECK(out.find("https://api.example.nl/v1/openapi.json") != std::string::npos);
  CHECK(out.find("REST API Design Rules 2.0.0") != std::string::npos);  // the name alone: it holds the number
  CHECK(out.find("2026-11-23T10:00:00Z") != std::string::npos);
  CHECK(out.find("<div class=\"pct\">66.7 %</div>") != std::string::npos);  // pass + warn of pass, warn, fail
  // the leading note before the summary table; the other notes in a list
  CHECK(out.find("could not reach the document") < out.find("id=\"summary\""));
  CHECK(out.find("<li>2 paths not probed</li>") != std::string::npos);
  CHECK(out.find("<th>Change</th>") == std::string::npos);  // no baseline, no column
}

TEST_CASE("html: each check lists the exchanges it cites, anchored once, with method, URL, status, headers, time") {
  std::string out = report::render("html", html_sample());
  CHECK(occurrences(out, "id=\"x1\"") == 1);
  CHECK(occurrences(out, "id=\"x2\"") == 1);  // cited by NT-2 and VH-3: one anchor, linked from both
  CHECK(occurrences(out, "id=\"x3\"") == 1);  // cited by no check, named by a hint: under Evidence too
  CHECK(out.find("<a href=\"#x2\">#2</a>") != std::string::npos);
  CHECK(out.find("<code>GET https://api.example.nl/v1/a/</code>") != std::string::npos);
  CHECK(out.find("→ <b>200</b>") != std::string::npos);
  CHECK(out.find("<b>content-type:</b> application/json") != std::string::npos);
  CHECK(out.find("<b>Origin:</b> https://x.example") != std::string::npos);
  CHECK(out.find("12 ms") != std::string::npos);
  CHECK(out.find("✖ no response") != std::string::npos);
  CHECK(out.find("exchange <a href=\"#x3\">#3</a>") != std::string::npos);  // a hint links its exchange
  CHECK(out.find("<li class=\"wrap\">/b/</li>") != std::string::npos);       // a check's details
  // the NT-2 block holds exchange 1's row, which links its entry under Evidence
  std::size_t nt2 = out.find(">NT-2<"), row = out.find("<td class=\"xid\"><a href=\"#x1\">#1</a></td>");
  CHECK(nt2 < row);
  CHECK(row < out.find(">VH-3<"));
  CHECK(out.find("id=\"x1\"") > out.find("<h2 id=\"evidence\""));
}

namespace {

// Exchange `id`: a 404 with a body, its request headers as libcurl sends them.
http::Exchange cited_exchange(int id) {
  http::Exchange e;
  e.id = id;
  e.method = "GET";
  e.url = "https://api.example.nl/v1/gebouwen/" + std::to_string(id);
  e.request_headers = {{"Host", "api.example.nl"}, {"User-Agent", "adrprobe/0.4.0"}, {"Accept", "*/*"}};
  e.status = 404;
  e.response_headers = {{"content-type", "application/json"}, {"server", "uvicorn"}};
  e.body = "{\"detail\":\"Gebouw " + std::to_string(id) + " niet gevonden\"}";
  return e;
}

// The appendix "Evidence": from its heading to the next section.
std::string evidence_of(const std::string& page) {
  std::size_t at = page.find("<h2 id=\"evidence\"");
  if (at == std::string::npos) return "";
  return page.substr(at, page.find("<h2", at + 1) - at);
}

}  // namespace

TEST_CASE("html: the appendix Evidence holds every cited exchange in full, on screen and on paper") {
  report::Report r = html_sample();
  // NT-2 cites ten exchanges: a card shows six rows, the appendix every one.
  r.rules[0].checks[1].exchanges = {};
  for (int id = 4; id <= 13; ++id) {
    r.exchanges.push_back(cited_exchange(id));
    r.rules[0].checks[1].exchanges.push_back(id);
  }
  http::Exchange& hostile = r.exchanges[3];  // #4: a body with markup, escape sequences and CRLF lines
  hostile.body = "{\"detail\":\"" + kScript + "\"}\r\n\x1b[2Jline 2\r\n\xff";
  r.exchanges[4].body = std::string(report::kReportBodyBytes, 'a');  // #5: cut
  r.exchanges[4].body_truncated = true;
  r.exchanges[5].status = 200;  // #6: a body the report did not keep
  r.exchanges[5].body.clear();
  std::string out = report::render("html", r);
  std::string evidence = evidence_of(out);
  REQUIRE_FALSE(evidence.empty());
  CHECK(out.find("(the first 6 shown here; each in full under <a href=\"#evidence\">Evidence</a>)") != std::string::npos);
  for (int id = 4; id <= 13; ++id) {
    INFO(id);
    std::string anchor = "<section class=\"xchg\" id=\"x" + std::to_string(id) + "\">";
    CHECK(occurrences(out, "id=\"x" + std::to_string(id) + "\"") == 1);
    std::size_t at = evidence.find(anchor);
    REQUIRE(at != std::string::npos);
    std::string entry = evidence.substr(at, evidence.find("</section>", at) - at);
    CHECK(entry.find("<code class=\"wrap\">GET https://api.example.nl/v1/gebouwen/" + std::to_string(id) + "</code>") !=
          std::string::npos);
    // every request header as sent, the usual ones too; every response header
    CHECK(entry.find("Host: api.example.nl\nUser-Agent: adrprobe/0.4.0\nAccept: */*</pre>") != std::string::npos);
    CHECK(entry.find("content-type: application/json\nserver: uvicorn</pre>") != std::string::npos);
    CHECK(entry.find("cited by <a href=\"#rule-1\">NT-2</a> (/core/no-trailing-slash)") != std::string::npos);
  }
  CHECK(evidence.find("{&quot;detail&quot;:&quot;Gebouw 7 niet gevonden&quot;}</pre>") != std::string::npos);
  // Server text as text: markup escaped, control characters and invalid UTF-8 visible, lines kept.
  CHECK(evidence.find("<pre class=\"wire body\">{&quot;detail&quot;:&quot;&lt;script&gt;document.body.setAttribute("
                      "&#39;data-pwned&#39;,&#39;1&#39;)&lt;/script&gt;&quot;}\n\\x1b[2Jline 2\n\\xff</pre>") !=
        std::string::npos);
  CHECK(evidence.find("its first 2048 bytes (the response was longer)") != std::string::npos);
  CHECK(evidence.find("Body: not kept (status below 400, and no check read it)") != std::string::npos);
  // Nothing of it is hidden on paper: no folded part, nothing for the screen only.
  CHECK(evidence.find("<details") == std::string::npos);
  CHECK(evidence.find("screen-only") == std::string::npos);
  CHECK(evidence.find("usual") == std::string::npos);
  CHECK(out.find("<script") == std::string::npos);
  // Exchange 3, which a hint names, is there too; a request nothing cites is under Other requests.
  CHECK(evidence.find("id=\"x3\"") != std::string::npos);
  r.exchanges.push_back(cited_exchange(14));
  out = report::render("html", r);
  CHECK(out.find("<tr id=\"x14\">") > out.find("<h2 id=\"requests\">Other requests</h2>"));
}

TEST_CASE("html: a fix prints whole; the checklist's hints print, outside <details>") {
  report::Report r = html_sample();
  r.rules[0].checks[1].fix = Fix{"express", "Express", "app.set('strict routing', true);\napp.use(router);\n// third line",
                                         "https://expressjs.com/en/api.html#app.settings.table"};
  std::string out = report::render("html", r);
  CHECK(out.find("<pre class=\"wrap\">app.set(&#39;strict routing&#39;, true);\napp.use(router);\n// third line</pre>") !=
        std::string::npos);
  CHECK(out.find("in the report on screen") == std::string::npos);
  std::size_t row = out.find("<tr class=\"review-row\"");
  REQUIRE(row != std::string::npos);
  std::size_t closed = out.find("</details>", row), hint = out.find("looks like a verb", row);
  CHECK(closed < hint);
  CHECK(hint < out.find("</tr>", row));
}

TEST_CASE("html: a down target is one entry; a rule that failed without an answer keeps its card") {
  report::Report r = html_sample();
  r.unreachable = true;
  r.notes = {"could not reach http://api.example.nl/v1: connection refused"};
  r.leading_notes = 1;
  for (auto& rule : r.rules)
    if (rule.kind == "technical") rule.verdict = Verdict::error;
  std::string out = report::render("html", r);
  CHECK(out.find("4 technical and 1 functional rules were not judged") != std::string::npos);
  CHECK(out.find("<section class=\"rule") == std::string::npos);
  CHECK(out.find("down: no rule judged") != std::string::npos);
  // TS-1 fails by the scheme alone: its rule's card, and the counts, say so.
  r.rules[3].verdict = Verdict::fail;
  r.rules[3].checks = {{"TS-1", Verdict::fail, "the base URL is http://: connections must use TLS (https://)"}};
  r.score = report::compute_score(r.rules);
  out = report::render("html", r);
  CHECK(out.find("3 technical and 1 functional rules were not judged") != std::string::npos);
  CHECK(occurrences(out, "<section class=\"rule") == 1);
  CHECK(out.find("<section class=\"rule fail\" id=\"rule-4\">") != std::string::npos);
  CHECK(out.find("the base URL is http://: connections must use TLS") != std::string::npos);
  CHECK(out.find("<div class=\"pct\">0.0 %</div>") != std::string::npos);
  CHECK(out.find("✖ Does not conform") != std::string::npos);
}

TEST_CASE("html: server and document text is escaped; control characters visible; no javascript: href") {
  std::string out = report::render("html", html_sample());
  CHECK(out.find("<script") == std::string::npos);
  CHECK(out.find("&lt;script&gt;document.body.setAttribute(&#39;data-pwned&#39;,&#39;1&#39;)&lt;/script&gt;") !=
        std::string::npos);
  CHECK(out.find("\\xff\\x1b[2J") != std::string::npos);
  CHECK(out.find('\x1b') == std::string::npos);
  CHECK(out.find("\xff") == std::string::npos);
  for (const auto& href : urls(out, "href")) {
    INFO(href);
    bool internal = href.rfind('#', 0) == 0;
    bool rule_text = href.rfind("https://gitdocumentatie.logius.nl/", 0) == 0;
    CHECK((internal || rule_text));
  }
  CHECK(out.find("javascript:alert(1)") != std::string::npos);  // shown as text ...
  CHECK(out.find("href=\"javascript") == std::string::npos);   // ... never a link
  CHECK(occurrences(out, "href=\"https://gitdocumentatie.logius.nl/") == 4);  // 2 rules with a web URL, table + section
}

TEST_CASE("html: functional rules are a checklist for the reviewer (--checklist full)") {
  report::RenderOptions full;
  full.checklist_full = true;
  std::string out = report::render("html", html_sample(), full);
  std::size_t at = out.find("Functional rules: reviewer checklist");
  REQUIRE(at != std::string::npos);
  std::string list = out.substr(at);
  CHECK(list.find("<p>Resources are named with nouns.</p>") != std::string::npos);
  CHECK(list.find("Read every path.") != std::string::npos);
  CHECK(list.find("looks like a verb &lt;script&gt;") != std::string::npos);
  CHECK(list.find("☐ conforms") != std::string::npos);
  CHECK(list.find("☐ does not conform") != std::string::npos);
  CHECK(list.find("☐ not applicable") != std::string::npos);
  CHECK(list.find("class=\"line\"") != std::string::npos);
  CHECK(occurrences(out, "class=\"conclusion\"") == 1);  // one functional rule
}

TEST_CASE("html: the change column only with a baseline; the run options, header names only; TLS facts") {
  report::Report r = html_sample();
  r.rules[0].change = "new-fail";
  r.rules[2].change = "unchanged";
  report::RunInfo run;
  run.command = "check";
  run.timeout_s = 10;
  run.rate = 20;
  run.concurrency = 4;
  run.max_paths = 250;
  run.deadline_s = 600;
  run.user_agent = "adrprobe/0.3.0";
  run.ref_hosts = "public";
  run.header_names = {"X-Api-Key"};
  run.libraries = {{"libcurl", "7.88.1"}, {"openssl", "3.0.19"}};
  r.run = run;
  tls::Facts t;
  t.host = "api.example.nl";
  t.handshake_ok = true;
  t.protocol = "TLSv1.3";
  t.cipher = "TLS_AES_256_GCM_SHA384";
  t.trusted = false;
  t.trust_error = "certificate has expired";
  tls::Protocol v12, v11;
  v12.name = "TLSv1.2";
  v12.accepted = true;
  v12.cipher = "ECDHE-ECDSA-AES128-GCM-SHA256";
  v11.name = "TLSv1.1";
  v11.error = "alert protocol version";
  t.protocols = {v12, v11};
  tls::Certificate cert;
  cert.subject = "CN=api.example.nl";
  cert.issuer = "CN=Example CA " + kScript;
  cert.not_after = "2026-01-01T00:00:00Z";
  cert.days_left = -5;
  cert.key = "EC P-256";
  t.chain = {cert};
  r.tls = t;
  std::string out = report::render("html", r);
  CHECK(out.find("<th>Change</th>") != std::string::npos);
  CHECK(out.find("<td>new-fail</td>") != std::string::npos);
  CHECK(out.find("X-Api-Key") != std::string::npos);
  CHECK(out.find("libcurl 7.88.1") != std::string::npos);
  CHECK(out.find("at most 20 requests per second") != std::string::npos);
  CHECK(out.find("adrprobe/0.3.0") != std::string::npos);
  CHECK(out.find("TLS_AES_256_GCM_SHA384") != std::string::npos);
  CHECK(out.find("certificate has expired") != std::string::npos);
  CHECK(out.find("expired 5 days ago") != std::string::npos);
  CHECK(out.find("alert protocol version") != std::string::npos);
  CHECK(out.find("EC P-256") != std::string::npos);
  CHECK(out.find("<script") == std::string::npos);
}

TEST_CASE("html: a lint report has no exchanges; rules that need a live API are skip") {
  report::Report r = html_sample();
  r.mode = "lint";
  r.exchanges.clear();
  r.openapi_url = "openapi.yaml";
  for (auto& rule : r.rules)
    for (auto& c : rule.checks) {
      c.exchanges.clear();
      if (c.id != "NT-1" && c.id != "SV-1") c = {c.id, Verdict::skip, "needs a live API"};
    }
  std::string out = report::render("html", r);
  CHECK(out.find("static checks on the document alone") != std::string::npos);
  CHECK(out.find("<code>openapi.yaml</code>") != std::string::npos);
  CHECK(out.find("needs a live API") != std::string::npos);
  CHECK(out.find("id=\"x") == std::string::npos);
  CHECK(out.find("Other requests") == std::string::npos);
  CHECK(out.find("exchange #3") != std::string::npos);  // a hint's text stays, without a link to nothing
  CHECK(out.find("href=\"#x3\"") == std::string::npos);
}

TEST_CASE("html_page: escaping, web URLs only, file links that cannot leave the directory") {
  CHECK(report::html::esc("<a href='x'>&\"\x1b") == "&lt;a href=&#39;x&#39;&gt;&amp;&quot;\\x1b");
  CHECK(report::html::esc("Gebouwen \u202Etxt.exe") == "Gebouwen \\xe2\\x80\\xaetxt.exe");  // reorders nothing
  CHECK(report::html::is_web_url("https://example.nl/a?b=c#d"));
  CHECK(report::html::is_web_url("HTTP://example.nl/"));
  CHECK_FALSE(report::html::is_web_url("javascript:alert(1)"));
  CHECK_FALSE(report::html::is_web_url(" https://example.nl/"));
  CHECK_FALSE(report::html::is_web_url("https://example.nl/\"onmouseover=\"x"));
  CHECK_FALSE(report::html::is_web_url("data:text/html,<script>"));
  CHECK_FALSE(report::html::is_web_url("//example.nl/"));
  CHECK(report::html::link("javascript:alert(1)", "x") == "x");
  CHECK(report::html::file_link("gebouwen api.json", "JSON") == "<a href=\"gebouwen%20api.json\">JSON</a>");
  CHECK(report::html::file_link("javascript:alert(1).html", "x") == "<a href=\"javascript%3Aalert%281%29.html\">x</a>");
  CHECK(report::html::file_link("d0/a b.html", "x") == "<a href=\"d0/a%20b.html\">x</a>");
  // only inside the page's directory: never out of it, not even ../shard/x.json
  for (const char* bad : {"/etc.html", "..", "../", "", "a/../../x.json", "a//b.json", "./x.json", "../a/./b",
                          "../d0/x.json", "../../out/1/a b.html", "a/..", "d0/"}) {
    CAPTURE(bad);
    CHECK(report::html::file_link(bad, "x") == "x");
  }
}

TEST_CASE("summary html: a row per target with score, failing rules, changes, certificate, note and report links") {
  report::Summary s;
  s.tool_version = "0.3.0";
  s.generated_at = "2026-11-23T10:00:00Z";
  report::SummaryTarget a;
  a.name = "gebouwen";
  a.base_url = "https://api.example.nl/v1";
  a.edition = "2.0.0";
  a.report = "gebouwen.json";
  a.files = {{"json", "gebouwen.json"}, {"junit", "gebouwen.xml"}, {"html", "gebouwen.html"}};
  a.score.pass = 5;
  a.score.fail = 1;
  a.score.applicable = 6;
  a.score.percent = 83.3333;
  a.failing = {"/core/no-trailing-slash"};
  a.erroring = {"/core/semver"};
  a.change = report::Changes{{"/core/no-trailing-slash"}, {"/core/uri-version"}, {}};
  a.cert_days_left = 12;
  report::SummaryTarget b;
  b.name = "kapot " + kScript;
  b.base_url = "https://down.example.nl/v1";
  b.edition = "2.0.0";
  b.report = "kapot.json";
  b.note = "could not reach https://down.example.nl/v1: " + kScript;
  report::SummaryTarget c;
  c.name = "oud";
  c.base_url = "https://oud.example.nl/v1";
  c.edition = "1.0";
  c.report = "oud.json";
  c.change = report::Changes{};
  c.cert_days_left = -3;
  s.targets = {a, b, c};
  std::string out = report::render_summary_html(s);
  CHECK(out.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(out.find("Content-Security-Policy") != std::string::npos);
  CHECK(out.find("@page { size: A4;") != std::string::npos);
  CHECK(out.find("<script") == std::string::npos);
  CHECK(out.find("kapot &lt;script&gt;") != std::string::npos);
  CHECK(out.find("could not reach https://down.example.nl/v1") != std::string::npos);
  CHECK(out.find("83.3 %") != std::string::npos);
  CHECK(out.find("n/a") != std::string::npos);  // kapot: no score
  CHECK(out.find("<code class=\"rid\">/<wbr>"
                 "<span class=\"nw\">core</span>/<wbr><span class=\"nw\">no-trailing-slash</span></code>") != std::string::npos);
  CHECK(out.find("error:</span> <code class=\"rid\">/<wbr>"
                 "<span class=\"nw\">core</span>/<wbr><span class=\"nw\">semver</span></code>") != std::string::npos);
  CHECK(out.find("new fail:</span> <code class=\"rid\">/<wbr>"
                 "<span class=\"nw\">core</span>/<wbr><span class=\"nw\">no-trailing-slash</span></code>") != std::string::npos);
  CHECK(out.find("fixed:</span> <code class=\"rid\">/<wbr>"
                 "<span class=\"nw\">core</span>/<wbr><span class=\"nw\">uri-version</span></code>") != std::string::npos);
  CHECK(out.find("no change") != std::string::npos);         // oud: a baseline, nothing changed
  CHECK(occurrences(out, "<span class=\"muted\">—</span>") == 2);  // kapot: no baseline, no certificate
  CHECK(out.find("⚠ 12 days") != std::string::npos);
  CHECK(out.find("✖ expired</span><div class=\"small\">3 days ago</div>") != std::string::npos);
  CHECK(out.find("<a href=\"gebouwen.html\">HTML</a> · <a href=\"gebouwen.json\">JSON</a> · "
                 "<a href=\"gebouwen.xml\">JUnit</a>") != std::string::npos);
  // no files listed (an older summary.json): its JSON report only, never an HTML report that may not exist
  CHECK(out.find("<a href=\"oud.json\">JSON</a>") != std::string::npos);
  CHECK(out.find("oud.html") == std::string::npos);
  for (const auto& href : urls(out, "href")) CHECK(href.find(':') == std::string::npos);  // relative links only
}

TEST_CASE("html: the compact checklist is one row per functional rule, its text behind <details>") {
  std::string out = report::render("html", html_sample());
  std::size_t at = out.find("Functional rules: reviewer checklist");
  REQUIRE(at != std::string::npos);
  std::string list = out.substr(at);
  CHECK(occurrences(list, "<tr class=\"review-row\"") == 1);
  CHECK(list.find("<details><summary><span class=\"mono\">/core/naming-resources</span> Use nouns to name resources") !=
        std::string::npos);
  CHECK(list.find("<p>Resources are named with nouns.</p>") != std::string::npos);
  CHECK(list.find("2 hints") != std::string::npos);
  CHECK(list.find("☐ conforms") != std::string::npos);
  CHECK(list.find("☐ does not conform") != std::string::npos);
  CHECK(list.find("looks like a verb &lt;script&gt;") != std::string::npos);
  CHECK(out.find("<script") == std::string::npos);
}

TEST_CASE("html: the conclusion banner comes first, before the notes and the score") {
  std::string out = report::render("html", html_sample());
  std::size_t banner = out.find("class=\"banner banner-fail\"");
  REQUIRE(banner != std::string::npos);
  CHECK(banner < out.find("class=\"notice\""));
  CHECK(banner < out.find("class=\"score\""));
  CHECK(out.find("✖ Does not conform") != std::string::npos);
  CHECK(out.find("Does not conform to 2.0.0: 1 MUST rule fails (/core/no-trailing-slash)") != std::string::npos);
  CHECK(out.find("1 functional rule awaits a reviewer") != std::string::npos);
}

TEST_CASE("html: the subtitle names the edition once; renegotiation is n/a on TLS 1.3 and without a handshake; links print their target") {
  report::Report r = html_sample();
  std::string out = report::render("html", r);
  CHECK(out.find("2.0.0 — REST API Design Rules 2.0.0") == std::string::npos);
  CHECK(out.find("<p class=\"sub\">REST API Design Rules 2.0.0 · ") != std::string::npos);
  r.edition_name = "Nightly rules";
  CHECK(report::render("html", r).find("2.0.0 — Nightly rules") != std::string::npos);
  tls::Facts t;
  t.host = "api.example.nl";
  t.handshake_ok = true;
  t.protocol = "TLSv1.3";
  t.secure_renegotiation = false;
  r.tls = t;
  out = report::render("html", r);
  CHECK(out.find("n/a (TLS 1.3 has no renegotiation)") != std::string::npos);
  r.tls->protocol = "TLSv1.2";
  out = report::render("html", r);
  CHECK(out.find("n/a (TLS 1.3 has no renegotiation)") == std::string::npos);
  CHECK(out.find("n/a (no handshake completed)") == std::string::npos);
  // No handshake at all: n/a, not "no".
  r.tls->handshake_ok = false;
  r.tls->protocol.clear();
  r.tls->error = "connection refused";
  std::string none = report::render("html", r);
  CHECK(none.find("n/a (no handshake completed)") != std::string::npos);
  CHECK(none.find("Secure renegotiation</th><td class=\"wrap\">no<") == std::string::npos);
  CHECK(out.find("a[href]:not([href^=\"#\"])::after { content: \" <\" attr(href) \">\"") != std::string::npos);
}

TEST_CASE("html: the command line as given; the header a check judged on its evidence row, absent ones too") {
  report::Report r = html_sample();
  report::RunInfo run;
  run.command = "check";
  run.command_line = "adrprobe check https://api.example.nl/v1 -H 'X-Api-Key: ***' --rules /core/no-trailing-slash";
  run.rules_selected = {"/core/no-trailing-slash"};
  r.run = run;
  r.rules[0].checks[1].judged_headers = {"content-type", "x-frame-options"};
  std::string out = report::render("html", r);
  CHECK(out.find("adrprobe check https://api.example.nl/v1 -H &#39;X-Api-Key: ***&#39; --rules /core/no-trailing-slash") !=
        std::string::npos);
  CHECK(out.find("Rules selected (--rules)") != std::string::npos);
  CHECK(out.find("<span class=\"key judged\"><b>content-type:</b> application/json</span>") != std::string::npos);
  CHECK(out.find("<span class=\"key judged\"><b>x-frame-options:</b> (none)</span>") != std::string::npos);
}

TEST_CASE("html: a module is a section of its own after the edition's rules: heading, reason, count, table, cards, checklist") {
  report::Report r = test::with_geo(test::ci_sample());
  std::string page = report::render("html", r);
  std::size_t technical = page.find("<h2 id=\"technical\">");
  std::size_t module = page.find("<h2 id=\"module-geo\">Geospatial module 1.0.2</h2>");
  std::size_t functional = page.find("<h2 id=\"functional\"");
  REQUIRE(technical != std::string::npos);
  REQUIRE(module != std::string::npos);
  REQUIRE(functional != std::string::npos);
  CHECK(technical < module);
  CHECK(module < functional);
  // Among the facts at the top, after the edition: which module, and why.
  CHECK(page.find("<th scope=\"row\">Module</th><td class=\"wrap\"><a href=\"#module-geo\">Geospatial module 1.0.2</a> "
                  "<span class=\"muted\">(judged: /collections and application/geo+json in the document)</span>") <
        technical);
  // In the table of contents, after the technical rules.
  CHECK(page.find("<a href=\"#technical\">Technical rules</a><a href=\"#module-geo\">Geospatial module 1.0.2</a>") !=
        std::string::npos);
  std::string section = page.substr(module, functional - module);
  CHECK(section.find("<p class=\"wrap\">judged: /collections and application/geo+json in the document</p>") != std::string::npos);
  CHECK(section.find("1 <span class=\"v v-pass\">") != std::string::npos);  // its own pass count
  CHECK(section.find("of 2 applicable technical rules of the module; 1 functional rule for a reviewer") != std::string::npos);
  // Its table, its cards (with their evidence), its checklist: the module's rules and no edition's.
  CHECK(section.find("<table class=\"rules\">") != std::string::npos);
  CHECK(section.find("<section class=\"rule fail\"") != std::string::npos);
  CHECK(section.find("<h3><span class=\"id\">/geo/crs-list</span>") != std::string::npos);
  CHECK(section.find("GE-1") != std::string::npos);
  CHECK(section.find("<a href=\"#x1\">#1</a>") != std::string::npos);
  CHECK(section.find("<h3 id=\"module-geo-checklist\"") != std::string::npos);
  CHECK(section.find("<span class=\"mono\">/geo/geometric-context</span>") != std::string::npos);
  CHECK(section.find("/core/") == std::string::npos);
  // The edition's summary table and reviewer checklist hold none of the module's rules.
  std::size_t summary = page.find("<h2 id=\"summary\">");
  CHECK(page.substr(summary, module - summary).find("/geo/") == std::string::npos);
  CHECK(page.substr(functional).find("/geo/geometric-context</span>") == std::string::npos);
  // The evidence a module's check cites is in the appendix, cited by its rule.
  CHECK(page.find("(/geo/crs-list)", page.find("<h2 id=\"evidence\"")) != std::string::npos);
  // Server text in the module's message is escaped.
  CHECK(section.find("<img") == std::string::npos);
  // --checklist full: the module's functional rule is a review card in its section.
  report::RenderOptions full;
  full.checklist_full = true;
  std::string paper = report::render("html", r, full);
  std::size_t at = paper.find("<h2 id=\"module-geo\">");
  CHECK(paper.find("<section class=\"review\"", at) < paper.find("<h2 id=\"functional\"", at));
}
