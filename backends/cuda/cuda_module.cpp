#include "cuda_module.hpp"

#include <array>
#include <cstdint>
#include <regex>
#include <string>

#include "cuda_context.hpp"
#include "cuda_device.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus::cuda {
namespace {

constexpr std::size_t log_bytes = 16 * 1024;

// The PTX as the CUDA driver takes it. PTX for OpenCL (LLVM's nvptx64-nvidia-nvcl, which
// NVIDIA's OpenCL needs) annotates __local pointer parameters ".ptr .shared .align N"; the
// CUDA driver rejects that annotation (CUDA_ERROR_INVALID_IMAGE, seen on an H100 with driver
// 580) and accepts the plain .u64 parameter, whose value is the same shared-window address.
std::string for_cuda_driver(std::span<const std::byte> ptx) {
  static const std::regex shared_annotation(R"([ \t]+\.ptr[ \t]+\.shared([ \t]+\.align[ \t]+[0-9]+)?)");
  const std::string text(reinterpret_cast<const char*>(ptx.data()), ptx.size());
  return std::regex_replace(text, shared_annotation, "");
}

std::string kernel_names(const std::vector<KernelInfo>& kernels) {
  std::string text;
  for (const auto& kernel : kernels) text += (text.empty() ? "'" : ", '") + kernel.name + "'";
  return text.empty() ? "none" : text;
}

std::size_t attribute(const CudaDriver& driver, CUfunction function, CUfunction_attribute which,
                      const char* name) {
  int value = 0;
  driver.check(std::string("cuFuncGetAttribute(") + name + ")",
               driver.func_get_attribute(&value, which, function));
  return static_cast<std::size_t>(value);
}

}  // namespace

CudaModule::CudaModule(CudaDevice& device, std::span<const std::byte> ptx,
                       const std::vector<KernelInfo>& kernels)
    : device_(device), infos_(kernels) {
  const CudaDriver& driver = device.driver();
  ScopedContext scope(driver, device.context());
  const std::string image = for_cuda_driver(ptx);  // c_str(): the NUL-terminated image
  std::string info_log(log_bytes, '\0'), error_log(log_bytes, '\0');
  std::array<CUjit_option, 5> options{CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                                      CU_JIT_ERROR_LOG_BUFFER,
                                      CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_LOG_VERBOSE};
  std::array<void*, 5> values{info_log.data(), reinterpret_cast<void*>(log_bytes),
                              error_log.data(), reinterpret_cast<void*>(log_bytes),
                              reinterpret_cast<void*>(std::uintptr_t{0})};
  const CUresult result = driver.module_load_data_ex(
      &module_, image.c_str(), static_cast<unsigned>(options.size()), options.data(),
      values.data());
  info_log.resize(info_log.find('\0'));
  error_log.resize(error_log.find('\0'));
  if (result != CUDA_SUCCESS) {
    const bool rejected = result == CUDA_ERROR_INVALID_PTX || result == CUDA_ERROR_INVALID_IMAGE ||
                          result == CUDA_ERROR_NO_BINARY_FOR_GPU ||
                          result == CUDA_ERROR_UNSUPPORTED_PTX_VERSION ||
                          result == CUDA_ERROR_INVALID_SOURCE ||
                          result == CUDA_ERROR_JIT_COMPILER_NOT_FOUND;
    throw error(rejected ? error_category::build : error_category::device,
                driver.describe_failure("cuModuleLoadDataEx of a ptx module on CUDA device '" +
                                            device.info().name + "'",
                                        result) +
                    "; JIT error log:\n" + (error_log.empty() ? "(empty)" : error_log) +
                    (info_log.empty() ? "" : "\nJIT info log:\n" + info_log));
  }
  if (!info_log.empty()) logger().debug("cuda backend: JIT: {}", info_log);
  try {
    for (const KernelInfo& info : infos_) {
      CUfunction function = nullptr;
      const CUresult found = driver.module_get_function(&function, module_, info.name.c_str());
      if (found != CUDA_SUCCESS)
        throw error(error_category::build,
                    driver.describe_failure("cuModuleGetFunction('" + info.name + "')", found) +
                        " (the compiler reported a kernel the PTX does not define)");
      kernels_.push_back(std::make_unique<CudaKernel>(
          info, function, device,
          attribute(driver, function, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, "SHARED_SIZE_BYTES"),
          attribute(driver, function, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                    "MAX_THREADS_PER_BLOCK")));
    }
  } catch (...) {
    driver.module_unload(module_);
    throw;
  }
}

CudaModule::~CudaModule() {
  kernels_.clear();
  try {
    device_.drain_launchers();  // launches of its kernels not issued yet
    ScopedContext scope(device_.driver(), device_.context());
    device_.driver().module_unload(module_);
  } catch (const std::exception& e) {
    logger().warn("cuda backend: unloading a module: {}", e.what());
  }
}

Device& CudaModule::device() const { return device_; }

const DeviceKernel& CudaModule::kernel(const std::string& name) const {
  for (const auto& kernel : kernels_)
    if (kernel->info().name == name) return *kernel;
  throw error(error_category::invalid_argument,
              "no kernel '" + name + "' in this module on CUDA device '" + device_.info().name +
                  "'; its kernels: " + kernel_names(infos_));
}

}  // namespace plexus::cuda
