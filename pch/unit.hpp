// Precompiled for the unit tests (meson cpp_pch): doctest and the core's heavy
// headers. fake_run.hpp and its project headers are not precompiled: a change
// to them would rebuild the precompiled header too.
#include <doctest/doctest.h>

#include "core.hpp"
