// The one table of report formats: name → renderer, whether it may go to
// stdout, and its file extension. Adding a format is one file
// (report/<format>.cpp with its render function) and one row in formats.cpp.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "report/model.hpp"

namespace adrprobe::report {

struct RenderOptions {
  bool color = false;
  int verbosity = 0;  // -1 quiet, 0 normal, 1 verbose
  FailOn fail_on = FailOn::fail;
  // Written to a terminal: the text report cuts long lines to the screen
  // there, never in a file or a pipe.
  bool terminal = false;
  // --checklist full: the HTML reviewer checklist with every rule's text and
  // room to write; compact (default): one line per functional rule.
  bool checklist_full = false;
};

using Renderer = std::string (*)(const Report&, const RenderOptions&);

struct Format {
  std::string_view name;
  std::string_view extension;  // for files named by the tool (batch)
  bool to_stdout;              // may be what -f prints
  std::string_view description;
  Renderer render;             // nullptr: in the contract (CLI.md), not built yet
};

const std::vector<Format>& formats();
const Format* find_format(std::string_view name);
// "text, json, ...": the formats this build can write, for help and error messages.
std::string format_names();
// Renders with the format's renderer (which must be built).
std::string render(std::string_view format, const Report& report, const RenderOptions& options = {});

}  // namespace adrprobe::report
