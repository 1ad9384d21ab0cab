#include "checks/findings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::checks {

namespace {
// Ids in first-seen order, each once (a set beside the list: a check may cite
// tens of thousands of exchanges).
class UniqueIds {
 public:
  explicit UniqueIds(std::vector<int>& to) : to_(to), seen_(to.begin(), to.end()) {}
  void add(const std::vector<int>& ids) {
    for (int id : ids)
      if (seen_.insert(id).second) to_.push_back(id);
  }

 private:
  std::vector<int>& to_;
  std::unordered_set<int> seen_;
};
// Each place once, in the order the findings are shown (a set beside the
// list). Two distinct fields behind one $ref of the root (same pointer,
// another target) are two places.
class UniqueLocations {
 public:
  explicit UniqueLocations(std::vector<Location>& to) : to_(to) {
    for (const auto& l : to) seen_.insert(key(l));
  }
  void add(const Location& at, bool root_too = false) {
    if (at.pointer.empty() && at.target.empty() && !root_too) return;
    if (seen_.insert(key(at)).second) to_.push_back({at.pointer, std::nullopt, at.target});
  }

 private:
  static std::string key(const Location& l) { return l.pointer + '\n' + l.target; }
  std::vector<Location>& to_;
  std::unordered_set<std::string> seen_;
};
}  // namespace

std::string join_within(const std::vector<std::string>& parts, std::size_t max_bytes, std::size_t more) {
  std::string out;
  std::size_t used = 0;
  for (const auto& p : parts) {
    std::size_t left = parts.size() - used - 1 + more;
    // Room for this part, and for the "(+N more)" tail when parts still follow.
    std::size_t tail = left ? 20 : 0;
    std::size_t need = (used ? 2 : 0) + p.size();
    if (used && out.size() + need + tail > max_bytes) break;
    out += (used ? "; " : "") + p;
    ++used;
  }
  std::size_t rest = parts.size() - used + more;
  if (rest) out += fmt::format("; … (+{} more)", rest);
  return out;
}

Location place_of(const oas::Walker& w, const oas::Node& n) { return {w.pointer(n), std::nullopt, w.elsewhere(n)}; }

CheckResult located(CheckResult r, std::string pointer) {
  if (severity(r.verdict) > severity(Verdict::pass)) UniqueLocations(r.locations).add(Location{pointer, std::nullopt, ""}, true);
  return r;
}

void and_more(CheckResult& r) {
  static const std::string head = "; … (+";
  auto at = r.message.rfind(head);
  if (at == std::string::npos || !r.message.ends_with(" more)")) return;
  std::string n = r.message.substr(at + head.size(), r.message.size() - at - head.size() - 6);
  if (n.empty() || !std::all_of(n.begin(), n.end(), [](char c) { return c >= '0' && c <= '9'; })) return;
  r.message = r.message.substr(0, at) + "; and " + n + " more";
}

void Findings::add(Verdict verdict, std::string message, std::vector<int> exchanges, std::string location) {
  std::vector<Location> places;
  if (!location.empty()) places.push_back({std::move(location), std::nullopt, ""});
  add_at_places(verdict, std::move(message), std::move(places), std::move(exchanges));
}

void Findings::add_plain_pass(int id) {
  if (!passed_.insert(id)) return;
  single_exchange_.insert(id);
  ++kept_;
  if (items_.empty() || !items_.back().passes) items_.push_back({Verdict::pass, "", {}, "", "", {}, true});
  items_.back().exchanges.push_back(id);
}

void Findings::add_at_places(Verdict verdict, std::string message, std::vector<Location> places,
                             std::vector<int> exchanges) {
  if (verdict == Verdict::pass && message.empty() && places.empty() && exchanges.size() == 1)
    return add_plain_pass(exchanges.front());
  // A document may give tens of thousands of findings: repeats are found by hash.
  std::size_t h = std::hash<std::string>{}(message) ^ (static_cast<std::size_t>(verdict) * 0x9e3779b97f4a7c15ULL);
  for (int id : exchanges) h = (h ^ static_cast<std::size_t>(static_cast<unsigned>(id))) * 0x100000001b3ULL;
  for (auto [at, end] = seen_.equal_range(h); at != end; ++at) {
    const Item& i = items_[at->second];
    if (i.verdict == verdict && i.message == message && i.exchanges == exchanges) return;
  }
  seen_.emplace(h, items_.size());
  if (exchanges.size() == 1) single_exchange_.insert(exchanges.front());
  ++kept_;
  items_.push_back({verdict, std::move(message), std::move(exchanges), "", "", std::move(places), false});
}

bool Findings::IdSet::insert(int id) {
  if (id < 0) return below_zero_.insert(id).second;
  auto at = static_cast<std::size_t>(id);
  if (at >= bits_.size()) bits_.resize(at + 1);
  if (bits_[at]) return false;
  bits_[at] = true;
  return true;
}

void Findings::add_error(const http::Exchange& e) {
  if (!single_exchange_.insert(e.id)) return;
  std::string request = fmt::format("{} {}", e.method, url_path(e.url));
  std::string error = e.error.value_or("no response");
  ++kept_;
  items_.push_back({Verdict::error, fmt::format("{}: {}", request, error), {e.id}, request, error, {}, false});
}

CheckResult Findings::result(const std::string& pass_message, std::size_t shown, std::size_t max_bytes) const {
  // Nothing found (no head/options/trace operation, no response lacking a
  // header) is a pass; checks with nothing to send say so before calling this.
  CheckResult out{id_, items_.empty() ? Verdict::pass : Verdict::skip, "", {}};
  for (const auto& i : items_) out.verdict = worst(out.verdict, i.verdict);
  if (out.verdict == Verdict::pass || out.verdict == Verdict::skip) {
    std::vector<std::string> skipped;
    UniqueIds ids(out.exchanges);
    for (const auto& i : items_) {
      ids.add(i.exchanges);
      if (i.verdict == Verdict::skip) skipped.push_back(i.message);
    }
    out.message = out.verdict == Verdict::pass ? pass_message : "";
    if (!skipped.empty()) out.message += (out.message.empty() ? "" : "; ") + join(skipped, "; ", shown);
    if (out.message.empty()) out.message = pass_message;
    return out;
  }
  // Lead with the findings at the worst verdict, then the other problems.
  // Transport errors with the same text are one entry.
  struct Entry {
    std::string message, error;
    std::vector<std::string> requests;
  };
  std::vector<Entry> entries;
  std::unordered_map<std::string, std::size_t> group_of;  // transport error -> its entry
  UniqueIds ids(out.exchanges);
  UniqueLocations places(out.locations);
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& i : items_) {
      bool worst = i.verdict == out.verdict;
      bool problem = severity(i.verdict) > severity(Verdict::pass);
      if (!problem || (pass == 0) != worst) continue;
      ids.add(i.exchanges);
      for (const auto& l : i.locations) places.add(l);
      auto group = i.error.empty() ? group_of.end() : group_of.find(i.error);
      if (group != group_of.end()) {
        entries[group->second].requests.push_back(i.request);
      } else {
        if (!i.error.empty()) group_of.emplace(i.error, entries.size());
        entries.push_back({i.message, i.error, i.error.empty() ? std::vector<std::string>{} : std::vector{i.request}});
      }
    }
  }
  std::vector<std::string> parts;
  for (const auto& e : entries) {
    if (parts.size() >= shown) break;
    if (e.requests.size() < 2) {
      parts.push_back(e.message);
      continue;
    }
    std::string which = e.requests.size() == 2
                            ? fmt::format("{}, {}", e.requests[0], e.requests[1])
                            : fmt::format("{}, {} and {} more", e.requests[0], e.requests[1], e.requests.size() - 2);
    parts.push_back(fmt::format("{} requests: {} ({})", e.requests.size(), e.error, which));
  }
  out.message = join_within(parts, max_bytes, entries.size() - parts.size());
  return out;
}

}  // namespace adrprobe::checks
