// HostBackend: the host CPU as one device. Always available.
//
// Ownership: owns its one HostDevice. Thread-safety: the device is discovered in the
// constructor and immutable afterwards; every member is safe from any thread.
#pragma once

#include <cstddef>
#include <memory>

#include "host_device.hpp"
#include "plexus/backend.hpp"
#include "plexus/plugin_context.hpp"

namespace plexus::host {

class HostBackend final : public Backend {
 public:
  explicit HostBackend(PluginContext& context);
  ~HostBackend() override;

  BackendStatus status() const override;
  std::size_t device_count() const override;

 protected:
  Device& device_at(std::size_t index) const override;

 private:
  std::unique_ptr<HostDevice> device_;
};

}  // namespace plexus::host
