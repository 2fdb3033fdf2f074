// CudaLibraries: the CUDA driver, cuBLAS and cuSOLVER entry points that the demos and the
// benchmarks call, loaded at run time (SharedLibrary) so that nothing links against CUDA:
// libcuda.so.1; libcublas.so.13 or .12; libcusolver.so.12 or .11 (also searched in
// $CUDA_PATH/lib64, $CUDA_HOME/lib64 and /usr/local/cuda/lib64). cuda.h, cublas_v2.h and
// cusolverDn.h give the types only.
//
// get() loads them once per process and keeps them loaded until exit (cuBLAS and cuSOLVER
// keep per-process state); when one is missing it throws plexus::error(unsupported) naming
// the library and how to get it, on every call.
// check(): a failed call as plexus::error(device) naming the call, the code and (driver)
// its description. ScopedContext pushes a context on the calling thread and pops it.
// Thread-safety: get() and the entry points are safe from any thread, as CUDA documents
// (a cuBLAS or cuSOLVER handle is used by one thread at a time).
#pragma once

#include <cublas_v2.h>
#include <cuda.h>
#include <cusolverDn.h>

#include <memory>
#include <string>

namespace examples {

class SharedLibrary;

struct CudaDriverCalls {
  decltype(&cuInit) init;
  decltype(&cuGetErrorString) error_string;
  decltype(&cuDeviceGet) device_get;
  decltype(&cuDevicePrimaryCtxRetain) primary_context_retain;
  decltype(&cuDevicePrimaryCtxRelease) primary_context_release;
  decltype(&cuCtxPushCurrent) push_context;
  decltype(&cuCtxPopCurrent) pop_context;
  decltype(&cuCtxGetDevice) context_device;
  decltype(&cuCtxSynchronize) context_synchronize;
  decltype(&cuMemAlloc) allocate;
  decltype(&cuMemFree) free;
  decltype(&cuMemHostAlloc) host_allocate;
  decltype(&cuMemFreeHost) host_free;
  decltype(&cuMemHostGetDevicePointer) host_device_pointer;
  decltype(&cuMemcpyHtoDAsync) copy_to_device;
  decltype(&cuMemcpyDtoHAsync) copy_to_host;
  decltype(&cuStreamCreate) stream_create;
  decltype(&cuStreamDestroy) stream_destroy;
  decltype(&cuStreamSynchronize) stream_synchronize;
};

struct CublasCalls {
  decltype(&cublasCreate_v2) create;
  decltype(&cublasDestroy_v2) destroy;
  decltype(&cublasSetStream_v2) set_stream;
  decltype(&cublasStrsm_v2) strsm;
  decltype(&cublasSsyrk_v2) ssyrk;
  decltype(&cublasSgemm_v2) sgemm;
  decltype(&cublasDtrsm_v2) dtrsm;
  decltype(&cublasDsyrk_v2) dsyrk;
  decltype(&cublasDgemm_v2) dgemm;
};

struct CusolverCalls {
  decltype(&cusolverDnCreate) create;
  decltype(&cusolverDnDestroy) destroy;
  decltype(&cusolverDnSetStream) set_stream;
  decltype(&cusolverDnSpotrf_bufferSize) spotrf_buffer_size;
  decltype(&cusolverDnSpotrf) spotrf;
  decltype(&cusolverDnDpotrf_bufferSize) dpotrf_buffer_size;
  decltype(&cusolverDnDpotrf) dpotrf;
};

class CudaLibraries {
 public:
  static const CudaLibraries& get();

  CudaDriverCalls driver{};
  CublasCalls cublas{};
  CusolverCalls cusolver{};
  std::string describe() const;  // "libcublas.so.13, libcusolver.so.12"

  void check(CUresult result, const std::string& call) const;
  void check(cublasStatus_t status, const std::string& call) const;
  void check(cusolverStatus_t status, const std::string& call) const;

  class ScopedContext {
   public:
    ScopedContext(const CudaLibraries& libraries, CUcontext context);
    ScopedContext(const ScopedContext&) = delete;
    ScopedContext& operator=(const ScopedContext&) = delete;
    ~ScopedContext();

   private:
    const CudaLibraries& libraries_;
  };

  CudaLibraries(const CudaLibraries&) = delete;
  CudaLibraries& operator=(const CudaLibraries&) = delete;
  ~CudaLibraries();

 private:
  CudaLibraries();
  std::unique_ptr<SharedLibrary> driver_library_, cublas_library_, cusolver_library_;
};

}  // namespace examples
