// TCP connections for the TLS handshakes: non-blocking, bounded by a deadline.
#pragma once
#include <chrono>
#include <string>

namespace adrprobe::tls {

using Clock = std::chrono::steady_clock;

// Milliseconds until deadline (0 when it has passed).
int ms_left(Clock::time_point deadline);

// A non-blocking TCP connection to host:port within the deadline; -1 and *error on failure.
// Messages name the peer `name` ("proxy http://p:3128"), host:port when empty.
int connect_tcp(const std::string& host, int port, Clock::time_point deadline, std::string* error,
                const std::string& name = "");

// Sends all of data on a non-blocking socket within the deadline.
bool send_all(int fd, const std::string& data, Clock::time_point deadline, std::string* error);

}  // namespace adrprobe::tls
