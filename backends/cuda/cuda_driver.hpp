// CudaDriver: the CUDA driver library (libcuda.so.1), opened with dlopen and initialised
// with cuInit, and the driver entry points this backend calls.
//
// Ownership: holds the dlopen handle for its whole life and closes it in the destructor;
// whoever holds objects from the driver must destroy them first. Not copyable or movable.
// Thread-safety: immutable after construction; the driver API is thread-safe.
#pragma once

#include <cuda.h>

#include <string>
#include <string_view>

namespace plexus::cuda {

class CudaDriver {
 public:
  // Opens `library` and resolves the entry points; throws plexus::error(device) naming the
  // library and dlerror()'s text, or the missing symbol.
  explicit CudaDriver(std::string library);
  ~CudaDriver();
  CudaDriver(const CudaDriver&) = delete;
  CudaDriver& operator=(const CudaDriver&) = delete;

  const std::string& library() const { return library_; }

  // "<call> failed: <cuGetErrorString text> (CUresult <code>)".
  std::string describe_failure(std::string_view call, CUresult result) const;
  // Whether `result` leaves the context unusable (a kernel fault: every later call of the
  // context returns it); describe_failure() then says to restart the process.
  static bool sticky(CUresult result);
  // Throws plexus::error(device) with describe_failure() unless `result` is CUDA_SUCCESS.
  void check(std::string_view call, CUresult result) const;

  decltype(&::cuInit) init = nullptr;
  decltype(&::cuDriverGetVersion) driver_get_version = nullptr;
  decltype(&::cuDeviceGetCount) device_get_count = nullptr;
  decltype(&::cuDeviceGet) device_get = nullptr;
  decltype(&::cuDeviceGetName) device_get_name = nullptr;
  decltype(&::cuDeviceTotalMem_v2) device_total_mem = nullptr;
  decltype(&::cuDeviceGetAttribute) device_get_attribute = nullptr;
  decltype(&::cuGetErrorString) get_error_string = nullptr;
  // Device operations: contexts, memory, modules, streams, copies, launches.
  decltype(&::cuDevicePrimaryCtxRetain) primary_ctx_retain = nullptr;
  decltype(&::cuDevicePrimaryCtxRelease) primary_ctx_release = nullptr;
  decltype(&::cuCtxPushCurrent) ctx_push_current = nullptr;
  decltype(&::cuCtxPopCurrent) ctx_pop_current = nullptr;
  decltype(&::cuMemAlloc) mem_alloc = nullptr;
  decltype(&::cuMemFree) mem_free = nullptr;
  decltype(&::cuMemGetAddressRange) mem_get_address_range = nullptr;
  decltype(&::cuModuleLoadDataEx) module_load_data_ex = nullptr;
  decltype(&::cuModuleUnload) module_unload = nullptr;
  decltype(&::cuModuleGetFunction) module_get_function = nullptr;
  decltype(&::cuFuncGetAttribute) func_get_attribute = nullptr;
  decltype(&::cuStreamCreate) stream_create = nullptr;
  decltype(&::cuStreamDestroy) stream_destroy = nullptr;
  decltype(&::cuStreamSynchronize) stream_synchronize = nullptr;
  decltype(&::cuStreamAddCallback) stream_add_callback = nullptr;
  decltype(&::cuEventCreate) event_create = nullptr;
  decltype(&::cuEventRecord) event_record = nullptr;
  decltype(&::cuEventSynchronize) event_synchronize = nullptr;
  decltype(&::cuEventDestroy) event_destroy = nullptr;
  decltype(&::cuStreamWaitEvent) stream_wait_event = nullptr;  // queue markers (cuda_marker.*)
  decltype(&::cuMemcpyHtoDAsync) memcpy_htod_async = nullptr;
  decltype(&::cuMemcpyDtoHAsync) memcpy_dtoh_async = nullptr;
  decltype(&::cuMemcpy2DAsync) memcpy_2d_async = nullptr;
  decltype(&::cuMemcpy3DAsync) memcpy_3d_async = nullptr;
  decltype(&::cuLaunchKernel) launch_kernel = nullptr;
  // Device -> device copies and page-locked host memory (cuda_device_copies.cpp).
  decltype(&::cuMemHostAlloc) mem_host_alloc = nullptr;
  decltype(&::cuMemFreeHost) mem_free_host = nullptr;
  decltype(&::cuMemcpyDtoDAsync) memcpy_dtod_async = nullptr;
  // USM (cuda_usm.cpp): managed memory, unified-address copies, fills.
  decltype(&::cuMemAllocManaged) mem_alloc_managed = nullptr;
  decltype(&::cuMemcpyAsync) memcpy_async = nullptr;
  decltype(&::cuMemsetD8Async) memset_d8_async = nullptr;
  decltype(&::cuMemsetD16Async) memset_d16_async = nullptr;
  decltype(&::cuMemsetD32Async) memset_d32_async = nullptr;
  decltype(&::cuMemsetD2D8Async) memset_d2d8_async = nullptr;
  decltype(&::cuMemsetD2D16Async) memset_d2d16_async = nullptr;
  decltype(&::cuMemsetD2D32Async) memset_d2d32_async = nullptr;
  decltype(&::cuMemcpyPeerAsync) memcpy_peer_async = nullptr;
  decltype(&::cuMemcpy3DPeerAsync) memcpy_3d_peer_async = nullptr;
  decltype(&::cuDeviceCanAccessPeer) device_can_access_peer = nullptr;
  decltype(&::cuCtxEnablePeerAccess) ctx_enable_peer_access = nullptr;
  // Optional (nullptr when the driver has neither cuEventElapsedTime_v2 nor the first
  // version): only device timing (CudaTiming) needs it.
  decltype(&::cuEventElapsedTime) event_elapsed_time = nullptr;
  // Optional (nullptr when the driver lacks one): device graphs (cuda_graph.*) need them all,
  // has_graphs() says whether they are there.
  decltype(&::cuGraphCreate) graph_create = nullptr;
  decltype(&::cuGraphAddKernelNode) graph_add_kernel_node = nullptr;  // cuGraphAddKernelNode_v2
  decltype(&::cuGraphInstantiate) graph_instantiate = nullptr;  // cuGraphInstantiateWithFlags
  decltype(&::cuGraphLaunch) graph_launch = nullptr;
  decltype(&::cuGraphExecKernelNodeSetParams) graph_exec_kernel_node_set_params = nullptr;
  decltype(&::cuGraphExecDestroy) graph_exec_destroy = nullptr;
  decltype(&::cuGraphDestroy) graph_destroy = nullptr;
  bool has_graphs() const {
    return graph_create && graph_add_kernel_node && graph_instantiate && graph_launch &&
           graph_exec_kernel_node_set_params && graph_exec_destroy && graph_destroy;
  }

 private:
  template <class Function>
  void resolve(Function& function, const char* symbol);
  template <class Function>
  void resolve_optional(Function& function, const char* symbol);

  std::string library_;
  void* handle_ = nullptr;
};

}  // namespace plexus::cuda
