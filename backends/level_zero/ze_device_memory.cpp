// ZeDevice's memory: device allocations, USM of the three kinds, page-locked host memory,
// address ranges and peer access.
#include <string>

#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "ze_device.hpp"

namespace plexus::level_zero {
namespace {

ze_device_mem_alloc_desc_t device_description() {
  ze_device_mem_alloc_desc_t description{};
  description.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
  return description;
}

ze_host_mem_alloc_desc_t host_description() {
  ze_host_mem_alloc_desc_t description{};
  description.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;
  return description;
}

}  // namespace

void ZeDevice::fail(const std::string& what, const char* call, ze_result_t result) const {
  throw error(error_category::device, "Level Zero device '" + info_.name + "': " + what + ": " +
                                          ZeLoader::describe_failure(call, result));
}

void* ZeDevice::allocate(std::size_t bytes) {
  const std::string what = "allocate of " + std::to_string(bytes) + " bytes";
  if (bytes == 0)
    throw error(error_category::invalid_argument,
                "Level Zero device '" + info_.name + "': " + what + ": 0 bytes requested");
  const ze_device_mem_alloc_desc_t description = device_description();
  void* memory = nullptr;
  if (const ze_result_t result =
          loader().mem_alloc_device(context(), &description, bytes, 0, device_, &memory);
      result != ZE_RESULT_SUCCESS)
    fail(what, "zeMemAllocDevice", result);
  return memory;
}

void ZeDevice::free(void* memory, const char* what) const noexcept {
  if (!memory) return;
  ze_result_t result = ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  if (loader().mem_free_ext) {
    ze_memory_free_ext_desc_t description{};
    description.stype = ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC;
    description.freePolicy = ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE;
    result = loader().mem_free_ext(context(), &description, memory);
  }
  if (result == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE || result == ZE_RESULT_ERROR_UNINITIALIZED)
    result = loader().mem_free(context(), memory);
  if (result != ZE_RESULT_SUCCESS)
    logger().warn("level_zero backend: {} on '{}': {}", what, info_.name,
                  ZeLoader::describe_failure("zeMemFree", result));
}

void ZeDevice::deallocate(void* allocation) noexcept { free(allocation, "deallocate"); }

bool ZeDevice::supports_usm(UsmKind kind) const {
  switch (kind) {
    case UsmKind::device:
      return true;
    case UsmKind::host:
      return host_usm_;
    case UsmKind::shared:
      return shared_usm_;
  }
  return false;
}

void* ZeDevice::allocate_usm(UsmKind kind, std::size_t bytes) {
  const std::string what = "malloc_" + std::string(to_string(kind)) + " of " +
                           std::to_string(bytes) + " bytes";
  if (bytes == 0)
    throw error(error_category::invalid_argument,
                "Level Zero device '" + info_.name + "': " + what + ": 0 bytes requested");
  if (kind == UsmKind::device) return allocate(bytes);
  if (!supports_usm(kind))
    throw error(error_category::unsupported,
                "Level Zero device '" + info_.name + "': " + what +
                    ": the device reports no such capability (zeDeviceGetMemoryAccessProperties)");
  void* memory = nullptr;
  const ze_host_mem_alloc_desc_t host = host_description();
  if (kind == UsmKind::host) {
    if (const ze_result_t result = loader().mem_alloc_host(context(), &host, bytes, 0, &memory);
        result != ZE_RESULT_SUCCESS)
      fail(what, "zeMemAllocHost", result);
    return memory;
  }
  const ze_device_mem_alloc_desc_t device = device_description();
  if (const ze_result_t result =
          loader().mem_alloc_shared(context(), &device, &host, bytes, 0, device_, &memory);
      result != ZE_RESULT_SUCCESS)
    fail(what, "zeMemAllocShared", result);
  return memory;
}

void ZeDevice::deallocate_usm(UsmKind kind, void* pointer) noexcept {
  free(pointer, kind == UsmKind::host ? "free of host USM" : "free of USM");
}

void* ZeDevice::allocate_host(std::size_t bytes) {
  const std::string what = "allocate_host of " + std::to_string(bytes) + " bytes";
  if (bytes == 0)
    throw error(error_category::invalid_argument,
                "Level Zero device '" + info_.name + "': " + what + ": 0 bytes requested");
  const ze_host_mem_alloc_desc_t description = host_description();
  void* memory = nullptr;
  if (const ze_result_t result = loader().mem_alloc_host(context(), &description, bytes, 0, &memory);
      result != ZE_RESULT_SUCCESS)
    fail(what, "zeMemAllocHost", result);
  return memory;
}

void ZeDevice::deallocate_host(void* memory) noexcept { free(memory, "deallocate_host"); }

std::size_t ZeDevice::bytes_after(const void* allocation) const {
  void* base = nullptr;
  std::size_t size = 0;
  if (loader().mem_get_address_range(context(), const_cast<void*>(allocation), &base, &size) !=
          ZE_RESULT_SUCCESS ||
      !base)
    throw error(error_category::invalid_argument,
                "Level Zero device '" + info_.name +
                    "': the allocation is not memory of this device's context (pass what "
                    "Device::allocate returned)");
  return static_cast<const char*>(base) + size - static_cast<const char*>(allocation);
}

bool ZeDevice::can_access(const ZeDevice& source) const {
  if (&source == this) return true;
  if (source.context() != context()) return false;
  std::lock_guard lock(peers_mutex_);
  if (const auto known = peers_.find(&source); known != peers_.end()) return known->second;
  ze_bool_t can = false;
  const ze_result_t result = loader().device_can_access_peer(device_, source.handle(), &can);
  if (result != ZE_RESULT_SUCCESS)
    logger().warn("level_zero backend: '{}' and '{}': {}", info_.name, source.info().name,
                  ZeLoader::describe_failure("zeDeviceCanAccessPeer", result));
  const bool allowed = result == ZE_RESULT_SUCCESS && can;
  peers_[&source] = allowed;
  return allowed;
}

}  // namespace plexus::level_zero
