// The SVG of `plexus ab --svg FILE`: per config, a Gantt chart of its representative run
// (the run whose makespan is the median) side by side on one time scale, one row per device
// queue (queues that were idle are named in a note instead), kernels coloured by name and
// copies dark, the time each task waited while ready (a red line before it) and the
// critical path (outlined, with dashed links: from the last task back through what each
// waited for last, a dependency or the task before it on its queue); over each chart the config's makespan ratio
// to the first config with the noise verdict, the total time tasks waited while ready and
// the critical path's length; at the top the program, its arguments, the run count and the
// machine; below, a box plot of the makespans. Reads the runs' trace files.
// Errors: plexus::error(io). Main thread only.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ab_report.hpp"

namespace plexus::tool {

struct SvgContext {
  std::string program;  // the command line, arguments included
  std::size_t runs = 0, warmup = 0;
  std::string machine;  // machine_description()
};

// "<CPU model> (N hardware threads), <host>, <OS release>".
std::string machine_description();

void write_svg(const std::string& path, const std::vector<AbConfig>& configs,
               const SvgContext& context);

}  // namespace plexus::tool
