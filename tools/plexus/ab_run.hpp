// One run of a program under one config for `plexus ab`: the child process gets
// PLEXUS_CONFIG=<config> and PLEXUS_TRACE=<trace>, its output goes to <trace>.log; the run's
// numbers come from the trace summary the runtime writes at shutdown.
// Not thread-safe (one child at a time, from main).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace plexus::tool {

struct DeviceUse {
  double busy_us = 0, utilisation = 0;
  std::size_t tasks = 0;
};

struct RunResult {
  std::string trace;  // the trace file (the summary and log sit next to it)
  double wall_ms = 0;
  // From the summary:
  std::string scheduler;
  double makespan_us = 0;
  std::size_t tasks = 0, kernels = 0, copies = 0, bytes_moved = 0;
  std::map<std::string, DeviceUse> devices;
};

// Runs `program` (argv[0] found on PATH) to completion or until `timeout_s` (0: none).
// Throws plexus::error(invalid_argument) naming `who` when it cannot start, exits non-zero,
// is killed by a signal, times out or writes no summary; the message holds the status and
// the last lines of its output.
// `unset` names environment variables the run goes without.
RunResult run_once(const std::vector<std::string>& program, const std::string& config,
                   const std::vector<std::string>& unset, const std::string& trace,
                   double timeout_s, const std::string& who);

// The numbers of a summary file (format: docs/tracing.md). Throws plexus::error(io).
void read_summary(const std::string& path, RunResult& result);

}  // namespace plexus::tool
