#include "http/client.hpp"

#include <array>

#include <curl/curl.h>
#include <fmt/format.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <mutex>
#include <thread>
#include <exception>
#include <stdexcept>

#include "http/address.hpp"
#include "util/curl_opt.hpp"
#include "util/release.hpp"
#include "util/strings.hpp"
#include "util/url.hpp"

namespace adrprobe::http {

bool is_safe_method(const std::string& method) {
  return method == "GET" || method == "HEAD" || method == "OPTIONS" || method == "TRACE";
}

namespace {

struct Pending {
  Request request;
  std::size_t index;  // which result this belongs to
  int redirects_left;
  int exchange_id = 0;  // a retry: the exchange it keeps (one request, one exchange)
};

// The host a URL names, lower case, for the per-host rate slots: a scan, not
// a URL parse per request (a malformed URL is its own key; libcurl refuses it).
std::string rate_host_of(std::string_view url) {
  auto scheme = url.find("://");
  if (scheme == std::string_view::npos) return std::string(url);
  std::string_view rest = url.substr(scheme + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (auto at = rest.rfind('@'); at != std::string_view::npos) rest = rest.substr(at + 1);
  if (!rest.empty() && rest.front() == '[') rest = rest.substr(0, rest.find(']') + 1);
  else rest = rest.substr(0, rest.find(':'));
  return to_lower(rest);
}

struct Transfer {
  CURL* easy = nullptr;
  curl_slist* headers = nullptr;
  Pending pending;
  Exchange* ex = nullptr;  // the record it fills (taken under the run's lock; a deque keeps it in place)
  Clock::time_point started;
  bool truncated = false;
  bool deadline_bound = false;  // the deadline, not --timeout, bounded this request
  double timeout_s = 0;
  std::string* body = nullptr;
  std::size_t limit = 0;
  bool address_refused = false;  // AddressPolicy::public_only refused an address
  const ClientSettings* settings = nullptr;
  std::size_t header_lines = 0;
  bool too_many_headers = false;
  std::size_t header_bytes = 0;       // received so far (the body counts via libcurl's dlnow)
  std::string sent_headers;           // the request's header block as libcurl sent it (the last one sent)
  // The sender's last block of sent header lines and their shared record: a
  // request that sent the same lines takes the record as it was then (another
  // transfer may change the sender's before this one completes).
  const std::string* last_sent = nullptr;
  const SharedHeaders* last_sent_lines = nullptr;
  std::optional<SharedHeaders> sent_as_last;
  bool responding = false;            // the first response byte has arrived
  Clock::time_point window_start;     // of the current low-speed window
  curl_off_t window_bytes = 0;        // received when it began
  bool too_slow = false;
  char errbuf[CURL_ERROR_SIZE] = {0};
};

std::size_t on_header(char* data, std::size_t size, std::size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  std::size_t len = size * n;
  if (!t->responding) {
    t->responding = true;
    t->window_start = Clock::now();
  }
  t->header_bytes += len;
  std::string_view line(data, len);
  bool blank = line == "\r\n" || line == "\n";
  bool status_line = line.rfind("HTTP/", 0) == 0;
  if (!blank && !status_line && ++t->header_lines > t->settings->max_response_headers) {
    t->too_many_headers = true;
    return 0;  // aborts the transfer
  }
  return len;
}

// libcurl's trace: only the request's header block is kept (CURLINFO_HEADER_OUT,
// once per request sent on this handle), so the report shows what went out.
int on_debug(CURL*, curl_infotype type, char* data, std::size_t size, void* user) {
  if (type != CURLINFO_HEADER_OUT) return 0;
  auto* t = static_cast<Transfer*>(user);
  std::string_view block(data, size);
  std::string_view lines = block.substr(std::min(block.size(), block.find('\n') + 1));
  if (t->last_sent && lines == *t->last_sent) {
    t->sent_as_last = *t->last_sent_lines;
    t->sent_headers.clear();
  } else {
    t->sent_as_last.reset();
    t->sent_headers.assign(data, size);
  }
  return 0;
}

// "GET /a HTTP/1.1\r\nHost: h\r\nUser-Agent: adrprobe\r\n\r\n" -> its header lines.
std::vector<Header> sent_header_lines(std::string_view block) {
  std::vector<Header> out;
  bool request_line = true;
  while (!block.empty()) {
    auto end = block.find('\n');
    std::string_view line = block.substr(0, end);
    block = end == std::string_view::npos ? std::string_view() : block.substr(end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (request_line) {
      request_line = false;
      continue;
    }
    if (line.empty()) break;
    auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    out.emplace_back(std::string(line.substr(0, colon)), trim(line.substr(colon + 1)));
  }
  return out;
}

// Called by libcurl about once a second even when nothing arrives.
int on_progress(void* user, curl_off_t, curl_off_t dlnow, curl_off_t, curl_off_t) {
  auto* t = static_cast<Transfer*>(user);
  if (!t->responding) return 0;
  auto now = Clock::now();
  curl_off_t received = dlnow + static_cast<curl_off_t>(t->header_bytes);
  double window = t->settings->slow_window_s;
  if (std::chrono::duration<double>(now - t->window_start).count() < window) return 0;
  if (static_cast<double>(received - t->window_bytes) < static_cast<double>(t->settings->min_bytes_per_s) * window) {
    t->too_slow = true;
    return 1;  // aborts the transfer
  }
  t->window_start = now;
  t->window_bytes = received;
  return 0;
}

// AddressPolicy::public_only: libcurl asks for each socket with the address it
// is about to connect to (after DNS, for every address it tries). Behind a
// proxy that address is the proxy's, so the guard then fails closed for a proxy
// on a private network.
curl_socket_t on_open_socket(void* user, curlsocktype purpose, curl_sockaddr* address) {
  auto* t = static_cast<Transfer*>(user);
  if (purpose != CURLSOCKTYPE_IPCXN || !is_public(classify(&address->addr, address->addrlen))) {
    t->address_refused = true;
    return CURL_SOCKET_BAD;
  }
  return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

std::size_t on_body(char* data, std::size_t size, std::size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  std::size_t len = size * n;
  std::size_t room = t->limit > t->body->size() ? t->limit - t->body->size() : 0;
  if (len > room) {
    t->body->append(data, room);
    t->truncated = true;
    return CURL_WRITEFUNC_ERROR;  // stop reading: the rest is not needed
  }
  t->body->append(data, len);
  return len;
}

CURLcode on_ssl_ctx(CURL*, void* ssl_ctx, void* user) {
  // --ca-file adds to the system store instead of replacing it.
  auto* path = static_cast<const std::string*>(user);
  X509_STORE* store = SSL_CTX_get_cert_store(static_cast<SSL_CTX*>(ssl_ctx));
  if (X509_STORE_load_file(store, path->c_str()) != 1) return CURLE_SSL_CACERT_BADFILE;
  return CURLE_OK;
}




// A failure on a reused connection that a server breaking HTTP framing causes
// (a body after a HEAD response is read as the next response: "Received HTTP/0.9
// when not allowed"). Such a request is sent once more, on a fresh connection.
bool framing_failure(CURLcode code) {
  return code == CURLE_WEIRD_SERVER_REPLY || code == CURLE_UNSUPPORTED_PROTOCOL || code == CURLE_RECV_ERROR ||
         code == CURLE_GOT_NOTHING || code == CURLE_SEND_ERROR;
}

void global_init() {
  if (const std::string& problem = init_curl(); !problem.empty()) throw std::runtime_error(problem);
}

}  // namespace

// What differs between otherwise identical failures (" after 3 ms") is left
// out, so they read the same.
std::string transport_error(int curl_code, const char* errbuf, long os_errno) {
  auto code = static_cast<CURLcode>(curl_code);
  // libcurl keeps a response's header lines in a buffer capped at
  // CURL_MAX_HTTP_HEADER (100 KB), and going over the cap is its "Out of
  // memory", without a message of its own: a 1 MB Content-Crs line, not a
  // machine out of memory.
  if (code == CURLE_OUT_OF_MEMORY && !errbuf[0])
    return "a response header line over libcurl's 100 KB limit (libcurl: \"Out of memory\")";
  std::string text = errbuf[0] ? std::string(errbuf) : std::string(curl_easy_strerror(code));
  // libcurl 7.88 (Debian 12's) writes "getpeername() failed with errno 107:
  // Transport endpoint is not connected" when a new connection was reset
  // before it asked for the peer's address, and keeps that first message
  // over the error the transfer ends with (curl fixed it in 8.2): what ended
  // the transfer is its code and the system's error.
  if (text.starts_with("getpeername() failed") || text.starts_with("getsockname() failed")) {
    text = curl_easy_strerror(code);
    if (os_errno > 0 && os_errno != ENOTCONN) text += std::string(": ") + std::strerror(static_cast<int>(os_errno));
    else text += " (the connection was reset as it was made)";
  }
  for (auto at = text.find(" after "); at != std::string::npos; at = text.find(" after ", at + 1)) {
    std::size_t digits = at + 7, end = digits;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    if (end > digits && text.compare(end, 3, " ms") == 0) {
      text.erase(at, end + 3 - at);
      break;
    }
  }
  const std::string generic = ": Couldn't connect to server";
  if (code == CURLE_COULDNT_CONNECT && os_errno > 0 && text.size() > generic.size() &&
      text.compare(text.size() - generic.size(), generic.size(), generic) == 0)
    text = text.substr(0, text.size() - generic.size()) + ": " + std::strerror(static_cast<int>(os_errno));
  return text;
}

// One sending thread's libcurl multi handle and what it reuses from one
// request to the next. A run has one, or two for a long plan at an unlimited
// rate (ClientSettings::senders): a thread drives its own transfers only.
struct Sender {
  CURLM* multi = nullptr;
  std::vector<CURL*> idle;  // easy handles done with, reset and used again
  std::string last_sent;          // the header lines of the last request sent (without its request line)
  SharedHeaders last_sent_lines;  // ... as the records share them
  // The response header blocks seen last: a new response with the same lines
  // (the same fields, Date within the same second) shares one of them.
  std::array<HeaderLines, 16> recent_headers;
  std::size_t next_recent = 0;
  // A response's field lines as read, before they are kept: names lower case,
  // values trimmed, in one buffer used again (no allocation per response).
  std::string field_text;
  std::vector<std::array<std::size_t, 3>> fields;  // name start, value start, value end in field_text
  Sender() {
    multi = curl_multi_init();
    if (!multi) throw std::runtime_error("libcurl: cannot create a multi handle");
  }
  ~Sender() {
    for (CURL* e : idle) curl_easy_cleanup(e);
    curl_multi_cleanup(multi);
  }
  Sender(const Sender&) = delete;
  Sender& operator=(const Sender&) = delete;
};

struct Client::Impl {
  curl_slist* resolve = nullptr;  // --resolve, for every transfer
  std::unordered_map<std::string, Clock::time_point> next_slot;  // per host: earliest next start
  std::vector<std::unique_ptr<Sender>> senders;
  ~Impl() {
    senders.clear();
    curl_slist_free_all(resolve);
  }
};

Client::Client(ClientSettings settings) : settings_(std::move(settings)), impl_(std::make_unique<Impl>()) {
  global_init();
  impl_->senders.push_back(std::make_unique<Sender>());
  for (const auto& entry : settings_.resolve) impl_->resolve = curl_slist_append(impl_->resolve, entry.c_str());
}

Client::~Client() = default;

std::vector<Result> Client::run(std::vector<Request> requests) {
  std::deque<Request> queue(std::make_move_iterator(requests.begin()), std::make_move_iterator(requests.end()));
  release(requests);  // the moved-from entries are freed, not kept for the run
  return run_queue(std::move(queue));
}

int Client::senders_for(std::size_t requests) const {
  // A batch's targets share a gate on threads of their own: one sender each, asked for or not.
  if (settings_.gate) return 1;
  if (settings_.senders > 0) return std::max(1, std::min(settings_.senders, settings_.concurrency));
  // A rate-limited run waits for its slots, not for a core; a short plan is
  // over before a thread starts.
  bool unlimited = settings_.rate <= 0 || settings_.rate >= kSecondSenderRate;
  if (!unlimited || settings_.concurrency < 2 || requests < kSecondSenderRequests) return 1;
  return std::thread::hardware_concurrency() >= 2 ? 2 : 1;
}

std::vector<Result> Client::run_queue(std::deque<Request> requests) {
  // What the senders share, under `mutex`: the queue (taken in order, so the
  // exchange ids follow the plan whatever thread sends), the records, the
  // results, the rate slots and the progress callback.
  std::mutex mutex;
  std::vector<Result> results(requests.size());
  std::deque<Pending> queue;
  for (std::size_t i = 0; !requests.empty(); ++i) {
    int redirects = requests.front().max_redirects;
    queue.push_back({std::move(requests.front()), i, redirects});
    requests.pop_front();
  }
  const int senders = senders_for(queue.size());
  while (static_cast<int>(impl_->senders.size()) < senders) impl_->senders.push_back(std::make_unique<Sender>());
  const auto interval = settings_.rate > 0 ? std::chrono::duration_cast<Clock::duration>(
                                                 std::chrono::duration<double>(1.0 / settings_.rate))
                                           : Clock::duration::zero();
  std::size_t done = 0, in_flight = 0;

  // Under the lock from here to fail_unsent.
  auto record = [&](const Pending& p) -> Exchange& {
    Exchange ex;
    ex.id = static_cast<int>(exchanges_.size()) + 1;
    ex.method = p.request.method;
    ex.url = p.request.url;
    ex.request_headers = p.request.headers;  // until libcurl says what it sent
    ex.to_api = p.request.to_api;
    ex.purpose = p.request.purpose;
    exchanges_.push_back(std::move(ex));
    results[p.index].chain.push_back(exchanges_.back().id);
    return exchanges_.back();
  };
  auto finish_locked = [&](Exchange& ex) {
    ++done;
    if (on_exchange) on_exchange(ex, done, done + queue.size() + in_flight);
  };
  // A retry keeps the exchange of its first attempt, emptied.
  auto exchange_for = [&](const Pending& p) -> Exchange& {
    if (!p.exchange_id) return record(p);
    Exchange& ex = exchanges_[static_cast<std::size_t>(p.exchange_id - 1)];
    ex.status.reset();
    ex.response_headers.clear();
    ex.error.reset();
    ex.body.clear();
    ex.request_headers = p.request.headers;
    ex.body_truncated = false;
    return ex;
  };
  auto fail_unsent = [&](const Pending& p, const std::string& why) {
    Exchange& ex = exchange_for(p);
    ex.error = why;
    finish_locked(ex);
  };
  // The exchange a request taken off the queue is sent as, or nullptr: it is
  // recorded as not sent (the request cap, a method that needs --allow-unsafe).
  auto admit = [&](const Pending& p) -> Exchange* {
    if (!p.exchange_id && settings_.max_exchanges && exchanges_.size() >= settings_.max_exchanges) {
      fail_unsent(p, fmt::format("not sent: --max-requests {} reached", settings_.max_exchanges));
      return nullptr;
    }
    if (!settings_.allow_unsafe && (!is_safe_method(p.request.method) || p.request.body)) {
      fail_unsent(p, fmt::format("refused: {} needs --allow-unsafe (read-only by default)",
                                 p.request.body ? "a request body" : p.request.method));
      return nullptr;
    }
    ++in_flight;
    return &exchange_for(p);
  };
  auto finish = [&](Exchange& ex) {
    std::lock_guard lock(mutex);
    finish_locked(ex);
  };

  // One sender's loop: it takes requests off the shared queue while it has
  // fewer than `slots` in flight, and drives its own transfers.
  auto drive = [&](Sender& sender, int slots) {
    std::vector<std::unique_ptr<Transfer>> active;
    set_multi_opt(sender.multi, CURLMOPT_MAX_HOST_CONNECTIONS, "CURLMOPT_MAX_HOST_CONNECTIONS", static_cast<long>(slots));

    auto start = [&](Pending p, Exchange& ex) {
      auto t = std::make_unique<Transfer>();
      t->ex = &ex;
      t->body = &ex.body;
      t->limit = p.request.body_limit;
      t->started = Clock::now();
      CURL* e = nullptr;
      if (!sender.idle.empty()) {
        e = sender.idle.back();
        sender.idle.pop_back();
        curl_easy_reset(e);
      } else {
        e = curl_easy_init();
      }
      t->easy = e;
      t->last_sent = &sender.last_sent;
      t->last_sent_lines = &sender.last_sent_lines;
      set_opt(e, CURLOPT_URL, p.request.url.c_str());
      set_opt(e, CURLOPT_PATH_AS_IS, 1L);  // a trailing slash or dot segment must reach the server
      set_opt(e, CURLOPT_FOLLOWLOCATION, 0L);
      set_opt(e, CURLOPT_PROTOCOLS_STR, "http,https");
      set_opt(e, CURLOPT_NOSIGNAL, 1L);
      set_opt(e, CURLOPT_USERAGENT, settings_.user_agent.c_str());
      set_opt(e, CURLOPT_ERRORBUFFER, t->errbuf);
      set_opt(e, CURLOPT_WRITEFUNCTION, on_body);
      set_opt(e, CURLOPT_WRITEDATA, t.get());
      set_opt(e, CURLOPT_ACCEPT_ENCODING, "");  // decoded bodies still stop at the body limit (on_body)
      t->settings = &settings_;
      set_opt(e, CURLOPT_HEADERFUNCTION, on_header);
      set_opt(e, CURLOPT_HEADERDATA, t.get());
      set_opt(e, CURLOPT_XFERINFOFUNCTION, on_progress);
      set_opt(e, CURLOPT_XFERINFODATA, t.get());
      set_opt(e, CURLOPT_NOPROGRESS, 0L);
      set_opt(e, CURLOPT_DEBUGFUNCTION, on_debug);
      set_opt(e, CURLOPT_DEBUGDATA, t.get());
      set_opt(e, CURLOPT_VERBOSE, 1L);  // the trace is how the sent headers are read (on_debug)
      if (impl_->resolve) set_opt(e, CURLOPT_RESOLVE, impl_->resolve);
      if (p.exchange_id) {  // the retry after a framing failure: a connection of its own
        set_opt(e, CURLOPT_FRESH_CONNECT, 1L);
        set_opt(e, CURLOPT_FORBID_REUSE, 1L);
      }
      auto left = std::chrono::duration<double>(settings_.deadline - Clock::now()).count();
      double timeout = std::max(0.001, std::min(settings_.timeout_s, left));
      t->deadline_bound = left < settings_.timeout_s;
      t->timeout_s = timeout;
      set_opt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout * 1000));
      set_opt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(timeout * 1000));
      bool exempt = false;
      if (p.request.address_policy == AddressPolicy::public_only && !p.request.exempt_hosts.empty()) {
        auto target = parse_url(p.request.url);
        const auto& hosts = p.request.exempt_hosts;
        exempt = target && std::any_of(hosts.begin(), hosts.end(), [&](const auto& h) { return iequals(target->host, h); });
      }
      if (p.request.address_policy == AddressPolicy::public_only && !exempt) {
        set_opt(e, CURLOPT_OPENSOCKETFUNCTION, on_open_socket);
        set_opt(e, CURLOPT_OPENSOCKETDATA, t.get());
        set_opt(e, CURLOPT_FRESH_CONNECT, 1L);  // a pooled connection was not checked
      }
      if (settings_.insecure) {
        set_opt(e, CURLOPT_SSL_VERIFYPEER, 0L);
        set_opt(e, CURLOPT_SSL_VERIFYHOST, 0L);
      }
      if (!settings_.ca_file.empty()) {
        set_opt(e, CURLOPT_SSL_CTX_FUNCTION, on_ssl_ctx);
        set_opt(e, CURLOPT_SSL_CTX_DATA, &settings_.ca_file);
      }
      if (!settings_.cert_file.empty() && !settings_.cert_origins.empty() &&
          std::any_of(settings_.cert_origins.begin(), settings_.cert_origins.end(),
                      [&](const std::string& o) { return same_origin(o, p.request.url); })) {
        set_opt(e, CURLOPT_SSLCERT, settings_.cert_file.c_str());
        set_opt(e, CURLOPT_SSLCERTTYPE, "PEM");
        set_opt(e, CURLOPT_SSLKEY, settings_.key_file.c_str());
        set_opt(e, CURLOPT_SSLKEYTYPE, "PEM");
      }
      const std::string& m = p.request.method;
      if (m == "HEAD") {
        set_opt(e, CURLOPT_NOBODY, 1L);
      } else if (m == "GET") {
        set_opt(e, CURLOPT_HTTPGET, 1L);
      } else {
        set_opt(e, CURLOPT_CUSTOMREQUEST, m.c_str());
      }
      if (settings_.before_send) settings_.before_send(p.request.headers);
      for (const auto& [name, value] : p.request.headers)
        t->headers = curl_slist_append(t->headers, fmt::format("{}: {}", name, value).c_str());
      if (p.request.body) {
        set_opt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(p.request.body->size()));
        set_opt(e, CURLOPT_COPYPOSTFIELDS, p.request.body->c_str());
        if (m != "POST") set_opt(e, CURLOPT_CUSTOMREQUEST, m.c_str());
      } else if (m == "POST" || m == "PUT" || m == "PATCH") {
        t->headers = curl_slist_append(t->headers, "Content-Length: 0");
      }
      if (t->headers) set_opt(e, CURLOPT_HTTPHEADER, t->headers);
      set_opt(e, CURLOPT_PRIVATE, t.get());
      t->pending = std::move(p);
      curl_multi_add_handle(sender.multi, e);
      active.push_back(std::move(t));
    };

    // A request to queue again, at the front: a retry or a redirect hop.
    auto again = [&](Pending p) {
      std::lock_guard lock(mutex);
      queue.push_front(std::move(p));
    };

    auto complete = [&](Transfer* t, CURLcode code) {
      Exchange& ex = *t->ex;
      long status = 0;
      curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
      curl_off_t total_us = 0;
      curl_easy_getinfo(t->easy, CURLINFO_TOTAL_TIME_T, &total_us);
      ex.duration_ms = static_cast<double>(total_us) / 1000.0;
      bool got_response = status > 0 && (code == CURLE_OK || (code == CURLE_WRITE_ERROR && t->truncated));
      if (t->sent_as_last) {
        ex.request_headers = *t->sent_as_last;
      } else if (!t->sent_headers.empty()) {
        // Without the request line, requests of a run mostly send the same lines: kept once.
        std::string_view block(t->sent_headers);
        block = block.substr(std::min(block.size(), block.find('\n') + 1));
        if (block != sender.last_sent) {
          sender.last_sent = block;
          sender.last_sent_lines = SharedHeaders(sent_header_lines(t->sent_headers));
        }
        ex.request_headers = sender.last_sent_lines;
      }
      long connects = -1;
      curl_easy_getinfo(t->easy, CURLINFO_NUM_CONNECTS, &connects);
      if (!got_response && framing_failure(code) && connects == 0 && !t->pending.exchange_id) {
        // Failed on a reused connection: once more on a fresh one, as the same exchange.
        Pending retry = t->pending;
        retry.exchange_id = ex.id;
        again(std::move(retry));
        return;
      }
      if (got_response) {
        ex.status = static_cast<int>(status);
        // Every field line as sent (a repeated Set-Cookie stays two lines):
        // read into the sender's buffer, compared with the recent blocks there,
        // and made a block of its own only when none has the same lines.
        auto& text = sender.field_text;
        auto& fields = sender.fields;
        text.clear();
        fields.clear();
        curl_header* prev = nullptr;
        while (curl_header* h = curl_easy_nextheader(t->easy, CURLH_HEADER, -1, prev)) {
          std::size_t name = text.size();
          for (const char* c = h->name; *c; ++c) text += static_cast<char>(std::tolower(static_cast<unsigned char>(*c)));
          std::size_t value_at = text.size();
          text += trim_view(h->value);  // libcurl leaves a lone CR on an empty value
          fields.push_back({name, value_at, text.size()});
          prev = h;
        }
        auto field = [&](const std::array<std::size_t, 3>& f) {
          return Header{text.substr(f[0], f[1] - f[0]), text.substr(f[1], f[2] - f[1])};
        };
        auto same_lines = [&](const HeaderLines& block) {
          if (block.size() != fields.size()) return false;
          std::size_t i = 0;
          for (const auto& [name, value] : block) {
            const auto& f = fields[i++];
            if (std::string_view(text).substr(f[0], f[1] - f[0]) != name ||
                std::string_view(text).substr(f[1], f[2] - f[1]) != value)
              return false;
          }
          return true;
        };
        auto& recent = sender.recent_headers;
        auto same = fields.empty() ? recent.end() : std::find_if(recent.begin(), recent.end(), same_lines);
        if (same != recent.end()) {
          ex.response_headers = *same;  // kept once
        } else {
          HeaderLines lines;
          for (const auto& f : fields) {
            auto [name, value] = field(f);
            lines.add(std::move(name), std::move(value));
          }
          lines.shrink_to_fit();
          recent[sender.next_recent++ % recent.size()] = lines;
          ex.response_headers = std::move(lines);
        }
        ex.body_truncated = t->truncated;
        if (ex.body.capacity() > ex.body.size() + 64) ex.body.shrink_to_fit();  // kept until judged: no slack
      } else if (t->address_refused) {
        ex.error = kNonPublicAddress;
      } else if (t->too_many_headers) {
        ex.error = fmt::format("more than {} response headers", settings_.max_response_headers);
      } else if (t->too_slow) {
        ex.error = fmt::format("server too slow: fewer than {} bytes/s for {:g} s", settings_.min_bytes_per_s,
                               settings_.slow_window_s);
      } else if (code == CURLE_OPERATION_TIMEDOUT && (t->deadline_bound || Clock::now() >= settings_.deadline)) {
        ex.error = "deadline reached";
      } else {
        long os_errno = 0;
        curl_easy_getinfo(t->easy, CURLINFO_OS_ERRNO, &os_errno);
        ex.error = transport_error(code, t->errbuf, os_errno);
        if (code == CURLE_OPERATION_TIMEDOUT) ex.error = fmt::format("timeout after {:g} s (--timeout)", t->timeout_s);
      }
      finish(ex);
      // Follow a redirect when the request asked for it: a new recorded exchange.
      const auto* location = ex.header("location");
      if (ex.is_redirect() && t->pending.redirects_left > 0 && location) {
        if (auto next = resolve_url(ex.url, *location)) {
          Pending hop = t->pending;
          hop.redirects_left--;
          hop.exchange_id = 0;  // a new exchange
          if (!same_origin(*next, ex.url)) {
            hop.request.headers.clear();  // never leak headers to another origin (or over a downgrade)
            hop.request.to_api = false;   // nor count its answer as the API's
          }
          hop.request.url = *next;
          again(std::move(hop));
        }
      }
    };

    auto remove = [&](Transfer* t) {
      curl_multi_remove_handle(sender.multi, t->easy);
      sender.idle.push_back(t->easy);
      curl_slist_free_all(t->headers);
      if (settings_.gate) settings_.gate->finished();
      {
        std::lock_guard lock(mutex);
        --in_flight;
      }
      active.erase(std::find_if(active.begin(), active.end(), [&](auto& p) { return p.get() == t; }));
    };

    while (true) {
      auto now = Clock::now();
      if (now >= settings_.deadline) {
        while (!active.empty()) {
          Transfer* t = active.front().get();
          t->ex->error = "deadline reached";
          t->ex->duration_ms = std::chrono::duration<double, std::milli>(now - t->started).count();
          finish(*t->ex);
          remove(t);
        }
        std::lock_guard lock(mutex);
        while (!queue.empty()) {
          Pending p = std::move(queue.front());
          queue.pop_front();
          fail_unsent(p, "deadline reached");
        }
        break;
      }
      auto wait = std::chrono::milliseconds(100);
      while (static_cast<int>(active.size()) < slots) {
        std::unique_lock lock(mutex);
        if (queue.empty()) break;
        // A rate slot is taken by the clock read now, under the lock, not at the
        // top of the loop: a slot taken by an older reading would let the next
        // request to the host (another sender's, another target's) start less
        // than `interval` after this one.
        auto at = Clock::now();
        if (settings_.gate) {
          auto key = rate_host_of(queue.front().request.url);
          Clock::duration until{};
          if (!settings_.gate->try_start(key, at, interval, until, this)) {
            wait = std::min(wait, std::max(std::chrono::milliseconds(1), std::chrono::ceil<std::chrono::milliseconds>(until)));
            break;
          }
        } else if (interval > Clock::duration::zero()) {  // --rate 0: no slots to keep
          auto& slot = impl_->next_slot[rate_host_of(queue.front().request.url)];
          if (slot > at) {
            wait = std::min(wait, std::chrono::ceil<std::chrono::milliseconds>(slot - at));
            break;
          }
          slot = at + interval;
        }
        Pending p = std::move(queue.front());
        queue.pop_front();
        Exchange* ex = admit(p);
        lock.unlock();
        if (ex) start(std::move(p), *ex);
        else if (settings_.gate) settings_.gate->finished();
      }
      int running = 0;
      curl_multi_perform(sender.multi, &running);
      int left = 0;
      bool finished_any = false;
      while (CURLMsg* msg = curl_multi_info_read(sender.multi, &left)) {
        if (msg->msg != CURLMSG_DONE) continue;
        Transfer* t = nullptr;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, reinterpret_cast<char**>(&t));
        CURLcode code = msg->data.result;
        complete(t, code);
        remove(t);
        finished_any = true;
      }
      bool queued = false;  // (a transfer just done may have queued a retry or a hop)
      {
        std::lock_guard lock(mutex);
        queued = !queue.empty();
      }
      // Nothing in flight here and nothing queued: this sender is done (one
      // still sending takes what its own transfers queue).
      if (active.empty() && !queued) break;
      // A freed slot is refilled at once; otherwise wait for socket activity,
      // the next rate-limit slot, or the deadline.
      if (finished_any && queued) continue;
      auto until_deadline = std::chrono::ceil<std::chrono::milliseconds>(settings_.deadline - Clock::now());
      auto ms = std::max<long long>(0, std::min<long long>(wait.count(), until_deadline.count()));
      curl_multi_poll(sender.multi, nullptr, 0, static_cast<int>(ms), nullptr);
    }
  };

  if (senders == 1) {
    drive(*impl_->senders.front(), std::max(1, settings_.concurrency));
    return results;
  }
  // More senders: the calling thread is the first; the concurrency is split
  // between them (together never more than --concurrency connections).
  std::vector<std::thread> threads;
  std::vector<std::exception_ptr> failures(static_cast<std::size_t>(senders));
  auto share = [&](int i) { return settings_.concurrency / senders + (i < settings_.concurrency % senders ? 1 : 0); };
  for (int i = 1; i < senders; ++i)
    threads.emplace_back([&, i] {
      try {
        drive(*impl_->senders[static_cast<std::size_t>(i)], share(i));
      } catch (...) {
        failures[static_cast<std::size_t>(i)] = std::current_exception();
      }
    });
  try {
    drive(*impl_->senders.front(), share(0));
  } catch (...) {
    failures.front() = std::current_exception();
  }
  for (auto& thread : threads) thread.join();
  for (const auto& failure : failures)
    if (failure) std::rethrow_exception(failure);
  return results;
}

}  // namespace adrprobe::http
