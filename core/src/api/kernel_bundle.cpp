#include "plexus/kernel_bundle.hpp"

#include "bundle_state.hpp"
#include "plexus/device.hpp"
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
  for (const auto& [device, module] : modules) {
    text += (text.empty() ? "'" : ", '") + device->info().name + "'";
  }
  return text.empty() ? "no device" : text;
}

}  // namespace detail

Kernel::Kernel(std::shared_ptr<const detail::BundleState> bundle, const KernelInfo* info)
    : bundle_(std::move(bundle)), info_(info) {}

bool Kernel::available_on(const Device& device) const {
  for (const auto& [loaded_on, module] : bundle_->modules) {
    if (loaded_on == &device) return true;
  }
  return false;
}

std::shared_ptr<DeviceModule> Kernel::module_on(const Device& device) const {
  detail::RuntimeState::lock(bundle_->runtime, "a kernel bundle");
  for (const auto& [loaded_on, weak] : bundle_->modules) {
    if (loaded_on != &device) continue;
    if (auto module = weak.lock()) return module;
    break;
  }
  throw error(error_category::invalid_argument,
              "kernel '" + name() + "' is not loaded on device '" + device.info().name +
                  "'; its bundle is loaded on " + bundle_->device_names());
}

KernelBundle::KernelBundle(std::shared_ptr<const detail::BundleState> state)
    : state_(std::move(state)) {}

Kernel KernelBundle::kernel(const std::string& name) const {
  detail::RuntimeState::lock(state_->runtime, "a kernel bundle");
  for (const auto& info : state_->kernels) {
    if (info.name == name) return Kernel(state_, &info);
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
  std::vector<Device*> devices;
  for (const auto& [device, module] : state_->modules) devices.push_back(device);
  return devices;
}

}  // namespace plexus
