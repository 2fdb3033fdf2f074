// StagingPool: the host buffers a worker stages copies through for one of its devices whose
// memory is not host memory (a GPU), taken from Device::allocate_host (page-locked where the
// device pins host memory, so that its copies run asynchronously at full speed) and kept
// for reuse, since pinning costs about what the copy itself does. Buffers come in
// power-of-two sizes (at least 64 KiB); a request takes the smallest kept one that fits, up
// to 4 times its size; released ones are kept while the pool holds less than
// `retained_bytes`, the others given back at once. A device that cannot provide host memory
// gets plain memory instead (its copies then only run slower). A pool of no device keeps
// plain memory (rank 0's packing of strided regions: fresh megabytes page-fault and are
// zeroed by the kernel on every use).
//
// Thread-safety: acquire() and the release of a buffer from any thread.
// Ownership: a buffer is shared (a shared_ptr whose deleter returns it to the pool); the pool
// frees what it keeps when it goes, and a buffer released after that is freed then. The
// device must outlive the pool and every buffer.
#pragma once

#include <cstddef>
#include <memory>

#include "plexus/device.hpp"

namespace plexus::mpi {

class StagingPool {
 public:
  static constexpr std::size_t default_retained_bytes = std::size_t{256} << 20;

  explicit StagingPool(Device& device, std::size_t retained_bytes = default_retained_bytes);
  // Plain memory.
  explicit StagingPool(std::size_t retained_bytes);
  ~StagingPool();
  StagingPool(const StagingPool&) = delete;
  StagingPool& operator=(const StagingPool&) = delete;

  // At least `bytes` of host memory for this device's copies (0: the smallest buffer, so that
  // an empty region still has an address).
  std::shared_ptr<std::byte[]> acquire(std::size_t bytes);

  // Buffers allocated from the device so far (for tests: reuse allocates none).
  std::size_t allocations() const;

 private:
  struct Shelf;
  std::shared_ptr<Shelf> shelf_;
};

}  // namespace plexus::mpi
