#include "hip_runtime.hpp"

#include <dlfcn.h>

#include <utility>

#include "plexus/error.hpp"

namespace plexus::hip {

HipRuntime::HipRuntime(std::string library) : library_(std::move(library)) {
  dlerror();
  handle_ = dlopen(library_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    const char* why = dlerror();
    throw error(error_category::device,
                "cannot load the HIP runtime " + library_ + ": " +
                    (why ? why : "unknown dlopen error") +
                    ". Install it (Debian: libamdhip64-5; ROCm), or set the option `library` "
                    "of [backends.hip] to the runtime's path");
  }
  try {
    resolve(init, "hipInit");
    resolve(runtime_get_version, "hipRuntimeGetVersion");
    resolve(driver_get_version, "hipDriverGetVersion");
    resolve(get_device_count, "hipGetDeviceCount");
    resolve(get_device_properties, "hipGetDeviceProperties");
    resolve(set_device, "hipSetDevice");
    resolve(get_device, "hipGetDevice");
    resolve(get_error_name, "hipGetErrorName");
    resolve(get_error_string, "hipGetErrorString");
    resolve(malloc, "hipMalloc");
    resolve(free, "hipFree");
    resolve(host_malloc, "hipHostMalloc");
    resolve(host_free, "hipHostFree");
    resolve(malloc_managed, "hipMallocManaged");
    resolve(mem_get_address_range, "hipMemGetAddressRange");
    resolve(device_can_access_peer, "hipDeviceCanAccessPeer");
    resolve(device_enable_peer_access, "hipDeviceEnablePeerAccess");
    resolve(module_load_data, "hipModuleLoadData");
    resolve(module_unload, "hipModuleUnload");
    resolve(module_get_function, "hipModuleGetFunction");
    resolve(func_get_attribute, "hipFuncGetAttribute");
    resolve(module_launch_kernel, "hipModuleLaunchKernel");
    resolve(stream_create_with_flags, "hipStreamCreateWithFlags");
    resolve(stream_destroy, "hipStreamDestroy");
    resolve(stream_synchronize, "hipStreamSynchronize");
    resolve(stream_wait_event, "hipStreamWaitEvent");
    resolve(event_create_with_flags, "hipEventCreateWithFlags");
    resolve(event_record, "hipEventRecord");
    resolve(event_synchronize, "hipEventSynchronize");
    resolve(event_destroy, "hipEventDestroy");
    resolve(event_elapsed_time, "hipEventElapsedTime");
    resolve(memcpy_async, "hipMemcpyAsync");
    resolve(memcpy_2d_async, "hipMemcpy2DAsync");
    resolve(memcpy_peer_async, "hipMemcpyPeerAsync");
    resolve(memset_d8_async, "hipMemsetD8Async");
    resolve(memset_d16_async, "hipMemsetD16Async");
    resolve(memset_d32_async, "hipMemsetD32Async");
    resolve_optional(graph_create, "hipGraphCreate");
    resolve_optional(graph_add_kernel_node, "hipGraphAddKernelNode");
    resolve_optional(graph_instantiate, "hipGraphInstantiate");
    resolve_optional(graph_exec_kernel_node_set_params, "hipGraphExecKernelNodeSetParams");
    resolve_optional(graph_launch, "hipGraphLaunch");
    resolve_optional(graph_exec_destroy, "hipGraphExecDestroy");
    resolve_optional(graph_destroy, "hipGraphDestroy");
    has_graphs_ = graph_create && graph_add_kernel_node && graph_instantiate &&
                  graph_exec_kernel_node_set_params && graph_launch && graph_exec_destroy &&
                  graph_destroy;
  } catch (...) {
    dlclose(handle_);
    throw;
  }
}

HipRuntime::~HipRuntime() { dlclose(handle_); }

template <class Function>
void HipRuntime::resolve_optional(Function& function, const char* symbol) {
  function = reinterpret_cast<Function>(dlsym(handle_, symbol));
}

template <class Function>
void HipRuntime::resolve(Function& function, const char* symbol) {
  dlerror();
  void* address = dlsym(handle_, symbol);
  if (!address) {
    const char* why = dlerror();
    throw error(error_category::device,
                "the HIP runtime " + library_ + " lacks " + symbol + " (" +
                    (why ? why : "null symbol") + "): it is too old or not libamdhip64");
  }
  function = reinterpret_cast<Function>(address);
}

bool HipRuntime::sticky(hipError_t result) {
  switch (result) {
    case hipErrorIllegalAddress:
    case hipErrorLaunchFailure:
    case hipErrorAssert:
    case hipErrorIllegalState:
      return true;
    default:
      return false;
  }
}

std::string HipRuntime::describe_failure(std::string_view call, hipError_t result) const {
  const char* name = get_error_name ? get_error_name(result) : nullptr;
  const char* text = get_error_string ? get_error_string(result) : nullptr;
  std::string message = std::string(call) + " failed: " + (name ? name : "hipError_t") + " (" +
                        std::to_string(static_cast<int>(result)) + ")";
  if (text && (!name || std::string_view(text) != name)) message += ": " + std::string(text);
  if (sticky(result))
    message += ": the device is unusable after this error (a kernel fault); restart the "
               "process to use it again";
  return message;
}

void HipRuntime::check(std::string_view call, hipError_t result) const {
  if (result != hipSuccess) throw error(error_category::device, describe_failure(call, result));
}

}  // namespace plexus::hip
