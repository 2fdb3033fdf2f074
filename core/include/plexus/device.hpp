// Device: one device of a backend. Owned by its backend and valid as long as the backend.
// Thread-safety: info() is immutable after discovery and safe from any thread.
#pragma once

#include "plexus/device_info.hpp"
#include "plexus/export.hpp"

namespace plexus {

class Backend;

class PLEXUS_API Device {
 public:
  Device() = default;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
  virtual ~Device();

  virtual const DeviceInfo& info() const = 0;
  virtual Backend& backend() const = 0;
};

}  // namespace plexus
