// KernelBundle and Kernel: device code built from one source for every device that can
// take it (Runtime::build), and one kernel of it.
//
//   plexus::KernelBundle bundle = rt.build(source, "-DN=4");
//   plexus::Kernel saxpy = bundle.kernel("saxpy");   // unknown name: error listing the kernels
//   bundle.kernel("ns::scale<float>");               // SYCL: a registered name (sycl_names.hpp)
//
// Cheap shared handles (copies refer to the same bundle); immutable, safe from any thread.
// The runtime's program cache owns the loaded modules (they go with the runtime); using a
// bundle after its Runtime is destroyed throws plexus::error(invalid_argument).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "plexus/bundle_image.hpp"
#include "plexus/export.hpp"
#include "plexus/kernel_info.hpp"

namespace plexus {

class Device;
class DeviceModule;

namespace detail {
class BundleState;
}

class PLEXUS_API Kernel {
 public:
  Kernel(std::shared_ptr<const detail::BundleState> bundle, const KernelInfo* info);

  const std::string& name() const { return info_->name; }
  const KernelInfo& info() const { return *info_; }
  // Whether the bundle was loaded on `device`.
  bool available_on(const Device& device) const;
  // The module holding the kernel on `device` (kept alive by the runtime, not the bundle);
  // invalid_argument naming the devices it is loaded on, or the runtime being gone.
  std::shared_ptr<DeviceModule> module_on(const Device& device) const;
  // The largest work-group (work-items in all) a launch of this kernel may use on `device`
  // (DeviceKernel::max_work_group_size: the device's limit, or less by the kernel's own
  // resources); invalid_argument as module_on when it is not loaded there.
  std::uint64_t max_work_group_size(const Device& device) const;
  const std::shared_ptr<const detail::BundleState>& bundle() const { return bundle_; }

 private:
  std::shared_ptr<const detail::BundleState> bundle_;
  const KernelInfo* info_;
};

class PLEXUS_API KernelBundle {
 public:
  explicit KernelBundle(std::shared_ptr<const detail::BundleState> state);

  Kernel kernel(const std::string& name) const;
  std::vector<std::string> kernel_names() const;
  std::vector<Device*> devices() const;  // where the bundle is loaded
  // The device code behind the bundle, per device (and per group): bytes, formats, kernels,
  // origin. A bundle built from source holds what the compiler produced for each device; one
  // loaded with Runtime::load (e.g. from SYCLBIN) holds the images it was given. Writers such
  // as plexus::syclbin::to_syclbin() persist these.
  std::vector<BundleImage> images() const;
  // One line per image: "'device': origin" (which image was chosen for each device and why).
  std::string description() const;

 private:
  std::shared_ptr<const detail::BundleState> state_;
};

}  // namespace plexus
