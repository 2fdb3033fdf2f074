// HipDevice's discovery, module loading and queues.
#include "hip_device.hpp"

#include <string>

#include "hip_device_scope.hpp"
#include "hip_module.hpp"
#include "hip_queue.hpp"
#include "plexus/error.hpp"

namespace plexus::hip {

HipDevice::HipDevice(Backend& backend, const HipRuntime& runtime, int ordinal)
    : backend_(backend), runtime_(runtime), ordinal_(ordinal) {
  hipDeviceProp_t properties{};
  runtime.check("hipGetDeviceProperties(" + std::to_string(ordinal) + ")",
                runtime.get_device_properties(&properties, ordinal));
  int runtime_version = 0, driver_version = 0;
  (void)runtime.runtime_get_version(&runtime_version);
  (void)runtime.driver_get_version(&driver_version);
  properties.name[sizeof properties.name - 1] = '\0';
  properties.gcnArchName[sizeof properties.gcnArchName - 1] = '\0';
  const std::string target = properties.gcnArchName;  // "gfx90a:sramecc+:xnack-"
  info_.name = properties.name;
  info_.vendor = "AMD";
  info_.version = "HIP " + std::to_string(runtime_version) + ", " + target;
  info_.driver_version = std::to_string(driver_version);
  // The processor alone: a code object without xnack/sramecc settings runs with either.
  info_.architecture = target.substr(0, target.find(':'));
  if (info_.architecture.empty()) info_.architecture = "gfx" + std::to_string(properties.gcnArch);
  info_.type = DeviceType::gpu;
  info_.compute_units = static_cast<std::uint32_t>(properties.multiProcessorCount);
  info_.global_memory_bytes = properties.totalGlobalMem;
  info_.local_memory_bytes = properties.sharedMemPerBlock;
  info_.max_work_group_size = static_cast<std::uint64_t>(properties.maxThreadsPerBlock);
  info_.formats = {BinaryFormat::amdgcn};
  managed_ = properties.managedMemory != 0;
}

void HipDevice::fail(const std::string& what, const char* call, hipError_t result) const {
  throw error(error_category::device,
              "HIP device '" + info_.name + "': " + what + ": " + runtime_.describe_failure(call, result));
}

std::shared_ptr<DeviceModule> HipDevice::load_module(BinaryFormat format,
                                                     std::span<const std::byte> binary,
                                                     const std::vector<KernelInfo>& kernels) {
  if (format != BinaryFormat::amdgcn)
    throw error(error_category::unsupported, "HIP device '" + info_.name + "' does not load " +
                                                 std::string(to_string(format)) +
                                                 " code; it loads: amdgcn");
  if (binary.empty())
    throw error(error_category::invalid_argument,
                "load_module on HIP device '" + info_.name + "': the code object is empty");
  return std::make_shared<HipModule>(*this, binary, kernels);
}

std::unique_ptr<DeviceQueue> HipDevice::create_queue() { return std::make_unique<HipQueue>(*this); }

}  // namespace plexus::hip
