// summary.html for a night of monitoring: tonight's counts, changed rows
// first, the rules × targets matrix, a down target, the trend, owners, labels,
// moves, unbreakable hosts, links only inside the page's directory, and
// hostile register text kept inert.
#include <doctest/doctest.h>

#include <regex>
#include <string>

#include "report/summary.hpp"

using namespace adrprobe;
using report::Verdict;

namespace {

const std::string kSumHostile = "<script>alert(1)</script>](javascript:alert(1))\x1b[31m\u202Etxt.exe";

report::SummaryTarget sum_row(const std::string& name, std::vector<std::pair<std::string, Verdict>> verdicts) {
  report::SummaryTarget t;
  t.name = name;
  t.base_url = "https://" + name + ".example.nl:8443/api/v1";
  t.edition = "2.2.0";
  t.report = name + ".json";
  t.files = {{"json", name + ".json"}, {"html", name + ".html"}};
  t.verdicts = std::move(verdicts);
  for (const auto& [id, v] : t.verdicts) {
    if (v == Verdict::pass) ++t.score.pass;
    if (v == Verdict::fail) {
      ++t.score.fail;
      t.failing.push_back(id);
    }
    if (v == Verdict::error) {
      ++t.score.error;
      t.erroring.push_back(id);
    }
    ++t.score.applicable;
  }
  t.score.percent = t.score.applicable ? 100.0 * t.score.pass / t.score.applicable : 0.0;
  t.change = report::Changes{};
  return t;
}

report::Summary sum_night() {
  report::Summary s;
  s.tool_version = "0.4.0";
  s.generated_at = "2026-11-23T02:00:00Z";
  s.previous_generated_at = "2026-11-22T02:00:00Z";
  // zeta: a rule fixed; alpha: unchanged; mid: new fail + regressed; kapot: went down;
  // beta: regressed; back: back up; nieuw: no baseline
  auto fixed = sum_row("zeta", {{"/core/a", Verdict::pass}, {"/core/b", Verdict::pass}});
  fixed.change->fixed = {"/core/b"};
  auto alpha = sum_row("alpha", {{"/core/a", Verdict::pass}, {"/core/b", Verdict::warn}});
  auto mid = sum_row("mid", {{"/core/a", Verdict::fail}, {"/core/b", Verdict::warn}, {"/core/c", Verdict::error}});
  mid.change->new_fail = {"/core/a"};
  mid.change->regressed = {"/core/b"};
  mid.owner = "Team Gebouwen";
  mid.labels = {{"domain", "bag"}, {"tier", "gold"}};
  mid.moved_from = "https://old.example.nl/api/v1";
  auto kapot = sum_row("kapot", {});
  kapot.reachable = false;
  kapot.score = {};
  kapot.note = "could not reach https://kapot.example.nl: connection refused";
  kapot.change->down = true;
  auto beta = sum_row("beta", {{"/core/a", Verdict::pass}, {"/core/b", Verdict::warn}});
  beta.change->regressed = {"/core/b"};
  auto back = sum_row("back", {{"/core/a", Verdict::pass}});
  back.change->back_up = true;
  auto nieuw = sum_row("nieuw", {{"/core/a", Verdict::pass}, {"/core/b", Verdict::pass}, {"/core/d", Verdict::skip}});
  nieuw.change.reset();
  s.targets = {fixed, alpha, mid, kapot, beta, back, nieuw};
  s.history["mid"] = {{"2026-11-20T02:00:00Z", true, 80.0}, {"2026-11-21T02:00:00Z", false, std::nullopt},
                      {"2026-11-22T02:00:00Z", true, 66.7}, {"2026-11-23T02:00:00Z", true, 33.3}};
  return s;
}

std::size_t sum_pos(const std::string& out, const std::string& needle) {
  auto at = out.find(needle);
  REQUIRE_MESSAGE(at != std::string::npos, needle);
  return at;
}

std::string sum_between(const std::string& out, const std::string& from, const std::string& to) {
  auto a = sum_pos(out, from);
  auto b = out.find(to, a);
  REQUIRE(b != std::string::npos);
  return out.substr(a, b - a);
}

std::size_t sum_count(const std::string& s, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = s.find(needle); at != std::string::npos; at = s.find(needle, at + needle.size())) ++n;
  return n;
}

}  // namespace

TEST_CASE("summary html: tonight's counts above the table") {
  std::string out = report::render_summary_html(sum_night());
  std::string tonight = sum_between(out, "<section class=\"tonight\"", "</section>");
  CHECK(tonight.find("5 of 7 targets changed since the previous run of 2026-11-22T02:00:00Z") != std::string::npos);
  CHECK(tonight.find("1 down") != std::string::npos);
  CHECK(tonight.find("1 new-fail") != std::string::npos);
  CHECK(tonight.find("2 regressed") != std::string::npos);
  CHECK(tonight.find("1 fixed") != std::string::npos);
  CHECK(tonight.find("1 back up") != std::string::npos);
  CHECK(tonight.find("3 got worse") != std::string::npos);
  CHECK(sum_pos(out, "class=\"tonight\"") < sum_pos(out, "<table class=\"targets\">"));
  // the existing totals stay
  CHECK(out.find("7 targets: 1 with failing rules, 1 with errors, 1 down") != std::string::npos);

  auto first = sum_night();
  first.previous_generated_at.clear();
  for (auto& t : first.targets) t.change.reset();
  std::string none = report::render_summary_html(first);
  CHECK(none.find("0 of 7 targets changed: no previous run to compare with") != std::string::npos);
}

TEST_CASE("summary html: changed rows first, worse first, by name within a group") {
  std::string out = report::render_summary_html(sum_night());
  std::string table = sum_between(out, "<table class=\"targets\">", "</table>");
  std::vector<std::string> order;
  std::regex row("<tr[^>]*><td><b class=\"name\">([^<]*)</b>");
  for (std::sregex_iterator it(table.begin(), table.end(), row), end; it != end; ++it) order.push_back((*it)[1]);
  CHECK(order == std::vector<std::string>{"kapot", "mid", "beta", "back", "zeta", "alpha", "nieuw"});
  // the matrix keeps the same order
  std::string matrix = sum_between(out, "<table class=\"matrix\">", "</table>");
  CHECK(sum_pos(matrix, ">kapot<") < sum_pos(matrix, ">mid<"));
  CHECK(sum_pos(matrix, ">zeta<") < sum_pos(matrix, ">alpha<"));
}

TEST_CASE("summary html: the banner counts still down and moved; rows: changed, still down, failing, passing") {
  auto s = sum_night();
  // oud: down as it was in the baseline; fails: failing as before; errs: a rule in error only
  auto oud = sum_row("oud", {});
  oud.reachable = false;
  oud.score = {};
  oud.note = "could not reach https://oud.example.nl: timeout";
  oud.down_since = "2026-11-21T02:00:00Z";
  auto fails = sum_row("fails", {{"/core/a", Verdict::fail}, {"/core/b", Verdict::fail}, {"/core/c", Verdict::fail}});
  fails.failing_since = {{"/core/a", "2026-11-22T02:00:00Z"}, {"/core/b", "2025-12-01T02:00:00Z"},
                         {"/core/c", "2026-11-22T02:00:00Z"}};
  auto errs = sum_row("errs", {{"/core/a", Verdict::error}});
  s.targets.insert(s.targets.begin(), {errs, fails, oud});
  s.history["oud"] = {{"2026-11-20T02:00:00Z", true, 100.0}, {"2026-11-21T02:00:00Z", false, std::nullopt},
                      {"2026-11-22T02:00:00Z", false, std::nullopt}, {"2026-11-23T02:00:00Z", false, std::nullopt}};
  s.history["fails"] = {{"2026-11-22T02:00:00Z", true, 0.0}, {"2026-11-23T02:00:00Z", true, 0.0}};
  std::string out = report::render_summary_html(s);
  std::string tonight = sum_between(out, "<section class=\"tonight\"", "</section>");
  CHECK(tonight.find("5 of 10 targets changed") != std::string::npos);
  CHECK(tonight.find("✕ 1 still down") != std::string::npos);
  CHECK(tonight.find("→ 1 moved") != std::string::npos);
  std::string table = sum_between(out, "<table class=\"targets\">", "</table>");
  std::vector<std::string> order;
  std::regex row("<tr[^>]*><td><b class=\"name\">([^<]*)</b>");
  for (std::sregex_iterator it(table.begin(), table.end(), row), end; it != end; ++it) order.push_back((*it)[1]);
  CHECK(order == std::vector<std::string>{"kapot", "mid", "beta", "back", "zeta", "oud", "fails", "errs", "alpha", "nieuw"});
  // since when: the outage and each failure, the oldest first, with the nights the history shows
  std::string down_row = sum_between(table, "<b class=\"name\">oud</b>", "</tr>");
  CHECK(down_row.find("down since <time datetime=\"2026-11-21T02:00:00Z\" title=\"2026-11-21T02:00:00Z\">21 Nov</time>, "
                      "3 nights") != std::string::npos);
  CHECK(down_row.find("still down") != std::string::npos);  // not "no change" beside an outage
  CHECK(down_row.find("no change") == std::string::npos);
  std::string fail_row = sum_between(table, "<b class=\"name\">fails</b>", "</tr>");
  auto older = sum_pos(fail_row, "failing since <time datetime=\"2025-12-01T02:00:00Z\" title=\"2025-12-01T02:00:00Z\">1 Dec "
                                 "2025</time></div>");  // before the history: no count; another year: the year
  auto newer = sum_pos(fail_row, "failing since <time datetime=\"2026-11-22T02:00:00Z\" title=\"2026-11-22T02:00:00Z\">22 "
                                 "Nov</time>, 2 nights</div>");
  CHECK(older < newer);
  CHECK(sum_count(fail_row, "failing since") == 2);  // /core/a and /core/c under one date
  CHECK(newer < sum_pos(fail_row, ">a</span>"));
}

TEST_CASE("summary html: a down target is one entry, n/a, one matrix cell across the row") {
  std::string out = report::render_summary_html(sum_night());
  std::string table = sum_between(out, "<table class=\"targets\">", "</table>");
  std::string row = sum_between(table, "<b class=\"name\">kapot</b>", "</tr>");
  CHECK(sum_count(row, "down: could not reach https://kapot.example.nl: connection refused") == 1);
  CHECK(row.find("n/a") != std::string::npos);
  CHECK(row.find("pass</span>") == std::string::npos);  // no counts, no rule marks
  CHECK(row.find("went down") != std::string::npos);
  std::string matrix = sum_between(out, "<table class=\"matrix\">", "</table>");
  std::string mrow = sum_between(matrix, ">kapot<", "</tr>");
  CHECK(sum_count(mrow, "<td") == 1);
  CHECK(mrow.find("class=\"mx-down\" colspan=\"4\"") != std::string::npos);  // /core/a..d
  CHECK(mrow.find("down: could not reach") != std::string::npos);
}

TEST_CASE("summary html: the matrix, union of rule ids in first-seen order, icons, marks, empty cells") {
  std::string out = report::render_summary_html(sum_night());
  std::string matrix = sum_between(out, "<table class=\"matrix\">", "</table>");
  std::string head = sum_between(matrix, "<thead>", "</thead>");
  // first seen in table order: kapot (none), mid (a, b, c), ..., nieuw (d)
  CHECK(sum_pos(head, "title=\"/core/a\"") < sum_pos(head, "title=\"/core/b\""));
  CHECK(sum_pos(head, "title=\"/core/b\"") < sum_pos(head, "title=\"/core/c\""));
  CHECK(sum_pos(head, "title=\"/core/c\"") < sum_pos(head, "title=\"/core/d\""));
  CHECK(sum_count(head, "class=\"rot\"") == 4);
  CHECK(head.find("<span>a</span>") != std::string::npos);  // the shared "/core/" said once, in the legend
  CHECK(out.find("Rule ids under <code>/core/</code>") != std::string::npos);
  std::string mid = sum_between(matrix, ">mid<", "</tr>");
  CHECK(mid.find("<td class=\"mx v-fail chg\" title=\"/core/a: fail, new fail\">✖<span class=\"mk\">▼</span></td>") !=
        std::string::npos);
  CHECK(mid.find("title=\"/core/b: warn, regressed\">⚠<span class=\"mk\">▽</span>") != std::string::npos);
  CHECK(mid.find("title=\"/core/c: error\">!</td>") != std::string::npos);
  CHECK(mid.find("title=\"/core/d: not in edition 2.2.0\"></td>") != std::string::npos);
  std::string zeta = sum_between(matrix, ">zeta<", "</tr>");
  CHECK(zeta.find("title=\"/core/b: pass, fixed\">✔<span class=\"mk\">▲</span>") != std::string::npos);
  std::string nieuw = sum_between(matrix, ">nieuw<", "</tr>");
  CHECK(nieuw.find("title=\"/core/d: skip\">–</td>") != std::string::npos);
}

TEST_CASE("summary html: trend sparkline from history, down nights marked, last value") {
  std::string out = report::render_summary_html(sum_night());
  std::string row = sum_between(out, "<b class=\"name\">mid</b>", "</tr>");
  std::string svg = sum_between(row, "<svg", "</svg>");
  CHECK(svg.find("aria-label=\"trend over 4 runs\"") != std::string::npos);
  CHECK(sum_count(svg, "<path class=\"down\"") == 1);  // the night of 11-21
  CHECK(svg.find("<circle") != std::string::npos);     // 11-20 alone before the down night
  CHECK(sum_count(svg, "<polyline") == 1);             // 11-22 → 11-23
  CHECK(svg.find("2026-11-21T02:00:00Z: down") != std::string::npos);
  CHECK(row.find("</svg> <span class=\"n\">33.3 %</span>") != std::string::npos);
  CHECK(row.find("down 1 of 4 runs") != std::string::npos);
  // no history for a target: no trend
  CHECK(sum_between(out, "<b class=\"name\">alpha</b>", "</tr>").find("<svg") == std::string::npos);
  CHECK(out.find("<script") == std::string::npos);
}

TEST_CASE("summary html: owners, labels, a move; hosts never wrap, paths after '/' only") {
  std::string out = report::render_summary_html(sum_night());
  std::string row = sum_between(out, "<b class=\"name\">mid</b>", "</tr>");
  CHECK(row.find("owner: <b>Team Gebouwen</b>") != std::string::npos);
  CHECK(row.find("<span class=\"lbl\">domain=bag</span> <span class=\"lbl\">tier=gold</span>") != std::string::npos);
  CHECK(row.find("moved from <code><span class=\"url\"><span class=\"nw\">https://old.example.nl</span>/<wbr>") !=
        std::string::npos);
  CHECK(row.find("<span class=\"url\"><span class=\"nw\">https://mid.example.nl:8443</span>/<wbr><span "
                 "class=\"nw\">api</span>/<wbr><span class=\"nw\">v1</span></span>") != std::string::npos);
}

TEST_CASE("summary html: links only inside the page's directory") {
  auto s = sum_night();
  s.targets[1].files = {{"json", "../other/alpha.json"}, {"html", "/etc/alpha.html"}, {"junit", "a/../../x.xml"}};
  s.targets[0].files = {{"html", "sub dir/zeta.html"}};
  std::string out = report::render_summary_html(s);
  std::string alpha = sum_between(out, "<b class=\"name\">alpha</b>", "</tr>");
  CHECK(alpha.find("<a ") == std::string::npos);
  CHECK(alpha.find("HTML <code class=\"wrap\">/etc/alpha.html</code>") != std::string::npos);
  CHECK(alpha.find("JSON <code class=\"wrap\">../other/alpha.json</code>") != std::string::npos);
  CHECK(out.find("<a href=\"sub%20dir/zeta.html\">HTML</a>") != std::string::npos);
  std::regex href("href=\"([^\"]*)\"");
  for (std::sregex_iterator it(out.begin(), out.end(), href), end; it != end; ++it) {
    std::string h = (*it)[1];
    CAPTURE(h);
    CHECK(h.find(':') == std::string::npos);
    CHECK(h.find("..") == std::string::npos);
    CHECK(h.front() != '/');
  }
}

TEST_CASE("summary html: hostile names, owners, labels, notes and rule ids stay text") {
  auto s = sum_night();
  auto& t = s.targets[2];  // mid
  t.name = kSumHostile;
  t.owner = kSumHostile;
  t.labels = {{kSumHostile, kSumHostile}};
  t.moved_from = "javascript:alert(1)//" + kSumHostile;
  t.base_url = "https://evil.example/" + kSumHostile;
  t.verdicts.emplace_back(kSumHostile, Verdict::fail);
  t.change->new_fail.push_back(kSumHostile);
  s.history[kSumHostile] = {{kSumHostile, false, std::nullopt}};
  s.notes = {kSumHostile};
  std::string out = report::render_summary_html(s);
  CHECK(out.find("<script") == std::string::npos);
  CHECK(out.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
  CHECK(out.find("href=\"javascript") == std::string::npos);
  CHECK(out.find('\x1b') == std::string::npos);
  CHECK(out.find("\u202E") == std::string::npos);
  CHECK(out.find("\\x1b[31m") != std::string::npos);
  CHECK(out.find("\\xe2\\x80\\xae") != std::string::npos);
  std::regex tag("<(/?)([a-zA-Z0-9]+)");
  for (std::sregex_iterator it(out.begin(), out.end(), tag), end; it != end; ++it) {
    std::string name = (*it)[2];
    CAPTURE(name);
    CHECK(name != "script");
    CHECK(name != "iframe");
  }
}

TEST_CASE("summary html: a module's rules are a column group of their own, under its heading, after the edition's") {
  report::Summary s = sum_night();
  auto& mid = s.targets[2];
  mid.verdicts.emplace_back("/geo/crs-list", Verdict::fail);
  mid.verdicts.emplace_back("/geo/storage-crs", Verdict::pass);
  mid.modules.push_back({"geo", "Geospatial module 1.0.2", {"/geo/crs-list", "/geo/storage-crs"}});
  mid.change->new_fail.push_back("/geo/crs-list");
  std::string out = report::render_summary_html(s);
  std::string matrix = sum_between(out, "<table class=\"matrix\">", "</table>");
  std::string head = sum_between(matrix, "<thead>", "</thead>");
  CHECK(head.find("colspan=\"4\" style=\"overflow-wrap:normal;font-size:11px\">Edition</th><th class=\"mx-name\" "
                  "colspan=\"2\" style=\"overflow-wrap:normal;font-size:11px\">Geospatial module 1.0.2</th>") !=
        std::string::npos);
  CHECK(sum_pos(head, "title=\"/core/d\"") < sum_pos(head, "title=\"/geo/crs-list\""));
  CHECK(head.find("<span>a</span>") != std::string::npos);  // each group leaves out its own prefix
  CHECK(head.find("<span>crs-list</span>") != std::string::npos);
  CHECK(out.find("Rule ids under <code>/core/</code>, <code>/geo/</code> (Geospatial module 1.0.2).") != std::string::npos);
  std::string row = sum_between(matrix, ">mid<", "</tr>");
  CHECK(row.find("title=\"/geo/crs-list: fail, new fail\">✖<span class=\"mk\">▼</span>") != std::string::npos);
  std::string alpha = sum_between(matrix, ">alpha<", "</tr>");
  CHECK(alpha.find("title=\"/geo/crs-list: Geospatial module 1.0.2 not judged\"></td>") != std::string::npos);
}
