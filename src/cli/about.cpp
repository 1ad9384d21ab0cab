#include "cli/about.hpp"

#include <curl/curl.h>
#include <fmt/format.h>
#include <openssl/crypto.h>

#include "cli/settings.hpp"

namespace adrprobe::cli {

std::map<std::string, std::string> library_versions() {
  const curl_version_info_data* curl = curl_version_info(CURLVERSION_NOW);
  return {{"libcurl", curl && curl->version ? curl->version : "unknown"},
          {"openssl", OpenSSL_version(OPENSSL_VERSION_STRING)}};
}

std::string version_text() {
  const curl_version_info_data* curl = curl_version_info(CURLVERSION_NOW);
  return fmt::format("adrprobe {}\nlibcurl {}{}\n{}\neditions: {}", ADRPROBE_VERSION,
                     curl && curl->version ? curl->version : "unknown",
                     curl && curl->ssl_version ? fmt::format(" ({})", curl->ssl_version) : "",
                     OpenSSL_version(OPENSSL_VERSION), edition_help());
}

}  // namespace adrprobe::cli
