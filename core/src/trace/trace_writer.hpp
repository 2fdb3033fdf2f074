// Writes a Tracer's records (every task done) as two files:
//   FILE                  Chrome/Perfetto trace-event JSON: one process per device, one
//                         thread (track) per worker queue on it; tasks as complete ("X")
//                         events of category "task", their copies ("copy") and launches
//                         ("launch", with its nd-range) nested inside; flow arrows ("s"/"f")
//                         for dependencies; why each task waited while ready (its args, and
//                         a "wait" slice for the scheduler's part); the runtime's own work
//                         ("runtime": compiles, module loads, allocations) on tracks of their
//                         own, and a counter of each device's buffer bytes.
//   summary_path(FILE)    the summary: makespan, per-device busy time, copies and bytes per
//                         direction, tasks, waits, the runtime's own work, the scheduler.
// Times in microseconds from the first submission (a compile before it is negative). makespan = last task end - first
// submission. Internal to the core. Throws plexus::error(io) when a file cannot be written.
#pragma once

#include <string>

#include "tracer.hpp"

namespace plexus::detail {

// FILE without a trailing ".json", plus ".summary.json".
std::string summary_path(const std::string& trace_file);

void write_trace(const Tracer& tracer);

}  // namespace plexus::detail
