// The one JSON type of the OAS layer: keeps object keys in document order,
// so "the first N paths in document order" means what it says.
#pragma once
#include <nlohmann/json.hpp>

namespace adrprobe::oas {
using json = nlohmann::ordered_json;
}
