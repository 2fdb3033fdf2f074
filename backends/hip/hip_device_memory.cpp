// HipDevice's memory: device allocations, USM, page-locked host memory, address ranges and
// peer access.
#include <string>

#include "hip_device.hpp"
#include "hip_device_scope.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus::hip {

void* HipDevice::allocate(std::size_t bytes) {
  const std::string what = "allocate of " + std::to_string(bytes) + " bytes";
  if (bytes == 0)
    throw error(error_category::invalid_argument,
                "HIP device '" + info_.name + "': " + what + ": 0 bytes requested");
  ScopedDevice scope(runtime_, ordinal_);
  void* memory = nullptr;
  if (const hipError_t result = runtime_.malloc(&memory, bytes); result != hipSuccess)
    fail(what, "hipMalloc", result);
  return memory;
}

void HipDevice::deallocate(void* allocation) noexcept {
  if (!allocation) return;
  try {
    ScopedDevice scope(runtime_, ordinal_);
    if (const hipError_t result = runtime_.free(allocation); result != hipSuccess)
      logger().warn("hip backend: {}", runtime_.describe_failure("hipFree", result));
  } catch (const std::exception& e) {
    logger().warn("hip backend: deallocate: {}", e.what());
  }
}

bool HipDevice::supports_usm(UsmKind kind) const { return kind != UsmKind::shared || managed_; }

void* HipDevice::allocate_usm(UsmKind kind, std::size_t bytes) {
  const std::string what = "malloc_" + std::string(to_string(kind)) + " of " +
                           std::to_string(bytes) + " bytes";
  if (bytes == 0)
    throw error(error_category::invalid_argument,
                "HIP device '" + info_.name + "': " + what + ": 0 bytes requested");
  if (kind == UsmKind::device) return allocate(bytes);
  if (!supports_usm(kind))
    throw error(error_category::unsupported,
                "HIP device '" + info_.name + "': " + what +
                    ": the device has no managed memory (hipDeviceProp_t::managedMemory is 0)");
  ScopedDevice scope(runtime_, ordinal_);
  void* memory = nullptr;
  if (kind == UsmKind::host) {
    if (const hipError_t result =
            runtime_.host_malloc(&memory, bytes, hipHostMallocMapped | hipHostMallocPortable);
        result != hipSuccess)
      fail(what, "hipHostMalloc", result);
    return memory;
  }
  if (const hipError_t result = runtime_.malloc_managed(&memory, bytes, hipMemAttachGlobal);
      result != hipSuccess)
    fail(what, "hipMallocManaged", result);
  return memory;
}

void HipDevice::deallocate_usm(UsmKind kind, void* pointer) noexcept {
  if (kind == UsmKind::host) return deallocate_host(pointer);
  deallocate(pointer);  // hipFree frees managed memory too
}

void* HipDevice::allocate_host(std::size_t bytes) {
  const std::string what = "allocate_host of " + std::to_string(bytes) + " bytes";
  if (bytes == 0)
    throw error(error_category::invalid_argument,
                "HIP device '" + info_.name + "': " + what + ": 0 bytes requested");
  ScopedDevice scope(runtime_, ordinal_);
  void* memory = nullptr;
  if (const hipError_t result = runtime_.host_malloc(&memory, bytes, hipHostMallocPortable);
      result != hipSuccess)
    fail(what, "hipHostMalloc", result);
  return memory;
}

void HipDevice::deallocate_host(void* memory) noexcept {
  if (!memory) return;
  try {
    ScopedDevice scope(runtime_, ordinal_);
    if (const hipError_t result = runtime_.host_free(memory); result != hipSuccess)
      logger().warn("hip backend: {}", runtime_.describe_failure("hipHostFree", result));
  } catch (const std::exception& e) {
    logger().warn("hip backend: deallocate_host: {}", e.what());
  }
}

std::size_t HipDevice::bytes_after(const void* allocation) const {
  ScopedDevice scope(runtime_, ordinal_);
  hipDeviceptr_t base = nullptr;
  std::size_t size = 0;
  if (runtime_.mem_get_address_range(&base, &size, const_cast<void*>(allocation)) != hipSuccess ||
      !base)
    throw error(error_category::invalid_argument,
                "HIP device '" + info_.name +
                    "': the allocation is not device memory (pass what Device::allocate returned)");
  return static_cast<const char*>(base) + size - static_cast<const char*>(allocation);
}

bool HipDevice::enable_peer_access(const HipDevice& source) const {
  std::lock_guard lock(peers_mutex_);
  if (const auto known = peers_.find(&source); known != peers_.end()) return known->second;
  int can = 0;
  bool enabled = false;
  if (runtime_.device_can_access_peer(&can, ordinal_, source.ordinal()) == hipSuccess && can) {
    ScopedDevice scope(runtime_, ordinal_);
    const hipError_t result = runtime_.device_enable_peer_access(source.ordinal(), 0);
    enabled = result == hipSuccess || result == hipErrorPeerAccessAlreadyEnabled;
    if (!enabled)
      logger().warn("hip backend: '{}' cannot read '{}' directly: {}", info_.name,
                    source.info().name,
                    runtime_.describe_failure("hipDeviceEnablePeerAccess", result));
  }
  peers_[&source] = enabled;
  return enabled;
}

}  // namespace plexus::hip
