// A register (TARGETS.yaml) from DON's API register (CLI.md, "A register from
// the API register of developer.overheid.nl"): its answers read, and the
// batch file written, merged into a hand-kept one. The answers are untrusted:
// every bound is here, every value is written with yaml-cpp's emitter (never
// pasted into text) and parses back to itself. Nothing here sends a request
// (cli/cmd_register.cpp does).
#pragma once
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace adrprobe::batch::don {

// DON's production URL, as the register's own document names it.
inline constexpr const char* kProductionUrl = "https://api.developer.overheid.nl/api-register/v1";

// Bounds on what the register may answer. DON lists under a thousand APIs;
// at perPage=100 a register of 10,000 is 100 pages, and a register file of
// that many targets is about the most batch reads (max_register_bytes).
inline constexpr int kPerPage = 100;
inline constexpr std::size_t kMaxPages = 200;   // repeated pages count: a Total-Pages of 10^9 stops here
inline constexpr std::size_t kMaxApis = 10'000;  // distinct ids
inline constexpr std::size_t kMaxAnswerBytes = 4u << 20;  // one page or one API
inline constexpr std::size_t kMaxIdBytes = 200;
inline constexpr std::size_t kMaxNameBytes = 80;  // a name made from a title (its files' names)
// Entries that cannot be read are listed with the reason up to this many, the
// rest counted: a page of 4 MiB holds a million "{}" (1.2 GB held and a file
// batch would not read, when each was a line of the closing comment).
inline constexpr std::size_t kMaxUnreadableListed = 100;

// The lifecycles of DON's schema; `retired` is never written.
const std::vector<std::string>& lifecycles();

struct Api {
  // From GET /apis (ApiSummary).
  std::string id, title, organisation_uri, organisation_label, lifecycle;
  std::optional<double> adr_score;
  // From GET /apis/{id} (ApiDetail): the servers' URLs, in order, oasUrl, auth.
  std::vector<std::string> servers;
  std::optional<std::string> oas_url;
  std::vector<std::string> auth;

  enum class State {
    wanted,     // passes --status and --organisation, and its detail was read
    filtered,   // listed, but not asked for (retired, another lifecycle or organisation): `why`
    unfetched,  // asked for, but GET /apis/{id} failed: `why`
  } state = State::wanted;
  std::string why;
};

// One page of GET /apis: the entries read, and those that could not be: how
// many, and why for the first kMaxUnreadableListed.
struct Page {
  std::vector<Api> apis;
  std::vector<std::string> unreadable;
  std::size_t unreadable_count = 0;
};
// Throws std::runtime_error (the reason) when the body is no JSON array.
Page parse_page(const std::string& body);
// GET /apis/{id}'s body into `api` (servers, oasUrl, auth; and the summary's
// fields again). Throws std::runtime_error (the reason) on an unusable answer.
void read_detail(const std::string& body, Api& api);
// A Link header value has a link with rel next (any quoting, any case).
bool link_has_next(std::string_view link);

// A base URL batch will take: http(s), a host, no query or fragment; else why not.
std::string base_url_problem(const std::string& url);

struct WriteInput {
  std::vector<Api> apis;                 // every API listed, deduplicated, in any order
  std::vector<std::string> unreadable;   // entries of a page that could not be read
  std::string source;                    // --from, shown in the header comment (password masked)
  std::string merge_text, merge_file;    // --merge's text and name (empty: none)
  // A note for a host batch would probe though it is not public (a loopback
  // or private address literal); "" for none. Named in the closing comment.
  std::function<std::string(const std::string& host)> address_note;
};

struct Written {
  std::string yaml;
  std::size_t targets = 0, from_don = 0, absent = 0;
  std::vector<std::string> left_out;  // what the closing comment lists
};

// The register file: the merge file's defaults; one target per wanted API
// (name a unique slug of the title, DON's id when titles collide; base_url
// the first server; openapi, owner, labels {don_id, lifecycle, auth},
// don_adr_score), merged with the merge file's target of the same don_id,
// else base_url, whose own settings are kept; the merge file's targets DON
// does not list, labelled don: absent; sorted by owner, then name; a closing
// comment listing every API left out and why. Throws std::runtime_error for a
// merge file batch would not read, or a result it would not (larger than
// max_register_bytes).
Written write_register(const WriteInput& input);

}  // namespace adrprobe::batch::don
