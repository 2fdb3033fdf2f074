#include "blas_tiles.hpp"

#include <vector>

#include "host_blas.hpp"
#include "native_tiles.hpp"

#if PLEXUS_EXAMPLES_HAVE_CUDA
#include "cuda_blas.hpp"
#endif

namespace cholesky {

#if !PLEXUS_EXAMPLES_HAVE_CUDA
class CudaBlas {};  // never made: a build without CUDA headers offers no CUDA implementation
#endif

BlasTiles::BlasTiles(const plexus::Runtime& runtime, const TileLayout& layout) : layout_(layout) {
#if PLEXUS_EXAMPLES_HAVE_CUDA
  bool has_cuda_device = false;
  for (const plexus::Device* device : runtime.devices())
    has_cuda_device = has_cuda_device || device->native_backend() == "cuda";
  if (!has_cuda_device) {
    cuda_missing_ = "the runtime has no CUDA device";
    return;
  }
  try {
    cuda_ = std::make_unique<CudaBlas>(layout);
  } catch (const plexus::error& e) {
    cuda_missing_ = e.what();  // which library is missing, and how to get it
  }
#else
  (void)runtime;
  cuda_missing_ = "this build has no CUDA headers (cuda.h, cublas_v2.h, cusolverDn.h: the CUDA "
                  "Toolkit); install them and reconfigure";
#endif
}

BlasTiles::~BlasTiles() = default;

void BlasTiles::require(const plexus::Device& device) const {
  const std::string backend(device.native_backend());
  std::string why;
  if (backend == "host") {
    if (host_blas::available()) return;
    why = host_blas::unavailable_reason();
  } else if (backend == "cuda") {
    if (cuda_) return;
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

std::string BlasTiles::describe() const {
  std::string text = "blas:";
  if (host_blas::available()) text += " host OpenBLAS/LAPACKE (one thread per task)";
#if PLEXUS_EXAMPLES_HAVE_CUDA
  if (cuda_) text += std::string(host_blas::available() ? "," : "") + " cuda " + cuda_->libraries();
#endif
  return text;
}

std::string BlasTiles::failure() const {
#if PLEXUS_EXAMPLES_HAVE_CUDA
  if (cuda_) return cuda_->potrf_failure();
#endif
  return "";
}

void BlasTiles::record(plexus::Handler& h, const TileOp& op, std::size_t /*step: one*/,
                       const plexus::Accessor<double, 2>& target) {
  std::vector<plexus::NativeImplementation> implementations;
  const TileLayout layout = layout_;
  // Host devices, this process's and other nodes' alike: a registered native function.
  if (host_blas::available())
    implementations.push_back(host_tile({op, layout, target.requirement_index()}));
#if PLEXUS_EXAMPLES_HAVE_CUDA
  if (cuda_)
    implementations.emplace_back("cuda", [=, cuda = cuda_.get()](plexus::InteropHandle& ih) {
      cuda->enqueue(op, ih.native_context<CUcontext>(), ih.native_queue<CUstream>(),
                    ih.native_memory<CUdeviceptr>(target));
    });
#endif
  h.native_task(name(op.kind), std::move(implementations));
}

void BlasTiles::record_resident(plexus::Handler& h, const plexus::Accessor<double, 2>&) const {
  std::vector<plexus::NativeImplementation> implementations;
  if (host_blas::available()) implementations.push_back(host_resident({}));
  if (cuda_) implementations.emplace_back("cuda", [](plexus::InteropHandle&) {});
  h.native_task("resident", std::move(implementations));
}

}  // namespace cholesky
