// Secrets never appear in any output: the values of -H (and --header-file)
// headers, and the password of a URL given by the user
// (https://user:***@host). Every string of the report, and every log line,
// passes through a Redactor first.
//
// A secret is looked for in every form a server or the document can hand it
// back in: as given, percent-encoded, JSON-pointer-escaped (a document path
// that carries it becomes a location "/paths/~1k~1<secret>"), lower-cased (in
// a response header name), and base64-encoded in either alphabet wherever it
// stands in the encoded data (the secret after 0, 1 or 2 other bytes: the
// part of each encoding that depends on the secret alone).
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "http/exchange.hpp"
#include "report/model.hpp"

namespace adrprobe::report {

class Redactor {
 public:
  static constexpr const char* mask = "***";
  // Values shorter than this are masked where a header carries exactly that
  // value, not inside other text: masking "1" everywhere would destroy the
  // report (and a value that short is no secret).
  static constexpr std::size_t min_substring = 4;
  // The shortest part of a base64 encoding masked on its own (the part of the
  // secret's encoding that does not depend on the bytes around it): 6
  // characters are 36 bits of the secret, which innocent text does not
  // produce by chance. A secret too short for that is masked where its
  // encoding is whole (aligned, as a Basic credential is).
  static constexpr std::size_t min_base64_part = 6;

  // secrets: the headers the user gave.
  explicit Redactor(const std::vector<http::Header>& secrets);
  // A URL the user gave (the base URL, --openapi, the lint document): its
  // password is a secret too; nothing happens for a URL without one. Every
  // URL is added before the Redactor is shared: apply() may run on many
  // threads at once, add_url() on none.
  void add_url(const std::string& url);
  std::string apply(std::string text) const;
  // A text cut short (a response body's first 2 KiB): masked as apply(), and
  // a secret the cut went through is masked too (its start at the end).
  std::string apply_cut(std::string text) const;
  // Every string of the report that can carry server text or a value the
  // user gave: exchanges (URLs, header names and values, bodies, errors),
  // messages, details, locations, hints, notes, TLS facts, run facts. The
  // catalogue's own text (rule titles, statements) and identifiers are left.
  void apply(Report& report) const;
  bool empty() const { return needles_.empty() && names_.empty(); }
  // Whether a URL given had a password (the report says such URLs are discouraged).
  bool url_password() const { return url_password_; }

 private:
  // Needles found in one pass over a text: at each position the longest
  // needle that starts there, looked up by its first two bytes. Overlapping
  // matches are masked as one.
  class Matcher {
   public:
    void build(std::vector<std::pair<std::string, std::string>> needles);
    // text with every match replaced; `changed` tells whether anything was.
    std::string apply(std::string_view text, bool& changed) const;
    bool empty() const { return needles_.empty(); }
    // How many bytes at the end of text begin a needle (4 or more; the
    // longest such): a secret a cut body ends in the middle of. 0: none.
    std::size_t cut_needle(std::string_view text) const;

   private:
    const std::pair<std::string, std::string>* longest_at(std::string_view text, std::size_t i) const;
    std::vector<std::pair<std::string, std::string>> needles_;  // by first two bytes, longest first
    std::vector<std::uint32_t> first_;                          // 65537 offsets into needles_
  };

  void add(std::string needle, std::string replacement = mask);
  void add_forms(const std::string& value);
  void add_base64(const std::string& value);
  // The matchers, indexed once at the first apply after the needles last
  // changed (a batch adds every target's URL one by one: no index each time).
  void build() const;
  static std::string apply(const Matcher& matcher, std::string text);
  std::vector<std::pair<std::string, std::string>> needles_;  // as added
  mutable std::mutex build_mutex_;
  mutable std::atomic<bool> built_{false};
  mutable Matcher text_;              // every needle
  mutable Matcher lower_;             // every needle lower-cased, for response header names (stored lower case)
  std::vector<std::string> names_;    // lower-case header names given with -H
  std::vector<std::string> values_;   // the values, masked whole wherever a header carries exactly one
  bool url_password_ = false;
};

}  // namespace adrprobe::report
