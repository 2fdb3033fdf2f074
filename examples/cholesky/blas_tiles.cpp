#include "blas_tiles.hpp"

#include <vector>

#include "host_blas.hpp"
#include "native_tiles.hpp"

#if PLEXUS_EXAMPLES_HAVE_CUDA
#include "cuda_blas.hpp"
#endif

namespace cholesky {

template <class T>
BlasTiles<T>::BlasTiles(const plexus::Runtime& runtime, const TileLayout& layout)
    : layout_(layout) {
#if PLEXUS_EXAMPLES_HAVE_CUDA
  bool local_cuda = false;
  for (const plexus::Device* device : runtime.devices()) {
    if (device->native_backend() != "cuda") continue;
    (device->runs_native_closures() ? local_cuda : remote_cuda_) = true;
  }
  cuda_ = local_cuda || remote_cuda_;
  if (!cuda_) cuda_missing_ = "the runtime has no CUDA device";
  if (local_cuda) {
    try {
      cuda_libraries_ = cuda_blas::libraries();
    } catch (const plexus::error& e) {
      cuda_missing_ = e.what();  // which library is missing, and how to get it
      cuda_ = remote_cuda_;      // the workers may have them
    }
  }
#else
  (void)runtime;
  cuda_missing_ = "this build has no CUDA headers (cuda.h, cublas_v2.h, cusolverDn.h: the CUDA "
                  "Toolkit); install them and reconfigure";
#endif
}

template <class T>
BlasTiles<T>::~BlasTiles() {
#if PLEXUS_EXAMPLES_HAVE_CUDA
  if (!cuda_libraries_.empty()) cuda_blas::release();
#endif
}

template <class T>
void BlasTiles<T>::require(const plexus::Device& device) const {
  const std::string backend(device.native_backend());
  std::string why;
  if (backend == "host") {
    if (host_blas::available()) return;
    why = host_blas::unavailable_reason();
  } else if (backend == "cuda") {
    if (cuda_ && (!device.runs_native_closures() || !cuda_libraries_.empty())) return;
    why = cuda_missing_;
  } else {
    why = "--kernels blas has implementations for host devices (OpenBLAS) and CUDA devices "
          "(cuBLAS/cuSOLVER), not for " +
          (backend.empty() ? std::string("this backend") : "'" + backend + "'") +
          " devices; use --kernels opencl there";
  }
  throw plexus::error(plexus::error_category::unsupported,
                      "--kernels blas on '" + device.info().name + "': " + why);
}

template <class T>
std::string BlasTiles<T>::describe() const {
  std::string text = "blas:";
  if (host_blas::available()) text += " host OpenBLAS/LAPACKE (one thread per task)";
  if (cuda_) {
    std::string cuda = cuda_libraries_;
    if (remote_cuda_) cuda += (cuda.empty() ? "" : " here, ") + std::string("cuBLAS/cuSOLVER loaded by the workers");
    text += std::string(host_blas::available() ? "," : "") + " cuda " + cuda;
  }
  return text;
}

template <class T>
void BlasTiles<T>::record(plexus::Handler& h, const TileOp& op, std::size_t /*step: one*/,
                          const plexus::Accessor<T, 2>& target) {
  std::vector<plexus::NativeImplementation> implementations;
  const TileCall call{op, layout_, target.requirement_index(), precision_of<T>};
  if (host_blas::available()) implementations.push_back(host_tile(call));
#if PLEXUS_EXAMPLES_HAVE_CUDA
  if (cuda_) implementations.push_back(cuda_tile(call));
#endif
  h.native_task(name(op.kind), std::move(implementations));
}

template <class T>
void BlasTiles<T>::record_resident(plexus::Handler& h, const plexus::Accessor<T, 2>&) const {
  std::vector<plexus::NativeImplementation> implementations;
  if (host_blas::available()) implementations.push_back(host_resident({}));
#if PLEXUS_EXAMPLES_HAVE_CUDA
  if (cuda_) implementations.push_back(cuda_resident({}));
#endif
  h.native_task("resident", std::move(implementations));
}

template class BlasTiles<float>;
template class BlasTiles<double>;

}  // namespace cholesky
