// Secrets never appear in any output: the values of -H (and --header-file)
// headers, the password of a URL given by the user (https://user:***@host),
// and the credentials of a proxy libcurl is given (the *_proxy environment
// variables: user:password, its Basic value, the Proxy-Authorization header
// made of them). Every string of the report, and every log line, passes
// through a Redactor first.
//
// A secret is looked for in every form a server or the document can hand it
// back in: as given, percent-encoded, JSON-pointer-escaped (a document path
// that carries it becomes a location "/paths/~1k~1<secret>"), lower-cased (in
// a response header name), base64-encoded in either alphabet wherever it
// stands in the encoded data (the secret after 0, 1 or 2 other bytes: the
// part of each encoding that depends on the secret alone), and in the escaped
// forms a server's JSON, URL and HTML libraries write ("\/", "\u002B", "%2B",
// "+" for a space, "&#x2F;", "&#43;"): each text is also read with those
// escapes undone, and a secret found there is masked where it stands.
//
// The parts a header's syntax separates are secrets of their own when long
// enough (min_part): a cookie's value, a bearer token, the user:password of
// a Basic credential (decoded) and its password, and the segments of a value
// between '/' (a value that stands in a document path is split there: a
// check quoting one segment would show it).
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
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
  // The shortest part of a value masked on its own (a cookie's value, a token
  // after its scheme, a segment between '/'): shorter parts ("theme=dark",
  // "v1") are ordinary words.
  static constexpr std::size_t min_part = 8;

  // secrets: the headers the user gave.
  explicit Redactor(const std::vector<http::Header>& secrets);
  // A URL the user gave (the base URL, --openapi, the lint document): its
  // password is a secret too; nothing happens for a URL without one. Every
  // URL is added before the Redactor is shared: apply() may run on many
  // threads at once, add_url() on none.
  void add_url(const std::string& url);
  // A proxy libcurl is given (an environment variable's value, "http://user:pw@host:3128"
  // or without its scheme): its user:password, the Basic value and the
  // Proxy-Authorization header libcurl makes of them. Nothing for a proxy
  // without credentials. Like add_url, before the Redactor is shared.
  void add_proxy(const std::string& proxy);
  // A client's credentials (an OAuth 2.0 client id and secret): the
  // secret, user:secret and the Basic credential made of them. Like add_url,
  // before the Redactor is shared.
  void add_credential(const std::string& user, const std::string& secret);
  // A secret learnt while the Redactor is shared (a bearer token renewed
  // during a run): masked like a header given, in every apply() that starts
  // after this returns. The one add that may run while apply() runs on other
  // threads.
  void add_late(const http::Header& secret);
  std::string apply(std::string text) const;
  // A text cut short (a response body's first 2 KiB): masked as apply(), and
  // a secret the cut went through is masked too (its start at the end).
  std::string apply_cut(std::string text) const;
  // Every string of the report that can carry server text or a value the
  // user gave: exchanges (URLs, header names and values, bodies, errors),
  // messages, details, locations, hints, notes, TLS facts, run facts. The
  // catalogue's own text (rule titles, statements) and identifiers are left.
  void apply(Report& report) const;
  bool empty() const { return needles_.empty() && names_.empty() && !has_late_.load(std::memory_order_acquire); }
  // Whether a URL given had a password (the report says such URLs are discouraged).
  bool url_password() const { return url_password_; }

 private:
  // Needles found in one pass over a text: at each position the longest
  // needle that starts there, looked up by its first two bytes. Overlapping
  // matches are masked as one.
  class Matcher {
   public:
    // A match: text [from, to) is replaced by `with` (the needle's
    // replacement, or the plain mask where overlapping matches were merged).
    struct Span {
      std::size_t from, to;
      const std::string* with;  // nullptr: the plain mask
    };
    void build(std::vector<std::pair<std::string, std::string>> needles);
    // Every match in text, in order, overlapping ones merged.
    std::vector<Span> spans(std::string_view text) const;
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
  // A value and its parts (min_part), in their forms and base64.
  void add_value(const std::string& name, const std::string& value);
  // A user and password in clear (decoded): user:password, the password
  // alone when long enough, and the Basic credential made of them.
  void add_credentials(const std::string& user, const std::string& password);
  // The userinfo of a URL with a password: user:***@ as written, and its credentials.
  bool add_userinfo(const std::string& url);
  // The matchers, indexed once at the first apply after the needles last
  // changed (a batch adds every target's URL one by one: no index each time).
  void build() const;
  static std::string apply(const Matcher& matcher, std::string text);
  // The matches in text as it stands and in each reading of it with the
  // escapes of JSON, URLs and HTML undone, mapped onto text, in order, one
  // span where they overlap.
  static std::vector<Matcher::Span> matches(const Matcher& matcher, std::string_view text);
  std::vector<std::pair<std::string, std::string>> needles_;  // as added
  mutable std::mutex build_mutex_;
  mutable std::atomic<bool> built_{false};
  mutable Matcher text_;              // every needle
  mutable Matcher lower_;             // every needle lower-cased, for response header names (stored lower case)
  std::vector<std::string> names_;    // lower-case header names given with -H
  std::vector<std::string> values_;   // the values, masked whole wherever a header carries exactly one
  bool url_password_ = false;
  // add_late's secrets, as a Redactor of their own that apply() runs after
  // this one's matchers; replaced whole (never changed) when one is added.
  std::shared_ptr<const Redactor> late() const;
  mutable std::shared_mutex late_mutex_;
  std::vector<http::Header> late_secrets_;
  std::shared_ptr<const Redactor> late_;
  std::atomic<bool> has_late_{false};
};

}  // namespace adrprobe::report
