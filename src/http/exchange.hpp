// One recorded HTTP request and its response: the evidence every check points at.
#pragma once
#include <algorithm>
#include <atomic>
#include <list>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace adrprobe::http {

using Header = std::pair<std::string, std::string>;

// A response's header field lines as the server sent them, in order: a name
// sent twice (Set-Cookie, a split Allow) is two lines, never joined. Names are
// lower case.
//
// The lines are shared, copy on write: a run's responses mostly carry the
// same fields (only Date changes, once a second), so the client gives
// identical blocks one allocation (http::Client keeps the recent ones) and a
// copy of a HeaderLines costs a reference. Changing a shared block copies it
// first; one block is never read and written by two threads (a client's
// records stay with its run).
class HeaderLines {
 public:
  using value_type = Header;
  using iterator = std::vector<Header>::iterator;
  using const_iterator = std::vector<Header>::const_iterator;

  HeaderLines() = default;
  HeaderLines(std::initializer_list<Header> lines) { assign(lines.begin(), lines.end()); }
  HeaderLines(const std::map<std::string, std::string>& fields) { assign(fields.begin(), fields.end()); }
  HeaderLines& operator=(const std::map<std::string, std::string>& fields) {
    assign(fields.begin(), fields.end());
    return *this;
  }
  HeaderLines& operator=(std::initializer_list<Header> lines) {
    assign(lines.begin(), lines.end());
    return *this;
  }

  void add(std::string name, std::string value) { own().lines.emplace_back(std::move(name), std::move(value)); }
  // The first line of that name, or end().
  const_iterator find(std::string_view lower_name) const {
    return std::find_if(begin(), end(), [&](const Header& h) { return h.first == lower_name; });
  }
  iterator find(std::string_view lower_name) {
    auto& lines = own().lines;
    return std::find_if(lines.begin(), lines.end(), [&](const Header& h) { return h.first == lower_name; });
  }
  // The value of the first line of that name; a line is added when there is none.
  std::string& operator[](std::string_view lower_name) {
    auto& lines = own().lines;
    auto it = std::find_if(lines.begin(), lines.end(), [&](const Header& h) { return h.first == lower_name; });
    if (it != lines.end()) return it->second;
    lines.emplace_back(std::string(lower_name), std::string());
    return lines.back().second;
  }
  std::size_t count(std::string_view lower_name) const {
    return static_cast<std::size_t>(
        std::count_if(begin(), end(), [&](const Header& h) { return h.first == lower_name; }));
  }
  // Every value of that name, in the order sent.
  std::vector<std::string_view> values(std::string_view lower_name) const {
    std::vector<std::string_view> out;
    for (const auto& [n, v] : *this)
      if (n == lower_name) out.push_back(v);
    return out;
  }
  // The field as one value (RFC 9110 §5.3: lines joined with ", "; Set-Cookie
  // is not a list and keeps one line a value, so its lines are joined with a
  // line feed, which no header value contains).
  std::optional<std::string> joined(std::string_view lower_name) const;
  // Names in byte order, each with its joined value (the JSON report's object).
  std::vector<Header> by_name() const;
  // What a check reads of a field: its one line's value, or its lines joined
  // (kept beside the lines, so the pointer lasts as long as they do); nullptr
  // when the field was not sent.
  const std::string* value(std::string_view lower_name) const;

  bool empty() const { return !block_ || block_->lines.empty(); }
  std::size_t size() const { return block_ ? block_->lines.size() : 0; }
  void clear() { block_.reset(); }
  void shrink_to_fit() {
    if (block_ && block_.use_count() == 1) block_->lines.shrink_to_fit();
  }
  // Non-const iteration may change the lines: both ends detach a shared block.
  iterator begin() { return own().lines.begin(); }
  iterator end() { return own().lines.end(); }
  const_iterator begin() const { return block_ ? block_->lines.cbegin() : none().cbegin(); }
  const_iterator end() const { return block_ ? block_->lines.cend() : none().cend(); }
  const Header& front() const { return *begin(); }
  bool operator==(const HeaderLines& other) const {
    return block_ == other.block_ || std::equal(begin(), end(), other.begin(), other.end());
  }
  // The same lines as another record's (kept once); nullptr when empty.
  const void* identity() const { return block_.get(); }

 private:
  struct Block {
    std::vector<Header> lines;
    mutable std::list<Header> joined;  // value()'s joined fields (stable addresses; empty costs nothing)
  };
  static const std::vector<Header>& none() {
    static const std::vector<Header> empty;
    return empty;
  }
  // The block, this record's alone, its joined values forgotten (they may change).
  Block& own() {
    if (!block_) block_ = std::make_shared<Block>();
    else if (block_.use_count() > 1) block_ = std::make_shared<Block>(Block{block_->lines, {}});
    block_->joined.clear();
    return *block_;
  }
  template <class It>
  void assign(It first, It last) {
    block_.reset();
    if (first != last) own().lines.assign(first, last);
  }
  std::shared_ptr<Block> block_;
};

inline const std::string* HeaderLines::value(std::string_view lower_name) const {
  const std::string* first = nullptr;
  std::size_t n = 0;
  for (const auto& [name, v] : *this)
    if (name == lower_name && !n++) first = &v;
  if (n <= 1) return first;
  // Blocks are shared by records that checks read on several threads at
  // once (engine::judge): one lock for every block's joined values, a path
  // taken only by a field sent on several lines.
  static std::mutex joining;
  std::lock_guard lock(joining);
  for (const auto& [name, v] : block_->joined)
    if (name == lower_name) return &v;
  block_->joined.emplace_back(std::string(lower_name), *joined(lower_name));
  return &block_->joined.back().second;
}

inline std::optional<std::string> HeaderLines::joined(std::string_view lower_name) const {
  std::optional<std::string> out;
  const char* sep = lower_name == "set-cookie" ? "\n" : ", ";
  for (const auto& [n, v] : *this) {
    if (n != lower_name) continue;
    if (out) *out += sep, *out += v;
    else out = v;
  }
  return out;
}

inline std::vector<Header> HeaderLines::by_name() const {
  std::vector<Header> sorted(begin(), end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const Header& a, const Header& b) { return a.first < b.first; });
  std::vector<Header> out;
  for (auto& [n, v] : sorted) {
    if (!out.empty() && out.back().first == n) {
      out.back().second += n == "set-cookie" ? "\n" : ", ";
      out.back().second += v;
    } else {
      out.emplace_back(std::move(n), std::move(v));
    }
  }
  return out;
}

// Request header lines, shared: most requests of a run send the same lines
// (Host, User-Agent, Accept, the -H ones), kept once for all of them.
class SharedHeaders {
 public:
  using const_iterator = std::vector<Header>::const_iterator;
  SharedHeaders() = default;
  SharedHeaders(std::initializer_list<Header> lines) : lines_(std::make_shared<const std::vector<Header>>(lines)) {}
  SharedHeaders(std::vector<Header> lines) {
    if (!lines.empty()) lines_ = std::make_shared<const std::vector<Header>>(std::move(lines));
  }
  const_iterator begin() const { return lines_ ? lines_->begin() : const_iterator(); }
  const_iterator end() const { return lines_ ? lines_->end() : const_iterator(); }
  bool empty() const { return !lines_ || lines_->empty(); }
  std::size_t size() const { return lines_ ? lines_->size() : 0; }
  const Header& operator[](std::size_t i) const { return (*lines_)[i]; }
  // The same lines as another record's (kept once).
  const void* identity() const { return lines_.get(); }

 private:
  std::shared_ptr<const std::vector<Header>> lines_;
};

// A flag checks judging on several threads at once may set (engine::judge),
// copied as its value.
class JudgedFlag {
 public:
  JudgedFlag(bool value = false) noexcept : value_(value) {}
  JudgedFlag(const JudgedFlag& other) noexcept : value_(other.value_.load(std::memory_order_relaxed)) {}
  JudgedFlag& operator=(const JudgedFlag& other) noexcept {
    value_.store(other.value_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    return *this;
  }
  operator bool() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> value_;
};

struct Exchange {
  int id = 0;
  std::string method;
  std::string url;
  // As libcurl sent them (its request line's headers: Host, User-Agent,
  // Accept, ... and the -H ones); redacted only when rendered.
  SharedHeaders request_headers;
  std::optional<int> status;            // nullopt: no response (transport error)
  HeaderLines response_headers;         // every field line, names lower case
  double duration_ms = 0;
  std::optional<std::string> error;  // transport error, "deadline reached", ...
  // Kept up to the request's body limit while checks judge; the report keeps
  // the first 2 KiB where it shows the body (report::slim), else none.
  std::string body;
  bool body_truncated = false;       // the body was longer than what is kept
  bool to_api = true;                // sent to the API under test (not an external $ref host)
  // A check read the body (judged_body()): the report then shows its start.
  mutable JudgedFlag body_judged;
  std::string purpose;               // which check asked for it (for -v logs)

  // That header's value (lower-case name; a field sent on several lines as
  // one value, RFC 9110 §5.3), or nullptr.
  const std::string* header(std::string_view lower_name) const { return response_headers.value(lower_name); }
  // The body, for a check that judges it (marks it shown in the report).
  const std::string& judged_body() const {
    body_judged = true;
    return body;
  }
  bool is_redirect() const { return status && *status >= 300 && *status < 400; }
  bool is_success() const { return status && *status >= 200 && *status < 300; }
};

}  // namespace adrprobe::http
