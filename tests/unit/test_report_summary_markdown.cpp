// summary.md: the night's digest by owner, for a chat channel or an issue.
#include <doctest/doctest.h>

#include <string>

#include "report/summary.hpp"
#include "util/strings.hpp"

using namespace adrprobe;
using report::Verdict;

namespace {

report::SummaryTarget digest_row(const std::string& name, const std::string& owner) {
  report::SummaryTarget t;
  t.name = name;
  t.owner = owner;
  t.base_url = "https://" + name + ".example.nl/api";
  t.edition = "2.2.0";
  t.score.pass = 3;
  t.score.applicable = 4;
  t.score.percent = 75.0;
  t.change = report::Changes{};
  return t;
}

report::Summary digest_night() {
  report::Summary s;
  s.generated_at = "2026-11-23T02:00:00Z";
  s.previous_generated_at = "2026-11-22T02:00:00Z";
  auto a = digest_row("gebouwen", "Team BAG");
  a.change->new_fail = {"/core/a", "/core/b"};
  a.change->regressed = {"/core/c"};
  // failing: two new tonight, two as for nights (one since before the history)
  a.failing = {"/core/a", "/core/b", "/core/e", "/core/f"};
  a.failing_since = {{"/core/a", "2026-11-23T02:00:00Z"}, {"/core/b", "2026-11-23T02:00:00Z"},
                     {"/core/e", "2026-11-22T02:00:00Z"}, {"/core/f", "2026-11-01T02:00:00Z"}};
  auto b = digest_row("adressen", "Team BAG");
  b.change->fixed = {"/core/d"};
  auto c = digest_row("kapot", "Team Zaken");
  c.reachable = false;
  c.score = {};
  c.note = "could not reach https://kapot.example.nl/api: connection refused";
  c.change->down = true;
  c.down_since = "2026-11-23T02:00:00Z";
  auto d = digest_row("terug", "");
  d.change->back_up = true;
  auto e = digest_row("verhuisd", "");
  e.moved_from = "https://old.example.nl/api";
  auto f = digest_row("stil", "Team Zaken");
  auto g = digest_row("nieuw", "");
  g.change.reset();
  auto h = digest_row("nog-kapot", "");
  h.reachable = false;
  h.down_since = "2026-11-22T02:00:00Z";
  h.note = "could not reach https://nog-kapot.example.nl/api: timeout";
  s.targets = {a, b, c, d, e, f, g, h};
  s.history["gebouwen"] = {{"2026-11-22T02:00:00Z", true, 100.0}, {"2026-11-23T02:00:00Z", true, 75.0}};
  s.history["nog-kapot"] = {{"2026-11-21T02:00:00Z", true, 100.0}, {"2026-11-22T02:00:00Z", false, {}},
                            {"2026-11-23T02:00:00Z", false, {}}};
  return s;
}

std::vector<std::string> digest_lines(const std::string& md) { return split(md, '\n'); }

std::size_t digest_at(const std::string& md, const std::string& needle) {
  auto at = md.find(needle);
  REQUIRE_MESSAGE(at != std::string::npos, needle);
  return at;
}

}  // namespace

TEST_CASE("summary md: first line with date and counts, then by owner, then the unchanged") {
  std::string md = report::render_summary_markdown(digest_night());
  CAPTURE(md);
  auto lines = digest_lines(md);
  CHECK(lines[0] ==
        "### adrprobe nightly 2026-11-23: 4 of 8 targets changed (1 down · 1 new-fail · 1 regressed · 1 fixed · 1 back up "
        "· 1 moved · 1 still down)");
  // times and URLs as code spans: pasted anywhere, they read as written
  CHECK(md.find("Since the previous run of `2026-11-22T02:00:00Z`.") != std::string::npos);
  // owners by name, "No owner" last
  CHECK(digest_at(md, "#### Team BAG") < digest_at(md, "#### Team Zaken"));
  CHECK(digest_at(md, "#### Team Zaken") < digest_at(md, "#### No owner"));
  // within an owner: worse first
  CHECK(digest_at(md, "- **gebouwen**") < digest_at(md, "- **adressen**"));
  // what still fails, by the date its failure began, with the nights the history shows (tonight's new ones above)
  CHECK(md.find("- **gebouwen**: new-fail /core/a, /core/b · regressed /core/c · score 75.0 % (was 100.0 %)\n"
                "  - failing since `2026-11-01T02:00:00Z`: /core/f\n"
                "  - failing since `2026-11-22T02:00:00Z` (2 nights): /core/e\n") != std::string::npos);
  CHECK(md.find("- **adressen**: fixed /core/d · score 75.0 %\n") != std::string::npos);
  CHECK(md.find("- **kapot**: down since `2026-11-23T02:00:00Z`: `could not reach https://kapot.example.nl/api: connection "
                "refused`\n") != std::string::npos);
  CHECK(md.find("- **terug**: back up · score 75.0 %") != std::string::npos);
  CHECK(md.find("- **verhuisd**: moved from `https://old.example.nl/api` to `https://verhuisd.example.nl/api`") !=
        std::string::npos);
  // still down: listed with its owner, since when
  CHECK(md.find("- **nog-kapot**: still down since `2026-11-22T02:00:00Z` (2 nights): `could not reach "
                "https://nog-kapot.example.nl/api: timeout`\n") != std::string::npos);
  CHECK(digest_at(md, "- **terug**") < digest_at(md, "- **nog-kapot**"));
  CHECK(digest_at(md, "- **nog-kapot**") < digest_at(md, "- **verhuisd**"));
  // no backslash escape, no invisible joiner anywhere
  CHECK(md.find('\\') == std::string::npos);
  CHECK(md.find("\u2060") == std::string::npos);
  // the unchanged and passing are counted, not listed
  CHECK(md.find("**stil**") == std::string::npos);
  CHECK(md.find("**nieuw**") == std::string::npos);
  CHECK(md.find("1 other target unchanged, without a failing rule; 1 with no earlier run to compare: nieuw.") !=
        std::string::npos);
  CHECK(md.back() == '\n');
}

TEST_CASE("summary md: a target failing as before is listed with its owner, since when") {
  auto s = digest_night();
  auto& stil = s.targets[5];
  REQUIRE(stil.name == "stil");
  stil.failing = {"/core/x", "/core/y"};
  stil.failing_since = {{"/core/x", "2026-11-20T02:00:00Z"}, {"/core/y", "2026-11-20T02:00:00Z"}};
  std::string md = report::render_summary_markdown(s);
  CAPTURE(md);
  CHECK(md.find("- **stil**: score 75.0 %\n  - failing since `2026-11-20T02:00:00Z`: /core/x, /core/y\n") !=
        std::string::npos);
  CHECK(digest_at(md, "- **kapot**") < digest_at(md, "- **stil**"));  // after the changed rows of its owner
  CHECK(md.find("0 other targets unchanged") != std::string::npos);
  // a summary.json of an earlier version has no dates: the rules are still listed
  stil.failing_since.clear();
  md = report::render_summary_markdown(s);
  CHECK(md.find("- **stil**: score 75.0 %\n  - failing: /core/x, /core/y\n") != std::string::npos);
}

TEST_CASE("summary md: no previous run, incomplete and notes said first") {
  auto s = digest_night();
  s.previous_generated_at.clear();
  s.complete = false;
  s.notes = {"d1: no summary.json (did that shard run?)"};
  std::string md = report::render_summary_markdown(s);
  CHECK(md.find("No previous run: nothing to compare with.") != std::string::npos);
  CHECK(digest_at(md, "**Incomplete: this summary does not cover the whole register.**") < digest_at(md, "####"));
  CHECK(digest_at(md, "**d1\\: no summary.json \\(did that shard run?\\)**") < digest_at(md, "####"));
}

TEST_CASE("summary md: nothing changed") {
  report::Summary s;
  s.generated_at = "2026-11-23T02:00:00Z";
  s.targets = {digest_row("a", "x"), digest_row("b", "")};
  std::string md = report::render_summary_markdown(s);
  CHECK(md.rfind("### adrprobe nightly 2026-11-23: 0 of 2 targets changed (0 down", 0) == 0);
  CHECK(md.find("####") == std::string::npos);
  CHECK(md.find("2 other targets unchanged, without a failing rule.") != std::string::npos);
}

TEST_CASE("summary md: hostile names, owners, notes and ids stay text") {
  const std::string hostile = "<img src=x onerror=alert(1)>](javascript:alert(1)) @all #1 www.evil.example\x1b[2J\u202E";
  auto s = digest_night();
  s.targets[0].name = hostile;
  s.targets[0].owner = hostile;
  s.targets[0].change->new_fail.push_back(hostile);
  s.notes = {hostile};
  std::string md = report::render_summary_markdown(s);
  // Server text (a down target's cause) is a code span, apart; the rest escaped.
  std::string cause = "`could not reach https://kapot.example.nl/api: connection refused`";
  REQUIRE(md.find(cause) != std::string::npos);
  s.targets[2].note = hostile;
  md = report::render_summary_markdown(s);
  std::string span = "`<img src=x onerror=alert(1)>](javascript:alert(1)) @all #1 www.evil.example\\x1b[2J\\xe2\\x80\\xae`";
  auto at = md.find(span);
  REQUIRE(at != std::string::npos);
  std::string outside = md.substr(0, at) + md.substr(at + span.size());
  CHECK(outside.find("<img") == std::string::npos);
  CHECK(outside.find("](") == std::string::npos);
  CHECK(outside.find("javascript:") == std::string::npos);
  CHECK(outside.find(" @all") == std::string::npos);
  CHECK(outside.find("www.evil") == std::string::npos);
  CHECK(md.find('\x1b') == std::string::npos);
  CHECK(md.find("\u202E") == std::string::npos);
  CHECK(md.find("#### &lt;img src=x onerror=alert\\(1\\)&gt;\\]\\(javascript\\:alert\\(1\\)\\) \\@\u2060all \\#1") !=
        std::string::npos);
}

TEST_CASE("summary md: a module's rule that fails tonight is named like the edition's") {
  report::Summary s = digest_night();
  s.targets[0].change->new_fail.push_back("/geo/crs-list");
  s.targets[0].verdicts.emplace_back("/geo/crs-list", Verdict::fail);
  s.targets[0].modules.push_back({"geo", "Geospatial module 1.0.2", {"/geo/crs-list"}});
  std::string md = report::render_summary_markdown(s);
  std::size_t at = digest_at(md, "gebouwen");
  CHECK(md.find("/geo/crs-list", at) != std::string::npos);
}
