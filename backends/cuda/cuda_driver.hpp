// CudaDriver: the CUDA driver library (libcuda.so.1), opened with dlopen and initialised
// with cuInit, and the driver entry points this backend calls.
//
// Ownership: holds the dlopen handle for its whole life and closes it in the destructor;
// whoever holds objects from the driver must destroy them first. Not copyable or movable.
// Thread-safety: immutable after construction; the driver API is thread-safe.
#pragma once

#include <cuda.h>

#include <string>
#include <string_view>

namespace plexus::cuda {

class CudaDriver {
 public:
  // Opens `library` and resolves the entry points; throws plexus::error(device) naming the
  // library and dlerror()'s text, or the missing symbol.
  explicit CudaDriver(std::string library);
  ~CudaDriver();
  CudaDriver(const CudaDriver&) = delete;
  CudaDriver& operator=(const CudaDriver&) = delete;

  const std::string& library() const { return library_; }

  // "<call> failed: <cuGetErrorString text> (CUresult <code>)".
  std::string describe_failure(std::string_view call, CUresult result) const;
  // Throws plexus::error(device) with describe_failure() unless `result` is CUDA_SUCCESS.
  void check(std::string_view call, CUresult result) const;

  decltype(&::cuInit) init = nullptr;
  decltype(&::cuDriverGetVersion) driver_get_version = nullptr;
  decltype(&::cuDeviceGetCount) device_get_count = nullptr;
  decltype(&::cuDeviceGet) device_get = nullptr;
  decltype(&::cuDeviceGetName) device_get_name = nullptr;
  decltype(&::cuDeviceTotalMem_v2) device_total_mem = nullptr;
  decltype(&::cuDeviceGetAttribute) device_get_attribute = nullptr;
  decltype(&::cuGetErrorString) get_error_string = nullptr;

 private:
  template <class Function>
  void resolve(Function& function, const char* symbol);

  std::string library_;
  void* handle_ = nullptr;
};

}  // namespace plexus::cuda
