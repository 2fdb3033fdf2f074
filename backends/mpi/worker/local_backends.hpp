// LocalBackends: the backends a worker serves, opened from the worker's own config like an
// application's (plugin search path, each backend's option table), without the other
// component kinds and never the mpi backend itself. Each device is made ready (a queue
// opened and closed) before the constructor returns.
// Ownership: owns the backends (and their devices' staging pools, freed first) and keeps
// their libraries loaded. Thread-safety: immutable
// after construction.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "plexus/backend.hpp"
#include "plexus/config.hpp"
#include "../staging_pool.hpp"

namespace plexus::mpi {

struct LocalDevice {
  std::string backend;
  Device* device = nullptr;
  // Host buffers for its copies; only for a device whose memory is not host memory.
  std::shared_ptr<StagingPool> staging;
};

class LocalBackends {
 public:
  // `names`: the backends to open; empty: the config's backends without mpi, else host.
  LocalBackends(const Config& config, std::vector<std::string> names);
  LocalBackends() = default;  // none
  ~LocalBackends();

  const std::vector<LocalDevice>& devices() const { return devices_; }
  // Backends that were unavailable, each "name: reason".
  const std::vector<std::string>& unavailable() const { return unavailable_; }

 private:
  std::vector<std::shared_ptr<Component>> components_;
  std::vector<LocalDevice> devices_;
  std::vector<std::string> unavailable_;
};

}  // namespace plexus::mpi
