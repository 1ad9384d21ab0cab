// Line numbers of JSON pointers in a document's text, for reports that point
// into the file (GitLab Code Quality, SARIF). JSON is YAML, so one parse
// (yaml-cpp, which keeps the position of each node) serves both.
#pragma once
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace adrprobe::oas {

// The 1-based line of each pointer in text: the line of the member's key for
// an object member, of the item for an array item, 1 for the root ("");
// nullopt when the pointer does not lead to a node or text does not parse.
// Parses text once for all pointers.
std::vector<std::optional<int>> lines_of(std::string_view text, const std::vector<std::string>& pointers);
// The same for a text read from `in` (a file, read again when a report needs
// its lines): JSON is read in chunks, never held whole; YAML is read whole,
// and not at all when it is longer than max_bytes.
std::vector<std::optional<int>> lines_of(std::istream& in, std::size_t max_bytes, const std::vector<std::string>& pointers);
std::optional<int> line_of(std::string_view text, const std::string& pointer);

}  // namespace adrprobe::oas
