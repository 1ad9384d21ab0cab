// A catalogue file as a tree: YAML read with every scalar kept as written (a
// string; never a number or a boolean) and null where YAML has none (`~`, an
// empty value). The build turns probes/*.yaml into such trees once, as JSON
// text (catalogue-compile); at start-up the binary parses that JSON, about ten
// times faster than yaml-cpp reads the YAML. Catalogue::load reads YAML text
// through the same function, so both ways give the same tree.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

namespace adrprobe::catalogue {

using Tree = nlohmann::ordered_json;  // in file order: a later entry wins, as written

// Throws YAML::Exception on text that is not YAML, std::runtime_error on a key
// given twice in one mapping.
Tree yaml_tree(const std::string& yaml_text);

}  // namespace adrprobe::catalogue
