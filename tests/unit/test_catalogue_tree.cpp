// A catalogue file as a tree, and the compiled-in trees against probes/*.yaml.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "catalogue/catalogue.hpp"
#include "catalogue/embedded.hpp"
#include "catalogue/tree.hpp"

using namespace adrprobe;
using catalogue::Tree;

TEST_CASE("yaml_tree: every scalar as written, null for none, entries in file order") {
  Tree t = catalogue::yaml_tree("b: 2.10\na: [1, true, 0x1F, '007', ~, null]\nc:\nd: {z: x, y: 'w'}\n");
  CHECK(t.dump() == R"({"b":"2.10","a":["1","true","0x1F","007",null,null],"c":null,"d":{"z":"x","y":"w"}})");
  CHECK(catalogue::yaml_tree("").is_null());
  CHECK(catalogue::yaml_tree("text: |\n  two\n  lines\n")["text"] == "two\nlines\n");
  CHECK_THROWS(catalogue::yaml_tree("a: [unclosed\n"));
}

TEST_CASE("the compiled-in catalogue is probes/*.yaml, every file, each as its tree") {
  namespace fs = std::filesystem;
  std::set<std::string> on_disk;
  for (const auto& entry : fs::recursive_directory_iterator(ADRPROBE_PROBES_DIR))
    if (entry.path().extension() == ".yaml")
      on_disk.insert(entry.path().lexically_relative(ADRPROBE_PROBES_DIR).generic_string());
  std::set<std::string> embedded;
  for (const auto& f : catalogue::embedded_files()) {
    CAPTURE(f.name);
    embedded.insert(std::string(f.name));
    std::ifstream in(fs::path(ADRPROBE_PROBES_DIR) / f.name, std::ios::binary);
    std::ostringstream yaml;
    yaml << in.rdbuf();
    CHECK(Tree::parse(f.data) == catalogue::yaml_tree(yaml.str()));
  }
  CHECK(embedded == on_disk);
  CHECK(on_disk.count("edition-2.2.0.yaml"));
  CHECK(on_disk.count("fixes/fastapi.yaml"));
}

TEST_CASE("a number in a catalogue file is a whole number, else a clear error") {
  auto stack = [](const std::string& rank) {
    return catalogue::Catalogue::load({{"fixes/x.yaml", "stack: x\nname: X\nrank: " + rank +
                                                             "\ndetect: {headers: ['server: x']}\nfixes: []\n"}});
  };
  CHECK(stack("7").stacks().at(0).rank == 7);
  CHECK_THROWS_WITH(stack("seven"), doctest::Contains("'rank' must be a whole number, not 'seven'"));
  CHECK_THROWS_WITH(stack("7x"), doctest::Contains("'rank' must be a whole number"));
  CHECK_THROWS_WITH(stack("[7]"), doctest::Contains("a list or mapping where a single value is due"));
}
