// AddressedDeviceQueue: a DeviceQueue for a backend whose allocations are device addresses
// (USM device memory: CUDA, HIP, Level Zero, the host), whose buffer commands
// (copy_within, fill_within) are then its usm_copy and usm_fill at allocation + offset
// (DeviceQueue::copy_within_as_usm, fill_within_as_usm). A backend's queue derives from it
// instead of DeviceQueue. Thread-safety and ownership: as DeviceQueue.
#pragma once

#include "plexus/device_queue.hpp"

namespace plexus {

class AddressedDeviceQueue : public DeviceQueue {
 public:
  bool copy_within(void* allocation, std::size_t offset, const void* source_allocation,
                   std::size_t source_offset, std::size_t bytes) override {
    return copy_within_as_usm(allocation, offset, source_allocation, source_offset, bytes);
  }
  bool fill_within(void* allocation, std::size_t offset, const void* pattern,
                   std::size_t pattern_size, std::size_t bytes) override {
    return fill_within_as_usm(allocation, offset, pattern, pattern_size, bytes);
  }
};

}  // namespace plexus
