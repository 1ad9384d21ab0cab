#include "catalogue/tree.hpp"

#include <yaml-cpp/yaml.h>

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
      for (const auto& kv : node) out[kv.first.as<std::string>()] = tree_of(kv.second);
      return out;
    }
    default:  // Null, Undefined
      return nullptr;
  }
}

}  // namespace

Tree yaml_tree(const std::string& yaml_text) { return tree_of(YAML::Load(yaml_text)); }

}  // namespace adrprobe::catalogue
