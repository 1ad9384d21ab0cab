// summary.json ("adrprobe-summary/1", CLI.md) and the rows it is made of.
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>
#include <tuple>

#include "batch/targets.hpp"
#include "oas/parse.hpp"
#include "report/baseline.hpp"
#include "report/json.hpp"
#include "report/sections.hpp"
#include "report/summary.hpp"
#include "util/strings.hpp"

namespace adrprobe::report {

using json = nlohmann::ordered_json;

SummaryTarget summarize(const Report& r, const std::string& name, const std::string& report_file, FailOn fail_on) {
  SummaryTarget t;
  t.name = name;
  t.base_url = r.base_url;
  t.edition = r.edition;
  t.report = report_file;
  t.score = r.score;
  std::vector<RuleSection> sections = rule_sections(r);
  for (const RuleResult* rule : sections.front().rules) {
    if (rule->kind != "technical") continue;
    t.verdicts.emplace_back(rule->id, rule->verdict);
    if (rule->verdict == Verdict::fail) t.failing.push_back(rule->id);
    if (rule->verdict == Verdict::fail && rule->failing_since) t.failing_since.emplace_back(rule->id, *rule->failing_since);
    if (rule->verdict == Verdict::error) t.erroring.push_back(rule->id);
  }
  for (std::size_t i = 1; i < sections.size(); ++i) {
    SummaryModule m{sections[i].module.id, module_heading(sections[i].module), {}};
    for (const RuleResult* rule : sections[i].rules) {
      if (rule->kind != "technical") continue;
      t.verdicts.emplace_back(rule->id, rule->verdict);
      m.rules.push_back(rule->id);
    }
    t.modules.push_back(std::move(m));
  }
  t.change = changes(r);
  if (r.tls && !r.tls->chain.empty()) t.cert_days_left = static_cast<int>(r.tls->chain.front().days_left);
  if (r.leading_notes > 0 && !r.notes.empty()) t.note = r.notes.front();
  t.exit_status = exit_status(r, fail_on);
  t.reachable = !r.unreachable;
  t.generated_at = r.generated_at;
  t.owner = r.owner;
  t.labels = r.labels;
  t.don_adr_score = r.don_adr_score;
  t.moved_from = r.moved_from;
  t.conclusion = conclude(r);
  if (r.unreachable) {
    // Down: one entry ("down: <cause>"), no per-rule verdicts or marks.
    t.note = down_cause(r);
    t.down_since = r.down_since;
    t.failing.clear();
    t.failing_since.clear();
    t.erroring.clear();
    t.verdicts.clear();
    t.modules.clear();
  }
  return t;
}

const SummaryModule* module_of(const SummaryTarget& t, const std::string& rule_id) {
  for (const auto& m : t.modules)
    if (std::find(m.rules.begin(), m.rules.end(), rule_id) != m.rules.end()) return &m;
  return nullptr;
}

HistoryPoint history_point(const SummaryTarget& t, const std::string& fallback_time) {
  HistoryPoint p;
  p.generated_at = t.generated_at.empty() ? fallback_time : t.generated_at;
  p.up = t.reachable;
  if (t.reachable) {
    p.percent = t.score.percent;
    p.pass = t.score.pass;
    p.warn = t.score.warn;
    p.fail = t.score.fail;
    p.error = t.score.error;
  }
  return p;
}

void carry_history(Summary& summary, const Summary* previous) {
  summary.history.clear();
  if (previous) summary.previous_generated_at = previous->generated_at;
  for (const auto& t : summary.targets) {
    std::vector<HistoryPoint> points;
    if (previous) {
      if (auto it = previous->history.find(t.name); it != previous->history.end()) {
        points = it->second;
      } else {
        // A previous summary without history (an older version): its row is the one run it knows.
        for (const auto& old : previous->targets)
          if (old.name == t.name) {
            points.push_back(history_point(old, previous->generated_at));
            break;
          }
      }
    }
    HistoryPoint now = history_point(t, summary.generated_at);
    // The same run merged twice (summary run again on one night) is one point.
    if (!points.empty() && points.back().generated_at == now.generated_at) points.pop_back();
    points.push_back(std::move(now));
    if (points.size() > max_history) points.erase(points.begin(), points.end() - max_history);
    summary.history[t.name] = std::move(points);
  }
}

bool changed(const SummaryTarget& t) {
  if (!t.change) return false;
  const Changes& c = *t.change;
  return c.down || c.back_up || !c.new_fail.empty() || !c.regressed.empty() || !c.fixed.empty();
}

bool still_down(const SummaryTarget& t) { return !t.reachable && t.change && !t.change->down; }

int row_rank(const SummaryTarget& t) {
  if (t.change) {
    const Changes& c = *t.change;
    if (c.down) return 0;
    if (!c.new_fail.empty()) return 1;
    if (!c.regressed.empty()) return 2;
    if (!c.fixed.empty() || c.back_up) return 3;
  }
  if (!t.reachable) return 4;
  if (!t.failing.empty()) return 5;
  if (!t.erroring.empty()) return 6;
  return 7;
}

std::string nights_since(const Summary& summary, const std::string& name, const std::string& since) {
  auto it = summary.history.find(name);
  if (it == summary.history.end() || since.empty()) return "";
  const auto& points = it->second;
  // RFC 3339 times in UTC, as every report writes them, sort as text.
  if (points.empty() || points.front().generated_at > since) return "";
  auto runs = std::count_if(points.begin(), points.end(), [&](const HistoryPoint& p) { return p.generated_at >= since; });
  return plural(static_cast<std::size_t>(runs), "night", "nights");
}

std::map<std::string, std::vector<std::string>> failing_by_since(const SummaryTarget& t,
                                                                 const std::vector<std::string>& except) {
  std::map<std::string, std::vector<std::string>> by_since;
  for (const auto& id : t.failing) {
    if (std::find(except.begin(), except.end(), id) != except.end()) continue;
    auto it = std::find_if(t.failing_since.begin(), t.failing_since.end(), [&](const auto& f) { return f.first == id; });
    by_since[it == t.failing_since.end() ? std::string() : it->second].push_back(id);
  }
  return by_since;
}

bool got_worse(const SummaryTarget& t) {
  if (!t.change) return false;
  const Changes& c = *t.change;
  return c.down || !c.new_fail.empty() || !c.regressed.empty();
}

std::string render_summary_json(const Summary& summary) {
  json j;
  j["schema"] = "adrprobe-summary/1";
  j["tool"] = {{"name", "adrprobe"}, {"version", summary.tool_version}};
  j["generated_at"] = summary.generated_at;
  // Beyond CLI.md's fields: which part of the register, and whether all of it is here.
  j["shard"] = {{"k", summary.shard_k}, {"n", summary.shard_n}, {"register", summary.register_size}};
  if (!summary.register_name.empty()) j["register_name"] = summary.register_name;
  j["complete"] = summary.complete;
  j["notes"] = summary.notes;
  json targets = json::array();
  for (const auto& t : summary.targets) {
    json jt;
    jt["name"] = t.name;
    jt["base_url"] = t.base_url;
    jt["edition"] = t.edition;
    jt["report"] = t.report;
    jt["state"] = t.reachable ? "up" : "down";
    // Beyond CLI.md's fields: the report's conclusion (summary.prom reads it back on a merge).
    if (t.conclusion) jt["conclusion"] = conclusion_json(*t.conclusion);
    // A down target has no score (CLI.md, "Nightly monitoring"): null, shown n/a.
    jt["score"] = t.reachable ? score_json(t.score) : json(nullptr);
    jt["failing"] = t.failing;
    // Since when (CLI.md, "Nightly monitoring"): per failing rule, and a down target's outage.
    json since = json::object();
    for (const auto& [id, at] : t.failing_since) since[id] = at;
    jt["failing_since"] = since;
    jt["down_since"] = t.down_since.empty() ? json(nullptr) : json(t.down_since);
    jt["change"] = t.change ? json{{"new-fail", t.change->new_fail}, {"fixed", t.change->fixed},
                                   {"regressed", t.change->regressed}, {"down", t.change->down},
                                   {"back_up", t.change->back_up}}
                            : json(nullptr);
    jt["owner"] = t.owner;
    json labels = json::object();
    for (const auto& [key, value] : t.labels) labels[key] = value;
    jt["labels"] = labels;
    if (t.don_adr_score) jt["don_adr_score"] = *t.don_adr_score;
    if (!t.moved_from.empty()) jt["moved_from"] = t.moved_from;
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
    // The modules judged beside the edition, and which of `verdicts` are theirs
    // (absent when none: a summary without one reads as before).
    if (!t.modules.empty()) {
      json modules = json::array();
      for (const auto& m : t.modules) modules.push_back({{"id", m.id}, {"heading", m.heading}, {"rules", m.rules}});
      jt["modules"] = std::move(modules);
    }
    targets.push_back(std::move(jt));
  }
  j["targets"] = targets;
  if (!summary.previous_generated_at.empty()) j["previous_generated_at"] = summary.previous_generated_at;
  // Per target, its last runs, oldest first (summary --previous carries them forward).
  json history = json::object();
  for (const auto& [name, points] : summary.history) {
    json list = json::array();
    for (const auto& p : points)
      list.push_back({{"generated_at", p.generated_at}, {"state", p.up ? "up" : "down"},
                      {"percent", p.percent ? json(*p.percent) : json(nullptr)}, {"pass", p.pass},
                      {"warn", p.warn}, {"fail", p.fail}, {"error", p.error}});
    history[name] = std::move(list);
  }
  j["history"] = history;
  return dump_json(j);
}

namespace {

// One point of summary.json's history; `at` names it in a message.
HistoryPoint read_history_point(const json& p, const std::string& at) {
  using json_in::member;
  HistoryPoint point;
  point.generated_at = member<std::string>(p, "generated_at", "", at);
  if (point.generated_at.size() > max_history_time_bytes)
    throw std::runtime_error(
        fmt::format("{}.generated_at is longer than {} bytes: not a time", at, max_history_time_bytes));
  point.up = member<std::string>(p, "state", "up", at) != "down";
  if (auto percent = p.find("percent"); percent != p.end() && percent->is_number()) {
    double v = percent->get<double>();
    if (v >= 0 && v <= 100) point.percent = v;
  }
  point.pass = member<int>(p, "pass", 0, at);
  point.warn = member<int>(p, "warn", 0, at);
  point.fail = member<int>(p, "fail", 0, at);
  point.error = member<int>(p, "error", 0, at);
  return point;
}

// The newest max_history points of one list, by generated_at (of two at one
// time, the later in the list): a heap whose top is the oldest kept, so a
// list of millions costs max_history points. Taken in the list's order.
class NewestPoints {
 public:
  void add(HistoryPoint point, std::size_t index) {
    Kept kept{std::move(point), index};
    if (heap_.size() < max_history) {
      heap_.push_back(std::move(kept));
      std::push_heap(heap_.begin(), heap_.end(), newer);
    } else if (newer(kept, heap_.front())) {
      std::pop_heap(heap_.begin(), heap_.end(), newer);
      heap_.back() = std::move(kept);
      std::push_heap(heap_.begin(), heap_.end(), newer);
    }
  }
  std::vector<HistoryPoint> take() && {
    std::sort(heap_.begin(), heap_.end(), [](const Kept& a, const Kept& b) { return a.index < b.index; });
    std::vector<HistoryPoint> points;
    points.reserve(heap_.size());
    for (auto& kept : heap_) points.push_back(std::move(kept.point));
    return points;
  }

 private:
  struct Kept {
    HistoryPoint point;
    std::size_t index;
  };
  static bool newer(const Kept& a, const Kept& b) {
    return std::tie(a.point.generated_at, a.index) > std::tie(b.point.generated_at, b.index);
  }
  std::vector<Kept> heap_;
};

// summary.json's history as it is parsed (the sieve of oas::parse_json):
// each point of a wanted name's list is read as it closes and kept only
// among that list's newest; anything else under `history` is never built.
// A later `history`, or a later list of one name, replaces the earlier, as in
// a tree. A wrong point is said once the rest is read, where the tree's
// history was read before: what is wrong with the schema or a row comes first.
class HistoryReader {
 public:
  explicit HistoryReader(const HistoryWanted& wanted) : wanted_(wanted) {}

  oas::Sieve sieve() {
    return {[this](const oas::Sieve::Path& place, const json& start) { return route(place, start); },
            [this](const oas::Sieve::Path& place, json&& point) { take(place, point); }};
  }
  // Per name, its newest points; throws the first wrong point's message.
  std::map<std::string, std::vector<HistoryPoint>> points() && {
    std::map<std::string, std::vector<HistoryPoint>> out;
    for (auto& [name, list] : lists_) {
      if (!list.error.empty()) throw std::runtime_error(list.error);
      out.emplace(name, std::move(list.newest).take());
    }
    return out;
  }

 private:
  using Route = oas::Sieve::Route;
  struct List {
    NewestPoints newest;
    std::string error;  // its first wrong point: the rest of it is not read
  };

  Route route(const oas::Sieve::Path& place, const json& start) {
    if (place.empty() || place[0].in_array || place[0].key != "history") return Route::keep;
    switch (place.size()) {
      case 1:  // the history itself
        lists_.clear();
        current_ = nullptr;
        return start.is_object() ? Route::keep : Route::skip;
      case 2: {  // a target's list
        const std::string& name = place[1].key;
        lists_.erase(name);
        current_ = nullptr;
        if (!start.is_array() || (wanted_ && !wanted_(name))) return Route::skip;
        current_ = &lists_[name];  // a list without a point that reads is an empty history
        return Route::keep;
      }
      case 3:  // a point, read when it closes
        return start.is_object() ? Route::apart : Route::skip;
      case 4: {  // what a point reads, and nothing else of it
        constexpr std::string_view read[] = {"generated_at", "state", "percent", "pass", "warn", "fail", "error"};
        return std::find(std::begin(read), std::end(read), place[3].key) != std::end(read) ? Route::keep : Route::skip;
      }
      default:  // inside a member (a wrong type): kept empty, so its type is still said
        return Route::skip;
    }
  }

  void take(const oas::Sieve::Path& place, const json& point) {
    if (!current_ || !current_->error.empty()) return;
    std::size_t index = place[2].index;
    try {
      current_->newest.add(read_history_point(point, ""), index);
    } catch (const std::runtime_error&) {
      // The point is named only when it is wrong: naming each of millions
      // would cost more than reading them.
      try {
        read_history_point(point, fmt::format("history.{}[{}]", place[1].key, index));
      } catch (const std::runtime_error& e) {
        current_->error = e.what();
      }
    }
  }

  const HistoryWanted& wanted_;
  std::map<std::string, List> lists_;
  List* current_ = nullptr;  // the list being parsed
};

}  // namespace

Summary parse_summary_json(const std::string& text, const HistoryWanted& wanted) {
  using json_in::member;
  using json_in::object;
  // As a report is read: size and nesting checked on the text, nothing deep
  // is built, no subtree copied; ordered, so the verdicts keep the edition's
  // order. The history is read as it is parsed, never built whole.
  oas::Limits limits = report_limits();
  limits.max_document_bytes = max_summary_bytes;
  limits.max_stretch_bytes = max_summary_stretch_bytes;
  HistoryReader history(wanted);
  auto parsed = oas::parse_json(text, limits, history.sieve());
  if (!parsed.ok) throw std::runtime_error(read_error(parsed.error, "summary"));
  const json& j = parsed.value;
  auto schema = j.is_object() ? j.find("schema") : j.end();
  if (!j.is_object() || schema == j.end() || *schema != "adrprobe-summary/1")
    throw std::runtime_error("not an adrprobe summary (no \"schema\": \"adrprobe-summary/1\")");
  Summary s;
  // Every field's problem as the old reader said it: not an adrprobe summary (why).
  try {
    s.tool_version = member<std::string>(object(j, "tool"), "version", "", "tool");
    s.generated_at = member<std::string>(j, "generated_at", "", "summary");
    if (const auto& shard = object(j, "shard"); !shard.empty()) {
      auto k = member<std::size_t>(shard, "k", 0, "shard");
      auto n = member<std::size_t>(shard, "n", 1, "shard");
      // The same bounds as --shard: N sizes the list of shards a merge lacks.
      try {
        batch::checked_shard(k, n, fmt::format("shard {}/{}", k, n));
      } catch (const std::invalid_argument& e) {
        throw std::runtime_error(e.what());
      }
      s.shard_k = k;
      s.shard_n = n;
      s.register_size = member<std::size_t>(shard, "register", 0, "shard");
    }
    s.register_name = member<std::string>(j, "register_name", "", "summary");
    s.complete = member<bool>(j, "complete", true, "summary");
    s.notes = member<std::vector<std::string>>(j, "notes", {}, "summary");
    auto targets = j.find("targets");
    if (targets == j.end() || !targets->is_array()) throw std::runtime_error("no \"targets\" list");
    for (std::size_t i = 0; i < targets->size(); ++i) {
      const json& jt = (*targets)[i];
      std::string where = fmt::format("targets[{}]", i);
      if (!jt.is_object()) throw std::runtime_error(where + " is not an object");
      for (const char* key : {"name", "base_url"})
        if (auto it = jt.find(key); it == jt.end() || it->is_null())
          throw std::runtime_error(fmt::format("{} has no {}", where, key));
      bool down = member<std::string>(jt, "state", "up", where) == "down";
      // A down target's score is null; any other target has one.
      if (auto score = jt.find("score"); score == jt.end() || !(score->is_object() || (down && score->is_null())))
        throw std::runtime_error(where + ".score is not an object");
      SummaryTarget t;
      t.name = member<std::string>(jt, "name", "", where);
      t.base_url = member<std::string>(jt, "base_url", "", where);
      t.edition = member<std::string>(jt, "edition", "", where);
      t.report = member<std::string>(jt, "report", "", where);
      const auto& sc = object(jt, "score");
      t.score.pass = member<int>(sc, "pass", 0, where + ".score");
      t.score.warn = member<int>(sc, "warn", 0, where + ".score");
      t.score.fail = member<int>(sc, "fail", 0, where + ".score");
      t.score.error = member<int>(sc, "error", 0, where + ".score");
      t.score.applicable = member<int>(sc, "applicable", 0, where + ".score");
      if (auto percent = sc.find("percent"); percent != sc.end() && percent->is_number())
        t.score.percent = percent->get<double>();
      t.failing = member<std::vector<std::string>>(jt, "failing", {}, where);
      t.erroring = member<std::vector<std::string>>(jt, "erroring", {}, where);
      for (const auto& [id, at] : object(jt, "failing_since").items())
        if (at.is_string()) t.failing_since.emplace_back(id, at.get<std::string>());
      t.down_since = member<std::string>(jt, "down_since", "", where);
      if (auto c = jt.find("change"); c != jt.end() && c->is_object())
        t.change = Changes{member<std::vector<std::string>>(*c, "new-fail", {}, where + ".change"),
                           member<std::vector<std::string>>(*c, "fixed", {}, where + ".change"),
                           member<std::vector<std::string>>(*c, "regressed", {}, where + ".change"),
                           member<bool>(*c, "down", false, where + ".change"),
                           member<bool>(*c, "back_up", false, where + ".change")};
      t.reachable = !down && member<bool>(jt, "reachable", true, where);
      t.owner = member<std::string>(jt, "owner", "", where);
      for (const auto& [key, value] : object(jt, "labels").items())
        if (value.is_string()) t.labels.emplace_back(key, value.get<std::string>());
      if (auto score = jt.find("don_adr_score"); score != jt.end() && !score->is_null())
        t.don_adr_score = member<double>(jt, "don_adr_score", 0, where);
      t.moved_from = member<std::string>(jt, "moved_from", "", where);
      t.note = member<std::string>(jt, "note", "", where);
      if (auto days = jt.find("cert_days_left"); days != jt.end() && !days->is_null())
        t.cert_days_left = member<int>(jt, "cert_days_left", 0, where);
      t.exit_status = member<int>(jt, "exit_status", 0, where);
      t.generated_at = member<std::string>(jt, "generated_at", "", where);
      for (const auto& [format, path] : object(jt, "files").items())
        if (path.is_string()) t.files.emplace_back(format, path.get<std::string>());
      if (const auto& c = object(jt, "conclusion"); !c.empty()) {
        std::string at = where + ".conclusion";
        Conclusion conclusion;
        if (auto conforms = c.find("conforms"); conforms != c.end() && !conforms->is_null())
          conclusion.conforms = member<bool>(c, "conforms", false, at);
        conclusion.must_failed = member<int>(c, "must_failed", 0, at);
        conclusion.should_failed = member<int>(c, "should_failed", 0, at);
        conclusion.warned = member<int>(c, "warned", 0, at);
        conclusion.errors = member<int>(c, "errors", 0, at);
        conclusion.functional_pending = member<int>(c, "functional_pending", 0, at);
        conclusion.text = member<std::string>(c, "text", "", at);
        t.conclusion = std::move(conclusion);
      }
      for (const auto& [id, v] : object(jt, "verdicts").items())
        if (v.is_string())
          if (auto verdict = verdict_from_string(v.get<std::string>())) t.verdicts.emplace_back(id, *verdict);
      if (auto modules = jt.find("modules"); modules != jt.end() && modules->is_array())
        for (std::size_t k = 0; k < modules->size(); ++k) {
          std::string at = fmt::format("{}.modules[{}]", where, k);
          const json& m = (*modules)[k];
          if (!m.is_object()) throw std::runtime_error(at + " is not an object");
          t.modules.push_back({member<std::string>(m, "id", "", at), member<std::string>(m, "heading", "", at),
                               member<std::vector<std::string>>(m, "rules", {}, at)});
        }
      s.targets.push_back(std::move(t));
    }
    s.previous_generated_at = member<std::string>(j, "previous_generated_at", "", "summary");
    s.history = std::move(history).points();
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(fmt::format("not an adrprobe summary ({})", e.what()));
  }
  return s;
}

}  // namespace adrprobe::report
