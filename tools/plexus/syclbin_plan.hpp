// `plexus syclbin plan FILE [--config F] [--load]`: for every available device of the
// runtime the config gives, which image of FILE it would run (per abstract module) and why,
// or why none fits; --load also loads the bundle (translating where needed) and prints
// its description and kernels. Returns the exit status: 0 when some device fits, 1 if none.
#pragma once

#include "command_line.hpp"

namespace plexus::tool {

int syclbin_plan(const CommandLine& line);

}  // namespace plexus::tool
