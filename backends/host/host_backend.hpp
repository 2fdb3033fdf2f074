// HostBackend: the host CPU as one device, or as several devices that split its cores.
// Always available.
//
// Options ([backends.host]): `devices` (default 1): how many devices share the cores this
// process may run on, each with the cores of its share ("<cpu> (cores 0-3)"; with more
// devices than cores, each gets one core, shared round-robin); `threads` (default: the
// device's cores): threads that run one launch's work-groups, the launching thread included.
//
// Ownership: owns its devices. Thread-safety: the devices are made in the constructor and
// immutable afterwards; every member is safe from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "host_device.hpp"
#include "plexus/backend.hpp"
#include "plexus/plugin_context.hpp"

namespace plexus::host {

// The ranges of `[backends.host] devices` and `threads` (threads per launch, per device).
constexpr std::int64_t max_devices = 256;
constexpr std::int64_t max_threads = 1024;

class HostBackend final : public Backend {
 public:
  explicit HostBackend(PluginContext& context);
  // Reads the options as the constructor does (plugin.hpp): for a table not selected.
  static void check_options(const ComponentOptions& options);
  ~HostBackend() override;

  BackendStatus status() const override;
  std::size_t device_count() const override;

 protected:
  Device& device_at(std::size_t index) const override;

 private:
  std::vector<std::unique_ptr<HostDevice>> devices_;
};

// The logical CPUs this process may run on (sched_getaffinity), else 0..n-1.
std::vector<int> usable_cpus();
// Splits `cpus` into `devices` consecutive shares (one CPU each, round-robin, when there
// are more devices than CPUs). Precondition: devices >= 1 and cpus is not empty.
std::vector<std::vector<int>> split_cpus(const std::vector<int>& cpus, std::size_t devices);

}  // namespace plexus::host
