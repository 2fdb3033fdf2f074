#include "plexus/sycl_names.hpp"
#include "plexus/kernel_bundle.hpp"

#include <algorithm>

#include "bundle_state.hpp"
#include "plexus/device.hpp"
#include "plexus/device_module.hpp"
#include "plexus/error.hpp"
#include "runtime_state.hpp"

namespace plexus {

namespace detail {

std::string BundleState::kernel_names() const {
  std::string text;
  for (const auto& kernel : kernels) text += (text.empty() ? "" : ", ") + kernel.name;
  return text.empty() ? "none" : text;
}

std::string BundleState::device_names() const {
  std::string text;
  for (Device* device : devices) text += (text.empty() ? "'" : ", '") + device->info().name + "'";
  return text.empty() ? "no device" : text;
}

void BundleState::add_module(Device* device, std::shared_ptr<DeviceModule> module) {
  std::lock_guard lock(mutex_);
  devices.push_back(device);
  modules_.push_back(std::move(module));
}

std::shared_ptr<DeviceModule> BundleState::module_on(const Device* device) const {
  std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < devices.size() && i < modules_.size(); ++i) {
    if (devices[i] == device) return modules_[i];
  }
  return nullptr;
}

std::shared_ptr<DeviceModule> BundleState::module_on(const Device* device,
                                                    const std::string& name) const {
  std::lock_guard lock(mutex_);
  // The device's only module is the answer whatever its kernels (no name compared then).
  std::size_t found = 0, at = 0;
  for (std::size_t i = 0; i < devices.size() && i < modules_.size(); ++i) {
    if (devices[i] == device && modules_[i] && found++ == 0) at = i;
  }
  if (found <= 1) return found ? modules_[at] : nullptr;
  for (std::size_t i = at; i < devices.size() && i < modules_.size(); ++i) {
    if (devices[i] != device || !modules_[i]) continue;
    for (const auto& kernel : modules_[i]->kernels())
      if (kernel.name == name) return modules_[i];
  }
  return modules_[at];
}

void BundleState::drop_modules() noexcept {
  std::lock_guard lock(mutex_);
  modules_.clear();
}

}  // namespace detail

Kernel::Kernel(std::shared_ptr<const detail::BundleState> bundle, const KernelInfo* info)
    : bundle_(std::move(bundle)), info_(info) {}

bool Kernel::available_on(const Device& device) const {
  for (const Device* loaded_on : bundle_->devices) {
    if (loaded_on == &device) return true;
  }
  return false;
}

std::shared_ptr<DeviceModule> Kernel::module_on(const Device& device) const {
  detail::RuntimeState::check(bundle_->runtime, "a kernel bundle");
  if (auto module = bundle_->module_on(&device, name())) return module;
  throw error(error_category::invalid_argument,
              "kernel '" + name() + "' is not loaded on device '" + device.info().name +
                  "'; its bundle is loaded on " + bundle_->device_names());
}

std::uint64_t Kernel::max_work_group_size(const Device& device) const {
  return module_on(device)->kernel(name()).max_work_group_size();
}

KernelBundle::KernelBundle(std::shared_ptr<const detail::BundleState> state)
    : state_(std::move(state)) {}

Kernel KernelBundle::kernel(const std::string& name) const {
  detail::RuntimeState::lock(state_->runtime, "a kernel bundle");
  for (const auto& info : state_->kernels) {
    if (info.name == name) return Kernel(state_, &info);
  }
  // A registered name of SYCL source names the kernel registered_kernel_symbol(name).
  const std::string registered = registered_kernel_symbol(name);
  for (const auto& info : state_->kernels) {
    if (info.name == registered) return Kernel(state_, &info);
  }
  throw error(error_category::invalid_argument, "kernel '" + name +
                                                    "' is not in this bundle; its kernels are: " +
                                                    state_->kernel_names());
}

std::vector<std::string> KernelBundle::kernel_names() const {
  std::vector<std::string> names;
  for (const auto& info : state_->kernels) names.push_back(info.name);
  return names;
}

std::vector<Device*> KernelBundle::devices() const {
  std::vector<Device*> unique;
  for (Device* device : state_->devices)
    if (std::find(unique.begin(), unique.end(), device) == unique.end()) unique.push_back(device);
  return unique;
}

std::vector<BundleImage> KernelBundle::images() const { return state_->images; }

std::string KernelBundle::description() const {
  std::string text;
  for (const BundleImage& image : state_->images) {
    text += (text.empty() ? "" : "\n") + std::string("'") +
            (image.device ? image.device->info().name : std::string("?")) + "': " +
            image.origin;
  }
  return text;
}

}  // namespace plexus
