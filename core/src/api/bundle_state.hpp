// BundleState: what a KernelBundle refers to (internal to the core): the kernels' metadata
// and, per device, the loaded module, owned by the runtime's program cache (held weakly
// here so that modules go with the runtime). Immutable after Runtime::build.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "plexus/device_module.hpp"
#include "plexus/kernel_info.hpp"

namespace plexus::detail {

class RuntimeState;

class BundleState {
 public:
  std::weak_ptr<RuntimeState> runtime;
  std::vector<KernelInfo> kernels;
  std::vector<std::pair<Device*, std::weak_ptr<DeviceModule>>> modules;

  std::string kernel_names() const;  // "a, b, c"
  std::string device_names() const;  // "'x', 'y'"
};

}  // namespace plexus::detail
