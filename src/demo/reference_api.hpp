// The built-in reference API of `adrprobe demo`: a small ADR API served on
// 127.0.0.1 by the binary itself, conformant or deliberately broken.
#pragma once
#include <memory>
#include <string>

namespace adrprobe::demo {

enum class Profile { conformant, broken };

class ReferenceApi {
 public:
  explicit ReferenceApi(Profile profile);
  ~ReferenceApi();
  ReferenceApi(const ReferenceApi&) = delete;
  ReferenceApi& operator=(const ReferenceApi&) = delete;

  // Binds a free port on 127.0.0.1 and serves in a background thread: HTTPS
  // with a CA made for this run (conformant), plain HTTP (broken). Returns the
  // base URL ("https://127.0.0.1:PORT/v1"); throws when it cannot bind.
  std::string start();
  // The run's CA certificate (PEM) to trust when probing; empty for HTTP.
  const std::string& ca_pem() const;
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace adrprobe::demo
