// catalogue-compile, the build's tool, run on hand-made catalogue folders: which
// files it embeds, in what order, as what text; what it does with a mistake.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "catalogue/tree.hpp"
#include "scratch_dir.hpp"
#include "util/read_file.hpp"

using namespace adrprobe;
using adrprobe::testing::ScratchDir;
namespace fs = std::filesystem;

namespace {

struct Run {
  int status;
  std::string err;
};

// catalogue-compile OUT DIR (the one this build made), its exit status and stderr.
Run compile(const ScratchDir& scratch, const fs::path& out, const fs::path& dir) {
  fs::path err = scratch.path / "stderr";
  std::string cmd = std::string("'") + ADRPROBE_CATALOGUE_COMPILE + "' '" + out.string() + "' '" + dir.string() +
                    "' 2>'" + err.string() + "'";
  int raw = std::system(cmd.c_str());
  REQUIRE(WIFEXITED(raw));
  return {WEXITSTATUS(raw), read_file(err.string(), 1 << 20)};
}

struct Embedded {
  std::string name, text;
};

// The files a generated source embeds, in order: each name with the text its
// byte array and length hold.
std::vector<Embedded> embedded(const std::string& source) {
  std::vector<std::string> arrays;
  std::regex array(R"(const char file_(\d+)\[\] = \{([-0-9,]*)\};)");
  for (std::sregex_iterator it(source.begin(), source.end(), array), end; it != end; ++it) {
    CHECK(std::stoul((*it)[1]) == arrays.size());
    std::string bytes, number, list = (*it)[2].str() + ",";
    for (char c : list) {
      if (c != ',') {
        number += c;
        continue;
      }
      bytes += static_cast<char>(std::stoi(number));
      number.clear();
    }
    REQUIRE(!bytes.empty());
    CHECK(bytes.back() == '\0');  // the array ends in a NUL the length leaves out
    bytes.pop_back();
    arrays.push_back(bytes);
  }
  std::vector<Embedded> out;
  std::regex entry(R"re(\{"([^"]+)", std::string_view\(file_(\d+), (\d+)\)\})re");
  for (std::sregex_iterator it(source.begin(), source.end(), entry), end; it != end; ++it) {
    std::size_t i = std::stoul((*it)[2]);
    REQUIRE(i < arrays.size());
    CHECK(std::stoul((*it)[3]) == arrays[i].size());
    out.push_back({(*it)[1].str(), arrays[i]});
  }
  return out;
}

}  // namespace

TEST_CASE("catalogue-compile embeds every YAML file, hidden ones aside, in path order, each as its tree") {
  ScratchDir scratch;
  fs::path dir = scratch.path / "probes";
  const std::string b = "edition: \"2.10\"\nlist: [1, ~]\n", a = "name: 'é \\u0000'\nempty:\n",
                    c = "stack: x\ntext: |\n  two\n  lines\n";
  scratch.write("probes/b.yaml", b);
  scratch.write("probes/a.yaml", a);
  scratch.write("probes/fixes/c.yaml", c);
  scratch.write("probes/.editor-backup.yaml", "broken: [\n");
  scratch.write("probes/.hidden/d.yaml", "x: 1\n");
  scratch.write("probes/notes.txt", "not: yaml: at all");
  scratch.write("probes/README.md", "# the catalogue\n");
  fs::path out = scratch.path / "catalogue_data.cpp";
  Run run = compile(scratch, out, dir);
  CHECK(run.status == 0);
  CHECK(run.err == "");
  std::string source = read_file(out.string(), 1 << 20);
  CHECK(source.find("const std::vector<EmbeddedFile>& embedded_files()") != std::string::npos);
  auto files = embedded(source);
  REQUIRE(files.size() == 3);
  CHECK(files[0].name == "a.yaml");
  CHECK(files[1].name == "b.yaml");
  CHECK(files[2].name == "fixes/c.yaml");
  const std::string yaml[] = {a, b, c};
  for (std::size_t i = 0; i < files.size(); ++i) {
    CAPTURE(files[i].name);
    CHECK(files[i].text == catalogue::yaml_tree(yaml[i]).dump());
  }
  CHECK(files[1].text == R"({"edition":"2.10","list":["1",null]})");
}

TEST_CASE("catalogue-compile leaves an output that would not change untouched, and rewrites one that would") {
  ScratchDir scratch;
  scratch.write("probes/a.yaml", "a: 1\n");
  fs::path out = scratch.path / "catalogue_data.cpp";
  REQUIRE(compile(scratch, out, scratch.path / "probes").status == 0);
  auto old = fs::file_time_type::clock::now() - std::chrono::hours(1);
  fs::last_write_time(out, old);
  REQUIRE(compile(scratch, out, scratch.path / "probes").status == 0);
  CHECK(fs::last_write_time(out) == old);  // nothing for the build to compile again
  scratch.write("probes/a.yaml", "a: 2\n");
  REQUIRE(compile(scratch, out, scratch.path / "probes").status == 0);
  CHECK(fs::last_write_time(out) != old);
  CHECK(embedded(read_file(out.string(), 1 << 20)).at(0).text == R"({"a":"2"})");
}

TEST_CASE("catalogue-compile fails on a file it cannot read as a catalogue, naming it, and writes nothing") {
  ScratchDir scratch;
  fs::path out = scratch.path / "catalogue_data.cpp";
  scratch.write("probes/good.yaml", "a: 1\n");
  scratch.write("probes/twice.yaml", "a: 1\nb: 2\na: 3\n");
  Run run = compile(scratch, out, scratch.path / "probes");
  CHECK(run.status == 1);
  CHECK(run.err.find("twice.yaml: line 3: the key 'a' is given twice") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
  fs::remove(scratch.path / "probes/twice.yaml");
  scratch.write("probes/unclosed.yaml", "a: [1, 2\n");
  run = compile(scratch, out, scratch.path / "probes");
  CHECK(run.status == 1);
  CHECK(run.err.find("catalogue-compile: ") == 0);
  CHECK(run.err.find("unclosed.yaml") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("catalogue-compile: usage") {
  int raw = std::system((std::string("'") + ADRPROBE_CATALOGUE_COMPILE + "' only-one 2>/dev/null").c_str());
  REQUIRE(WIFEXITED(raw));
  CHECK(WEXITSTATUS(raw) == 2);
}
