// HipRuntime: the HIP runtime library (libamdhip64.so.5), opened with dlopen, and the entry
// points this backend calls. hip_runtime_api.h (Debian: libamdhip64-dev 5.2, the AMD
// platform) is used for types only, so the plugin loads where the runtime is absent.
//
// The HIP runtime keeps a current device per host thread: every call that works on a device
// runs inside a ScopedDevice (hip_device_scope.hpp), never leaving another device current
// on an application thread.
//
// Ownership: holds the dlopen handle for its whole life and closes it in the destructor;
// whoever holds HIP objects must destroy them first. Not copyable or movable.
// Thread-safety: immutable after construction; the HIP runtime is thread-safe.
#pragma once

#include <hip/hip_runtime_api.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace plexus::hip {

class HipRuntime {
 public:
  // Opens `library` and resolves the entry points; throws plexus::error(device) naming the
  // library and dlerror()'s text, or the missing symbol.
  explicit HipRuntime(std::string library);
  ~HipRuntime();
  HipRuntime(const HipRuntime&) = delete;
  HipRuntime& operator=(const HipRuntime&) = delete;

  const std::string& library() const { return library_; }

  // "<call> failed: hipErrorInvalidDevice (101): <hipGetErrorString text>", with a note for
  // the errors that leave the device unusable (a kernel fault).
  std::string describe_failure(std::string_view call, hipError_t result) const;
  // Whether `result` leaves the device unusable for the rest of the process.
  static bool sticky(hipError_t result);
  // Throws plexus::error(device) with describe_failure() unless `result` is hipSuccess.
  void check(std::string_view call, hipError_t result) const;

  decltype(&::hipInit) init = nullptr;
  decltype(&::hipRuntimeGetVersion) runtime_get_version = nullptr;
  decltype(&::hipDriverGetVersion) driver_get_version = nullptr;
  decltype(&::hipGetDeviceCount) get_device_count = nullptr;
  decltype(&::hipGetDeviceProperties) get_device_properties = nullptr;
  decltype(&::hipSetDevice) set_device = nullptr;
  decltype(&::hipGetDevice) get_device = nullptr;
  decltype(&::hipGetErrorName) get_error_name = nullptr;
  decltype(&::hipGetErrorString) get_error_string = nullptr;
  // Memory (hipMalloc, hipHostMalloc and hipMallocManaged are overloaded in C++: the C ones).
  hipError_t (*malloc)(void**, std::size_t) = nullptr;
  decltype(&::hipFree) free = nullptr;
  hipError_t (*host_malloc)(void**, std::size_t, unsigned int) = nullptr;
  decltype(&::hipHostFree) host_free = nullptr;
  hipError_t (*malloc_managed)(void**, std::size_t, unsigned int) = nullptr;
  decltype(&::hipMemGetAddressRange) mem_get_address_range = nullptr;
  decltype(&::hipDeviceCanAccessPeer) device_can_access_peer = nullptr;
  decltype(&::hipDeviceEnablePeerAccess) device_enable_peer_access = nullptr;
  // Modules and launches.
  decltype(&::hipModuleLoadData) module_load_data = nullptr;
  decltype(&::hipModuleUnload) module_unload = nullptr;
  decltype(&::hipModuleGetFunction) module_get_function = nullptr;
  decltype(&::hipFuncGetAttribute) func_get_attribute = nullptr;
  decltype(&::hipModuleLaunchKernel) module_launch_kernel = nullptr;
  // Streams, events, copies, fills.
  decltype(&::hipStreamCreateWithFlags) stream_create_with_flags = nullptr;
  decltype(&::hipStreamDestroy) stream_destroy = nullptr;
  decltype(&::hipStreamSynchronize) stream_synchronize = nullptr;
  decltype(&::hipStreamWaitEvent) stream_wait_event = nullptr;
  decltype(&::hipEventCreateWithFlags) event_create_with_flags = nullptr;
  decltype(&::hipEventRecord) event_record = nullptr;
  decltype(&::hipEventSynchronize) event_synchronize = nullptr;
  decltype(&::hipEventDestroy) event_destroy = nullptr;
  decltype(&::hipEventElapsedTime) event_elapsed_time = nullptr;
  decltype(&::hipMemcpyAsync) memcpy_async = nullptr;
  decltype(&::hipMemcpy2DAsync) memcpy_2d_async = nullptr;
  decltype(&::hipMemcpyPeerAsync) memcpy_peer_async = nullptr;
  decltype(&::hipMemsetD8Async) memset_d8_async = nullptr;
  decltype(&::hipMemsetD16Async) memset_d16_async = nullptr;
  decltype(&::hipMemsetD32Async) memset_d32_async = nullptr;
  // Graphs: optional (nullptr where the runtime lacks them; has_graphs() says).
  decltype(&::hipGraphCreate) graph_create = nullptr;
  decltype(&::hipGraphAddKernelNode) graph_add_kernel_node = nullptr;
  decltype(&::hipGraphInstantiate) graph_instantiate = nullptr;
  decltype(&::hipGraphExecKernelNodeSetParams) graph_exec_kernel_node_set_params = nullptr;
  decltype(&::hipGraphLaunch) graph_launch = nullptr;
  decltype(&::hipGraphExecDestroy) graph_exec_destroy = nullptr;
  decltype(&::hipGraphDestroy) graph_destroy = nullptr;
  bool has_graphs() const { return has_graphs_; }

 private:
  template <class Function>
  void resolve(Function& function, const char* symbol);
  // nullptr where the runtime lacks `symbol`.
  template <class Function>
  void resolve_optional(Function& function, const char* symbol);

  std::string library_;
  void* handle_ = nullptr;
  bool has_graphs_ = false;
};

}  // namespace plexus::hip
