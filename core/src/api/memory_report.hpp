// The memory report's text: copies and bytes per direction (locations named after their
// devices), dependencies, allocations. Internal to the core; pure function.
#pragma once

#include <string>

#include "plexus/memory_model.hpp"

namespace plexus::detail {

class RuntimeState;

std::string describe(const MemoryStats& stats, const RuntimeState& runtime);

}  // namespace plexus::detail
