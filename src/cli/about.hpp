// What an auditor needs to know about the tool itself: its version, the
// libraries that make its requests and handshakes, the editions it knows.
#pragma once
#include <map>
#include <string>

namespace adrprobe::cli {

// {"libcurl": "7.88.1", "openssl": "3.0.15"}: the versions running, not the ones built against.
std::map<std::string, std::string> library_versions();
// "jemalloc 5.3.0" when jemalloc is the process's malloc, "the sanitizer's" in a sanitizer build, else "the C library's".
std::string malloc_text();
// adrprobe --version
std::string version_text();

}  // namespace adrprobe::cli
