#include "cuda_driver.hpp"

#include <dlfcn.h>

#include <utility>

#include "plexus/error.hpp"

namespace plexus::cuda {

CudaDriver::CudaDriver(std::string library) : library_(std::move(library)) {
  dlerror();  // clear any earlier error
  handle_ = dlopen(library_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    const char* why = dlerror();
    throw error(error_category::device,
                "cannot load the CUDA driver " + library_ + ": " +
                    (why ? why : "unknown dlopen error") +
                    ". Install the NVIDIA driver (it provides libcuda.so.1), or set the "
                    "option `library` of [backends.cuda] to the driver library's path");
  }
  try {
    resolve(init, "cuInit");
    resolve(driver_get_version, "cuDriverGetVersion");
    resolve(device_get_count, "cuDeviceGetCount");
    resolve(device_get, "cuDeviceGet");
    resolve(device_get_name, "cuDeviceGetName");
    resolve(device_total_mem, "cuDeviceTotalMem_v2");
    resolve(device_get_attribute, "cuDeviceGetAttribute");
    resolve(get_error_string, "cuGetErrorString");
    resolve(primary_ctx_retain, "cuDevicePrimaryCtxRetain");
    resolve(primary_ctx_release, "cuDevicePrimaryCtxRelease_v2");
    resolve(ctx_push_current, "cuCtxPushCurrent_v2");
    resolve(ctx_pop_current, "cuCtxPopCurrent_v2");
    resolve(mem_alloc, "cuMemAlloc_v2");
    resolve(mem_free, "cuMemFree_v2");
    resolve(mem_get_address_range, "cuMemGetAddressRange_v2");
    resolve(module_load_data_ex, "cuModuleLoadDataEx");
    resolve(module_unload, "cuModuleUnload");
    resolve(module_get_function, "cuModuleGetFunction");
    resolve(func_get_attribute, "cuFuncGetAttribute");
    resolve(stream_create, "cuStreamCreate");
    resolve(stream_destroy, "cuStreamDestroy_v2");
    resolve(stream_synchronize, "cuStreamSynchronize");
    resolve(stream_add_callback, "cuStreamAddCallback");
    resolve(event_create, "cuEventCreate");
    resolve(event_record, "cuEventRecord");
    resolve(event_synchronize, "cuEventSynchronize");
    resolve(event_destroy, "cuEventDestroy_v2");
    resolve(stream_wait_event, "cuStreamWaitEvent");
    resolve(memcpy_htod_async, "cuMemcpyHtoDAsync_v2");
    resolve(memcpy_dtoh_async, "cuMemcpyDtoHAsync_v2");
    resolve(memcpy_2d_async, "cuMemcpy2DAsync_v2");
    resolve(memcpy_3d_async, "cuMemcpy3DAsync_v2");
    resolve(launch_kernel, "cuLaunchKernel");
    resolve(mem_host_alloc, "cuMemHostAlloc");
    resolve(mem_free_host, "cuMemFreeHost");
    resolve(memcpy_dtod_async, "cuMemcpyDtoDAsync_v2");
    resolve(mem_alloc_managed, "cuMemAllocManaged");
    resolve(memcpy_async, "cuMemcpyAsync");
    resolve(memset_d8_async, "cuMemsetD8Async");
    resolve(memset_d16_async, "cuMemsetD16Async");
    resolve(memset_d32_async, "cuMemsetD32Async");
    resolve(memset_d2d8_async, "cuMemsetD2D8Async");
    resolve(memset_d2d16_async, "cuMemsetD2D16Async");
    resolve(memset_d2d32_async, "cuMemsetD2D32Async");
    resolve(memcpy_peer_async, "cuMemcpyPeerAsync");
    resolve(memcpy_3d_peer_async, "cuMemcpy3DPeerAsync");
    resolve(device_can_access_peer, "cuDeviceCanAccessPeer");
    resolve(ctx_enable_peer_access, "cuCtxEnablePeerAccess");
    for (const char* symbol : {"cuEventElapsedTime_v2", "cuEventElapsedTime"})
      if (!event_elapsed_time)
        event_elapsed_time = reinterpret_cast<decltype(event_elapsed_time)>(dlsym(handle_, symbol));
    resolve_optional(graph_create, "cuGraphCreate");
    resolve_optional(graph_add_kernel_node, "cuGraphAddKernelNode_v2");
    resolve_optional(graph_instantiate, "cuGraphInstantiateWithFlags");
    resolve_optional(graph_launch, "cuGraphLaunch");
    resolve_optional(graph_exec_kernel_node_set_params, "cuGraphExecKernelNodeSetParams_v2");
    resolve_optional(graph_exec_destroy, "cuGraphExecDestroy");
    resolve_optional(graph_destroy, "cuGraphDestroy");
  } catch (...) {
    dlclose(handle_);
    throw;
  }
}

CudaDriver::~CudaDriver() { dlclose(handle_); }

template <class Function>
void CudaDriver::resolve(Function& function, const char* symbol) {
  dlerror();
  void* address = dlsym(handle_, symbol);
  if (!address) {
    const char* why = dlerror();
    throw error(error_category::device,
                "the CUDA driver " + library_ + " lacks " + symbol + " (" +
                    (why ? why : "null symbol") + "): the driver is too old or not libcuda");
  }
  function = reinterpret_cast<Function>(address);
}

template <class Function>
void CudaDriver::resolve_optional(Function& function, const char* symbol) {
  function = reinterpret_cast<Function>(dlsym(handle_, symbol));
}

bool CudaDriver::sticky(CUresult result) {
  switch (result) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_LAUNCH_FAILED:
      return true;
    default:
      return false;
  }
}

std::string CudaDriver::describe_failure(std::string_view call, CUresult result) const {
  const char* text = nullptr;
  std::string message = std::string(call) + " failed";
  if (get_error_string(result, &text) == CUDA_SUCCESS && text)
    message += std::string(": ") + text + " (CUresult " + std::to_string(result) + ")";
  else
    message += " with CUresult " + std::to_string(result);
  if (sticky(result))
    message += ": the CUDA context is unusable after this error (a kernel fault is sticky in "
               "the driver); restart the process to use the device again";
  if (result == CUDA_ERROR_STUB_LIBRARY)
    message += ": this is the CUDA toolkit's stub library, not the driver; install the NVIDIA "
               "driver or point the option `library` of [backends.cuda] at its libcuda.so.1";
  return message;
}

void CudaDriver::check(std::string_view call, CUresult result) const {
  if (result != CUDA_SUCCESS) throw error(error_category::device, describe_failure(call, result));
}

}  // namespace plexus::cuda
