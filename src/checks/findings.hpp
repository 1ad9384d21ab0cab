// Gathers per-path findings of one check into its single report entry: the
// worst verdict, a message led by the worst findings, and the evidence ids.
#pragma once
#include <deque>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "http/exchange.hpp"
#include "oas/walk.hpp"
#include "verdict/verdict.hpp"

namespace adrprobe::checks {

// How many findings a message of the 2.2.0 checks lists before "and N more"
// (probes.md: "the first 10").
inline constexpr std::size_t kShown = 10;

class Findings {
 public:
  // The text report shows a check's message up to 400 bytes: by default a
  // message stays within this, cut between findings with "(+N more)".
  static constexpr std::size_t kMessageBytes = 360;

  explicit Findings(std::string id) : id_(std::move(id)) {}
  // One finding. The same finding twice (same message, same exchanges: two
  // targets with one URL) is kept once. location: the JSON pointer in the root
  // document the finding is about (static checks), "" when none.
  void add(Verdict verdict, std::string message, std::vector<int> exchanges = {}, std::string location = {});
  // A finding about one or more places (each field of a group; a field in
  // another file carries its own place as `target`).
  void add_at_places(Verdict verdict, std::string message, std::vector<Location> places, std::vector<int> exchanges = {});
  // A finding about a place in the document, without exchanges.
  void add_at(Verdict verdict, std::string location, std::string message) {
    add(verdict, std::move(message), {}, std::move(location));
  }
  // An exchange that got no response (error): findings with the same error
  // text are one item of the message ("42 requests: Connection refused (...)").
  void add_error(const http::Exchange& e);
  bool empty() const { return items_.empty(); }
  // Findings kept (after dropping repeats).
  std::size_t size() const { return kept_; }
  // pass_message is used when every finding passed (or skipped). At most
  // `shown` findings are listed, and no more than fit in max_bytes.
  CheckResult result(const std::string& pass_message, std::size_t shown = 5,
                             std::size_t max_bytes = kMessageBytes) const;

 private:
  struct Item {
    Verdict verdict;
    std::string message;
    std::vector<int> exchanges;
    std::string request;  // add_error: "GET /v1/a/"
    std::string error;    // add_error: the transport error, the key of its group
    std::vector<Location> locations;  // JSON pointers (and targets), none when none
    // Plain passes (pass, no message, one exchange, no place) added one after
    // another, as one item of their exchanges: a wide API's checks pass tens
    // of thousands of requests, each once.
    bool passes = false;
  };
  // A plain pass, kept in the last item when that one holds plain passes too.
  void add_plain_pass(int id);
  // Exchange ids, each once: a bit per id (a check may cite tens of thousands),
  // ids below 0 (hand-made evidence) in a set.
  class IdSet {
   public:
    // False when it was in already.
    bool insert(int id);

   private:
    std::vector<bool> bits_;
    std::set<int> below_zero_;
  };

  std::string id_;
  // A deque: a document or a wide API may give tens of thousands of
  // findings, and a vector would hold two copies while it grows.
  std::deque<Item> items_;
  // The items add() kept, by a hash of (verdict, message, exchanges): the
  // same finding twice is found without keeping a copy of each.
  std::unordered_multimap<std::size_t, std::size_t> seen_;
  // The ids an item with exactly that one exchange has (add_error keeps one per exchange).
  IdSet single_exchange_;
  IdSet passed_;          // the plain passes' ids
  std::size_t kept_ = 0;  // findings kept (a plain pass is one)
};

// The report place of a value reached by a walk: its root pointer (or the
// root's $ref that led to it) and, when it is in another file, where there.
Location place_of(const oas::Walker& w, const oas::Node& n);

// r with the place in the document it is about (a JSON pointer into the root
// document, "" for the document as a whole), when r is a finding (warn, fail,
// error): a passing check is about no place.
CheckResult located(CheckResult r, std::string pointer);

// The 2.2.0 checks word a cut list as probes.md does: "; … (+N more)" at the
// end of r's message becomes "; and N more".
void and_more(CheckResult& r);

// Joins parts with "; " as long as the result stays within max_bytes, then
// "; … (+N more)" for the rest (N counts the parts left out plus `more`).
std::string join_within(const std::vector<std::string>& parts, std::size_t max_bytes, std::size_t more = 0);

}  // namespace adrprobe::checks
