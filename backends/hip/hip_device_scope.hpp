// ScopedDevice: makes a HIP device current on the calling thread for one scope
// (hipGetDevice / hipSetDevice, restored in the destructor), so that the backend never
// leaves its device current on an application thread. Not copyable; use on one thread.
// Throws plexus::error(device) when the device cannot be made current.
#pragma once

#include "hip_runtime.hpp"

namespace plexus::hip {

class ScopedDevice {
 public:
  ScopedDevice(const HipRuntime& runtime, int ordinal) : runtime_(runtime) {
    if (runtime_.get_device(&previous_) != hipSuccess) previous_ = -1;
    if (previous_ != ordinal) runtime_.check("hipSetDevice", runtime_.set_device(ordinal));
    else previous_ = -1;  // nothing to restore
  }
  ~ScopedDevice() {
    if (previous_ >= 0) (void)runtime_.set_device(previous_);
  }
  ScopedDevice(const ScopedDevice&) = delete;
  ScopedDevice& operator=(const ScopedDevice&) = delete;

 private:
  const HipRuntime& runtime_;
  int previous_ = -1;
};

}  // namespace plexus::hip
