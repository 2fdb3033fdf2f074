#include "usm_registry.hpp"

#include <cstdio>

#include "plexus/device.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus::detail {

bool UsmAllocation::host_accessible() const {
  return kind != UsmKind::device || device->shares_host_memory();
}

bool UsmAllocation::usable_on(const Device& target) const {
  return device == &target || (target.shares_host_memory() && host_accessible());
}

std::string address_text(const void* pointer) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", pointer);
  return text;
}

void* UsmRegistry::allocate(Device& device, UsmKind kind, std::size_t bytes) {
  if (bytes == 0)
    throw error(error_category::invalid_argument, "malloc_" + std::string(to_string(kind)) +
                                                      " on device '" + device.info().name +
                                                      "': 0 bytes requested");
  if (!device.supports_usm(kind))
    throw error(
        error_category::unsupported,
        "malloc_" + std::string(to_string(kind)) + ": device '" + device.info().name +
            "' does not support USM " + std::string(to_string(kind)) + " allocations" +
            (kind == UsmKind::shared ? "; use malloc_device with memcpy, or a Buffer" : ""));
  void* pointer = device.allocate_usm(kind, bytes);
  std::lock_guard lock(mutex_);
  allocations_[reinterpret_cast<std::uintptr_t>(pointer)] =
      UsmAllocation{pointer, bytes, &device, kind, false};
  ++made_;
  made_bytes_ += bytes;
  live_bytes_ += bytes;
  return pointer;
}

void UsmRegistry::free(void* pointer) {
  if (!pointer) return;
  UsmAllocation freed;
  {
    std::lock_guard lock(mutex_);
    const auto it = allocations_.find(reinterpret_cast<std::uintptr_t>(pointer));
    if (it == allocations_.end()) {
      std::string what = "free(" + address_text(pointer) + "): ";
      auto holder = allocations_.upper_bound(reinterpret_cast<std::uintptr_t>(pointer));
      if (holder != allocations_.begin()) {
        --holder;
        const auto offset = reinterpret_cast<std::uintptr_t>(pointer) - holder->first;
        if (offset < holder->second.bytes)
          throw error(error_category::invalid_argument,
                      what + "the address is " + std::to_string(offset) +
                          " bytes into a USM allocation of " +
                          std::to_string(holder->second.bytes) +
                          " bytes; free takes the address malloc_* returned");
      }
      if (buffer_pointers_.count(pointer))
        throw error(error_category::invalid_argument,
                    what + "the pointer is a Buffer's device_pointer, which the buffer frees");
      throw error(error_category::invalid_argument,
                  what +
                      "not a USM allocation of this runtime (freed already, or allocated "
                      "with another runtime or allocator)");
    }
    freed = it->second;
    allocations_.erase(it);
    live_bytes_ -= freed.bytes;
  }
  freed.device->deallocate_usm(freed.kind, freed.base);
}

std::optional<UsmAllocation> UsmRegistry::find(const void* address) const {
  std::lock_guard lock(mutex_);
  const auto key = reinterpret_cast<std::uintptr_t>(address);
  auto holder = allocations_.upper_bound(key);
  if (holder != allocations_.begin()) {
    --holder;
    if (key - holder->first < holder->second.bytes) return holder->second;
  }
  if (const auto it = buffer_pointers_.find(address); it != buffer_pointers_.end())
    return it->second;
  return std::nullopt;
}

void UsmRegistry::add_buffer_pointer(void* pointer, std::size_t bytes, Device& device) {
  std::lock_guard lock(mutex_);
  buffer_pointers_[pointer] = UsmAllocation{pointer, bytes, &device, UsmKind::device, true};
}

void UsmRegistry::remove_buffer_pointer(void* pointer) noexcept {
  std::lock_guard lock(mutex_);
  buffer_pointers_.erase(pointer);
}

std::size_t UsmRegistry::release_all() noexcept {
  std::map<std::uintptr_t, UsmAllocation> left;
  {
    std::lock_guard lock(mutex_);
    left.swap(allocations_);
    buffer_pointers_.clear();
    live_bytes_ = 0;
  }
  for (const auto& [address, allocation] : left)
    allocation.device->deallocate_usm(allocation.kind, allocation.base);
  return left.size();
}

UsmStats UsmRegistry::stats() const {
  std::lock_guard lock(mutex_);
  return {made_, made_bytes_, allocations_.size(), live_bytes_};
}

}  // namespace plexus::detail
