#include "staging_pool.hpp"

#include "plexus/device.hpp"

namespace plexus::detail {

StagingPool::Lease::~Lease() { pool_.give_back(device_, chunks_); }

StagingPool::Lease StagingPool::acquire(Device& device) {
  std::array<void*, 2> chunks{nullptr, nullptr};
  {
    std::lock_guard lock(mutex_);
    auto& free = free_[&device];
    for (void*& chunk : chunks) {
      if (free.empty()) break;
      chunk = free.back();
      free.pop_back();
    }
  }
  try {
    for (void*& chunk : chunks)
      if (!chunk) chunk = device.allocate_host(chunk_bytes);
  } catch (...) {
    give_back(device, chunks);
    throw;
  }
  return Lease(*this, device, chunks);
}

void StagingPool::give_back(Device& device, const std::array<void*, 2>& chunks) noexcept {
  try {
    std::lock_guard lock(mutex_);
    auto& free = free_[&device];
    for (void* chunk : chunks)
      if (chunk) free.push_back(chunk);
  } catch (...) {
    for (void* chunk : chunks) device.deallocate_host(chunk);
  }
}

void StagingPool::clear() noexcept {
  std::unordered_map<Device*, std::vector<void*>> free;
  {
    std::lock_guard lock(mutex_);
    free.swap(free_);
  }
  for (auto& [device, chunks] : free)
    for (void* chunk : chunks) device->deallocate_host(chunk);
}

}  // namespace plexus::detail
