// PlatformContext: one cl_context for all the devices of one platform, created on first use,
// so that a buffer of one device can be copied to another on the device side
// (clEnqueueCopyBuffer between memory objects of one context). The backend gives it to each
// device of the platform (option `share_context`, default true); a device then uses it as
// its own context. A driver that refuses a context of several devices gets nullptr, and each
// device creates a context of its own (as with share_context = false).
//
// Ownership: shared by the platform's devices; the context lives until the last device goes.
// Thread-safety: every member is safe from any thread.
#pragma once

#include <mutex>
#include <vector>

#include "opencl_api.hpp"
#include "opencl_handle.hpp"

namespace plexus::opencl {

class PlatformContext {
 public:
  PlatformContext(cl_platform_id platform, std::vector<cl_device_id> devices)
      : platform_(platform), devices_(std::move(devices)) {}

  // The shared context (owned here: retain it to keep it), or nullptr when the driver
  // refused it (logged once at debug level).
  cl_context get() const;

 private:
  cl_platform_id platform_;
  std::vector<cl_device_id> devices_;
  mutable std::once_flag once_;
  mutable ContextHandle context_;
};

}  // namespace plexus::opencl
