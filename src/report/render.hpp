// Renderers: each turns the one report model into one output format.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "report/model.hpp"

namespace adrprobe::report {

nlohmann::ordered_json to_json(const Report& report);
std::string render_json(const Report& report);

struct TextStyle {
  bool color = false;
  int verbosity = 0;  // -1 quiet, 0 normal, 1 verbose
};
std::string render_text(const Report& report, const TextStyle& style);

}  // namespace adrprobe::report
