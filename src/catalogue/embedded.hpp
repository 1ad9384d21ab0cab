// The probes/*.yaml files, compiled in by catalogue-compile (src/catalogue/compile.cpp):
// each file's tree (catalogue/tree.hpp) as JSON text.
#pragma once
#include <string_view>
#include <vector>

namespace adrprobe::catalogue {
struct EmbeddedFile {
  std::string_view name;
  std::string_view data;
};
const std::vector<EmbeddedFile>& embedded_files();
}  // namespace adrprobe::catalogue
