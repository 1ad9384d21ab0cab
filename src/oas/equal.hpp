// Deep equality of two loaded documents (PO-3: openapi.yaml vs openapi.json).
#pragma once
#include "oas/doc.hpp"
#include <optional>
#include <string>

namespace adrprobe::oas {

// nullopt when equal; else the JSON pointer of the first difference ("" is the
// root). Numbers compare by exact value across unsigned, signed and float
// (1 == 1.0, 18446744073709551615 != -1), key order does not matter, a string
// never equals a number.
std::optional<std::string> first_difference(const Value& a, const Value& b);

}  // namespace adrprobe::oas
