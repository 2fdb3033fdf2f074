// BundleState: what a KernelBundle refers to (internal to the core): the kernels' metadata
// and, per device, the loaded module. The modules come from the runtime's program cache;
// the runtime drops them from every live bundle when it shuts down (a module, and even a
// weak reference to it, must not outlive its plugin).
// A device may hold several modules (one per group of a loaded bundle, e.g. per SYCLBIN
// abstract module); a kernel's module there is the one that has it.
// Thread-safety: `devices`, `kernels`, `images`, `source` and `options` are immutable after
// Runtime::build or Runtime::load; the modules are behind a mutex.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "plexus/build_properties.hpp"
#include "plexus/bundle_image.hpp"
#include "plexus/device_module.hpp"
#include "plexus/kernel_info.hpp"

namespace plexus::detail {

class RuntimeState;

class BundleState {
 public:
  std::weak_ptr<RuntimeState> runtime;
  std::vector<KernelInfo> kernels;
  std::vector<Device*> devices;  // where a module is loaded, parallel to the modules
  std::vector<BundleImage> images;  // the code behind each module, in the same order
  // What Runtime::build compiled: the source, its options as the program keys have them
  // and as the compiler takes them; empty for Runtime::load. Fusion compiles it again for
  // the kernels' IR where an image is native code (fusion_input.hpp).
  std::string source;
  std::string options;
  std::vector<std::string> option_list;
  // Runtime::build(source, BuildProperties): the properties and their key (program_cache.hpp);
  // nullptr and empty for OpenCL C without them.
  std::shared_ptr<const BuildProperties> build;
  std::string properties;

  void add_module(Device* device, std::shared_ptr<DeviceModule> module);
  // The module on `device`; nullptr when not loaded there or dropped.
  std::shared_ptr<DeviceModule> module_on(const Device* device) const;
  // The module on `device` that has kernel `name` (the first one on `device` when none has).
  std::shared_ptr<DeviceModule> module_on(const Device* device, const std::string& name) const;
  void drop_modules() noexcept;

  std::string kernel_names() const;  // "a, b, c"
  std::string device_names() const;  // "'x', 'y'"

 private:
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<DeviceModule>> modules_;
};

}  // namespace plexus::detail
