// UsmRegistry: the USM allocations of one runtime (plexus/usm.hpp), and the buffer
// allocations handed out by Buffer::device_pointer, so that a pointer given to a kernel or
// a USM command can be told apart from memory the runtime does not know, and checked
// against the device that runs it. Internal to the core.
//
// USM allocations are found by any address inside them (a pointer plus an offset); buffer
// pointers only by the exact address handed out (on OpenCL they are cl_mem handles, not
// addresses). Thread-safety: every member is safe from any thread. Ownership: allocate()
// makes the allocations, free() and release_all() give them back to their devices;
// release_all() runs at runtime shutdown, after every task, before the backends go.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "plexus/memory_model.hpp"
#include "plexus/usm_kind.hpp"

namespace plexus {
class Device;
}

namespace plexus::detail {

struct UsmAllocation {
  void* base = nullptr;
  std::size_t bytes = 0;
  Device* device = nullptr;
  UsmKind kind = UsmKind::device;
  bool buffer = false;  // a Buffer::device_pointer (not freed here, not a real address)

  // The host reads and writes it in place: host and shared memory, or memory of a device
  // that shares host memory.
  bool host_accessible() const;
  // Usable by kernels and commands on `device`: its own device, or any device that shares
  // host memory for memory the host reaches.
  bool usable_on(const Device& target) const;
};

class UsmRegistry {
 public:
  // device.allocate_usm(kind, bytes), recorded. Errors as Device::allocate_usm.
  void* allocate(Device& device, UsmKind kind, std::size_t bytes);
  // Frees an allocation made by allocate() (its start address); nullptr does nothing.
  // Anything else: plexus::error(invalid_argument) saying what the pointer is.
  void free(void* pointer);
  // The USM allocation holding `address`, or the buffer pointer equal to it.
  std::optional<UsmAllocation> find(const void* address) const;
  // Records a buffer's allocation on `device` (Buffer::device_pointer); idempotent.
  void add_buffer_pointer(void* pointer, std::size_t bytes, Device& device);
  void remove_buffer_pointer(void* pointer) noexcept;
  // Frees every allocation still held (shutdown); returns how many there were.
  std::size_t release_all() noexcept;
  // The USM allocations made so far and those live (buffer pointers are not counted).
  UsmStats stats() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::uintptr_t, UsmAllocation> allocations_;  // by start address
  std::unordered_map<const void*, UsmAllocation> buffer_pointers_;
  std::uint64_t made_ = 0, made_bytes_ = 0, live_bytes_ = 0;
};

// "0x7f..." for messages.
std::string address_text(const void* pointer);

}  // namespace plexus::detail
