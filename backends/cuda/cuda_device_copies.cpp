// Device -> device copies of the CUDA backend (CudaQueue::copy_from_device), peer access
// between CUDA devices, and page-locked host memory for staged copies.
#include <string>

#include "cuda_context.hpp"
#include "cuda_device.hpp"
#include "cuda_queue.hpp"
#include "plexus/copy_validation.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus::cuda {
namespace {

// The fields CUDA_MEMCPY3D and CUDA_MEMCPY3D_PEER share, for `slices` slices of `layout`
// from device address `from` to `to`.
template <class Copy>
void describe(Copy& copy, const CopyLayout& layout, std::size_t slices, CUdeviceptr from,
              CUdeviceptr to) {
  const std::size_t row_pitch = layout.rows > 1 ? layout.row_pitch : layout.row_bytes;
  copy.srcMemoryType = copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.srcDevice = from;
  copy.dstDevice = to;
  copy.srcPitch = copy.dstPitch = row_pitch;
  copy.srcHeight = copy.dstHeight = slices > 1 ? layout.slice_pitch / row_pitch : layout.rows;
  copy.WidthInBytes = layout.row_bytes;
  copy.Height = layout.rows;
  copy.Depth = slices;
}

}  // namespace

void* CudaDevice::allocate_host(std::size_t bytes) {
  if (bytes == 0)
    throw error(error_category::invalid_argument,
                "allocate_host on CUDA device '" + info_.name + "': 0 bytes requested");
  ScopedContext scope(driver_, context());
  void* memory = nullptr;
  driver_.check(
      "cuMemHostAlloc of " + std::to_string(bytes) + " bytes for CUDA device '" + info_.name + "'",
      driver_.mem_host_alloc(&memory, bytes, CU_MEMHOSTALLOC_PORTABLE));
  return memory;
}

void CudaDevice::deallocate_host(void* memory) noexcept {
  if (!memory) return;
  try {
    ScopedContext scope(driver_, context());
    if (const CUresult result = driver_.mem_free_host(memory); result != CUDA_SUCCESS)
      logger().warn("cuda backend: {}", driver_.describe_failure("cuMemFreeHost", result));
  } catch (const std::exception& e) {
    logger().warn("cuda backend: deallocate_host: {}", e.what());
  }
}

bool CudaDevice::enable_peer_access(const CudaDevice& source) const {
  std::lock_guard lock(peers_mutex_);
  if (const auto known = peers_.find(&source); known != peers_.end()) return known->second;
  int can = 0;
  driver_.check("cuDeviceCanAccessPeer",
                driver_.device_can_access_peer(&can, device_, source.handle()));
  bool enabled = false;
  if (can) {
    ScopedContext scope(driver_, context());
    const CUresult result = driver_.ctx_enable_peer_access(source.context(), 0);
    enabled = result == CUDA_SUCCESS || result == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
    if (!enabled)
      logger().warn("cuda backend: '{}' cannot read '{}' directly: {}", info_.name,
                    source.info().name, driver_.describe_failure("cuCtxEnablePeerAccess", result));
  }
  peers_[&source] = enabled;
  return enabled;
}

bool CudaQueue::copy_from_device(void* allocation, Device& source, const void* source_allocation,
                                 const CopyLayout& layout) {
  auto* from = dynamic_cast<CudaDevice*>(&source);
  if (!from || &from->driver() != &device_.driver()) return false;
  const std::string what = "copy_from_device of " + std::to_string(layout.bytes()) +
                           " bytes from '" + from->info().name + "' on CUDA device '" +
                           device_.info().name + "'";
  validate_copy(layout, allocation, source_allocation,
                allocation ? device_.bytes_after(allocation) : 0, what);
  validate_copy(layout, source_allocation, allocation,
                source_allocation ? from->bytes_after(source_allocation) : 0, what);
  const bool same = from == &device_;
  if (!same) device_.enable_peer_access(*from);  // best effort: peer copies work either way
  const CudaDriver& driver = device_.driver();
  launcher_->drain();
  ScopedContext scope(driver, device_.context());
  const CUdeviceptr src = reinterpret_cast<CUdeviceptr>(source_allocation) + layout.offset;
  const CUdeviceptr dst = reinterpret_cast<CUdeviceptr>(allocation) + layout.offset;
  if (layout.rows == 1 && layout.slices == 1) {
    check(same ? driver.memcpy_dtod_async(dst, src, layout.row_bytes, stream_)
               : driver.memcpy_peer_async(dst, device_.context(), src, from->context(),
                                          layout.row_bytes, stream_),
          same ? "cuMemcpyDtoDAsync" : "cuMemcpyPeerAsync", what);
    return true;
  }
  // One 3D copy when the slices are a whole number of rows apart, else one per slice.
  const std::size_t row_pitch = layout.rows > 1 ? layout.row_pitch : layout.row_bytes;
  const bool whole = layout.slices == 1 || layout.slice_pitch % row_pitch == 0;
  const std::size_t slices = whole ? layout.slices : 1;
  for (std::size_t s = 0; s < layout.slices; s += slices) {
    const std::size_t step = s * layout.slice_pitch;
    if (same) {
      CUDA_MEMCPY3D copy{};
      describe(copy, layout, slices, src + step, dst + step);
      check(driver.memcpy_3d_async(&copy, stream_), "cuMemcpy3DAsync", what);
    } else {
      CUDA_MEMCPY3D_PEER copy{};
      describe(copy, layout, slices, src + step, dst + step);
      copy.srcContext = from->context();
      copy.dstContext = device_.context();
      check(driver.memcpy_3d_peer_async(&copy, stream_), "cuMemcpy3DPeerAsync", what);
    }
  }
  return true;
}

bool CudaQueue::copy_within(void* allocation, std::size_t offset, const void* source_allocation,
                            std::size_t source_offset, std::size_t bytes) {
  const std::string what = "copy_within of " + std::to_string(bytes) + " bytes on CUDA device '" +
                           device_.info().name + "'";
  validate_copy(CopyLayout::contiguous(offset, bytes), allocation, source_allocation,
                allocation ? device_.bytes_after(allocation) : 0, what);
  validate_copy(CopyLayout::contiguous(source_offset, bytes), source_allocation, allocation,
                source_allocation ? device_.bytes_after(source_allocation) : 0, what);
  return copy_within_as_usm(allocation, offset, source_allocation, source_offset, bytes);
}

bool CudaQueue::fill_within(void* allocation, std::size_t offset, const void* pattern,
                            std::size_t pattern_size, std::size_t bytes) {
  const std::string what = "fill_within of " + std::to_string(bytes) + " bytes on CUDA device '" +
                           device_.info().name + "'";
  validate_copy(CopyLayout::contiguous(offset, bytes), allocation, pattern,
                allocation ? device_.bytes_after(allocation) : 0, what);
  return fill_within_as_usm(allocation, offset, pattern, pattern_size, bytes);
}

}  // namespace plexus::cuda
