// The batch summary: a row per target from its report (summarize), and
// summary.json written and read back (adrprobe summary merges shards).
#include <doctest/doctest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "batch/targets.hpp"
#include "report/baseline.hpp"
#include "report/summary.hpp"
#include "report_sample.hpp"

using namespace adrprobe;
using report::Verdict;

namespace {
report::RuleResult summary_rule(const std::string& id, Verdict v, const std::string& kind = "technical") {
  report::RuleResult r;
  r.id = id;
  r.kind = kind;
  r.verdict = v;
  return r;
}

report::Report summary_sample() {
  report::Report r;
  r.base_url = "https://api.example.nl/bag/v2";
  r.edition = "2.0.0";
  r.generated_at = "2026-11-22T02:00:00Z";
  r.rules = {summary_rule("/core/a", Verdict::pass),   summary_rule("/core/b", Verdict::fail), summary_rule("/core/f", Verdict::manual, "functional"),
             summary_rule("/core/c", Verdict::error),  summary_rule("/core/d", Verdict::fail), summary_rule("/core/e", Verdict::warn),
             summary_rule("/core/s", Verdict::skip)};
  r.score = report::compute_score(r.rules);
  tls::Certificate leaf, ca;
  leaf.days_left = 12;
  ca.days_left = 900;
  r.tls.emplace();
  r.tls->chain = {leaf, ca};
  r.notes = {"a note that is not a leading one"};
  return r;
}
}  // namespace

TEST_CASE("summarize: a target's row from its report") {
  auto r = summary_sample();
  auto t = report::summarize(r, "bag", "api.example.nl_bag_v2.json", report::FailOn::fail);
  CHECK(t.name == "bag");
  CHECK(t.base_url == r.base_url);
  CHECK(t.edition == "2.0.0");
  CHECK(t.report == "api.example.nl_bag_v2.json");
  CHECK(t.score.fail == 2);
  CHECK(t.failing == std::vector<std::string>{"/core/b", "/core/d"});
  CHECK(t.erroring == std::vector<std::string>{"/core/c"});
  REQUIRE(t.cert_days_left);
  CHECK(*t.cert_days_left == 12);  // the leaf's, not the CA's
  CHECK(t.note.empty());           // no leading note
  CHECK(t.reachable);
  CHECK_FALSE(t.change);           // no baseline
  CHECK(t.generated_at == r.generated_at);
  // technical rules only, in the report's order
  std::vector<std::pair<std::string, Verdict>> verdicts{{"/core/a", Verdict::pass}, {"/core/b", Verdict::fail},
                                                         {"/core/c", Verdict::error}, {"/core/d", Verdict::fail},
                                                         {"/core/e", Verdict::warn}, {"/core/s", Verdict::skip}};
  CHECK(t.verdicts == verdicts);
}

TEST_CASE("summarize: exit status by --fail-on, as CLI.md's for the target alone") {
  auto r = summary_sample();
  CHECK(report::summarize(r, "x", "x.json", report::FailOn::fail).exit_status == 1);
  CHECK(report::summarize(r, "x", "x.json", report::FailOn::warn).exit_status == 1);
  CHECK(report::summarize(r, "x", "x.json", report::FailOn::never).exit_status == 3);  // an error still says 3
  r.rules = {summary_rule("/core/a", Verdict::pass), summary_rule("/core/e", Verdict::warn)};
  CHECK(report::summarize(r, "x", "x.json", report::FailOn::fail).exit_status == 0);
  CHECK(report::summarize(r, "x", "x.json", report::FailOn::warn).exit_status == 1);
  CHECK(report::summarize(r, "x", "x.json", report::FailOn::never).exit_status == 0);
}

TEST_CASE("summarize: an unreachable target, no TLS, a baseline's marks") {
  report::Report r;
  r.base_url = "http://127.0.0.1:9/v1";
  r.unreachable = true;
  r.notes = {"could not reach http://127.0.0.1:9/v1: connection refused", "later note"};
  r.leading_notes = 1;
  r.rules = {summary_rule("/core/a", Verdict::error), summary_rule("/core/b", Verdict::fail)};
  r.rules[0].change = "regressed";
  r.rules[1].change = "new-fail";
  auto t = report::summarize(r, "down", "down.json", report::FailOn::fail);
  CHECK_FALSE(t.reachable);
  CHECK(t.note == "could not reach http://127.0.0.1:9/v1: connection refused");
  CHECK_FALSE(t.cert_days_left);
  REQUIRE(t.change);
  CHECK(t.change->regressed == std::vector<std::string>{"/core/a"});
  CHECK(t.change->new_fail == std::vector<std::string>{"/core/b"});
  CHECK(t.change->fixed.empty());
  // a TLS run whose handshake gave no certificate: no days
  r.tls.emplace();
  CHECK_FALSE(report::summarize(r, "down", "down.json", report::FailOn::fail).cert_days_left);
}

TEST_CASE("summary.json: written and read back") {
  report::Summary s;
  s.tool_version = "0.3.0";
  s.generated_at = "2026-11-22T02:10:00Z";
  auto a = report::summarize(summary_sample(), "bag", "bag.json", report::FailOn::fail);
  a.change = report::Changes{{"/core/b"}, {"/core/x"}, {}};
  a.files = {{"json", "bag.json"}, {"html", "bag.html"}};
  report::SummaryTarget b;
  b.name = "kvk \"test\"\n";
  b.base_url = "http://127.0.0.1:9/v1";
  b.edition = "1.0";
  b.report = "kvk.json";
  b.reachable = false;
  b.note = "could not reach";
  b.exit_status = 3;
  // the edition's order, not alphabetical
  b.verdicts = {{"API-48", Verdict::error}, {"API-05", Verdict::pass}, {"/z", Verdict::warn}, {"/a", Verdict::fail}};
  s.targets = {a, b};
  auto text = report::render_summary_json(s);
  auto j = nlohmann::json::parse(text);
  CHECK(j["schema"] == "adrprobe-summary/1");
  CHECK(j["targets"][0]["change"].is_object());
  CHECK(j["targets"][0]["change"]["new-fail"] == nlohmann::json::array({"/core/b"}));
  CHECK(j["targets"][1]["change"].is_null());
  CHECK(j["targets"][1]["score"]["percent"].is_null());
  CHECK(j["targets"][1]["cert_days_left"].is_null());

  auto back = report::parse_summary_json(text);
  CHECK(back.tool_version == "0.3.0");
  CHECK(back.generated_at == s.generated_at);
  REQUIRE(back.targets.size() == 2);
  const auto& ba = back.targets[0];
  CHECK(ba.name == "bag");
  CHECK(ba.base_url == a.base_url);
  CHECK(ba.edition == "2.0.0");
  CHECK(ba.report == "bag.json");
  CHECK(ba.score.pass == a.score.pass);
  CHECK(ba.score.fail == a.score.fail);
  CHECK(ba.score.error == a.score.error);
  CHECK(ba.score.applicable == a.score.applicable);
  REQUIRE(ba.score.percent);
  CHECK(*ba.score.percent == doctest::Approx(*a.score.percent));
  CHECK(ba.failing == a.failing);
  CHECK(ba.erroring == a.erroring);
  REQUIRE(ba.change);
  CHECK(ba.change->new_fail == std::vector<std::string>{"/core/b"});
  CHECK(ba.change->fixed == std::vector<std::string>{"/core/x"});
  CHECK(ba.change->regressed.empty());
  CHECK(ba.cert_days_left == 12);
  CHECK(ba.exit_status == 1);
  CHECK(ba.reachable);
  CHECK(ba.verdicts == a.verdicts);
  CHECK(ba.files == a.files);
  const auto& bb = back.targets[1];
  CHECK(bb.name == b.name);
  CHECK_FALSE(bb.change);
  CHECK_FALSE(bb.score.percent);
  CHECK_FALSE(bb.cert_days_left);
  CHECK_FALSE(bb.reachable);
  CHECK(bb.note == "could not reach");
  CHECK(bb.exit_status == 3);
  CHECK(bb.verdicts == b.verdicts);
  CHECK(bb.files.empty());
  // and once more: the same text
  CHECK(report::render_summary_json(back) == text);
  // the register's name (the Pushgateway group), only when known: an older summary.json has none
  CHECK_FALSE(j.contains("register_name"));
  CHECK(back.register_name.empty());
  s.register_name = "gemeente apis";
  auto named = report::parse_summary_json(report::render_summary_json(s));
  CHECK(named.register_name == "gemeente apis");
  CHECK_THROWS_WITH_AS(report::parse_summary_json(R"({"schema": "adrprobe-summary/1", "targets": [], "register_name": 5})"),
                       doctest::Contains("register_name has the wrong type"), std::runtime_error);
}

TEST_CASE("summary.json: what is not one is rejected with a message, never a crash") {
  auto rejects = [](const std::string& text, const std::string& why) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(report::parse_summary_json(text), doctest::Contains(why.c_str()), std::runtime_error);
  };
  rejects("", "not JSON");
  rejects("{", "not JSON");
  rejects("[]", "not an adrprobe summary");
  rejects(R"({"schema": "adrprobe-report/1", "targets": []})", "not an adrprobe summary");
  rejects(R"({"schema": 5})", "not an adrprobe summary");
  rejects(R"({"schema": "adrprobe-summary/1"})", "not an adrprobe summary");
  rejects(R"({"schema": "adrprobe-summary/1", "targets": [{}]})", "not an adrprobe summary");
  rejects(R"({"schema": "adrprobe-summary/1", "targets": [1]})", "not an adrprobe summary");
  rejects(R"({"schema": "adrprobe-summary/1", "targets": [{"name": 1, "base_url": "u", "score": {}}]})",
          "not an adrprobe summary");
  rejects(R"({"schema": "adrprobe-summary/1", "targets": [{"name": "n", "base_url": "u"}]})", "not an adrprobe summary");
  rejects(R"({"schema": "adrprobe-summary/1", "targets": [{"name": "n", "base_url": "u", "score": {"pass": "x"}}]})",
          "not an adrprobe summary");
  rejects(R"({"schema": "adrprobe-summary/1", "targets": [{"name": "n", "base_url": "u", "score": {}, "failing": 3}]})",
          "not an adrprobe summary");
  // the minimum, and unknown verdicts skipped
  auto s = report::parse_summary_json(R"({"schema": "adrprobe-summary/1", "targets": [{"name": "n", "base_url": "u",
      "score": {}, "change": null, "verdicts": {"/a": "pass", "/b": "great", "/c": 1}}]})");
  REQUIRE(s.targets.size() == 1);
  CHECK_FALSE(s.targets[0].change);
  CHECK(s.targets[0].reachable);
  CHECK(s.targets[0].verdicts == std::vector<std::pair<std::string, Verdict>>{{"/a", Verdict::pass}});
  CHECK(report::parse_summary_json(R"({"schema": "adrprobe-summary/1", "targets": []})").targets.empty());
}

TEST_CASE("summary.json: a shard N that --shard refuses is refused, and so is deep nesting or a number out of range") {
  auto rejects = [](const std::string& members, const std::string& why) {
    std::string text = R"({"schema": "adrprobe-summary/1", "targets": [], )" + members + "}";
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(report::parse_summary_json(text), doctest::Contains(why.c_str()), std::runtime_error);
  };
  // Hostile input III, item 3: a 90-byte file whose N made the merge list 10^12 missing shards.
  rejects(R"("shard": {"k": 0, "n": 1000000000000})", "shard 0/1000000000000: N must be at most 999999");
  rejects(R"("shard": {"k": 2, "n": 2})", "K counts from 0, so it must be less than N");
  rejects(R"("shard": {"k": 0, "n": 0})", "N must be 1 or more");
  rejects(R"("shard": {"k": -1, "n": 2})", "shard.k is not a whole number in range");
  rejects(R"("shard": {"k": 0, "n": 1e300})", "shard.n is not a whole number in range");
  rejects(R"("shard": {"k": 0, "n": 2.5})", "shard.n is not a whole number in range");
  rejects(R"("shard": {"k": 0, "n": "2"})", "shard.n has the wrong type");
  rejects(R"("shard": {"k": 0, "n": 2, "register": -5})", "shard.register is not a whole number in range");
  // the bound itself is --shard's
  auto s = report::parse_summary_json(R"({"schema": "adrprobe-summary/1", "targets": [], "shard": {"k": 999998, "n": 999999}})");
  CHECK(s.shard_n == batch::max_shards);
  CHECK(s.shard_k == batch::max_shards - 1);
  CHECK_THROWS_AS(batch::parse_shard("0/" + std::to_string(batch::max_shards + 1)), std::invalid_argument);

  auto row = [](const std::string& members) {
    return R"("targets": [{"name": "n", "base_url": "u", "score": {}, )" + members + "}]";
  };
  rejects(row(R"("exit_status": 1e300)"), "targets[0].exit_status is not a whole number in range");
  rejects(row(R"("cert_days_left": 99999999999)"), "targets[0].cert_days_left is not a whole number in range");
  rejects(row(R"("score": {"pass": 1e300})"), "targets[0].score.pass is not a whole number in range");
  rejects(row(R"("reachable": "yes")"), "targets[0].reachable has the wrong type");
  rejects(row(R"("score": [1])"), "targets[0].score is not an object");

  // Hostile input III, item 2: nesting far past what a summary has is refused before anything is built.
  // (at the top level it was a SIGSEGV)
  std::string deep = R"({"schema": "adrprobe-summary/1", "x": )" + std::string(200000, '[') + std::string(200000, ']') +
                     R"(, "targets": [{"name": "n", "base_url": "u", "score": {}, "x": )" + std::string(100, '[') +
                     std::string(100, ']') + "}]}";
  CHECK_THROWS_WITH_AS(report::parse_summary_json(deep), "JSON nested deeper than 64 levels: not an adrprobe summary",
                       std::runtime_error);
  // and so is a text over the cap (read_file never reads more)
  std::string big = R"({"schema": "adrprobe-summary/1", "targets": [], "x": ")" + std::string(report::max_summary_bytes, 'x') + "\"}";
  CHECK_THROWS_WITH_AS(report::parse_summary_json(big), doctest::Contains("larger than"), std::runtime_error);
}

TEST_CASE("summary.json: state, owner, labels, a move and the down/back-up marks are written and read back") {
  report::Summary s;
  s.generated_at = "2026-11-23T02:10:00Z";
  auto up = report::summarize(summary_sample(), "bag", "bag.json", report::FailOn::fail);
  up.owner = "Team Basis";
  up.labels = {{"domain", "adressen"}, {"tier", "1"}};
  up.moved_from = "https://old.example.nl/bag/v1";
  up.change = report::Changes{{}, {}, {}, false, true};
  report::Report down_report;
  down_report.base_url = "https://api.example.nl/kvk/v1";
  down_report.unreachable = true;
  down_report.notes = {"could not reach https://api.example.nl/kvk/v1: connection refused"};
  down_report.rules = {summary_rule("/core/a", Verdict::error)};
  down_report.score = report::compute_score(down_report.rules);
  auto down = report::summarize(down_report, "kvk", "kvk.json", report::FailOn::fail);
  CHECK(down.note == "could not reach https://api.example.nl/kvk/v1: connection refused");
  CHECK(down.verdicts.empty());  // one entry, no per-rule verdicts
  CHECK(down.erroring.empty());
  down.change = report::Changes{{}, {}, {}, true, false};
  s.targets = {up, down};
  auto text = report::render_summary_json(s);
  auto j = nlohmann::json::parse(text);
  CHECK(j["targets"][0]["state"] == "up");
  CHECK(j["targets"][1]["state"] == "down");
  CHECK(j["targets"][1]["score"].is_null());
  CHECK(j["targets"][1]["change"]["down"] == true);
  CHECK(j["targets"][0]["change"]["back_up"] == true);
  CHECK(j["targets"][0]["owner"] == "Team Basis");
  CHECK(j["targets"][0]["labels"]["domain"] == "adressen");
  CHECK(j["targets"][0]["moved_from"] == "https://old.example.nl/bag/v1");
  auto back = report::parse_summary_json(text);
  REQUIRE(back.targets.size() == 2);
  CHECK(back.targets[0].owner == "Team Basis");
  CHECK(back.targets[0].labels == up.labels);
  CHECK(back.targets[0].moved_from == up.moved_from);
  CHECK(back.targets[0].change->back_up);
  CHECK_FALSE(back.targets[1].reachable);
  CHECK(back.targets[1].change->down);
  CHECK(report::got_worse(back.targets[1]));
  CHECK_FALSE(report::got_worse(back.targets[0]));
  CHECK(report::changed(back.targets[0]));
  CHECK(report::render_summary_json(back) == text);
}

TEST_CASE("summary.json: DON's score from the register beside the live score, only where the register has one") {
  report::Report r = summary_sample();
  r.don_adr_score = 72.5;
  report::Summary s;
  s.targets = {report::summarize(r, "bag", "bag.json", report::FailOn::fail),
               report::summarize(summary_sample(), "kvk", "kvk.json", report::FailOn::fail)};
  CHECK(s.targets[0].don_adr_score == 72.5);
  auto text = report::render_summary_json(s);
  auto j = nlohmann::json::parse(text);
  CHECK(j["targets"][0]["don_adr_score"] == 72.5);
  CHECK_FALSE(j["targets"][1].contains("don_adr_score"));
  auto back = report::parse_summary_json(text);
  CHECK(back.targets[0].don_adr_score == 72.5);
  CHECK_FALSE(back.targets[1].don_adr_score);
  CHECK(report::render_summary_json(back) == text);
  auto html = report::render_summary_html(s);
  CHECK(html.find("DON score</th>") != std::string::npos);
  CHECK(html.find("<div class=\"pct-s\">72.5</div>") != std::string::npos);
  s.targets[0].don_adr_score.reset();
  CHECK(report::render_summary_html(s).find("DON score") == std::string::npos);  // no register score, no column
}

TEST_CASE("summary history: carried forward from the previous summary, 30 runs at most, one point per run") {
  auto row = [](const std::string& name, bool up, double percent, const std::string& at) {
    report::SummaryTarget t;
    t.name = name;
    t.reachable = up;
    t.score.percent = percent;
    t.score.pass = 3;
    t.generated_at = at;
    return t;
  };
  report::Summary previous;
  previous.generated_at = "night-0";
  previous.targets = {row("bag", true, 50, "n0")};
  report::carry_history(previous, nullptr);
  REQUIRE(previous.history["bag"].size() == 1);
  // 40 nights: the newest 30 kept, oldest first.
  for (int night = 1; night <= 40; ++night) {
    report::Summary s;
    s.generated_at = "night-" + std::to_string(night);
    s.targets = {row("bag", night != 5, night, "n" + std::to_string(night)), row("new", true, 100, "n" + std::to_string(night))};
    auto prev = report::parse_summary_json(report::render_summary_json(previous));
    report::carry_history(s, &prev);
    CHECK(s.previous_generated_at == previous.generated_at);
    previous = report::parse_summary_json(report::render_summary_json(s));
  }
  const auto& bag = previous.history["bag"];
  REQUIRE(bag.size() == report::max_history);
  CHECK(bag.front().generated_at == "n11");
  CHECK(bag.back().generated_at == "n40");
  REQUIRE(bag.back().percent);
  CHECK(*bag.back().percent == doctest::Approx(40));
  CHECK(previous.history["new"].size() == report::max_history);
  // A down night keeps its place, without a score.
  report::Summary s;
  s.generated_at = "x";
  s.targets = {row("bag", false, 0, "down-night")};
  report::carry_history(s, &previous);
  CHECK_FALSE(s.history["bag"].back().up);
  CHECK_FALSE(s.history["bag"].back().percent);
  CHECK(s.history.count("new") == 0);  // left the register: dropped
  // The same run merged twice is one point.
  report::Summary again = s;
  report::carry_history(again, &s);
  CHECK(again.history["bag"].size() == s.history["bag"].size());
}

TEST_CASE("summary.json: a row keeps its report's conclusion, read back for summary.prom; an older row has none") {
  auto t = report::summarize(summary_sample(), "bag", "bag.json", report::FailOn::fail);
  REQUIRE(t.conclusion);
  CHECK(t.conclusion->conforms == std::optional<bool>(false));  // no stated level: MUST
  CHECK(t.conclusion->must_failed == 2);
  CHECK(t.conclusion->errors == 1);
  CHECK(t.conclusion->functional_pending == 1);
  report::Summary s;
  s.generated_at = "2026-11-22T02:00:00Z";
  s.targets = {t};
  auto down = test::down(summary_sample());
  s.targets.push_back(report::summarize(down, "weg", "weg.json", report::FailOn::fail));
  std::string text = report::render_summary_json(s);
  auto j = nlohmann::json::parse(text);
  CHECK(j["targets"][0]["conclusion"]["conforms"] == false);
  CHECK(j["targets"][0]["conclusion"]["must_failed"] == 2);
  CHECK(j["targets"][1]["conclusion"]["conforms"].is_null());
  auto back = report::parse_summary_json(text);
  REQUIRE(back.targets.size() == 2);
  REQUIRE(back.targets[0].conclusion);
  CHECK(back.targets[0].conclusion->conforms == std::optional<bool>(false));
  CHECK(back.targets[0].conclusion->must_failed == 2);
  CHECK(back.targets[0].conclusion->errors == 1);
  CHECK(back.targets[0].conclusion->functional_pending == 1);
  CHECK(back.targets[0].conclusion->text == t.conclusion->text);
  REQUIRE(back.targets[1].conclusion);
  CHECK_FALSE(back.targets[1].conclusion->conforms);
  // A summary written before rows kept it: none, and a wrong type is refused.
  j["targets"][0].erase("conclusion");
  CHECK_FALSE(report::parse_summary_json(j.dump()).targets[0].conclusion);
  j["targets"][0]["conclusion"] = {{"conforms", "yes"}};
  CHECK_THROWS_WITH_AS(report::parse_summary_json(j.dump()), doctest::Contains("targets[0].conclusion.conforms"),
                       std::runtime_error);
}

namespace {
// summary.json with one row and the given history (JSON text).
std::string with_history(const std::string& history) {
  return R"({"schema": "adrprobe-summary/1", "targets": [{"name": "bag", "base_url": "u", "score": {}}], "history": )" +
         history + "}";
}
std::string history_point_json(const std::string& at, int pass) {
  return R"({"generated_at": ")" + at + R"(", "state": "up", "percent": 50, "pass": )" + std::to_string(pass) + "}";
}
// A list of points, `count` of them, the i-th at time at(i) with pass i.
template <typename At>
std::string history_list(int count, At at) {
  std::string list = "[";
  for (int i = 0; i < count; ++i) list += (i ? ", " : "") + history_point_json(at(i), i);
  return list + "]";
}
std::vector<int> passes(const std::vector<report::HistoryPoint>& points) {
  std::vector<int> out;
  for (const auto& p : points) out.push_back(p.pass);
  return out;
}
// Times that sort as the nights they stand for.
std::string night(int i) {
  char at[32];
  std::snprintf(at, sizeof at, "night-%05d", i);
  return at;
}
}  // namespace

TEST_CASE("summary.json history: a list of thousands is read point by point, the newest 30 kept in its order") {
  auto s = report::parse_summary_json(with_history(R"({"bag": )" + history_list(5000, night) + "}"));
  REQUIRE(s.history.size() == 1);
  std::vector<int> newest;
  for (int i = 5000 - 30; i < 5000; ++i) newest.push_back(i);
  CHECK(passes(s.history["bag"]) == newest);
  CHECK(s.history["bag"].front().generated_at == night(4970));
  CHECK(s.targets.size() == 1);

  // Newest by generated_at, not by place: a list out of order keeps the 30
  // latest times, still in the list's order; of two at one time, the later.
  auto shuffled = [](int i) { return night((i * 37) % 100); };  // 100 distinct times, out of order
  s = report::parse_summary_json(with_history(R"({"bag": )" + history_list(100, shuffled) + "}"));
  const auto& kept = s.history["bag"];
  REQUIRE(kept.size() == report::max_history);
  for (std::size_t k = 0; k < kept.size(); ++k) {
    CAPTURE(k);
    CHECK(kept[k].generated_at >= night(70));
    if (k) CHECK(kept[k - 1].pass < kept[k].pass);
  }
  auto same = [](int) { return std::string("same"); };
  s = report::parse_summary_json(with_history(R"({"bag": )" + history_list(40, same) + "}"));
  CHECK(passes(s.history["bag"]).front() == 10);

  // A short list, as summary.json is written, comes back as it is.
  s = report::parse_summary_json(with_history(R"({"bag": )" + history_list(3, night) + "}"));
  CHECK(passes(s.history["bag"]) == std::vector<int>{0, 1, 2});
}

TEST_CASE("summary.json history: only the wanted targets' lists are read, and only what a point holds") {
  std::string text = with_history(R"({"bag": )" + history_list(40, night) + R"(, "gone": )" + history_list(2, night) +
                                  R"(, "wrong": [{"pass": "x"}]})");
  auto bag_only = report::parse_summary_json(text, [](const std::string& name) { return name == "bag"; });
  CHECK(bag_only.history.size() == 1);  // "wrong" is never read, so it is no error
  CHECK(bag_only.history["bag"].size() == report::max_history);
  auto none = report::parse_summary_json(text, report::no_history);
  CHECK(none.history.empty());
  CHECK(none.targets.size() == 1);
  CHECK(report::render_summary_json(none) ==
        report::render_summary_json(report::parse_summary_json(with_history("{}"))));

  // Anything else under `history`: not an object, not a list, not a point, not a point's member: skipped.
  auto s = report::parse_summary_json(with_history(
      R"({"bag": [1, "x", null, [2], {"generated_at": "t", "pass": 3, "extra": {"a": [1, 2]}, "more": "s"}], )"
      R"("kvk": 5, "brk": []})"));
  REQUIRE(s.history.count("bag"));
  REQUIRE(s.history["bag"].size() == 1);
  CHECK(s.history["bag"][0].generated_at == "t");
  CHECK(s.history["bag"][0].pass == 3);
  CHECK(s.history.count("kvk") == 0);  // not a list: no history, so carry_history takes its row
  CHECK(s.history.count("brk") == 1);  // an empty list is an empty history
  CHECK(s.history["brk"].empty());
  CHECK(report::parse_summary_json(with_history("[1, 2]")).history.empty());
  // A later list of one name, or a later history, replaces the earlier one, as a parsed tree would.
  s = report::parse_summary_json(with_history(R"({"bag": )" + history_list(5, night) + R"(, "bag": )" +
                                              history_list(2, night) + "}"));
  CHECK(passes(s.history["bag"]) == std::vector<int>{0, 1});
  s = report::parse_summary_json(
      R"({"schema": "adrprobe-summary/1", "targets": [], "history": {"bag": [{}]}, "history": 1})");
  CHECK(s.history.empty());
}

TEST_CASE("summary.json history: a wrong point is refused wherever it is in a list read, with its place") {
  auto rejects = [](const std::string& history, const std::string& why) {
    std::string text = with_history(history);
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(report::parse_summary_json(text), doctest::Contains(why.c_str()), std::runtime_error);
  };
  rejects(R"({"bag": [{"pass": "x"}]})", "not an adrprobe summary (history.bag[0].pass has the wrong type)");
  // an old point, which the newest 30 leave out, is read too
  rejects(R"({"bag": [{}, {"warn": 1e300}, )" + history_list(35, night).substr(1) + "}",
          "history.bag[1].warn is not a whole number in range");
  // a container where a number belongs is not built, but its type is still said
  rejects(R"({"bag": [{"fail": [1, 2, 3]}]})", "history.bag[0].fail has the wrong type");
  rejects(R"({"bag": [{"generated_at": {"a": 1}}]})", "history.bag[0].generated_at has the wrong type");
  rejects(R"({"bag": [{"generated_at": ")" + std::string(65, '2') + R"("}]})",
          "history.bag[0].generated_at is longer than 64 bytes: not a time");
  CHECK(report::parse_summary_json(with_history(R"({"bag": [{"generated_at": ")" + std::string(64, '2') + R"("}]})"))
            .history["bag"]
            .size() == 1);
  // a string far past any a summary holds, or millions of points without one, is refused on the text
  std::string huge = R"({"schema": "adrprobe-summary/1", "targets": [], "history": {"bag": [{"x": ")" +
                     std::string(report::max_summary_stretch_bytes, 'x') + "\"}]}}";
  CHECK_THROWS_WITH_AS(report::parse_summary_json(huge),
                       "JSON has more than 4194304 bytes from one string, number or literal to the next: not an "
                       "adrprobe summary",
                       std::runtime_error);
  huge = R"({"schema": "adrprobe-summary/1", "targets": [], "history": {"bag": [)";
  for (std::size_t i = 0; i < report::max_summary_stretch_bytes / 3; ++i) huge += "{},";
  huge += "{}]}}";
  CHECK_THROWS_WITH_AS(report::parse_summary_json(huge), doctest::Contains("bytes from one string, number or literal"),
                       std::runtime_error);
}

TEST_CASE("summary.json: since when each rule has failed and a target been down, written and read back") {
  auto r = summary_sample();
  report::date_streaks(r, nullptr);
  r.rules[4].failing_since = "2026-11-01T02:00:00Z";
  auto up = report::summarize(r, "bag", "bag.json", report::FailOn::regressed);
  CHECK(up.failing_since == std::vector<std::pair<std::string, std::string>>{{"/core/b", "2026-11-22T02:00:00Z"},
                                                                              {"/core/d", "2026-11-01T02:00:00Z"}});
  CHECK(up.down_since.empty());
  r.unreachable = true;
  r.down_since = "2026-11-20T02:00:00Z";
  auto down = report::summarize(r, "brk", "brk.json", report::FailOn::regressed);
  CHECK(down.failing_since.empty());  // down: no per-rule verdicts
  CHECK(down.down_since == "2026-11-20T02:00:00Z");

  report::Summary s;
  s.generated_at = "2026-11-22T02:00:10Z";
  s.targets = {up, down};
  std::string text = report::render_summary_json(s);
  auto j = nlohmann::json::parse(text);
  CHECK(j["targets"][0]["failing_since"] == nlohmann::json{{"/core/b", "2026-11-22T02:00:00Z"}, {"/core/d", "2026-11-01T02:00:00Z"}});
  CHECK(j["targets"][0]["down_since"].is_null());
  CHECK(j["targets"][1]["failing_since"] == nlohmann::json::object());
  CHECK(j["targets"][1]["down_since"] == "2026-11-20T02:00:00Z");
  auto back = report::parse_summary_json(text);
  CHECK(back.targets[0].failing_since == up.failing_since);
  CHECK(back.targets[1].down_since == "2026-11-20T02:00:00Z");
  // a summary.json of an earlier version has neither
  j["targets"][0].erase("failing_since");
  j["targets"][1].erase("down_since");
  back = report::parse_summary_json(j.dump());
  CHECK(back.targets[0].failing_since.empty());
  CHECK(back.targets[1].down_since.empty());
}

TEST_CASE("summary rows: still down, the order a reader needs, and the runs of a streak") {
  report::SummaryTarget t;
  CHECK(report::row_rank(t) == 7);  // passing
  t.erroring = {"/core/c"};
  CHECK(report::row_rank(t) == 6);
  t.failing = {"/core/b"};
  CHECK(report::row_rank(t) == 5);
  t.reachable = false;
  CHECK_FALSE(report::still_down(t));  // no baseline to tell
  CHECK(report::row_rank(t) == 4);     // but down: before the failing
  t.change = report::Changes{};
  CHECK(report::still_down(t));
  t.change->down = true;
  CHECK_FALSE(report::still_down(t));
  CHECK(report::row_rank(t) == 0);

  report::Summary s;
  s.history["t"] = {{"2026-11-20T02:00:00Z", true, 100.0}, {"2026-11-21T02:00:00Z", true, 100.0},
                    {"2026-11-22T02:00:00Z", true, 100.0}};
  CHECK(report::nights_since(s, "t", "2026-11-20T02:00:00Z") == "3 nights");
  CHECK(report::nights_since(s, "t", "2026-11-22T02:00:00Z") == "1 night");
  CHECK(report::nights_since(s, "t", "2026-11-19T02:00:00Z").empty());  // older than the history: not known
  CHECK(report::nights_since(s, "other", "2026-11-22T02:00:00Z").empty());
  CHECK(report::nights_since(s, "t", "").empty());

  t.failing = {"/core/a", "/core/b", "/core/c", "/core/d"};
  t.failing_since = {{"/core/a", "2026-11-22T02:00:00Z"}, {"/core/b", "2026-11-01T02:00:00Z"}, {"/core/c", "2026-11-22T02:00:00Z"}};
  auto by_since = report::failing_by_since(t, {"/core/c"});
  CHECK(by_since == std::map<std::string, std::vector<std::string>>{
                        {"", {"/core/d"}}, {"2026-11-01T02:00:00Z", {"/core/b"}}, {"2026-11-22T02:00:00Z", {"/core/a"}}});
}

TEST_CASE("summarize, summary.json: a module's rules in verdicts after the edition's, named as the module's; read back") {
  auto r = summary_sample();
  r.modules.push_back({"geo", "Geospatial", "1.0.2", "judged: /collections in the document"});
  auto geo = [](const std::string& id, Verdict v, const std::string& kind = "technical") {
    auto rule = summary_rule(id, v, kind);
    rule.module = "geo";
    return rule;
  };
  r.rules.push_back(geo("/geo/crs-list", Verdict::fail));
  r.rules.push_back(geo("/geo/storage-crs", Verdict::error));
  r.rules.push_back(geo("/geo/geometric-context", Verdict::manual, "functional"));
  auto t = report::summarize(r, "bag", "bag.json", report::FailOn::fail);
  REQUIRE(t.verdicts.size() == 8);
  CHECK(t.verdicts[6] == std::pair<std::string, Verdict>{"/geo/crs-list", Verdict::fail});
  CHECK(t.verdicts[7] == std::pair<std::string, Verdict>{"/geo/storage-crs", Verdict::error});
  REQUIRE(t.modules.size() == 1);
  CHECK(t.modules[0].id == "geo");
  CHECK(t.modules[0].heading == "Geospatial module 1.0.2");
  CHECK(t.modules[0].rules == std::vector<std::string>{"/geo/crs-list", "/geo/storage-crs"});
  CHECK(report::module_of(t, "/geo/crs-list") == &t.modules[0]);
  CHECK(report::module_of(t, "/core/a") == nullptr);
  // In the score, failing and erroring only through the edition's rule for the module.
  CHECK(t.failing == std::vector<std::string>{"/core/b", "/core/d"});
  CHECK(t.erroring == std::vector<std::string>{"/core/c"});

  report::Summary s;
  s.targets.push_back(t);
  std::string text = report::render_summary_json(s);
  auto j = nlohmann::json::parse(text);
  CHECK(j["targets"][0]["verdicts"]["/geo/crs-list"] == "fail");
  CHECK(j["targets"][0]["modules"] ==
        nlohmann::json::parse(R"([{"id": "geo", "heading": "Geospatial module 1.0.2", "rules": ["/geo/crs-list", "/geo/storage-crs"]}])"));
  auto back = report::parse_summary_json(text);
  REQUIRE(back.targets[0].modules.size() == 1);
  CHECK(back.targets[0].modules[0].rules == t.modules[0].rules);
  CHECK(back.targets[0].modules[0].heading == "Geospatial module 1.0.2");
  CHECK(back.targets[0].verdicts == t.verdicts);
  // A row without a module writes no `modules`, as before.
  report::Summary plain;
  plain.targets.push_back(report::summarize(summary_sample(), "bag", "bag.json", report::FailOn::fail));
  CHECK_FALSE(nlohmann::json::parse(report::render_summary_json(plain))["targets"][0].contains("modules"));
  // A wrong `modules` is refused with its place.
  j["targets"][0]["modules"] = nlohmann::json::array({"geo"});
  CHECK_THROWS_WITH(report::parse_summary_json(j.dump()), doctest::Contains("targets[0].modules[0] is not an object"));
}
