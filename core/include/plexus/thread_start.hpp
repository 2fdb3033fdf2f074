// start_threads: starts a component's worker threads so that a system that refuses one (the
// process's thread limit, RLIMIT_NPROC, no memory for its stack) never ends the process: a
// std::system_error escaping a constructor that has already started other threads would
// destroy joinable std::threads, i.e. std::terminate.
//
// Thread-safety: a free function; `threads` belongs to the caller.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>
#include <thread>
#include <vector>

#include "plexus/export.hpp"

namespace plexus {

// Appends up to `count` threads to `threads`, the i-th (0-based, of those started now) running
// body(i). Stops at the first the system refuses: with fewer than `count` but at least one
// started, logs a warning naming `what` ("scheduler dag: started 100 of 100000 worker
// threads ...") and returns how many started; with none started and `at_least_one`, throws
// plexus::error(resource) naming `what` and the reason. Returns the number started.
PLEXUS_API std::size_t start_threads(std::vector<std::thread>& threads, std::size_t count,
                                     const std::function<void(std::size_t)>& body,
                                     std::string_view what, bool at_least_one);

}  // namespace plexus
