// The cuda backend's tuning variables from the environment (PLEXUS_CUDA_*), read where
// each is used. Header-only, no state: safe from any thread.
#pragma once

#include <chrono>
#include <cstdlib>

namespace plexus::cuda {

// `name` as a whole number of microseconds; `fallback` when it is not set.
inline std::chrono::microseconds microseconds_from_environment(const char* name,
                                                                long fallback) {
  const char* value = std::getenv(name);
  return std::chrono::microseconds(value ? std::atol(value) : fallback);
}

}  // namespace plexus::cuda
