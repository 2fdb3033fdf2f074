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

Device& HostBackend::device(std::size_t index) const {
  if (index != 0)
    throw error(error_category::invalid_argument,
                "host backend: device index " + std::to_string(index) +
                    " is out of range (the host backend has 1 device, index 0)");
  return *device_;
}

}  // namespace plexus::host
