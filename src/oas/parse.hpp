// JSON and YAML documents loaded into nlohmann::json, within Limits.
#pragma once
#include "oas/json.hpp"
#include <string>
#include <string_view>

#include "oas/limits.hpp"

namespace adrprobe::oas {


struct ParseResult {
  bool ok = false;
  json value;
  std::string error;  // when !ok: a one-line reason
};

ParseResult parse_json(std::string_view text, const Limits& limits = {});
// YAML 1.2 core schema: plain scalars become null/bool/int/float where they
// look like one; quoted scalars stay strings. Aliases are expanded within
// limits.max_nodes (a "billion laughs" document fails instead of exploding).
ParseResult parse_yaml(std::string_view text, const Limits& limits = {});
// JSON when the text starts with '{' or '[', else YAML.
ParseResult parse_any(std::string_view text, const Limits& limits = {});

// Reads a document from disk and parses it with parse_any.
// text, when given, receives what was read.
ParseResult parse_file(const std::string& path, const Limits& limits = {}, std::string* text = nullptr);

}  // namespace adrprobe::oas
