#include "util/curl_opt.hpp"

#include <fmt/format.h>

#include <mutex>

namespace adrprobe {

std::string easy_option_name(CURLoption option) {
  const curl_easyoption* o = curl_easy_option_by_id(option);
  return o && o->name ? std::string("CURLOPT_") + o->name : fmt::format("CURLOPT #{}", static_cast<int>(option));
}

void throw_curl_option_error(const std::string& option, const char* why) {
  throw CurlOptionError(fmt::format("libcurl refused {}: {}", option, why ? why : "unknown error"));
}

std::string curl_backend_problem(const char* ssl_version, const char* version) {
  // The backend in use: "OpenSSL/3.0.11"; a build with several lists those not
  // in use in parentheses: "(OpenSSL/3.0.11) GnuTLS/3.7.9".
  std::string ssl = ssl_version ? ssl_version : "";
  if (ssl.rfind("OpenSSL/", 0) == 0) return "";
  return fmt::format("this libcurl ({}) uses {} for TLS; adrprobe needs a libcurl built with OpenSSL "
                     "(--ca-file, --cert and the certificate checks work on OpenSSL's objects)",
                     version ? version : "unknown version", ssl.empty() ? "no TLS library" : ssl);
}

const std::string& init_curl() {
  static std::once_flag once;
  static std::string problem;
  std::call_once(once, [] {
    // A libcurl with several TLS backends uses the one chosen before curl_global_init.
    curl_global_sslset(CURLSSLBACKEND_OPENSSL, nullptr, nullptr);
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) problem = "libcurl could not be initialised";
    else {
      const curl_version_info_data* info = curl_version_info(CURLVERSION_NOW);
      problem = curl_backend_problem(info ? info->ssl_version : nullptr, info ? info->version : nullptr);
    }
  });
  return problem;
}

}  // namespace adrprobe
