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
    if (entry.path().extension() == ".yaml") {
      auto name = entry.path().lexically_relative(ADRPROBE_PROBES_DIR).generic_string();
      if (name[0] != '.' && name.find("/.") == std::string::npos) on_disk.insert(name);  // hidden: not embedded
    }
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
  CHECK_THROWS_WITH(stack("[7]"), doctest::Contains("a single value is due, not array"));
}

TEST_CASE("yaml_tree: a key given twice in one mapping is an error that names its line") {
  CHECK_THROWS_WITH(catalogue::yaml_tree("a: 1\nb:\n  c: 2\n  c: 3\n"), doctest::Contains("line 4: the key 'c' is given twice"));
}

TEST_CASE("a catalogue author's mistakes are errors, not silently another catalogue") {
  const std::string base = "edition: \"x\"\nname: X\nsource: s\nsemver: full\nrules:\n"
                           "  - {id: /a, kind: technical, level: MUST, title: A, checks: [NT-1]}\n";
  auto derived = [&](const std::string& body) {
    return catalogue::Catalogue::load({{"x.yaml", base}, {"y.yaml", "edition: \"y\"\nname: Y\nsource: t\n" + body}});
  };
  CHECK_NOTHROW(derived("extends: \"x\"\n"));
  CHECK_THROWS_WITH(derived("extends: \"x\"\nrules:\n  - {id: /b, after: ~, kind: technical, level: MUST, title: B, checks: [NT-1]}\n"),
                    doctest::Contains("'after' is given without a value"));
  CHECK_THROWS_WITH(derived("extends: \"x\"\nrules:\n  - {id: /b, replaces: '', title: B}\n"),
                    doctest::Contains("'replaces' is given without a value"));
  CHECK_THROWS_WITH(derived("extends:\nsemver: full\nrules: []\n"), doctest::Contains("'extends' is given without a value"));
  // Given empty, a key is the edition's own and not inherited: rule_url '' is the default {source}#{id}.
  auto own = catalogue::Catalogue::load({{"x.yaml", base + "rule_url: \"https://r/{id}\"\n"},
                                         {"y.yaml", "edition: \"y\"\nname: Y\nsource: https://t/\nextends: \"x\"\nrule_url: ''\n"}});
  CHECK(own.edition("x")->rules.at(0).url == "https://r//a");
  CHECK(own.edition("y")->rules.at(0).url == "https://t/#/a");
  auto stack = [](const std::string& detect) {
    return catalogue::Catalogue::load({{"fixes/x.yaml", "stack: x\nname: X\ndetect: " + detect + "\nfixes: []\n"}});
  };
  CHECK_NOTHROW(stack("{headers: ['server: x']}"));
  CHECK_THROWS_WITH(stack("server"), doctest::Contains("detect: must be a mapping"));
  CHECK_THROWS_WITH(stack("~"), doctest::Contains("detect: must be a mapping"));
  CHECK_THROWS_WITH(catalogue::Catalogue::load({{"t.yaml", "ncsc_tls:\n  version: '1'\n  certificates: foo\n"}}),
                    doctest::Contains("certificates: must be a mapping"));
  CHECK_THROWS_WITH(catalogue::Catalogue::load({{"t.yaml", "ncsc_tls:\n  version: '1'\n  ciphers: {good: {A: x}}\n"}}),
                    doctest::Contains("level good must be a list"));
  CHECK_THROWS_WITH(catalogue::Catalogue::load({{"t.yaml", "just text\n"}}), doctest::Contains("a catalogue file is a mapping"));
}
