// OpenclDevice: one device of one OpenCL platform.
//
// Ownership: owned by its OpenclBackend, which must outlive it. The cl_device_id is a root
// device from clGetDeviceIDs: the ICD owns it, nothing to retain or release.
// Thread-safety: immutable after construction; every member is safe from any thread.
#pragma once

#include <string>

#include "opencl_api.hpp"
#include "plexus/backend.hpp"
#include "plexus/device.hpp"
#include "plexus/device_info.hpp"

namespace plexus::opencl {

// What the device description needs to know about the device's platform.
struct PlatformTraits {
  std::string name;    // CL_PLATFORM_NAME
  std::string vendor;  // CL_PLATFORM_VENDOR
  bool is_nvidia() const;
  bool is_pocl() const;
};

class OpenclDevice final : public Device {
 public:
  // Queries the device; throws plexus::error(device) naming the query that failed.
  OpenclDevice(Backend& backend, cl_platform_id platform, cl_device_id device,
               const PlatformTraits& traits);

  const DeviceInfo& info() const override { return info_; }
  Backend& backend() const override { return backend_; }
  cl_platform_id platform() const { return platform_; }
  cl_device_id handle() const { return device_; }

 private:
  Backend& backend_;
  cl_platform_id platform_;
  cl_device_id device_;
  DeviceInfo info_;
};

}  // namespace plexus::opencl
