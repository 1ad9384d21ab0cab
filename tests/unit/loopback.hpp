// A TCP listener on 127.0.0.1, at a port the system chooses, for the scripted
// servers of the unit tests.
#pragma once
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>

namespace adrprobe::testing {

// The listening socket; its port in *port.
inline int listen_on_loopback(int backlog, int* port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(::listen(fd, backlog) == 0);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  *port = ntohs(addr.sin_port);
  return fd;
}

}  // namespace adrprobe::testing
