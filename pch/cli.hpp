// Precompiled for the commands (meson cpp_pch): CLI11, which each cmd_*.cpp
// includes, on top of the core's heavy headers.
#include <CLI/CLI.hpp>

#include "core.hpp"
