// CudaBackend: the GPUs of the NVIDIA CUDA driver, loaded at run time. Without the driver
// library, or when cuInit fails or finds no device, it is unavailable with the reason.
//
// Ownership: owns the CudaDriver (the dlopen handle, closed in the destructor after the
// devices are destroyed) and its CudaDevices. Thread-safety: devices are discovered in
// the constructor and immutable afterwards; every member is safe from any thread.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "cuda_device.hpp"
#include "cuda_driver.hpp"
#include "plexus/backend.hpp"
#include "plexus/plugin_context.hpp"

namespace plexus::cuda {

class CudaBackend final : public Backend {
 public:
  // Options: `library` (string): the driver library to dlopen, default "libcuda.so.1".
  explicit CudaBackend(PluginContext& context);
  // Reads the options as the constructor does (plugin.hpp): for a table not selected.
  static void check_options(const ComponentOptions& options);
  ~CudaBackend() override;

  BackendStatus status() const override { return status_; }
  std::size_t device_count() const override { return devices_.size(); }

 protected:
  Device& device_at(std::size_t index) const override;

 private:
  BackendStatus discover();

  // Declared first: destroyed last, after the devices.
  std::unique_ptr<CudaDriver> driver_;
  std::vector<std::unique_ptr<CudaDevice>> devices_;
  BackendStatus status_;
};

}  // namespace plexus::cuda
