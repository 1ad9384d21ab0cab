// Precompiled for every translation unit of the core library (meson cpp_pch):
// the heavy headers most of them include. Only external headers: a change to
// a project header never rebuilds the precompiled one.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>
