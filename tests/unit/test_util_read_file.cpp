// util/read_file: a file someone else wrote is read within a cap, and only
// when it is a regular file (a planted FIFO or /dev/zero is refused at once).
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "util/read_file.hpp"
#include "util/temp_file.hpp"
#include "scratch_dir.hpp"

using namespace adrprobe;
using adrprobe::testing::ScratchDir;
namespace fs = std::filesystem;

namespace {

ReadFileError::Kind refusal(const std::string& path, std::size_t cap, std::string* what = nullptr) {
  try {
    (void)read_file(path, cap);
  } catch (const ReadFileError& e) {
    if (what) *what = e.what();
    return e.kind();
  }
  FAIL("read_file(" << path << ") did not refuse");
  return ReadFileError::Kind::unreadable;
}

}  // namespace

TEST_CASE("read_file: a regular file up to the cap is read whole, byte for byte") {
  ScratchDir dir;
  std::string bytes("a\0b\xff\r\n", 6);
  CHECK(read_file(dir.write("f", bytes), 6) == bytes);
  CHECK(read_file(dir.write("empty", ""), 0).empty());
  std::string big(200 * 1024 + 7, 'x');  // more than one read's chunk
  CHECK(read_file(dir.write("big", big), big.size()) == big);
}

TEST_CASE("read_file: one byte over the cap is refused, saying the cap") {
  ScratchDir dir;
  std::string what;
  CHECK(refusal(dir.write("f", std::string(1025, 'x')), 1024, &what) == ReadFileError::Kind::too_large);
  CHECK(what == "larger than 1 KiB");
  CHECK(refusal(dir.write("g", std::string(11, 'x')), 10, &what) == ReadFileError::Kind::too_large);
  CHECK(what == "larger than 10 bytes");
}

TEST_CASE("read_file: what is not a regular file is refused without reading it") {
  ScratchDir dir;
  std::string what;
  // A FIFO nobody writes to: refused at once, never waited on.
  std::string fifo = (dir.path / "fifo").string();
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(refusal(fifo, 1024, &what) == ReadFileError::Kind::not_regular);
  CHECK(what == "not a regular file (a FIFO)");
  CHECK(refusal("/dev/zero", 1024, &what) == ReadFileError::Kind::not_regular);
  CHECK(what == "not a regular file (a character device)");
  CHECK(refusal(dir.path.string(), 1024, &what) == ReadFileError::Kind::not_regular);
  CHECK(what == "not a regular file (a directory)");
  // A symlink is judged by what it names: /dev/zero behind a harmless name too.
  fs::create_symlink("/dev/zero", dir.path / "summary.json");
  CHECK(refusal((dir.path / "summary.json").string(), 1 << 20) == ReadFileError::Kind::not_regular);
  fs::create_symlink(dir.write("real", "text"), dir.path / "link");
  CHECK(read_file((dir.path / "link").string(), 10) == "text");
}

TEST_CASE("read_file: a missing file and an unreadable one say so") {
  ScratchDir dir;
  std::string what;
  CHECK(refusal((dir.path / "nothing").string(), 10, &what) == ReadFileError::Kind::missing);
  CHECK(what == "cannot read the file (No such file or directory)");
  fs::create_symlink(dir.path / "nothing", dir.path / "dangling");
  CHECK(refusal((dir.path / "dangling").string(), 10) == ReadFileError::Kind::missing);
  if (geteuid() != 0) {  // root reads anything
    std::string locked = dir.write("locked", "x");
    REQUIRE(chmod(locked.c_str(), 0) == 0);
    CHECK(refusal(locked, 10, &what) == ReadFileError::Kind::unreadable);
    CHECK(what.find("cannot read the file") == 0);
  }
}

TEST_CASE("byte_size: a cap as a person reads it") {
  CHECK(byte_size(256u << 20) == "256 MiB");
  CHECK(byte_size(4u << 10) == "4 KiB");
  CHECK(byte_size(1000) == "1000 bytes");
  CHECK(byte_size(0) == "0 bytes");
}
