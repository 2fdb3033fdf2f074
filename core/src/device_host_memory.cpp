// The defaults of the device-to-device copy interface: plain page-aligned host memory for
// staging (Device::allocate_host) and no direct copy path (DeviceQueue::copy_from_device).
#include <new>
#include <string>

#include "plexus/device.hpp"
#include "plexus/error.hpp"

namespace plexus {
namespace {
constexpr std::align_val_t page{4096};
}

void* Device::allocate_host(std::size_t bytes) {
  if (bytes == 0)
    throw error(error_category::invalid_argument,
                "allocate_host on device '" + info().name + "': 0 bytes requested");
  try {
    return ::operator new(bytes, page);
  } catch (const std::bad_alloc&) {
    throw error(error_category::device, "allocate_host on device '" + info().name + "': " +
                                            std::to_string(bytes) + " bytes of host memory");
  }
}

void Device::deallocate_host(void* memory) noexcept {
  if (memory) ::operator delete(memory, page);
}

bool DeviceQueue::copy_from_device(void*, Device&, const void*, const CopyLayout&) { return false; }

}  // namespace plexus
