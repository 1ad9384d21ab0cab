// The built-in reference API of `adrprobe demo`: a small ADR API served on
// 127.0.0.1 by the binary itself, conformant or deliberately broken.
#pragma once
#include <memory>
#include <stdexcept>
#include <string>

namespace adrprobe::demo {

enum class Profile { conformant, broken };

// The port asked for could not be bound on 127.0.0.1 (in use, or not allowed):
// the caller's choice, so a usage error rather than a failure of the server.
struct PortUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ReferenceApi {
 public:
  explicit ReferenceApi(Profile profile);
  ~ReferenceApi();
  ReferenceApi(const ReferenceApi&) = delete;
  ReferenceApi& operator=(const ReferenceApi&) = delete;

  // Binds `port` on 127.0.0.1 (0: a free one) and serves in a background
  // thread: HTTPS with a CA made for this run (conformant), plain HTTP
  // (broken). Returns the base URL ("https://127.0.0.1:PORT/v1"). Throws
  // PortUnavailable when a given port cannot be bound (in use: another
  // listener has it, whether or not it set SO_REUSEPORT), std::runtime_error
  // on any other failure.
  std::string start(int port = 0);
  // The run's CA certificate (PEM) to trust when probing; empty for HTTP.
  const std::string& ca_pem() const;
  // Whether the server thread is still accepting connections.
  bool running() const;
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace adrprobe::demo
