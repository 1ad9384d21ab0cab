// libcurl's URL handle, for the few files that call libcurl's URL API
// themselves (util/url.cpp; tls/socket.cpp). Everything else uses util/url.hpp,
// which keeps libcurl out of its includers.
#pragma once
#include <curl/curl.h>

#include <optional>
#include <string>

namespace adrprobe {

// libcurl's URL handle, freed on scope exit; get() returns a part as a string.
struct UrlHandle {
  CURLU* h = curl_url();
  UrlHandle() = default;
  UrlHandle(const UrlHandle&) = delete;
  UrlHandle& operator=(const UrlHandle&) = delete;
  ~UrlHandle() { curl_url_cleanup(h); }
  std::optional<std::string> get(CURLUPart part, unsigned flags = 0) const {
    char* out = nullptr;
    if (curl_url_get(h, part, &out, flags) != CURLUE_OK || !out) return std::nullopt;
    std::string s(out);
    curl_free(out);
    return s;
  }
};

}  // namespace adrprobe
