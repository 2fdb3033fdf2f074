#include "cuda_device.hpp"

#include <array>
#include <cstddef>

namespace plexus::cuda {
namespace {

int device_attribute(const CudaDriver& driver, CUdevice device, CUdevice_attribute which,
                     const char* name) {
  int value = 0;
  driver.check(std::string("cuDeviceGetAttribute(") + name + ")",
               driver.device_get_attribute(&value, which, device));
  return value;
}

}  // namespace

CudaDevice::CudaDevice(Backend& backend, const CudaDriver& driver, int ordinal,
                       const std::string& driver_version)
    : backend_(backend), driver_(driver) {
  driver.check("cuDeviceGet(" + std::to_string(ordinal) + ")",
               driver.device_get(&device_, ordinal));

  std::array<char, 256> name{};
  driver.check("cuDeviceGetName", driver.device_get_name(name.data(), name.size(), device_));
  name.back() = '\0';
  std::size_t memory = 0;
  driver.check("cuDeviceTotalMem_v2", driver.device_total_mem(&memory, device_));

#define PLEXUS_CU_ATTRIBUTE(id) device_attribute(driver, device_, id, #id)
  const int major = PLEXUS_CU_ATTRIBUTE(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  const int minor = PLEXUS_CU_ATTRIBUTE(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  const int multiprocessors = PLEXUS_CU_ATTRIBUTE(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  const int shared_memory = PLEXUS_CU_ATTRIBUTE(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  const int threads = PLEXUS_CU_ATTRIBUTE(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
#undef PLEXUS_CU_ATTRIBUTE

  info_.name = name.data();
  info_.vendor = "NVIDIA";
  info_.version = "compute capability " + std::to_string(major) + "." + std::to_string(minor);
  info_.driver_version = driver_version;
  info_.architecture = "sm_" + std::to_string(major) + std::to_string(minor);
  info_.type = DeviceType::gpu;
  info_.compute_units = static_cast<std::uint32_t>(multiprocessors);
  info_.global_memory_bytes = memory;
  info_.local_memory_bytes = static_cast<std::uint64_t>(shared_memory);
  info_.max_work_group_size = static_cast<std::uint64_t>(threads);
  info_.formats = {BinaryFormat::ptx};
}

}  // namespace plexus::cuda
