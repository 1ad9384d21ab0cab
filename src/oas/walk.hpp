// Walking a description document the way the static checks of edition 2.2.0
// read it: operations, their effective parameters, and values reached through
// $refs, each with the place it is written for messages.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oas/refs.hpp"

namespace adrprobe::oas {

// Where a value is written: its document (URL) and JSON pointer.
struct Place {
  std::string_view doc;  // as the DocumentSet keeps it (DocumentSet::url), which outlives every walk
  std::string pointer;
  bool operator<(const Place& o) const { return doc != o.doc ? doc < o.doc : pointer < o.pointer; }
  bool operator==(const Place& o) const { return doc == o.doc && pointer == o.pointer; }
};

// The first $ref followed on the way to a value: one for every node a walk
// reaches past it (each held a copy of its place, a string as long as a
// pointer into an operation's responses).
struct Via {
  std::string_view ref;  // as written (in the document), never ""
  Place at;              // where that $ref is written
};

// A value reached by a walk, and the first $ref followed on the way there.
struct Node {
  const Value* value = nullptr;  // nullptr: missing, or a $ref that does not resolve
  Place at;                     // where value is written
  std::shared_ptr<const Via> via;  // nullptr when no $ref was followed
  explicit operator bool() const { return value != nullptr; }
  bool is_object() const { return value && value->IsObject(); }
  bool is_array() const { return value && value->IsArray(); }
};

class Walker {
 public:
  explicit Walker(const DocumentSet& docs) : docs_(docs) {}
  const DocumentSet& docs() const { return docs_; }

  Node root() const;
  // The member key of an object node, or the element i of an array node (no $ref followed).
  Node child(const Node& n, const std::string& key) const;
  Node item(const Node& n, std::size_t i) const;
  // child() for a member reached by iterating n's object: no lookup (an
  // object's keys are searched one by one).
  Node entry(const Node& n, const Member& m) const;
  // Follows n while it is a {"$ref": ...} object; the first $ref is kept in via.
  // value is nullptr when the chain does not resolve or loops (DO-2 reports it).
  Node deref(const Node& n) const;
  // child() then deref().
  Node member(const Node& n, const std::string& key) const { return deref(child(n, key)); }

  // A place for messages: the pointer in the root document ("/paths/~1a"),
  // else "<file relative to the root>#<pointer>" ("common.yaml#/components/x").
  std::string show(const Place& p) const;
  // The place of a $ref target as a $ref would name it ("#/components/x").
  std::string show_target(const Place& p) const;
  // show(n.at), or "<where the first $ref stands> → <its target>" when n was reached through one.
  std::string where(const Node& n) const;
  // Where n stands in the root document, for report locations: its pointer
  // when it is written there, else the pointer of the first $ref (in the
  // root) that led to it into another file; "" when neither.
  std::string pointer(const Node& n) const;
  // Where n is written when that is not the root document ("common.yaml#/components/x"),
  // else "": with pointer(), one place per distinct value behind a shared $ref.
  std::string elsewhere(const Node& n) const;

 private:
  const DocumentSet& docs_;
};

struct Operation {
  // Views of the document (or of operation_keys()), which outlive every list of operations.
  std::string_view path;    // the key in {oas}.paths
  std::string_view method;  // "get", ..., "query", or an additionalOperations key as written
  Node path_item;      // after $ref
  Node op;             // after $ref
  std::string upper_method() const;
};
// Every operation of {oas}.paths in document order: get, put, post, delete,
// options, head, patch, trace, OAS 3.2 query and additionalOperations.
// Callbacks and webhooks are not the API's own operations and are left out.
std::vector<Operation> operations(const Walker& w);
// operations(), made once per document set (DocumentSet::derived) and shared
// by the checks that read it: each of them walking every path took as much
// memory again, per thread that judges.
const std::vector<Operation>& all_operations(const DocumentSet& docs);
// The first of all_operations() on this path with this method, or nullptr:
// found by index, so judging a response per path never walks every path.
const Operation* find_operation(const DocumentSet& docs, std::string_view path, std::string_view method);

struct Parameter {
  Node node;  // after $ref (an object)
  std::string name, in;
};
// The path item's parameters and the operation's, after $ref; an operation
// parameter replaces a path-level one with the same name and in.
std::vector<Parameter> effective_parameters(const Walker& w, const Operation& op);
// Whether a parameter of the operation or of its path item, by its name and
// location as written (after $ref, "" when absent), may pass: read from the
// values, without the places effective_parameters() makes for each, so a
// reader that wants a few names skips the operations without any. Also true
// for a $ref resolve_all did not follow (effective_parameters() follows it).
bool may_have_parameter(const DocumentSet& docs, const Operation& op, bool (*pass)(std::string_view name, std::string_view in));

// object[key] when object is an object and that member a string, else nullopt.
std::optional<std::string_view> string_member(const Value* object, std::string_view key);

// A servers[] entry's url with its variables replaced by their defaults ("{scheme}://host/v1").
std::string expand_server_url(const Value& server);

// True for a document written for Swagger 2.0 (a "swagger" key and no "openapi").
bool is_swagger2(const Value& root);

}  // namespace adrprobe::oas
