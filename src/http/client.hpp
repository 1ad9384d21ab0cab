// HTTP client on the libcurl multi interface: concurrent requests under a
// per-host rate limit and one run deadline, every exchange recorded.
#pragma once
#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "http/exchange.hpp"
#include "http/gate.hpp"

namespace adrprobe::http {

using Clock = std::chrono::steady_clock;

struct ClientSettings {
  double timeout_s = 10;          // per request (--timeout)
  int concurrency = 4;            // requests in flight at once (--concurrency)
  double rate = 20;               // requests per second to one host; 0 = unlimited (--rate)
  Clock::time_point deadline = Clock::time_point::max();  // whole run (--deadline)
  std::string ca_file;            // extra trusted CA bundle (--ca-file)
  // Client certificate and key (--cert, --key; PEM), presented only to these
  // origins (scheme://host[:port]: the base URL's and --openapi's).
  std::string cert_file, key_file;
  std::vector<std::string> cert_origins;
  bool insecure = false;          // do not verify certificates (--insecure)
  std::vector<std::string> resolve;  // --resolve: curl's HOST:PORT:ADDR[,ADDR...]
  std::size_t max_exchanges = 0;  // requests one run may send (--max-requests); 0: no limit but the deadline
  std::string user_agent = "adrprobe";
  // Read-only by default: a method outside GET/HEAD/OPTIONS/TRACE, or any
  // request body, is refused (recorded as an error, never sent) unless set.
  bool allow_unsafe = false;
  // Drip-feeding servers: once a response has begun, a transfer that receives
  // fewer than min_bytes_per_s bytes per second over slow_window_s seconds is
  // cut ("server too slow: ..."). The wait for the first byte is not judged
  // (a slow API may think for seconds; --timeout bounds that), and 10 bytes/s
  // is far below any real API while a drip of one byte a second is caught.
  std::size_t min_bytes_per_s = 10;
  double slow_window_s = 5;
  // A response with more header lines than this is cut ("more than N response
  // headers"); real APIs send a few dozen. libcurl bounds the bytes of headers.
  std::size_t max_response_headers = 200;
  // Threads sending at once (each its own share of --concurrency, the records
  // still in the plan's order); 0: two for a long plan at an unlimited rate
  // on a machine of two cores or more (one thread of libcurl is CPU-bound near
  // 20,000 requests/s on loopback), else one.
  int senders = 0;
  // A batch's clients share one (per-host rate slots, requests in flight over
  // all targets); nullptr: this client keeps its own rate slots.
  std::shared_ptr<Gate> gate;
  // Called with a request's headers just before it is sent, on the sending
  // thread (so from several at once): a bearer token renewed during the run
  // takes the place of the one the request was planned with. It may block
  // (a token fetch).
  std::function<void(std::vector<Header>&)> before_send;
};

// Which addresses a request may connect to, judged on every resolved address
// just before connecting (so DNS rebinding cannot get around it) and on every
// redirect hop.
enum class AddressPolicy {
  any,          // whatever the host resolves to
  public_only,  // public addresses only (http/address.hpp), except for exempt_hosts
};

// The exchange error of a request refused by AddressPolicy::public_only.
inline constexpr const char* kNonPublicAddress = "not fetched: non-public address (--ref-hosts any allows it)";

struct Request {
  std::string method = "GET";
  std::string url;
  std::vector<Header> headers;
  std::optional<std::string> body;  // sent only with allow_unsafe
  int max_redirects = 0;         // 0: redirects are recorded, not followed
  // Bytes of response body kept: checks read at most the first 4 KiB of a probe's body
  // (stack-trace hints), so 8 KiB bounds a run to ~160 MiB even at the request cap.
  std::size_t body_limit = 8 * 1024;
  bool to_api = true;
  std::string purpose;
  AddressPolicy address_policy = AddressPolicy::any;
  // With public_only: a request or hop to exactly one of these host names (those
  // the user gave: the base URL's, --openapi's) may go to any address.
  std::vector<std::string> exempt_hosts;
};

struct Result {
  std::vector<int> chain;  // exchange ids, first request then each redirect hop
  int last() const { return chain.back(); }
};

class Client {
 public:
  explicit Client(ClientSettings settings);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Runs all requests (concurrently, rate limited) and returns one result per
  // request, in the same order. Never throws for transport problems: those are
  // recorded as the exchange's error.
  std::vector<Result> run(std::vector<Request> requests);
  // The same for a plan that comes as a queue (a wide API's tens of
  // thousands of requests): each request is taken off it as it is queued, so
  // the plan is never held twice.
  std::vector<Result> run_queue(std::deque<Request> requests);
  Result run_one(Request request) {
    std::vector<Request> one;
    one.push_back(std::move(request));
    return run(std::move(one)).front();
  }

  const Exchange& exchange(int id) const { return exchanges_.at(static_cast<std::size_t>(id - 1)); }
  const std::deque<Exchange>& exchanges() const { return exchanges_; }
  // Takes an exchange's body away (its reader keeps it in another form);
  // the record stays, without it.
  std::string take_body(int id) { return std::exchange(exchanges_.at(static_cast<std::size_t>(id - 1)).body, {}); }
  // Hands the recorded exchanges over (the client is done with them).
  std::deque<Exchange> release_exchanges() { return std::move(exchanges_); }
  // Takes back what release_exchanges() gave, to go on sending: a run's
  // follow-up rounds lend the records to the checks between two sends.
  void restore_exchanges(std::deque<Exchange> exchanges) { exchanges_ = std::move(exchanges); }
  const ClientSettings& settings() const { return settings_; }
  bool deadline_passed() const { return Clock::now() >= settings_.deadline; }

  // Called after each finished exchange (for progress and -v logging), one
  // call at a time whatever thread sent it.
  std::function<void(const Exchange&, std::size_t done, std::size_t queued)> on_exchange;

 private:
  // A second sender for a plan at least this long, at a rate of at least this many requests/s (or 0).
  static constexpr std::size_t kSecondSenderRequests = 256;
  static constexpr double kSecondSenderRate = 5000;
  int senders_for(std::size_t requests) const;
  struct Impl;
  ClientSettings settings_;
  std::deque<Exchange> exchanges_;  // ids are 1-based positions; deque keeps references stable
  std::unique_ptr<Impl> impl_;
};

// Methods that never change server state; the only ones sent without --allow-unsafe.
bool is_safe_method(const std::string& method);

// What a transfer that ended with libcurl's code `curl_code` (a CURLcode), its
// error buffer and the system's errno (CURLINFO_OS_ERRNO) says in a record:
// the error buffer, without libcurl's "after N ms", with the system's reason
// for a refused connection, and not libcurl 7.88's stale "getpeername()
// failed" (a connection reset as it was made).
std::string transport_error(int curl_code, const char* errbuf, long os_errno);

}  // namespace adrprobe::http
