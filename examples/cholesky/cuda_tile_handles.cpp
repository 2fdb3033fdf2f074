#include "cuda_tile_handles.hpp"

#include <plexus/error.hpp>

#include "../common/cuda_libraries.hpp"

namespace cholesky {

namespace {

void destroy(const examples::CudaLibraries& cuda, const CudaTileHandles& handles) noexcept {
  if (handles.blas) cuda.cublas.destroy(handles.blas);
  if (handles.solver) cuda.cusolver.destroy(handles.solver);
  if (handles.workspace) cuda.driver.free(handles.workspace);
  if (handles.info) cuda.driver.host_free(handles.info);
}

}  // namespace

CudaTileHandleCache& CudaTileHandleCache::get() {
  static CudaTileHandleCache* const cache = new CudaTileHandleCache;  // never destroyed
  return *cache;
}

CudaTileHandleCache::Use CudaTileHandleCache::use(const examples::CudaLibraries& cuda,
                                                  CUcontext context, CUstream stream) {
  std::shared_lock lock(use_mutex_);
  const std::lock_guard map_lock(map_mutex_);
  const auto found = handles_.find({context, stream});
  CudaTileHandles& handles = found != handles_.end() ? *found->second : make(cuda, context, stream);
  return Use(std::move(lock), handles);
}

CudaTileHandles& CudaTileHandleCache::make(const examples::CudaLibraries& cuda, CUcontext context,
                                           CUstream stream) {
  cuda_ = &cuda;  // the one CudaLibraries of the process
  if (!retained_.count(context)) {
    CUdevice device = 0;
    cuda.check(cuda.driver.context_device(&device), "cuCtxGetDevice");
    CUcontext primary = nullptr;
    cuda.check(cuda.driver.primary_context_retain(&primary, device), "cuDevicePrimaryCtxRetain");
    if (primary != context) {
      cuda.driver.primary_context_release(device);
      throw plexus::error(plexus::error_category::unsupported,
                          "the CUDA tile operations keep their cuBLAS/cuSOLVER handles in the "
                          "device's primary context (the cuda backend's); this task's context "
                          "is another one");
    }
    retained_.emplace(context, device);
  }
  auto handles = std::make_unique<CudaTileHandles>();
  try {
    cuda.check(cuda.cublas.create(&handles->blas), "cublasCreate");
    cuda.check(cuda.cublas.set_stream(handles->blas, stream), "cublasSetStream");
    cuda.check(cuda.cusolver.create(&handles->solver), "cusolverDnCreate");
    cuda.check(cuda.cusolver.set_stream(handles->solver, stream), "cusolverDnSetStream");
    void* info = nullptr;
    cuda.check(cuda.driver.host_allocate(&info, sizeof(int), CU_MEMHOSTALLOC_DEVICEMAP),
               "cuMemHostAlloc of POTRF's info");
    handles->info = static_cast<int*>(info);
    *handles->info = 0;
    cuda.check(cuda.driver.host_device_pointer(&handles->info_device, handles->info, 0),
               "cuMemHostGetDevicePointer of POTRF's info");
  } catch (...) {
    destroy(cuda, *handles);  // nothing half-made stays behind (the retain stays with the map)
    throw;
  }
  return *(handles_[{context, stream}] = std::move(handles));
}

void CudaTileHandleCache::release() noexcept {
  const std::unique_lock lock(use_mutex_);  // no use() alive: nothing enqueues with them
  const std::lock_guard map_lock(map_mutex_);
  if (retained_.empty()) return;
  const examples::CudaLibraries& cuda = *cuda_;  // set: a context is retained only by make()
  for (const auto& [context, device] : retained_) {
    if (cuda.driver.push_context(context) == CUDA_SUCCESS) {
      cuda.driver.context_synchronize();  // the work enqueued with its sets is done
      for (const auto& [key, handles] : handles_)
        if (key.first == context) destroy(cuda, *handles);
      CUcontext popped = nullptr;
      cuda.driver.pop_context(&popped);
    }
    cuda.driver.primary_context_release(device);
  }
  handles_.clear();
  retained_.clear();
}

}  // namespace cholesky
