#include "cli/about.hpp"

#include <curl/curl.h>
#include <fmt/format.h>
#include <dlfcn.h>
#include <openssl/crypto.h>

#include <cstddef>
#include <string_view>

#include "cli/settings.hpp"

namespace adrprobe::cli {

std::map<std::string, std::string> library_versions() {
  const curl_version_info_data* curl = curl_version_info(CURLVERSION_NOW);
  return {{"libcurl", curl && curl->version ? curl->version : "unknown"},
          {"openssl", OpenSSL_version(OPENSSL_VERSION_STRING)}};
}

std::string malloc_text() {
  // jemalloc answers mallctl("version") when it is the process's malloc
  // (linked, meson.build, or preloaded); looked up, so no build needs it.
  using Mallctl = int (*)(const char*, void*, std::size_t*, void*, std::size_t);
  if (auto* mallctl = reinterpret_cast<Mallctl>(dlsym(RTLD_DEFAULT, "mallctl"))) {
    const char* version = nullptr;
    std::size_t size = sizeof version;
    if (mallctl("version", &version, &size, nullptr, 0) == 0 && version)  // "5.3.0-0-g54eaed1d8b56..."
      return fmt::format("jemalloc {}", std::string_view(version).substr(0, std::string_view(version).find('-')));
  }
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return "the sanitizer's";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
  return "the sanitizer's";
#endif
#endif
  return "the C library's";
}

std::string version_text() {
  const curl_version_info_data* curl = curl_version_info(CURLVERSION_NOW);
  return fmt::format("adrprobe {}\nlibcurl {}{}\n{}\nmalloc: {}\neditions: {}", ADRPROBE_VERSION,
                     curl && curl->version ? curl->version : "unknown",
                     curl && curl->ssl_version ? fmt::format(" ({})", curl->ssl_version) : "",
                     OpenSSL_version(OPENSSL_VERSION), malloc_text(), edition_help());
}

}  // namespace adrprobe::cli
