#include "host_backend.hpp"

#include <sched.h>

#include <string>
#include <thread>

#include "plexus/error.hpp"
#include "plexus/kernel_fault_report.hpp"
#include "plexus/log.hpp"

namespace plexus::host {

std::vector<int> usable_cpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  if (cpus.empty()) {
    const unsigned count = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned cpu = 0; cpu < count; ++cpu) cpus.push_back(static_cast<int>(cpu));
  }
  return cpus;
}

std::vector<std::vector<int>> split_cpus(const std::vector<int>& cpus, std::size_t devices) {
  std::vector<std::vector<int>> shares(devices);
  if (devices >= cpus.size()) {
    for (std::size_t i = 0; i < devices; ++i) shares[i] = {cpus[i % cpus.size()]};
    return shares;
  }
  for (std::size_t i = 0; i < devices; ++i) {
    const std::size_t begin = i * cpus.size() / devices, end = (i + 1) * cpus.size() / devices;
    shares[i].assign(cpus.begin() + static_cast<std::ptrdiff_t>(begin),
                     cpus.begin() + static_cast<std::ptrdiff_t>(end));
  }
  return shares;
}

namespace {
// [backends.host] devices and threads. Ranges (docs/configuration.md): each device has its
// own threads, so both are bounded.
std::pair<std::int64_t, std::int64_t> devices_and_threads(const ComponentOptions& options) {
  return {options.get_in_range("devices", 1, 1, max_devices),
          options.get_in_range("threads", 0, 0, max_threads)};  // threads 0: one per core
}
}  // namespace

void HostBackend::check_options(const ComponentOptions& options) { devices_and_threads(options); }

HostBackend::HostBackend(PluginContext& context) {
  install_kernel_fault_report();  // a kernel that faults is named before the process ends
  const auto [devices, threads] = devices_and_threads(context.options);
  const std::vector<int> cpus = usable_cpus();
  if (static_cast<std::size_t>(devices) > cpus.size())
    logger().warn("host backend: {} devices over {} cores: devices share cores", devices,
                  cpus.size());
  for (std::vector<int>& share : split_cpus(cpus, static_cast<std::size_t>(devices))) {
    CoreShare core_share;
    core_share.threads = threads > 0 ? static_cast<std::size_t>(threads) : share.size();
    core_share.named_by_cores = devices > 1;
    // One device: its threads float over the whole machine (nothing else to keep apart).
    if (devices > 1) core_share.cpus = std::move(share);
    devices_.push_back(std::make_unique<HostDevice>(*this, std::move(core_share)));
    const DeviceInfo& info = devices_.back()->info();
    logger().debug("host backend: {} ({}, {} compute units, {} threads, {} bytes of memory)",
                   info.name, info.architecture, info.compute_units,
                   devices_.back()->pool().participants(), info.global_memory_bytes);
  }
}

HostBackend::~HostBackend() = default;

BackendStatus HostBackend::status() const {
  return {true, "the host CPU (" + devices_.front()->info().architecture + "), " +
                    std::to_string(devices_.size()) + " device(s)"};
}

std::size_t HostBackend::device_count() const { return devices_.size(); }

Device& HostBackend::device_at(std::size_t index) const { return *devices_[index]; }

}  // namespace plexus::host
