// libcurl set up and used as curl's own tool uses it: every curl_easy_setopt
// and curl_multi_setopt result is checked (a refusal is an error naming the
// option), and adrprobe runs only on a libcurl whose TLS backend is OpenSSL.
#pragma once
#include <curl/curl.h>

#include <stdexcept>
#include <string>

namespace adrprobe {

// libcurl refused an option: "libcurl refused CURLOPT_PROTOCOLS_STR: A libcurl
// function was given a bad argument".
struct CurlOptionError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "CURLOPT_URL", from libcurl's own option table; "CURLOPT #10002" for one it does not know.
std::string easy_option_name(CURLoption option);
[[noreturn]] void throw_curl_option_error(const std::string& option, const char* why);

// curl_easy_setopt, checked: throws CurlOptionError naming the option.
template <typename T>
void set_opt(CURL* easy, CURLoption option, T value) {
  CURLcode rc = curl_easy_setopt(easy, option, value);
  if (rc != CURLE_OK) throw_curl_option_error(easy_option_name(option), curl_easy_strerror(rc));
}

// curl_multi_setopt, checked; libcurl has no table of multi options, so the caller names it.
template <typename T>
void set_multi_opt(CURLM* multi, CURLMoption option, const char* name, T value) {
  CURLMcode rc = curl_multi_setopt(multi, option, value);
  if (rc != CURLM_OK) throw_curl_option_error(name, curl_multi_strerror(rc));
}

// Why a libcurl with this TLS backend (curl_version_info's ssl_version) cannot
// serve adrprobe; empty for OpenSSL.
std::string curl_backend_problem(const char* ssl_version, const char* version);

// Selects OpenSSL as libcurl's TLS backend and initialises libcurl, once per
// process (before any other thread uses libcurl). Returns why adrprobe cannot
// run on this libcurl (its TLS backend is not OpenSSL: --ca-file, the client
// certificate and the trust checks hand libcurl OpenSSL objects), empty when it can.
const std::string& init_curl();

}  // namespace adrprobe
