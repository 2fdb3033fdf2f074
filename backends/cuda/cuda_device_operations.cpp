// CudaDevice's operations: the primary context, memory, modules, queues and the probe of
// where dynamic shared memory starts.
#include <algorithm>
#include <array>
#include <string>

#include "cuda_context.hpp"
#include "cuda_device.hpp"
#include "cuda_module.hpp"
#include "cuda_queue.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus::cuda {
namespace {

// Writes the shared-window address of the dynamic shared memory array to its argument.
constexpr const char* shared_probe_ptx = R"(.version 7.0
.target sm_70
.address_size 64
.extern .shared .align 16 .b8 plexus_dynamic_shared[];
.visible .entry plexus_shared_probe(.param .u64 plexus_out)
{
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [plexus_out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u64 %rd3, plexus_dynamic_shared;
  st.global.u64 [%rd2], %rd3;
  ret;
}
)";

}  // namespace

CudaDevice::~CudaDevice() {
  if (context_) driver_.primary_ctx_release(device_);
}

CUcontext CudaDevice::context() const {
  std::call_once(context_once_, [this] {
    CUcontext context = nullptr;
    driver_.check("cuDevicePrimaryCtxRetain for '" + info_.name + "'",
                  driver_.primary_ctx_retain(&context, device_));
    context_ = context;
  });
  return context_;
}

void* CudaDevice::allocate(std::size_t bytes) {
  if (bytes == 0)
    throw error(error_category::invalid_argument,
                "allocate on CUDA device '" + info_.name + "': 0 bytes requested");
  ScopedContext scope(driver_, context());
  CUdeviceptr pointer = 0;
  const CUresult result = driver_.mem_alloc(&pointer, bytes);
  if (result != CUDA_SUCCESS)
    throw error(error_category::device,
                driver_.describe_failure("cuMemAlloc of " + std::to_string(bytes) +
                                             " bytes on CUDA device '" + info_.name + "'",
                                         result));
  return reinterpret_cast<void*>(pointer);
}

void CudaDevice::deallocate(void* allocation) noexcept {
  if (!allocation) return;
  try {
    drain_launchers();  // a launch not issued yet may use it (cuMemFree waits for the issued)
    ScopedContext scope(driver_, context());
    if (const CUresult result = driver_.mem_free(reinterpret_cast<CUdeviceptr>(allocation));
        result != CUDA_SUCCESS)
      logger().warn("cuda backend: {}", driver_.describe_failure("cuMemFree", result));
  } catch (const std::exception& e) {
    logger().warn("cuda backend: deallocate: {}", e.what());
  }
}

std::size_t CudaDevice::bytes_after(const void* allocation) const {
  ScopedContext scope(driver_, context());
  CUdeviceptr base = 0;
  std::size_t size = 0;
  const auto pointer = reinterpret_cast<CUdeviceptr>(allocation);
  if (driver_.mem_get_address_range(&base, &size, pointer) != CUDA_SUCCESS)
    throw error(error_category::invalid_argument,
                "CUDA device '" + info_.name + "': the allocation is not device memory of this "
                "device (pass what Device::allocate returned)");
  return base + size - pointer;
}

std::uint64_t CudaDevice::dynamic_shared_base() const {
  std::call_once(probe_once_, [this] {
    ScopedContext scope(driver_, context());
    CUmodule module = nullptr;
    driver_.check("cuModuleLoadDataEx(shared memory probe)",
                  driver_.module_load_data_ex(&module, shared_probe_ptx, 0, nullptr, nullptr));
    CUdeviceptr out = 0;
    CUstream stream = nullptr;
    std::uint64_t base = 0;
    CUresult result = driver_.mem_alloc(&out, sizeof base);
    CUfunction probe = nullptr;
    if (result == CUDA_SUCCESS)
      result = driver_.module_get_function(&probe, module, "plexus_shared_probe");
    if (result == CUDA_SUCCESS) result = driver_.stream_create(&stream, CU_STREAM_NON_BLOCKING);
    void* params[] = {&out};
    if (result == CUDA_SUCCESS)
      result = driver_.launch_kernel(probe, 1, 1, 1, 1, 1, 1, 16, stream, params, nullptr);
    if (result == CUDA_SUCCESS)
      result = driver_.memcpy_dtoh_async(&base, out, sizeof base, stream);
    if (result == CUDA_SUCCESS) result = driver_.stream_synchronize(stream);
    if (stream) driver_.stream_destroy(stream);
    if (out) driver_.mem_free(out);
    driver_.module_unload(module);
    driver_.check("the shared memory probe kernel", result);
    dynamic_shared_base_ = base;
    logger().debug("cuda backend: '{}': dynamic shared memory starts at shared address {}",
                   info_.name, base);
  });
  return dynamic_shared_base_;
}

std::shared_ptr<DeviceModule> CudaDevice::load_module(BinaryFormat format,
                                                      std::span<const std::byte> binary,
                                                      const std::vector<KernelInfo>& kernels) {
  if (format != BinaryFormat::ptx)
    throw error(error_category::unsupported, "CUDA device '" + info_.name + "' does not load " +
                                                 std::string(to_string(format)) +
                                                 " code; it loads: ptx");
  if (binary.empty())
    throw error(error_category::invalid_argument,
                "load_module on CUDA device '" + info_.name + "': the ptx is empty");
  return std::make_shared<CudaModule>(*this, binary, kernels);
}

std::unique_ptr<DeviceQueue> CudaDevice::create_queue() {
  return std::make_unique<CudaQueue>(*this);
}

void CudaDevice::attach_launcher(CudaLauncher& launcher) const {
  std::lock_guard lock(launchers_mutex_);
  launchers_.push_back(&launcher);
}

void CudaDevice::detach_launcher(CudaLauncher& launcher) const {
  std::lock_guard lock(launchers_mutex_);
  std::erase(launchers_, &launcher);
}

void CudaDevice::drain_launchers() const {
  std::lock_guard lock(launchers_mutex_);
  for (CudaLauncher* launcher : launchers_) launcher->drain();
}

}  // namespace plexus::cuda
