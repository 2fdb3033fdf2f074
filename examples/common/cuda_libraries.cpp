#include "cuda_libraries.hpp"

#include <cstdlib>
#include <mutex>
#include <vector>

#include <plexus/error.hpp>

#include "shared_library.hpp"

namespace examples {

namespace {

std::vector<std::string> cuda_directories() {
  std::vector<std::string> directories;
  for (const char* variable : {"CUDA_PATH", "CUDA_HOME"})
    if (const char* root = std::getenv(variable); root && *root)
      directories.push_back(std::string(root) + "/lib64");
  directories.push_back("/usr/local/cuda/lib64");
  return directories;
}

const char* const toolkit_hint =
    "It comes with the CUDA Toolkit 12 or 13 (https://developer.nvidia.com/cuda-downloads; "
    "Debian/Ubuntu: the cuda-libraries-13-0 package) or NVIDIA's pip wheels (nvidia-cublas, "
    "nvidia-cusolver); put its lib64 directory on LD_LIBRARY_PATH or set CUDA_PATH.";

}  // namespace

CudaLibraries::CudaLibraries() {
  driver_library_ = std::make_unique<SharedLibrary>(
      "the CUDA driver (libcuda)", std::vector<std::string>{"libcuda.so.1"},
      std::vector<std::string>{},
      "Install the NVIDIA driver (it provides libcuda.so.1); a machine without an NVIDIA GPU "
      "cannot run the CUDA path.");
  cublas_library_ = std::make_unique<SharedLibrary>(
      "cuBLAS (libcublas)", std::vector<std::string>{"libcublas.so.13", "libcublas.so.12"},
      cuda_directories(), toolkit_hint);
  cusolver_library_ = std::make_unique<SharedLibrary>(
      "cuSOLVER (libcusolver)", std::vector<std::string>{"libcusolver.so.12", "libcusolver.so.11"},
      cuda_directories(), toolkit_hint);

  const SharedLibrary& d = *driver_library_;
  using D = CudaDriverCalls;
  driver = D{
      d.symbol<decltype(D::init)>("cuInit"),
      d.symbol<decltype(D::error_string)>("cuGetErrorString"),
      d.symbol<decltype(D::device_get)>("cuDeviceGet"),
      d.symbol<decltype(D::primary_context_retain)>("cuDevicePrimaryCtxRetain"),
      d.symbol<decltype(D::primary_context_release)>("cuDevicePrimaryCtxRelease_v2"),
      d.symbol<decltype(D::push_context)>("cuCtxPushCurrent_v2"),
      d.symbol<decltype(D::pop_context)>("cuCtxPopCurrent_v2"),
      d.symbol<decltype(D::context_device)>("cuCtxGetDevice"),
      d.symbol<decltype(D::context_synchronize)>("cuCtxSynchronize"),
      d.symbol<decltype(D::allocate)>("cuMemAlloc_v2"),
      d.symbol<decltype(D::free)>("cuMemFree_v2"),
      d.symbol<decltype(D::host_allocate)>("cuMemHostAlloc"),
      d.symbol<decltype(D::host_free)>("cuMemFreeHost"),
      d.symbol<decltype(D::host_device_pointer)>("cuMemHostGetDevicePointer_v2"),
      d.symbol<decltype(D::copy_to_device)>("cuMemcpyHtoDAsync_v2"),
      d.symbol<decltype(D::copy_to_host)>("cuMemcpyDtoHAsync_v2"),
      d.symbol<decltype(D::stream_create)>("cuStreamCreate"),
      d.symbol<decltype(D::stream_destroy)>("cuStreamDestroy_v2"),
      d.symbol<decltype(D::stream_synchronize)>("cuStreamSynchronize"),
  };
  const SharedLibrary& b = *cublas_library_;
  using B = CublasCalls;
  cublas = B{
      b.symbol<decltype(B::create)>("cublasCreate_v2"),
      b.symbol<decltype(B::destroy)>("cublasDestroy_v2"),
      b.symbol<decltype(B::set_stream)>("cublasSetStream_v2"),
      b.symbol<decltype(B::strsm)>("cublasStrsm_v2"),
      b.symbol<decltype(B::ssyrk)>("cublasSsyrk_v2"),
      b.symbol<decltype(B::sgemm)>("cublasSgemm_v2"),
      b.symbol<decltype(B::dtrsm)>("cublasDtrsm_v2"),
      b.symbol<decltype(B::dsyrk)>("cublasDsyrk_v2"),
      b.symbol<decltype(B::dgemm)>("cublasDgemm_v2"),
  };
  const SharedLibrary& s = *cusolver_library_;
  using S = CusolverCalls;
  cusolver = S{
      s.symbol<decltype(S::create)>("cusolverDnCreate"),
      s.symbol<decltype(S::destroy)>("cusolverDnDestroy"),
      s.symbol<decltype(S::set_stream)>("cusolverDnSetStream"),
      s.symbol<decltype(S::spotrf_buffer_size)>("cusolverDnSpotrf_bufferSize"),
      s.symbol<decltype(S::spotrf)>("cusolverDnSpotrf"),
      s.symbol<decltype(S::dpotrf_buffer_size)>("cusolverDnDpotrf_bufferSize"),
      s.symbol<decltype(S::dpotrf)>("cusolverDnDpotrf"),
  };
}

CudaLibraries::~CudaLibraries() = default;

const CudaLibraries& CudaLibraries::get() {
  // Loaded once; never unloaded (cuBLAS/cuSOLVER keep state until exit). A failure is kept
  // and thrown again on every call, so each caller learns what is missing.
  static std::once_flag once;
  static const CudaLibraries* loaded = nullptr;
  static std::string failure;
  std::call_once(once, [] {
    try {
      loaded = new CudaLibraries();
    } catch (const std::exception& e) {
      failure = e.what();
    }
  });
  if (!loaded) throw plexus::error(plexus::error_category::unsupported, failure);
  return *loaded;
}

std::string CudaLibraries::describe() const {
  return cublas_library_->loaded_name() + ", " + cusolver_library_->loaded_name();
}

void CudaLibraries::check(CUresult result, const std::string& call) const {
  if (result == CUDA_SUCCESS) return;
  const char* text = nullptr;
  if (driver.error_string(result, &text) != CUDA_SUCCESS || !text) text = "unknown error";
  throw plexus::error(plexus::error_category::device,
                      call + " failed: CUresult " + std::to_string(result) + " (" + text + ")");
}

void CudaLibraries::check(cublasStatus_t status, const std::string& call) const {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw plexus::error(plexus::error_category::device,
                        call + " failed: cublasStatus_t " + std::to_string(status));
}

void CudaLibraries::check(cusolverStatus_t status, const std::string& call) const {
  if (status != CUSOLVER_STATUS_SUCCESS)
    throw plexus::error(plexus::error_category::device,
                        call + " failed: cusolverStatus_t " + std::to_string(status));
}

CudaLibraries::ScopedContext::ScopedContext(const CudaLibraries& libraries, CUcontext context)
    : libraries_(libraries) {
  libraries_.check(libraries_.driver.push_context(context), "cuCtxPushCurrent");
}

CudaLibraries::ScopedContext::~ScopedContext() {
  CUcontext popped = nullptr;
  libraries_.driver.pop_context(&popped);
}

}  // namespace examples
