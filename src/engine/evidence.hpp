// Everything a check judges from: the recorded exchanges (looked up by the
// key of the request a check declared), the description document, the probed
// targets and the TLS facts. Checks never send anything; nothing here is
// named after a check.
#pragma once
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "catalogue/catalogue.hpp"
#include "engine/planner.hpp"
#include "engine/settings.hpp"
#include "http/client.hpp"
#include "oas/parse.hpp"
#include "oas/paths.hpp"
#include "oas/refs.hpp"
#include "verdict/verdict.hpp"
#include "tls/probe.hpp"

namespace adrprobe::engine {

// How fetching a description document went ({base}/openapi.json, --openapi, lint URL).
struct DocumentFetch {
  enum class Outcome { ok, transport_error, http_status, too_many_redirects, too_large, not_json, not_object };
  Outcome outcome = Outcome::transport_error;
  std::string message;  // one line: what was received, or why there is no document
  std::vector<int> chain;  // exchange ids: the request, then each redirect hop
  int redirects = 0;
  std::string final_url;
  bool ok() const { return outcome == Outcome::ok; }
  bool transport() const { return outcome == Outcome::transport_error; }
  int last_exchange() const { return chain.empty() ? 0 : chain.back(); }
};

// The description document the checks read, and how it was had.
struct Document {
  std::optional<oas::DocumentSet> docs;  // when one could be had
  std::string url;                       // where it came from (file:// for a local file)
  // The root document as read, for the line numbers of report locations
  // (Evidence::document_lines): the exchange whose body it is (a fetched
  // document, kept once), or the file it was read from, read again then, in
  // chunks, when its stamp is unchanged (its text is not held through the
  // run: 15 MB for a large one). A large fetched one is kept deflated
  // instead (text_deflated, 0.7 MB for those 15 MB), and its exchange lets
  // the body go (a 2xx body the checks do not read is not in the report).
  int text_exchange = 0;
  std::string text_deflated;
  std::string text_file;
  oas::FileStamp text_stamp;
  // Why there is none ("prerequisite not met: ..."), and whether that was a
  // transport problem (error) or the API's behaviour (fail).
  std::string missing_reason;
  bool missing_is_error = false;
  std::vector<oas::Unresolved> unresolved;  // $refs that do not resolve
  std::vector<int> ref_exchanges;           // fetches of external documents

  // `check` only: {base}/openapi.json as published, fetched without -H.
  std::optional<DocumentFetch> published_fetch;
  // ... and again with -H, when that failed for a reason other than transport.
  std::optional<DocumentFetch> published_with_headers;
  // openapi.json as published, when the checks read another document (--openapi).
  oas::DocPtr published_other;
};

// A documented path that could not be probed, and why ("/gebouwen/{id}: no value for id ...").
struct NotProbed {
  NotProbed(std::string text, bool has_get = true) : text(std::move(text)), has_get(has_get) {}
  std::string text;
  bool has_get;  // NT-2 and HM-1 would have probed it too, not only HM-2 and HM-3
};

// A module of the rules the run judges (the run's "modules" stage): which,
// why, and the shape of API its detector saw (geo: "ogc" or "administrative";
// "" when forced on with --modules on an API that shows none: its rules skip).
struct JudgedModule {
  std::string id;
  std::string reason;
  std::string shape;
};

struct Evidence {
  Settings settings;
  SemverGrammar semver = SemverGrammar::full;    // the edition's SemVer grammar
  const catalogue::NcscTable* ncsc = nullptr;     // the edition's NCSC TLS table
  std::deque<http::Exchange> exchanges;            // ids are 1-based positions
  std::unordered_map<std::string, http::Result> results;  // by RequestSpec::key() (found, never walked)
  Document document;
  std::vector<oas::PathPlan> paths;    // every documented path, in document order
  std::vector<Target> targets;         // probed: the base URL first (check only), then documented paths
  std::vector<NotProbed> not_probed;   // documented paths that could not be probed, with why
  std::string origin;                  // the random Origin of this run's CORS probes
  bool https = false;                  // the base URL's scheme
  std::optional<tls::Facts> tls;       // handshakes, when https
  bool untrusted_stop = false;         // untrusted certificate without --insecure
  // The server wants a client certificate the run did not give, or refuses the
  // one it gave (engine/client_cert.hpp): why. Like untrusted_stop, only the
  // handshake checks are judged; the others are error with this message.
  std::string client_cert_stop;
  std::vector<JudgedModule> modules;   // judged beside the edition (--modules)

  // Lookups.
  const JudgedModule* module(std::string_view id) const {
    for (const auto& m : modules)
      if (m.id == id) return &m;
    return nullptr;
  }
  const http::Exchange& ex(int id) const { return exchanges.at(static_cast<std::size_t>(id - 1)); }
  const http::Result* result(const RequestSpec& spec) const;
  // The last exchange of a declared request (after redirects), or nullptr when it was not sent.
  const http::Exchange* last(const RequestSpec& spec) const;
  const oas::Value* doc() const { return document.docs ? &document.docs->root() : nullptr; }
  // The 1-based line of each pointer in the root document's text as read
  // (oas::lines_of); nullopt each when the text is not to be had (none, or
  // its file changed since it was read).
  std::vector<std::optional<int>> document_lines(const std::vector<std::string>& pointers) const;
  // {base}/openapi.json as published (PO-3 compares openapi.yaml with it).
  const oas::Value* published() const;
  // The base URL target (check only).
  const Target* base() const { return !targets.empty() && targets.front().is_base ? &targets.front() : nullptr; }

  // Wording shared by checks.
  // The result for a check that needs the document when there is none.
  CheckResult prerequisite(const std::string& id) const;
  // {oas}.paths when the document has it as an object, else nullptr.
  const oas::Value* doc_paths() const;
  // For a check that reads {oas}.paths: the prerequisite without a document,
  // skip ("no paths in the document (see DO-3)") without paths, else nullopt.
  std::optional<CheckResult> without_paths(const std::string& id) const;
  // "GET /v1/gebouwen/ → 301" (or the transport error) for messages.
  std::string describe(int exchange_id) const;
  // error with the transport problem, when the exchange has one.
  std::optional<CheckResult> transport_error(const std::string& id, int exchange_id) const;
  // How many probed documented paths with a GET there are, when every one of
  // them answered GET with 404 (the base URL is then probably wrong); else 0.
  std::size_t all_documented_404() const;
  // Neither the base URL nor {base}/openapi.json answered, for transport
  // reasons: "could not reach <base>: <cause>"; else "".
  std::string unreachable() const;
};

// What NT-2 and HM-1 say where they would pass when all_documented_404().
inline constexpr const char* kWrongBaseUrl = "every documented path answered 404 to GET: is the base URL right?";

// The gist of a transport error for one line: "Failed to connect to h port 1:
// Connection refused" → "connection refused"; a first word with a capital
// inside is a name and kept as written ("OpenSSL/3.0.13: ...", "SSL ...").
std::string transport_cause(const std::string& error);

// {oas}.info.version when it is a string, else nullopt.
std::optional<std::string_view> info_version(const oas::Value& doc);

}  // namespace adrprobe::engine
