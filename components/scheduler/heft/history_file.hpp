// The heft history file: a CostTable as JSON, so that measurements survive the process.
//
//   { "format": "plexus-heft-history", "version": 1,
//     "devices": { "<device key>": {
//         "bandwidth": { "mean": 2.1e9, "samples": 12 },          (bytes per second)
//         "bandwidth_from": { "host": { "mean": ..., "samples": ... },   (by source: "host"
//                             "<device key>": { ... } },                   or a device; optional)
//         "kernels": { "kernel gemm [16384]": { "mean": 0.0012, "samples": 40 }, ... } } } }
//
// load_history: a missing file is an empty table (a first run); a file that cannot be read,
// is not JSON, or has the wrong shape (wrong format or version, a mean that is negative or
// not a number, samples not a positive integer) is plexus::error(config) naming the file,
// the place and what was expected, and saying to delete the file to start afresh.
// save_history: writes `<path>.tmp` then renames it over `path` (readers never see half a
// file); a failure is plexus::error(io) naming the file and the system's reason.
// Thread-safety: free functions over their arguments only.
#pragma once

#include <string>

#include "cost_model.hpp"

namespace plexus::heft {

CostTable load_history(const std::string& path);
void save_history(const std::string& path, const CostTable& table);

}  // namespace plexus::heft
