// tls::probe against a hostile server on 127.0.0.1: it refuses every ClientHello
// of OpenSSL and answers each hand-made one (raw_hello.hpp) with a ServerHello
// and then nothing. The probe must take one timeout for the hand-made
// ClientHellos of a version together, and end by the run's deadline.
#include <doctest/doctest.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "loopback.hpp"
#include "tls/probe.hpp"
#include "tls/raw_hello.hpp"

using namespace adrprobe;

namespace {

std::size_t tp_u16(const std::string& b, std::size_t at) {
  return (static_cast<std::size_t>(static_cast<unsigned char>(b[at])) << 8) | static_cast<unsigned char>(b[at + 1]);
}

// Whether bytes hold a whole TLS record.
bool tp_whole_record(const std::string& b) { return b.size() >= 5 && b.size() >= 5 + tp_u16(b, 3); }

// The suites a ClientHello record offers (empty when it is none).
std::vector<std::uint16_t> tp_offered(const std::string& r) {
  // record(5) type(1) length(3) version(2) random(32) session id
  if (r.size() < 44 || r[0] != 0x16 || r[5] != 1) return {};
  std::size_t at = 44 + static_cast<unsigned char>(r[43]);
  if (r.size() < at + 2) return {};
  std::vector<std::uint16_t> out;
  for (std::size_t i = 0, n = tp_u16(r, at); i + 1 < n && at + 3 + i < r.size(); i += 2)
    out.push_back(static_cast<std::uint16_t>(tp_u16(r, at + 2 + i)));
  return out;
}

// Offers only suites of raw_suites() (and the renegotiation SCSV): a hand-made ClientHello.
bool tp_hand_made(const std::vector<std::uint16_t>& suites) {
  const auto& raw = tls::raw_suites();
  return !suites.empty() && std::all_of(suites.begin(), suites.end(), [&](std::uint16_t id) {
    return id == 0x00FF || std::any_of(raw.begin(), raw.end(), [&](const tls::RawSuite& r) { return r.id == id; });
  });
}

// A ServerHello record choosing suite at the ClientHello's version.
std::string tp_server_hello(const std::string& hello, std::uint16_t suite) {
  std::string body = hello.substr(9, 2) + std::string(32, 'r') + '\0';
  body += static_cast<char>(suite >> 8);
  body += static_cast<char>(suite & 0xff);
  body += '\0';
  std::string msg = std::string("\x02\x00\x00", 3) + static_cast<char>(body.size()) + body;
  return std::string("\x16\x03\x03\x00", 4) + static_cast<char>(msg.size()) + msg;
}

class StallingTlsServer {
 public:
  StallingTlsServer() : listener_(testing::listen_on_loopback(64, &port)) {
    acceptor_ = std::thread([this] { accept_loop(); });
  }
  ~StallingTlsServer() {
    stop_ = true;
    acceptor_.join();
    for (auto& t : connections_) t.join();
    close(listener_);
  }
  int hand_made_hellos() const { return hand_made_; }
  int port = 0;  // before listener_: set by its initialiser

 private:
  // Waits for fd to be readable, checking stop_ every 100 ms.
  bool readable(int fd) {
    while (!stop_) {
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, 100) == 1) return true;
    }
    return false;
  }
  void accept_loop() {
    while (readable(listener_)) {
      int fd = accept(listener_, nullptr, nullptr);
      if (fd >= 0) connections_.emplace_back([this, fd] { serve(fd); });
    }
  }
  void serve(int fd) {
    std::string got;
    char buf[4096];
    while (readable(fd)) {  // one record: the ClientHello
      ssize_t n = read(fd, buf, sizeof buf);
      if (n <= 0) break;
      got.append(buf, static_cast<std::size_t>(n));
      if (tp_whole_record(got)) break;
    }
    auto suites = tp_offered(got);
    if (tp_hand_made(suites)) {
      ++hand_made_;
      std::string answer = tp_server_hello(got, suites.front());
      (void)!write(fd, answer.data(), answer.size());
      while (readable(fd) && read(fd, buf, sizeof buf) > 0) {
      }  // and nothing more, until the client gives up
    } else {
      (void)!write(fd, "\x15\x03\x03\x00\x02\x02\x28", 7);  // handshake_failure
    }
    close(fd);
  }

  int listener_ = -1;
  std::atomic<bool> stop_{false};
  std::atomic<int> hand_made_{0};
  std::thread acceptor_;
  std::vector<std::thread> connections_;  // only the acceptor adds to it, joined after it
};

double tp_seconds_since(tls::Clock::time_point start) {
  return std::chrono::duration<double>(tls::Clock::now() - start).count();
}

const tls::Protocol& tp_tls12(const tls::Facts& f) {
  auto it = std::find_if(f.protocols.begin(), f.protocols.end(), [](const auto& p) { return p.name == "TLSv1.2"; });
  REQUIRE(it != f.protocols.end());
  return *it;
}

}  // namespace

TEST_CASE("tls::probe: a server that stalls after each hand-made ServerHello costs one timeout for them all") {
  StallingTlsServer server;
  tls::Settings s;
  s.timeout_s = 2;
  auto start = tls::Clock::now();
  tls::Facts f = tls::probe("127.0.0.1", server.port, s);
  // One timeout (and the refusals), where each suite took one before (over 40 s)
  // and one a version would take 6 s: room for a sanitized build on a loaded machine.
  CHECK(tp_seconds_since(start) < 5);
  const auto& p = tp_tls12(f);
  CHECK(p.accepted);
  CHECK_FALSE(p.suites.empty());
  CHECK_FALSE(p.suites_complete);
  CHECK_FALSE(p.deadline_reached);
  CHECK_FALSE(f.deadline_reached);
  CHECK(server.hand_made_hellos() <= 9);  // the first of each chunk, per version: none waited for another
}

TEST_CASE("tls::probe: every handshake ends by the run's deadline, and what it cut is said") {
  StallingTlsServer server;
  tls::Settings s;
  s.timeout_s = 10;
  auto start = tls::Clock::now();
  s.deadline = start + std::chrono::seconds(1);
  tls::Facts f = tls::probe("127.0.0.1", server.port, s);
  CHECK(tp_seconds_since(start) < 6);  // not the 10 s timeout: room for a sanitized build on a loaded machine
  CHECK(f.deadline_reached);
  const auto& p = tp_tls12(f);
  CHECK(p.accepted);
  CHECK(p.deadline_reached);
  CHECK_FALSE(p.suites_complete);

  // A deadline already passed: no handshake is begun, each is "deadline reached".
  s.deadline = tls::Clock::now();
  f = tls::probe("127.0.0.1", server.port, s);
  CHECK(f.deadline_reached);
  CHECK(f.error == "deadline reached");
  CHECK_FALSE(f.connected);
  for (const auto& v : f.protocols)
    if (v.testable) CHECK(v.error == "deadline reached");
}
