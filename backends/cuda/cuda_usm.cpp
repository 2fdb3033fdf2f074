// USM on CUDA devices (CudaDevice's allocate_usm, CudaQueue's usm_copy and usm_fill).
#include <cstdint>
#include <cstring>
#include <string>

#include "cuda_context.hpp"
#include "cuda_device.hpp"
#include "cuda_queue.hpp"
#include "plexus/copy_validation.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus::cuda {

bool CudaDevice::supports_usm(UsmKind kind) const {
  if (kind != UsmKind::shared) return true;
  int managed = 0;
  return driver_.device_get_attribute(&managed, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, device_) ==
             CUDA_SUCCESS &&
         managed != 0;
}

void* CudaDevice::allocate_usm(UsmKind kind, std::size_t bytes) {
  const std::string what = "malloc_" + std::string(to_string(kind)) + " of " +
                           std::to_string(bytes) + " bytes on CUDA device '" + info_.name + "'";
  if (bytes == 0) throw error(error_category::invalid_argument, what + ": 0 bytes requested");
  if (kind == UsmKind::device) return allocate(bytes);
  if (!supports_usm(kind))
    throw error(error_category::unsupported,
                what +
                    ": the device has no managed memory (CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY "
                    "is 0)");
  ScopedContext scope(driver_, context());
  if (kind == UsmKind::host) {
    void* memory = nullptr;
    driver_.check("cuMemHostAlloc for " + what,
                  driver_.mem_host_alloc(&memory, bytes,
                                         CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP));
    return memory;
  }
  CUdeviceptr pointer = 0;
  driver_.check("cuMemAllocManaged for " + what,
                driver_.mem_alloc_managed(&pointer, bytes, CU_MEM_ATTACH_GLOBAL));
  return reinterpret_cast<void*>(pointer);
}

void CudaDevice::deallocate_usm(UsmKind kind, void* pointer) noexcept {
  if (!pointer) return;
  if (kind != UsmKind::host) return deallocate(pointer);  // cuMemFree frees managed memory too
  drain_launchers();                                      // a launch not issued yet may use it
  deallocate_host(pointer);
}

void CudaQueue::usm_copy(void* destination, const void* source, std::size_t bytes) {
  const std::string what = "USM copy of " + std::to_string(bytes) + " bytes on CUDA device '" +
                           device_.info().name + "'";
  validate_usm_copy(destination, source, what);
  if (bytes == 0) return;
  const CudaDriver& driver = device_.driver();
  launcher_->drain();
  ScopedContext scope(driver, device_.context());
  check(driver.memcpy_async(reinterpret_cast<CUdeviceptr>(destination),
                            reinterpret_cast<CUdeviceptr>(source), bytes, stream_),
        "cuMemcpyAsync", what);
}

bool CudaQueue::usm_fill(void* destination, const void* pattern, std::size_t pattern_size,
                         std::size_t bytes) {
  const std::string what = "USM fill of " + std::to_string(bytes) + " bytes on CUDA device '" +
                           device_.info().name + "'";
  validate_usm_fill(destination, pattern, pattern_size, bytes, what);
  if (bytes == 0) return true;
  const auto address = reinterpret_cast<CUdeviceptr>(destination);
  // The widest word (4, 2 or 1 bytes) that divides the pattern and aligns the address.
  std::size_t word = 4;
  while (word > 1 && (pattern_size % word != 0 || address % word != 0)) word /= 2;
  const std::size_t count = bytes / pattern_size;
  const auto* bytes_of = static_cast<const unsigned char*>(pattern);
  const CudaDriver& driver = device_.driver();
  launcher_->drain();
  ScopedContext scope(driver, device_.context());
  for (std::size_t at = 0; at < pattern_size; at += word) {
    std::uint32_t value = 0;
    std::memcpy(&value, bytes_of + at, word);  // little-endian: the word's bytes in order
    const CUdeviceptr to = address + at;
    CUresult result = CUDA_SUCCESS;
    if (word == pattern_size) {  // one word per element: a plain memset
      const std::size_t words = bytes / word;
      result = word == 4 ? driver.memset_d32_async(to, value, words, stream_)
               : word == 2
                   ? driver.memset_d16_async(to, static_cast<unsigned short>(value), words, stream_)
                   : driver.memset_d8_async(to, static_cast<unsigned char>(value), words, stream_);
    } else {  // this word of every element: `count` rows of one word, pattern_size apart
      result = word == 4 ? driver.memset_d2d32_async(to, pattern_size, value, 1, count, stream_)
               : word == 2
                   ? driver.memset_d2d16_async(to, pattern_size, static_cast<unsigned short>(value),
                                               1, count, stream_)
                   : driver.memset_d2d8_async(to, pattern_size, static_cast<unsigned char>(value),
                                              1, count, stream_);
    }
    check(result,
          word == pattern_size ? "cuMemsetD" + std::to_string(word * 8) + "Async"
                               : "cuMemsetD2D" + std::to_string(word * 8) + "Async",
          what);
  }
  return true;
}

}  // namespace plexus::cuda
