// cli/about: what --version tells an auditor.
#include <doctest/doctest.h>

#include "cli/about.hpp"

using namespace adrprobe;

TEST_CASE("library versions: the libcurl and OpenSSL running") {
  auto v = cli::library_versions();
  REQUIRE(v.count("libcurl"));
  CHECK_FALSE(v.at("libcurl").empty());
  CHECK(v.at("libcurl") != "unknown");
}

TEST_CASE("--version names adrprobe, libcurl and every edition") {
  std::string text = cli::version_text();
  CHECK(text.rfind("adrprobe ", 0) == 0);
  CHECK(text.find("libcurl ") != std::string::npos);
  for (const char* e : {"1.0", "2.0.0", "2.1.0", "2.2.0"}) CHECK(text.find(e) != std::string::npos);
}
