#include "catalogue/tree.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <stdexcept>

namespace adrprobe::catalogue {
namespace {

Tree tree_of(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar:
      return node.Scalar();
    case YAML::NodeType::Sequence: {
      Tree out = Tree::array();
      for (const auto& item : node) out.push_back(tree_of(item));
      return out;
    }
    case YAML::NodeType::Map: {
      Tree out = Tree::object();
      for (const auto& kv : node) {
        auto key = kv.first.as<std::string>();
        // yaml-cpp keeps both; which one a reader takes is then a matter of chance.
        if (out.contains(key))
          throw std::runtime_error(fmt::format("line {}: the key '{}' is given twice", kv.first.Mark().line + 1, key));
        out[key] = tree_of(kv.second);
      }
      return out;
    }
    default:  // Null, Undefined
      return nullptr;
  }
}

}  // namespace

Tree yaml_tree(const std::string& yaml_text) { return tree_of(YAML::Load(yaml_text)); }

}  // namespace adrprobe::catalogue
