// util/temp_file: where `adrprobe demo` keeps its CA certificate ($TMPDIR, else /tmp).
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "util/temp_file.hpp"

using namespace adrprobe;

namespace {

// Sets TMPDIR (nullptr: unsets it) for one scope, then puts back what it was.
struct ScopedTmpdir {
  std::optional<std::string> saved;
  explicit ScopedTmpdir(const char* value) {
    if (const char* old = std::getenv("TMPDIR")) saved = old;
    if (value) {
      setenv("TMPDIR", value, 1);
    } else {
      unsetenv("TMPDIR");
    }
  }
  ~ScopedTmpdir() {
    if (saved) {
      setenv("TMPDIR", saved->c_str(), 1);
    } else {
      unsetenv("TMPDIR");
    }
  }
};

std::string read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

bool exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

}  // namespace

TEST_CASE("temp_file: in $TMPDIR, private, holding the content, removed at the end of its scope") {
  char dir_template[] = "/tmp/adrprobe-unit-XXXXXX";
  REQUIRE(mkdtemp(dir_template) != nullptr);
  std::string dir = dir_template;
  std::string path;
  {
    ScopedTmpdir env(dir.c_str());
    CHECK(temp_dir() == dir);
    TempFile file("adrprobe-demo-ca-", "-----BEGIN CERTIFICATE-----\n");
    path = file.path();
    CHECK(path.rfind(dir + "/adrprobe-demo-ca-", 0) == 0);
    CHECK(path.size() == dir.size() + 1 + std::string("adrprobe-demo-ca-").size() + 6);
    CHECK(read_all(path) == "-----BEGIN CERTIFICATE-----\n");
    struct stat st {};
    REQUIRE(stat(path.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
  }
  CHECK_FALSE(exists(path));
  // A trailing slash in TMPDIR gives no double slash.
  {
    ScopedTmpdir env((dir + "/").c_str());
    TempFile file("x-", "");
    CHECK(file.path().rfind(dir + "/x-", 0) == 0);
    CHECK(read_all(file.path()).empty());
  }
  CHECK(rmdir(dir.c_str()) == 0);  // nothing was left behind
}

TEST_CASE("temp_file: /tmp when TMPDIR is unset or empty, never the working directory") {
  {
    ScopedTmpdir env(nullptr);
    CHECK(temp_dir() == "/tmp");
    TempFile file("adrprobe-unit-", "a");
    CHECK(file.path().rfind("/tmp/adrprobe-unit-", 0) == 0);
  }
  {
    ScopedTmpdir env("");
    CHECK(temp_dir() == "/tmp");
  }
}

TEST_CASE("temp_file: a TMPDIR that cannot be written is an error naming it") {
  ScopedTmpdir env("/nonexistent-adrprobe-dir");
  try {
    TempFile file("adrprobe-demo-ca-", "x");
    FAIL("no error for a missing TMPDIR");
  } catch (const std::runtime_error& e) {
    std::string what = e.what();
    CHECK(what.find("/nonexistent-adrprobe-dir") != std::string::npos);
    CHECK(what.find("No such file or directory") != std::string::npos);
    CHECK(what.find("TMPDIR") != std::string::npos);
  }
}
