// HostDevice: the CPU this process runs on, as a Plexus device.
//
// Ownership: owned by its HostBackend, which must outlive it. Thread-safety: immutable
// after construction; every member is safe from any thread.
#pragma once

#include "plexus/backend.hpp"
#include "plexus/device.hpp"
#include "plexus/device_info.hpp"

namespace plexus::host {

// The host backend's version, reported as the device's version and driver version.
inline constexpr char backend_version[] = "0.1.0";

class HostDevice final : public Device {
 public:
  // Describes the host CPU from /proc/cpuinfo, uname(2), sysconf(3) and the C++ runtime.
  explicit HostDevice(Backend& backend);

  const DeviceInfo& info() const override { return info_; }
  Backend& backend() const override { return backend_; }

 private:
  Backend& backend_;
  DeviceInfo info_;
};

}  // namespace plexus::host
