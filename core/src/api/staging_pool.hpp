// StagingPool: host memory for staging device -> device copies, kept for reuse (allocating
// page-locked memory costs about a millisecond per megabyte). Each lease is two chunks of
// chunk_bytes from one device's Device::allocate_host (page-locked where the backend pins),
// so that a staged copy can read one chunk while it writes the other.
//
// Thread-safety: every member is safe from any thread. Ownership: the pool owns the chunks
// not leased; a Lease gives its chunks back when it dies and must not outlive the pool.
// clear() (and the destructor) frees the free chunks through their devices: call it while
// the devices are alive, after every lease ended.
#pragma once

#include <array>
#include <cstddef>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace plexus {
class Device;
}

namespace plexus::detail {

class StagingPool {
 public:
  static constexpr std::size_t chunk_bytes = std::size_t{8} << 20;

  class Lease {
   public:
    Lease(StagingPool& pool, Device& device, std::array<void*, 2> chunks)
        : pool_(pool), device_(device), chunks_(chunks) {}
    ~Lease();
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;

    void* chunk(std::size_t index) const { return chunks_[index]; }
    Device& device() const { return device_; }

   private:
    StagingPool& pool_;
    Device& device_;
    std::array<void*, 2> chunks_;
  };

  StagingPool() = default;
  StagingPool(const StagingPool&) = delete;
  StagingPool& operator=(const StagingPool&) = delete;
  ~StagingPool() { clear(); }

  // Two chunks of `device`'s host memory (reused, or allocated: plexus::error(device) when
  // the driver cannot).
  Lease acquire(Device& device);
  void clear() noexcept;

 private:
  void give_back(Device& device, const std::array<void*, 2>& chunks) noexcept;

  std::mutex mutex_;
  std::unordered_map<Device*, std::vector<void*>> free_;
};

}  // namespace plexus::detail
