// CudaDevice: one GPU the CUDA driver reports.
//
// Ownership: owned by its CudaBackend, which must outlive it (and keeps the driver
// loaded). Thread-safety: immutable after construction; safe from any thread.
#pragma once

#include <cuda.h>

#include <string>

#include "cuda_driver.hpp"
#include "plexus/backend.hpp"
#include "plexus/device.hpp"
#include "plexus/device_info.hpp"

namespace plexus::cuda {

class CudaDevice final : public Device {
 public:
  // Queries device `ordinal`; throws plexus::error(device) naming the call that failed.
  // `driver_version` is the driver's CUDA version, e.g. "13.0".
  CudaDevice(Backend& backend, const CudaDriver& driver, int ordinal,
             const std::string& driver_version);

  const DeviceInfo& info() const override { return info_; }
  Backend& backend() const override { return backend_; }
  CUdevice handle() const { return device_; }

 private:
  Backend& backend_;
  CUdevice device_ = 0;
  DeviceInfo info_;
};

}  // namespace plexus::cuda
