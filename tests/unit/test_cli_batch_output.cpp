// What batch and summary print: a line per target (escaped, coloured only when
// asked), the totals, and the exit status over many targets.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "cli/batch_output.hpp"
#include "cli/settings.hpp"
#include "util/strings.hpp"

using namespace adrprobe;

namespace {
// A row in the state an exit status stands for: 1 a failing rule, 3 a rule in
// error, 4 down, 0 all passing.
report::SummaryTarget row(const std::string& name, int status) {
  report::SummaryTarget t;
  t.name = name;
  t.base_url = "https://api.example.nl/" + name;
  t.exit_status = status == 4 ? 3 : status;
  if (status == 1) t.failing.push_back("/core/a");
  if (status == 3) t.erroring.push_back("/core/b");
  if (status == 4) t.reachable = false;
  return t;
}

report::Summary summary_of(std::vector<int> statuses) {
  report::Summary s;
  int i = 0;
  for (int st : statuses) s.targets.push_back(row("t" + std::to_string(i++), st));
  return s;
}
}  // namespace

TEST_CASE("batch output: the exit status over targets") {
  using cli::Exit;
  auto status = [](std::vector<int> rows, report::FailOn on = report::FailOn::fail) {
    return cli::summary_exit_status(summary_of(std::move(rows)), on);
  };
  CHECK(status({}) == Exit::ok);
  CHECK(status({0, 0}) == Exit::ok);
  CHECK(status({0, 3}) == Exit::incomplete);
  CHECK(status({0, 4}) == Exit::incomplete);     // a target down: not completely tested
  CHECK(status({3, 1, 0}) == Exit::rule_failed);  // a failing rule outweighs a target down
  CHECK(status({1, 3}) == Exit::rule_failed);
  CHECK(status({1}) == Exit::rule_failed);
  CHECK(status({1}, report::FailOn::never) == Exit::ok);
  CHECK(status({1, 4}, report::FailOn::never) == Exit::incomplete);
  auto warned = summary_of({0});
  warned.targets[0].verdicts.emplace_back("/core/w", report::Verdict::warn);
  CHECK(cli::summary_exit_status(warned, report::FailOn::fail) == Exit::ok);
  CHECK(cli::summary_exit_status(warned, report::FailOn::warn) == Exit::rule_failed);
}

TEST_CASE("batch output: --fail-on regressed is red only when a target got worse") {
  using cli::Exit;
  auto s = summary_of({1, 3, 4});  // failing, erroring and down, all as they were: green
  for (auto& t : s.targets) t.change = report::Changes{};
  CHECK(cli::summary_exit_status(s, report::FailOn::regressed) == Exit::ok);
  s.targets[0].change->fixed.push_back("/core/x");
  s.targets[2].change->back_up = false;
  CHECK(cli::summary_exit_status(s, report::FailOn::regressed) == Exit::ok);
  s.targets[2].change->down = true;  // newly down
  CHECK(cli::summary_exit_status(s, report::FailOn::regressed) == Exit::rule_failed);
  s.targets[2].change->down = false;
  s.targets[1].change->regressed.push_back("/core/b");
  CHECK(cli::summary_exit_status(s, report::FailOn::regressed) == Exit::rule_failed);
  s.targets[1].change->regressed.clear();
  s.targets[0].change->new_fail.push_back("/core/a");
  CHECK(cli::summary_exit_status(s, report::FailOn::regressed) == Exit::rule_failed);
  // Without a baseline nothing is compared: 0.
  CHECK(cli::summary_exit_status(summary_of({1, 4}), report::FailOn::regressed) == Exit::ok);
}

TEST_CASE("batch output: a target's line, without colour codes unless asked") {
  auto t = row("bag", 1);
  t.score.pass = 3;
  t.score.fail = 2;
  t.score.error = 1;
  t.score.percent = 87.5;
  t.change = report::Changes{{"/core/a", "/core/b"}, {"/core/c"}, {"/core/d"}};
  auto plain = cli::target_line(t, false);
  CAPTURE(plain);
  CHECK(plain.find('\x1b') == std::string::npos);
  CHECK(plain.find("fail ") != std::string::npos);
  CHECK(plain.find(" bag  https://api.example.nl/bag ") != std::string::npos);
  CHECK(plain.find(" 87.5 %") != std::string::npos);
  CHECK(plain.find("2 fail · 1 error") != std::string::npos);
  CHECK(plain.find("new-fail: /core/a, /core/b") != std::string::npos);
  CHECK(plain.find("regressed: /core/d") != std::string::npos);
  CHECK(plain.find("fixed: /core/c") != std::string::npos);
  auto coloured = cli::target_line(t, true);
  CHECK(coloured.find("\x1b[1;31mfail \x1b[0m") != std::string::npos);

  auto down = row("kvk", 3);
  down.reachable = false;
  down.note = "could not reach https://api.example.nl/kvk: connection refused";
  auto line = cli::target_line(down, false);
  CAPTURE(line);
  CHECK(line.rfind("  down ", 0) == 0);
  CHECK(line.find("  n/a  ") != std::string::npos);
  CHECK(line.find("connection refused") != std::string::npos);
  CHECK(line.find('\x1b') == std::string::npos);
  // a reachable target's note is on its line too (every path 404, a baseline that could not be used)
  auto up = row("brk", 0);
  up.note = "a leading note";
  CHECK(cli::target_line(up, false).find("a leading note") != std::string::npos);
  CHECK(cli::target_line(up, false).rfind("  pass ", 0) == 0);
  auto w = row("w", 0);
  w.score.warn = 1;
  CHECK(cli::target_line(w, false).rfind("  warn ", 0) == 0);
  auto e = row("e", 3);
  e.score.error = 1;
  CHECK(cli::target_line(e, false).rfind("  error", 0) == 0);
}

TEST_CASE("batch output: the lines of a batch line up, whatever the names, URLs and counts") {
  auto a = row("bag", 1);
  a.score.fail = 12;
  a.score.error = 3;
  a.score.percent = 40.0;
  a.change = report::Changes{{"/core/a"}, {}, {}};
  auto b = row("kadaster-brk-ééé", 0);
  b.base_url = "https://api.example.nl/kadaster/brk/v2";
  b.score.percent = 100.0;
  b.change = report::Changes{{}, {"/core/a"}, {}};
  auto c = row("kvk", 4);
  c.note = "could not reach https://api.example.nl/kvk: connection refused";
  std::vector<report::SummaryTarget> rows{a, b, c};
  auto columns = cli::line_columns(rows);
  CHECK(columns.name == 16);  // characters, not bytes
  CHECK(columns.url == b.base_url.size());
  std::vector<std::string> lines;
  for (const auto& t : rows) lines.push_back(cli::target_line(t, false, columns));
  CAPTURE(lines[0]);
  CAPTURE(lines[1]);
  CAPTURE(lines[2]);
  // The column where each field starts, counted in characters.
  auto column_of = [](const std::string& line, const std::string& field) {
    auto at = line.find(field);
    REQUIRE(at != std::string::npos);
    return utf8_columns(line.substr(0, at));
  };
  CHECK(column_of(lines[0], "https://") == column_of(lines[1], "https://"));
  CHECK(column_of(lines[1], "https://") == column_of(lines[2], "https://"));
  CHECK(column_of(lines[0], " 40.0 %") == column_of(lines[1], "100.0 %"));
  CHECK(column_of(lines[1], "100.0 %") == column_of(lines[2], "  n/a  "));
  CHECK(column_of(lines[0], "12 fail") == column_of(lines[2], "n/a    down") + 7);  // the counts' "down", not the state's
  CHECK(column_of(lines[0], "new-fail:") == column_of(lines[1], "fixed:"));
  CHECK(column_of(lines[1], "fixed:") == column_of(lines[2], "could not reach"));
  for (const auto& line : lines) CHECK(line.back() != ' ');
  // Without columns (one target alone): no padding between name and URL.
  CHECK(cli::target_line(a, false).find(" bag  https://api.example.nl/bag ") != std::string::npos);
}

TEST_CASE("batch output: names, URLs, rule ids and notes from files and servers are shown escaped") {
  auto t = row("x", 3);
  t.name = "evil\x1b]0;pwned\x07\r\nname\xff";
  t.base_url = "https://h/\x1b[2J";
  t.reachable = false;
  t.note = "server said \x1b[31mred\u009b";
  t.change = report::Changes{{"/core/\x07"}, {}, {}};
  for (bool color : {false, true}) {
    auto line = cli::target_line(t, color);
    CAPTURE(line);
    CHECK(line.find("evil\\x1b]0;pwned\\x07\\x0d\\x0aname\\xff") != std::string::npos);
    CHECK(line.find("https://h/\\x1b[2J") != std::string::npos);
    CHECK(line.find("server said \\x1b[31mred") != std::string::npos);
    CHECK(line.find("/core/\\x07") != std::string::npos);
    CHECK(line.find('\n') == std::string::npos);
    CHECK(line.find('\r') == std::string::npos);
    CHECK(line.find('\x07') == std::string::npos);
    CHECK(line.find("\xc2\x9b") == std::string::npos);
    // the only escape sequences are the colour codes, when asked
    std::size_t escapes = 0;
    for (char c : line) escapes += c == '\x1b';
    CHECK(escapes == (color ? 2u : 0u));
  }
}

TEST_CASE("batch output: the totals line and summary files") {
  auto s = summary_of({0, 1, 3, 0, 4});
  auto line = cli::totals_line(s, "out");
  CHECK(line == "5 targets: 2 without a failing rule, 1 failing, 1 not completely tested, 1 down · out/summary.html");
  // Against a baseline: how many got worse and better.
  for (auto& t : s.targets) t.change = report::Changes{};
  s.targets[4].change->down = true;
  s.targets[0].change->fixed = {"/core/x"};
  CHECK(cli::totals_line(s, "out") ==
        "5 targets: 2 without a failing rule, 1 failing, 1 not completely tested, 1 down; since the baseline 1 got worse, "
        "1 better · out/summary.html");
  auto dir = std::filesystem::temp_directory_path() / ("adrprobe-batch-output-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  cli::write_summary(dir.string(), s);
  for (const char* name : {"summary.json", "summary.html", "summary.prom", "summary.md"}) {
    CAPTURE(name);
    CHECK(std::filesystem::file_size(dir / name) > 0);
    CHECK_FALSE(std::filesystem::exists(dir / (std::string(name) + ".part")));
  }
  std::ifstream in(dir / "summary.json");
  std::stringstream text;
  text << in.rdbuf();
  CHECK(report::parse_summary_json(text.str()).targets.size() == 5);
  std::filesystem::remove_all(dir);
  CHECK_THROWS_AS(cli::write_summary((dir / "missing" / "deeper").string(), s), cli::UsageError);
}

TEST_CASE("batch output: summary files are never written through a symbolic link") {
  auto s = summary_of({0});
  auto dir = std::filesystem::temp_directory_path() / ("adrprobe-batch-links-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "out");
  std::ofstream(dir / "victim") << "precious";
  auto victim_text = [&] {
    std::ifstream in(dir / "victim");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  std::string out = (dir / "out").string();
  CHECK(cli::summary_write_problem(out) == "");
  // the fixed name of old, planted: never used
  std::filesystem::create_symlink("../victim", dir / "out" / "summary.html.part");
  cli::write_summary(out, s);
  CHECK(victim_text() == "precious");
  CHECK_FALSE(std::filesystem::is_symlink(dir / "out" / "summary.html"));
  // the final name, planted: refused before (the message names it) and when writing
  std::filesystem::remove(dir / "out" / "summary.prom");
  std::filesystem::create_symlink("../victim", dir / "out" / "summary.prom");
  CHECK(cli::summary_write_problem(out) ==
        "--out-dir " + out + ": summary.prom: is a symbolic link to ../victim: adrprobe never writes through one "
        "(remove it, or give the path of a regular file)");
  CHECK_THROWS_WITH_AS(cli::write_summary(out, s), doctest::Contains("summary.prom: is a symbolic link"), cli::UsageError);
  CHECK(victim_text() == "precious");
  std::filesystem::remove_all(dir);
}
