// Checked libcurl options and the TLS backend libcurl must have.
#include <doctest/doctest.h>

#include <string>

#include "util/curl_opt.hpp"

using namespace adrprobe;

TEST_CASE("easy_option_name: libcurl's own option names") {
  CHECK(easy_option_name(CURLOPT_URL) == "CURLOPT_URL");
  CHECK(easy_option_name(CURLOPT_PROTOCOLS_STR) == "CURLOPT_PROTOCOLS_STR");
  CHECK(easy_option_name(CURLOPT_CONNECT_ONLY) == "CURLOPT_CONNECT_ONLY");
  // An id no option has, inside the enum's range (below 65536: beyond it the cast is undefined).
  CHECK(easy_option_name(static_cast<CURLoption>(9999)) == "CURLOPT #9999");
}

TEST_CASE("init_curl: this build's libcurl does TLS with OpenSSL") {
  CHECK(init_curl() == "");
  CHECK(&init_curl() == &init_curl());  // once per process
}

TEST_CASE("curl_backend_problem: only a libcurl doing TLS with OpenSSL will do, said clearly") {
  CHECK(curl_backend_problem("OpenSSL/3.0.11", "7.88.1") == "");
  CHECK(curl_backend_problem("GnuTLS/3.7.9", "7.88.1") ==
        "this libcurl (7.88.1) uses GnuTLS/3.7.9 for TLS; adrprobe needs a libcurl built with OpenSSL "
        "(--ca-file, --cert and the certificate checks work on OpenSSL's objects)");
  // several backends, OpenSSL not the one selected
  CHECK(curl_backend_problem("(OpenSSL/3.0.11) GnuTLS/3.7.9", "8.5.0").find("uses (OpenSSL/3.0.11) GnuTLS/3.7.9") !=
        std::string::npos);
  CHECK(curl_backend_problem(nullptr, nullptr).find("uses no TLS library") != std::string::npos);
}

TEST_CASE("set_opt and set_multi_opt: a refused option is an error that names it") {
  REQUIRE(init_curl().empty());
  CURL* e = curl_easy_init();
  REQUIRE(e);
  CHECK_NOTHROW(set_opt(e, CURLOPT_PROTOCOLS_STR, "http,https"));
  CHECK_NOTHROW(set_opt(e, CURLOPT_CONNECT_ONLY, 1L));
  std::string what;
  try {
    set_opt(e, CURLOPT_PROTOCOLS_STR, "no-such-protocol");
  } catch (const CurlOptionError& err) {
    what = err.what();
  }
  CHECK(what.rfind("libcurl refused CURLOPT_PROTOCOLS_STR: ", 0) == 0);
  CHECK_THROWS_AS(set_opt(e, CURLOPT_SSLVERSION, 999L), CurlOptionError);
  curl_easy_cleanup(e);

  CURLM* m = curl_multi_init();
  REQUIRE(m);
  CHECK_NOTHROW(set_multi_opt(m, CURLMOPT_MAX_HOST_CONNECTIONS, "CURLMOPT_MAX_HOST_CONNECTIONS", 4L));
  what.clear();
  try {
    set_multi_opt(m, static_cast<CURLMoption>(9999), "CURLMOPT_UNHEARD_OF", 1L);  // in the enum's range
  } catch (const CurlOptionError& err) {
    what = err.what();
  }
  CHECK(what.rfind("libcurl refused CURLMOPT_UNHEARD_OF: ", 0) == 0);
  curl_multi_cleanup(m);
}
