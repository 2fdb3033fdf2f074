#include <chrono>

#include <plexus/error.hpp>

#include "cholesky_reference.hpp"

#if PLEXUS_EXAMPLES_HAVE_CUDA
#include "common/cuda_libraries.hpp"
#endif

namespace bench {

#if PLEXUS_EXAMPLES_HAVE_CUDA

struct CusolverReference::State {
  const examples::CudaLibraries& cuda = examples::CudaLibraries::get();
  std::size_t n = 0;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUstream stream = nullptr;
  cusolverDnHandle_t solver = nullptr;
  CUdeviceptr matrix = 0, workspace = 0, info = 0;
  int workspace_doubles = 0;

  std::size_t bytes() const { return n * n * sizeof(double); }
  double* device_matrix() const { return reinterpret_cast<double*>(matrix); }
  void potrf() {
    const int size = static_cast<int>(n);
    cuda.check(cuda.cusolver.dpotrf(solver, CUBLAS_FILL_MODE_UPPER, size, device_matrix(), size,
                                    reinterpret_cast<double*>(workspace), workspace_doubles,
                                    reinterpret_cast<int*>(info)),
               "cusolverDnDpotrf");
  }
  void synchronize_and_check_info() {
    cuda.check(cuda.driver.stream_synchronize(stream), "cuStreamSynchronize");
    int value = 0;
    cuda.check(cuda.driver.copy_to_host(&value, info, sizeof value, stream), "cuMemcpyDtoHAsync");
    cuda.check(cuda.driver.stream_synchronize(stream), "cuStreamSynchronize");
    if (value != 0)
      throw plexus::error(plexus::error_category::device,
                          "cusolverDnDpotrf: info " + std::to_string(value));
  }
};

CusolverReference::CusolverReference(std::size_t n) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.n = n;
  s.cuda.check(s.cuda.driver.init(0), "cuInit");
  s.cuda.check(s.cuda.driver.device_get(&s.device, 0), "cuDeviceGet");
  s.cuda.check(s.cuda.driver.primary_context_retain(&s.context, s.device), "cuDevicePrimaryCtxRetain");
  const examples::CudaLibraries::ScopedContext pushed(s.cuda, s.context);
  s.cuda.check(s.cuda.driver.stream_create(&s.stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  s.cuda.check(s.cuda.cusolver.create(&s.solver), "cusolverDnCreate");
  s.cuda.check(s.cuda.cusolver.set_stream(s.solver, s.stream), "cusolverDnSetStream");
  s.cuda.check(s.cuda.driver.allocate(&s.matrix, s.bytes()), "cuMemAlloc of the matrix");
  const int size = static_cast<int>(n);
  s.cuda.check(s.cuda.cusolver.dpotrf_buffer_size(s.solver, CUBLAS_FILL_MODE_UPPER, size,
                                                  s.device_matrix(), size, &s.workspace_doubles),
               "cusolverDnDpotrf_bufferSize");
  s.cuda.check(s.cuda.driver.allocate(&s.workspace, (s.workspace_doubles + 1) * sizeof(double)),
               "cuMemAlloc of the workspace");
  s.cuda.check(s.cuda.driver.allocate(&s.info, sizeof(int)), "cuMemAlloc of info");
}

CusolverReference::~CusolverReference() {
  State& s = *state_;
  if (!s.context) return;
  if (s.cuda.driver.push_context(s.context) == CUDA_SUCCESS) {
    if (s.stream) s.cuda.driver.stream_synchronize(s.stream);
    if (s.solver) s.cuda.cusolver.destroy(s.solver);
    for (CUdeviceptr p : {s.matrix, s.workspace, s.info})
      if (p) s.cuda.driver.free(p);
    if (s.stream) s.cuda.driver.stream_destroy(s.stream);
    CUcontext popped = nullptr;
    s.cuda.driver.pop_context(&popped);
  }
  s.cuda.driver.primary_context_release(s.device);
}

std::string CusolverReference::describe() const { return state_->cuda.describe(); }

double CusolverReference::end_to_end(std::vector<double>& matrix) {
  State& s = *state_;
  const examples::CudaLibraries::ScopedContext pushed(s.cuda, s.context);
  const auto start = std::chrono::steady_clock::now();
  s.cuda.check(s.cuda.driver.copy_to_device(s.matrix, matrix.data(), s.bytes(), s.stream),
               "cuMemcpyHtoDAsync");
  s.potrf();
  s.cuda.check(s.cuda.driver.copy_to_host(matrix.data(), s.matrix, s.bytes(), s.stream),
               "cuMemcpyDtoHAsync");
  s.cuda.check(s.cuda.driver.stream_synchronize(s.stream), "cuStreamSynchronize");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  s.synchronize_and_check_info();
  return seconds;
}

double CusolverReference::on_device(const std::vector<double>& matrix) {
  State& s = *state_;
  const examples::CudaLibraries::ScopedContext pushed(s.cuda, s.context);
  s.cuda.check(s.cuda.driver.copy_to_device(s.matrix, matrix.data(), s.bytes(), s.stream),
               "cuMemcpyHtoDAsync");
  s.cuda.check(s.cuda.driver.stream_synchronize(s.stream), "cuStreamSynchronize");
  const auto start = std::chrono::steady_clock::now();
  s.potrf();
  s.cuda.check(s.cuda.driver.stream_synchronize(s.stream), "cuStreamSynchronize");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  s.synchronize_and_check_info();
  return seconds;
}

void CusolverReference::fetch(std::vector<double>& matrix) {
  State& s = *state_;
  const examples::CudaLibraries::ScopedContext pushed(s.cuda, s.context);
  s.cuda.check(s.cuda.driver.copy_to_host(matrix.data(), s.matrix, s.bytes(), s.stream),
               "cuMemcpyDtoHAsync");
  s.cuda.check(s.cuda.driver.stream_synchronize(s.stream), "cuStreamSynchronize");
}

#else

struct CusolverReference::State {};
CusolverReference::CusolverReference(std::size_t) {
  throw plexus::error(plexus::error_category::unsupported,
                      "this build has no CUDA headers (cuda.h, cusolverDn.h): no cuSOLVER reference");
}
CusolverReference::~CusolverReference() = default;
std::string CusolverReference::describe() const { return ""; }
double CusolverReference::end_to_end(std::vector<double>&) { return 0; }
double CusolverReference::on_device(const std::vector<double>&) { return 0; }
void CusolverReference::fetch(std::vector<double>&) {}

#endif

}  // namespace bench
