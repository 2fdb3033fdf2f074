#include "host_backend.hpp"

#include <string>

#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus::host {

HostBackend::HostBackend(PluginContext&) : device_(std::make_unique<HostDevice>(*this)) {
  const DeviceInfo& info = device_->info();
  logger().debug("host backend: {} ({}, {} threads, {} bytes of memory)", info.name,
                 info.architecture, info.compute_units, info.global_memory_bytes);
}

HostBackend::~HostBackend() = default;

BackendStatus HostBackend::status() const {
  return {true, "the host CPU (" + device_->info().architecture + ")"};
}

std::size_t HostBackend::device_count() const { return 1; }

Device& HostBackend::device_at(std::size_t index) const { return *device_; }

}  // namespace plexus::host
