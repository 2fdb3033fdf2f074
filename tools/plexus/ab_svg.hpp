// The SVG of `plexus ab --svg FILE`: per config, a Gantt chart of its representative run
// (the run whose makespan is the median) side by side on one time scale, one row per device
// queue, kernels coloured by name and copies dark; below, a box plot of the makespans.
// Reads the runs' trace files. Errors: plexus::error(io). Main thread only.
#pragma once

#include <string>
#include <vector>

#include "ab_report.hpp"

namespace plexus::tool {

void write_svg(const std::string& path, const std::vector<AbConfig>& configs);

}  // namespace plexus::tool
