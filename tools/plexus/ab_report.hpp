// The results of `plexus ab` and their outputs: the table on stdout, the raw numbers as
// CSV (one row per run) or JSON (per config: runs and statistics).
// Thread-safety: none needed (main only). Errors writing files: plexus::error(io).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "ab_run.hpp"

namespace plexus::tool {

struct AbConfig {
  std::string label;            // "A", "B", ...
  std::string name;             // the config file, or the file plus a --set override
  std::string path;             // the config file the runs got
  // Environment overrides the runs must not see: a --set of a key that one of them sets
  // (PLEXUS_AUTO_GRAPH for graphs.auto) would be undone by it in the run.
  std::vector<std::string> unset_environment;
  std::vector<RunResult> runs;  // measured runs, in order (warm-up runs excluded)
};

// The makespans of a config's runs, in ms, in run order.
std::vector<double> makespans_ms(const AbConfig& config);

// Per config: median [min-max] of makespan and wall time, copies, bytes, tasks; per device
// utilisation; each config's makespan ratio to the first with its spread and verdict.
void print_report(std::ostream& out, const std::vector<AbConfig>& configs);
void write_csv(const std::string& path, const std::vector<AbConfig>& configs);
void write_json(const std::string& path, const std::vector<AbConfig>& configs);

}  // namespace plexus::tool
