// summary.json ("adrprobe-summary/1", CLI.md) and the rows it is made of.
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "report/baseline.hpp"
#include "report/json.hpp"
#include "report/summary.hpp"

namespace adrprobe::report {

using json = nlohmann::ordered_json;

SummaryTarget summarize(const Report& r, const std::string& name, const std::string& report_file, FailOn fail_on) {
  SummaryTarget t;
  t.name = name;
  t.base_url = r.base_url;
  t.edition = r.edition;
  t.report = report_file;
  t.score = r.score;
  for (const auto& rule : r.rules) {
    if (rule.kind != "technical") continue;
    t.verdicts.emplace_back(rule.id, rule.verdict);
    if (rule.verdict == Verdict::fail) t.failing.push_back(rule.id);
    if (rule.verdict == Verdict::error) t.erroring.push_back(rule.id);
  }
  t.change = changes(r);
  if (r.tls && !r.tls->chain.empty()) t.cert_days_left = static_cast<int>(r.tls->chain.front().days_left);
  if (r.leading_notes > 0 && !r.notes.empty()) t.note = r.notes.front();
  t.exit_status = exit_status(r, fail_on);
  t.reachable = !r.unreachable;
  t.generated_at = r.generated_at;
  return t;
}


std::string render_summary_json(const Summary& summary) {
  json j;
  j["schema"] = "adrprobe-summary/1";
  j["tool"] = {{"name", "adrprobe"}, {"version", summary.tool_version}};
  j["generated_at"] = summary.generated_at;
  // Beyond CLI.md's fields: which part of the register, and whether all of it is here.
  j["shard"] = {{"k", summary.shard_k}, {"n", summary.shard_n}, {"register", summary.register_size}};
  j["complete"] = summary.complete;
  j["notes"] = summary.notes;
  json targets = json::array();
  for (const auto& t : summary.targets) {
    json jt;
    jt["name"] = t.name;
    jt["base_url"] = t.base_url;
    jt["edition"] = t.edition;
    jt["report"] = t.report;
    jt["score"] = score_json(t.score);
    jt["failing"] = t.failing;
    jt["change"] = t.change ? json{{"new-fail", t.change->new_fail}, {"fixed", t.change->fixed},
                                   {"regressed", t.change->regressed}}
                            : json(nullptr);
    // Beyond CLI.md's fields: for summary.html, summary.prom and scripts.
    jt["erroring"] = t.erroring;
    jt["reachable"] = t.reachable;
    jt["note"] = t.note;
    jt["cert_days_left"] = t.cert_days_left ? json(*t.cert_days_left) : json(nullptr);
    jt["exit_status"] = t.exit_status;
    jt["generated_at"] = t.generated_at;
    json files = json::object();
    for (const auto& [format, path] : t.files) files[format] = path;
    jt["files"] = files;
    json verdicts = json::object();
    for (const auto& [id, v] : t.verdicts) verdicts[id] = to_string(v);
    jt["verdicts"] = verdicts;
    targets.push_back(std::move(jt));
  }
  j["targets"] = targets;
  return dump_json(j);
}

Summary parse_summary_json(const std::string& text) {
  json j;  // ordered: the verdicts keep the edition's order
  try {
    j = json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("not JSON ({})", e.what()));
  }
  auto schema = j.is_object() ? j.find("schema") : j.end();
  if (!j.is_object() || schema == j.end() || *schema != "adrprobe-summary/1")
    throw std::runtime_error("not an adrprobe summary (no \"schema\": \"adrprobe-summary/1\")");
  Summary s;
  try {
    if (j.contains("tool") && j["tool"].is_object()) s.tool_version = j["tool"].value("version", "");
    s.generated_at = j.value("generated_at", "");
    if (j.contains("shard") && j["shard"].is_object()) {
      s.shard_k = j["shard"].value("k", std::size_t{0});
      s.shard_n = std::max<std::size_t>(1, j["shard"].value("n", std::size_t{1}));
      s.register_size = j["shard"].value("register", std::size_t{0});
    }
    s.complete = j.value("complete", true);
    s.notes = j.value("notes", std::vector<std::string>{});
    for (const auto& jt : j.at("targets")) {
      SummaryTarget t;
      t.name = jt.at("name").get<std::string>();
      t.base_url = jt.at("base_url").get<std::string>();
      t.edition = jt.value("edition", "");
      t.report = jt.value("report", "");
      const auto& sc = jt.at("score");
      t.score.pass = sc.value("pass", 0);
      t.score.warn = sc.value("warn", 0);
      t.score.fail = sc.value("fail", 0);
      t.score.error = sc.value("error", 0);
      t.score.applicable = sc.value("applicable", 0);
      if (sc.contains("percent") && sc["percent"].is_number()) t.score.percent = sc["percent"].get<double>();
      t.failing = jt.value("failing", std::vector<std::string>{});
      t.erroring = jt.value("erroring", std::vector<std::string>{});
      if (jt.contains("change") && jt["change"].is_object()) {
        const auto& c = jt["change"];
        t.change = Changes{c.value("new-fail", std::vector<std::string>{}), c.value("fixed", std::vector<std::string>{}),
                           c.value("regressed", std::vector<std::string>{})};
      }
      t.reachable = jt.value("reachable", true);
      t.note = jt.value("note", "");
      if (jt.contains("cert_days_left") && jt["cert_days_left"].is_number_integer())
        t.cert_days_left = jt["cert_days_left"].get<int>();
      t.exit_status = jt.value("exit_status", 0);
      t.generated_at = jt.value("generated_at", "");
      if (jt.contains("files") && jt["files"].is_object())
        for (const auto& [format, path] : jt["files"].items())
          if (path.is_string()) t.files.emplace_back(format, path.get<std::string>());
      if (jt.contains("verdicts") && jt["verdicts"].is_object())
        for (const auto& [id, v] : jt["verdicts"].items())
          if (v.is_string())
            if (auto verdict = verdict_from_string(v.get<std::string>())) t.verdicts.emplace_back(id, *verdict);
      s.targets.push_back(std::move(t));
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("not an adrprobe summary ({})", e.what()));
  }
  return s;
}

}  // namespace adrprobe::report
