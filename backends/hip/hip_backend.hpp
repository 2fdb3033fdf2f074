// HipBackend: the AMD GPUs of the HIP runtime (libamdhip64.so.5), loaded at run time.
// Without /dev/kfd (or /dev/dxg) it is unavailable without loading the runtime (cheap on a
// machine with no AMD GPU); without the runtime, when hipInit fails, or when it reports no
// device, it is unavailable with the runtime's reason.
//
// Ownership: owns the HipRuntime (the dlopen handle, closed after the devices are
// destroyed) and its HipDevices. Thread-safety: devices are discovered in the constructor
// and immutable afterwards; every member is safe from any thread.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "hip_device.hpp"
#include "hip_runtime.hpp"
#include "plexus/backend.hpp"
#include "plexus/plugin_context.hpp"

namespace plexus::hip {

class HipBackend final : public Backend {
 public:
  // Options: `library` (string): the runtime to dlopen, default "libamdhip64.so.5";
  // `device_node_check` (bool, default true): false loads the runtime even without /dev/kfd.
  explicit HipBackend(PluginContext& context);
  // Reads the options as the constructor does (plugin.hpp): for a table not selected.
  static void check_options(const ComponentOptions& options);
  ~HipBackend() override;

  BackendStatus status() const override { return status_; }
  std::size_t device_count() const override { return devices_.size(); }

 protected:
  Device& device_at(std::size_t index) const override;

 private:
  BackendStatus discover();

  // Declared first: destroyed last, after the devices.
  std::unique_ptr<HipRuntime> runtime_;
  std::vector<std::unique_ptr<HipDevice>> devices_;
  BackendStatus status_;
};

}  // namespace plexus::hip
