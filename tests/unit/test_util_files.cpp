// util/files: the one writer of report and summary files (an exclusive
// temporary file renamed over the name, never through a symbolic link), the
// check made before a run, and file names read from others' files.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include "util/files.hpp"

using namespace adrprobe;
namespace fs = std::filesystem;

namespace {

struct FilesTempDir {
  fs::path path;
  FilesTempDir() {
    std::string pattern = (fs::temp_directory_path() / "adrprobe-files-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~FilesTempDir() { fs::remove_all(path); }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void put(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
  return out;
}

std::string write_error_of(const std::string& path, NonRegular non_regular = NonRegular::refuse) {
  try {
    write_file(path, "report", non_regular);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

// Sets the umask for one scope.
struct ScopedUmask {
  mode_t saved;
  explicit ScopedUmask(mode_t mask) : saved(umask(mask)) {}
  ~ScopedUmask() { umask(saved); }
};

mode_t mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(stat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

}  // namespace

TEST_CASE("files: write_file creates and replaces a regular file, 0644 less the umask, nothing left beside it") {
  FilesTempDir dir;
  {
    ScopedUmask mask(022);
    write_file(dir / "a.json", "first");
    CHECK(read(dir / "a.json") == "first");
    CHECK(mode_of(dir / "a.json") == 0644);
    write_file(dir / "a.json", "second, longer");
    CHECK(read(dir / "a.json") == "second, longer");
  }
  {
    ScopedUmask mask(077);
    write_file(dir / "private.json", "x");
    CHECK(mode_of(dir / "private.json") == 0600);
  }
  write_file(dir / "empty.json", "");
  CHECK(fs::file_size(dir / "empty.json") == 0);
  CHECK(names_in(dir.path) == std::set<std::string>{"a.json", "private.json", "empty.json"});
}

TEST_CASE("files: write_file_from writes every piece in order, small pieces gathered and big ones whole") {
  FilesTempDir dir;
  std::string expected;
  write_file_from(dir / "pieces.json", [&](const Sink& sink) {
    for (int i = 0; i < 20000; ++i) {  // a JSON report's exchanges: many small pieces
      std::string piece = "piece " + std::to_string(i) + "\n";
      expected += piece;
      sink(piece);
    }
    std::string big(200 * 1024, 'x');  // bigger than a gathered write
    big.back() = 'y';
    expected += big;
    sink(big);
    sink("");
    expected += "end";
    sink("end");
  });
  CHECK(read(dir / "pieces.json") == expected);
  CHECK(names_in(dir.path) == std::set<std::string>{"pieces.json"});
}

TEST_CASE("files: a symbolic link at the name is refused, its target untouched") {
  FilesTempDir dir, outside;
  put(outside / "victim", "precious");
  fs::create_symlink(outside / "victim", dir / "bag.json");
  auto message = write_error_of(dir / "bag.json");
  CHECK(message.find(dir / "bag.json") == 0);
  CHECK(message.find("is a symbolic link to " + outside / "victim") != std::string::npos);
  CHECK(message.find("never writes through one") != std::string::npos);
  CHECK(read(outside / "victim") == "precious");
  CHECK(fs::is_symlink(dir / "bag.json"));
  CHECK(write_problem(dir / "bag.json") == message.substr((dir / "bag.json").size() + 2));
  // also with -o's policy, and a dangling link (which open(O_CREAT) would create at its target)
  CHECK(write_error_of(dir / "bag.json", NonRegular::write_into).find("symbolic link") != std::string::npos);
  fs::create_symlink(outside / "would-be-created", dir / "dangling.json");
  CHECK(write_error_of(dir / "dangling.json").find("symbolic link") != std::string::npos);
  CHECK_FALSE(fs::exists(outside / "would-be-created"));
  CHECK(names_in(dir.path) == std::set<std::string>{"bag.json", "dangling.json"});
  CHECK(names_in(outside.path) == std::set<std::string>{"victim"});
}

TEST_CASE("files: the old fixed .part name planted as a link is never used") {
  // summary.html.part -> victim overwrote the victim and left summary.html a link
  FilesTempDir dir, outside;
  put(outside / "victim", "precious");
  fs::create_symlink(outside / "victim", dir / "summary.html.part");
  write_file(dir / "summary.html", "<html>");
  CHECK(read(outside / "victim") == "precious");
  CHECK_FALSE(fs::is_symlink(dir / "summary.html"));
  CHECK(fs::is_regular_file(dir / "summary.html"));
  CHECK(read(dir / "summary.html") == "<html>");
}

TEST_CASE("files: directories, devices and pipes") {
  FilesTempDir dir;
  fs::create_directory(dir / "sub");
  CHECK(write_error_of(dir / "sub").find("is a directory") != std::string::npos);
  CHECK(write_error_of(dir.path.string() + "/").find("names a directory") != std::string::npos);
  CHECK(write_error_of(dir / "missing/a.json").find("the directory " + dir / "missing" + " does not exist") != std::string::npos);
  // a device or FIFO adrprobe named itself is refused; one the user named is written into, never replaced
  CHECK(write_error_of("/dev/null").find("not a regular file") != std::string::npos);
  CHECK(write_error_of("/dev/null", NonRegular::write_into) == "(no error)");
  CHECK(fs::is_character_file("/dev/null"));
  REQUIRE(mkfifo((dir / "pipe").c_str(), 0600) == 0);
  CHECK(write_error_of(dir / "pipe").find("not a regular file") != std::string::npos);
  // nobody reads it: an error, not a run that hangs
  CHECK(write_error_of(dir / "pipe", NonRegular::write_into).find("a pipe nobody reads") != std::string::npos);
  CHECK(fs::is_fifo(dir / "pipe"));
}

TEST_CASE("files: names too long for a file system are refused before anything is written") {
  FilesTempDir dir;
  std::string name255(250, 'a');
  name255 += ".prom";
  CHECK(write_problem(dir / name255) == "");
  write_file(dir / name255, "x");  // the temporary name is short whatever the final one
  std::string name256 = "b" + name255;
  auto problem = write_problem(dir / name256);
  CHECK(problem.find("is 256 bytes, more than the 255 a file system allows") != std::string::npos);
  CHECK(problem.find("the file name baaaa") != std::string::npos);  // names it, shortened
  CHECK(problem.size() < 200);
  CHECK(write_error_of(dir / name256).find(problem) != std::string::npos);
  std::string deep = dir.path.string();
  while (deep.size() < 4200) deep += "/" + std::string(100, 'd');
  CHECK(write_problem(deep + "/a.json").find("more than the 4095 a system call takes") != std::string::npos);
  CHECK(names_in(dir.path) == std::set<std::string>{name255});
}

TEST_CASE("files: a file name read from another's file must be a regular file inside the directory") {
  FilesTempDir dir, outside;
  put(dir / "bag.json", "{}");
  fs::create_directory(dir / "sub");
  put(dir / "sub/kvk.json", "{}");
  put(outside / "secret", "x");
  fs::create_symlink(outside / "secret", dir / "out.json");
  fs::create_symlink(dir / "bag.json", dir / "in.json");
  CHECK(file_inside_problem(dir.path.string(), "bag.json") == "");
  CHECK(file_inside_problem(dir.path.string(), "sub/kvk.json") == "");
  CHECK(file_inside_problem(dir.path.string(), "in.json") == "");  // a link that stays inside
  CHECK(file_inside_problem(dir.path.string(), "../../../../etc/passwd") != "");
  CHECK(file_inside_problem(dir.path.string(), "sub/../bag.json") != "");
  CHECK(file_inside_problem(dir.path.string(), "./bag.json") != "");
  CHECK(file_inside_problem(dir.path.string(), "sub//kvk.json") != "");
  CHECK(file_inside_problem(dir.path.string(), "/etc/passwd") == "an absolute path");
  CHECK(file_inside_problem(dir.path.string(), "file:///etc/passwd") != "");
  CHECK(file_inside_problem(dir.path.string(), "javascript:alert(1)") != "");
  CHECK(file_inside_problem(dir.path.string(), "C:\\x.json") != "");
  CHECK(file_inside_problem(dir.path.string(), "sub\\..\\..\\x") != "");
  CHECK(file_inside_problem(dir.path.string(), "") != "");
  CHECK(file_inside_problem(dir.path.string(), "missing.json") == "no such file");
  CHECK(file_inside_problem(dir.path.string(), "sub") == "not a regular file");
  CHECK(file_inside_problem(dir.path.string(), "out.json") == "a link that leads out of the directory");
  // a directory given as a relative path works the same
  auto cwd = fs::current_path();
  fs::current_path(dir.path);
  CHECK(file_inside_problem(".", "bag.json") == "");
  CHECK(file_inside_problem(".", "out.json") != "");
  fs::current_path(cwd);
}
