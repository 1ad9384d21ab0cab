// Which documented paths can be probed, and with which concrete URL path.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "oas/refs.hpp"

namespace adrprobe::oas {

// Operation keys of an OpenAPI path item (3.0/3.1).
const std::vector<std::string>& operation_keys();

struct PathPlan {
  std::string template_path;          // as in the document: "/gebouwen/{id}"
  std::string concrete;               // with values filled in: "/gebouwen/1" (empty when skipped)
  std::set<std::string> methods;      // documented operations, upper case ("GET", "POST", ...)
  std::vector<std::string> missing;   // path parameters without a value
  bool unresolved = false;            // the path item is a $ref that does not resolve (DO-2 reports it)
  bool has_get() const { return methods.count("GET") > 0; }
  // Every path parameter has a value, the key begins with '/' (a key that
  // does not is reported by DO-3, not probed) and the path item resolves.
  // With or without a GET.
  bool probed() const {
    return missing.empty() && !unresolved && !template_path.empty() && template_path.front() == '/';
  }
};

// Every path of doc.paths in document order. Values for path parameters come
// from params (--param), else the parameter's example, examples, or its
// schema's example, default or first enum value, declared on the path item or
// on any of its operations (GET first, then the others in operation_keys order).
std::vector<PathPlan> enumerate_paths(const DocumentSet& docs, const std::map<std::string, std::string>& params);

}  // namespace adrprobe::oas
