#include "tls/socket.hpp"

#include <fmt/format.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace adrprobe::tls {

int ms_left(Clock::time_point deadline) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return ms < 0 ? 0 : static_cast<int>(ms);
}

int connect_tcp(const std::string& host, int port, Clock::time_point deadline, std::string* error,
                const std::string& name) {
  std::string peer = name.empty() ? fmt::format("{}:{}", host, port) : name;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res);
  if (rc != 0) {
    *error = fmt::format("cannot resolve {}: {}", name.empty() ? host : name, gai_strerror(rc));
    return -1;
  }
  std::unique_ptr<addrinfo, void (*)(addrinfo*)> guard(res, freeaddrinfo);
  *error = "no address";
  for (addrinfo* ai = res; ai; ai = ai->ai_next) {
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) continue;
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) return fd;
    if (errno == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      if (poll(&p, 1, ms_left(deadline)) == 1) {
        int err = 0;
        socklen_t len = sizeof err;
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
        if (err == 0) return fd;
        *error = fmt::format("cannot connect to {}: {}", peer, strerror(err));
      } else {
        *error = fmt::format("cannot connect to {}: timed out", peer);
      }
    } else {
      *error = fmt::format("cannot connect to {}: {}", peer, strerror(errno));
    }
    close(fd);
  }
  return -1;
}

bool send_all(int fd, const std::string& data, Clock::time_point deadline, std::string* error) {
  std::size_t sent = 0;
  while (sent < data.size()) {
    ssize_t n = send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
      pollfd p{fd, POLLOUT, 0};
      if (poll(&p, 1, ms_left(deadline)) != 1) {
        *error = "timed out";
        return false;
      }
      continue;
    }
    *error = n < 0 ? strerror(errno) : "connection closed";
    return false;
  }
  return true;
}

}  // namespace adrprobe::tls
