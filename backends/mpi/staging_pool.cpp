#include "staging_pool.hpp"

#include <bit>
#include <map>
#include <mutex>
#include <vector>

#include "plexus/log.hpp"

namespace plexus::mpi {

namespace {
constexpr std::size_t smallest_buffer = std::size_t{64} << 10;
constexpr std::size_t largest_reused_ratio = 4;
}

// What the pool and its buffers' deleters share: a buffer released after the pool has gone
// is freed, not kept.
struct StagingPool::Shelf {
  Device* device;  // null: plain memory
  std::size_t retained_limit;
  std::mutex mutex;
  struct Kept {
    std::byte* buffer;
    bool from_device;  // else plain memory (the device gave none)
  };
  std::multimap<std::size_t, Kept> kept;  // by size
  std::size_t kept_bytes = 0;
  std::size_t allocations = 0;
  bool open = true;
  bool pinned_failed = false;  // the device gave no host memory once: plain memory from then

  Shelf(Device* d, std::size_t limit) : device(d), retained_limit(limit) {}

  std::byte* allocate(std::size_t size, bool& from_device) {
    if (device && !pinned_failed) {
      try {
        from_device = true;
        return static_cast<std::byte*>(device->allocate_host(size));
      } catch (const std::exception& e) {
        pinned_failed = true;
        logger().warn("mpi worker: device '{}' gave no host memory for staging ({}); staging in "
                      "plain memory, so its copies run slower", device->info().name, e.what());
      }
    }
    from_device = false;
    return new std::byte[size];
  }

  void free(std::byte* buffer, bool from_device) noexcept {
    if (from_device)
      device->deallocate_host(buffer);
    else
      delete[] buffer;
  }
};

StagingPool::StagingPool(Device& device, std::size_t retained_bytes)
    : shelf_(std::make_shared<Shelf>(&device, retained_bytes)) {}

StagingPool::StagingPool(std::size_t retained_bytes)
    : shelf_(std::make_shared<Shelf>(nullptr, retained_bytes)) {}

StagingPool::~StagingPool() {
  std::lock_guard lock(shelf_->mutex);
  shelf_->open = false;
  for (auto& [size, each] : shelf_->kept) shelf_->free(each.buffer, each.from_device);
  shelf_->kept.clear();
  shelf_->kept_bytes = 0;
}

std::shared_ptr<std::byte[]> StagingPool::acquire(std::size_t bytes) {
  std::size_t size = std::bit_ceil(std::max(bytes, smallest_buffer));
  std::byte* buffer = nullptr;
  bool from_device = true;
  {
    std::lock_guard lock(shelf_->mutex);
    // The smallest kept buffer that fits, up to 4 times the size (a region of another size
    // reuses memory already pinned rather than pinning more).
    if (auto it = shelf_->kept.lower_bound(size);
        it != shelf_->kept.end() && it->first <= largest_reused_ratio * size) {
      size = it->first;
      buffer = it->second.buffer;
      from_device = it->second.from_device;
      shelf_->kept.erase(it);
      shelf_->kept_bytes -= size;
    } else {
      buffer = shelf_->allocate(size, from_device);
      ++shelf_->allocations;
    }
  }
  return std::shared_ptr<std::byte[]>(buffer, [shelf = shelf_, size, from_device](std::byte* b) {
    std::lock_guard lock(shelf->mutex);
    if (shelf->open && shelf->kept_bytes + size <= shelf->retained_limit) {
      shelf->kept.emplace(size, Shelf::Kept{b, from_device});
      shelf->kept_bytes += size;
      return;
    }
    shelf->free(b, from_device);
  });
}

std::size_t StagingPool::allocations() const {
  std::lock_guard lock(shelf_->mutex);
  return shelf_->allocations;
}

}  // namespace plexus::mpi
