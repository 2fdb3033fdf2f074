// ZeLoader: the Level Zero loader (libze_loader.so.1), opened with dlopen, and the entry
// points this backend calls. ze_api.h is used for types only, so the plugin loads where the
// loader is absent.
//
// Ownership: holds the dlopen handle for its whole life and closes it in the destructor;
// whoever holds Level Zero objects must destroy them first. Not copyable or movable.
// Thread-safety: immutable after construction; the Level Zero API is thread-safe except
// where the spec says otherwise (a command list or kernel object: one thread at a time).
#pragma once

#include <level_zero/ze_api.h>

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace plexus::level_zero {

// The timeout of zeEventHostSynchronize and zeFenceHostSynchronize that waits without end.
inline constexpr std::uint64_t wait_forever = std::numeric_limits<std::uint64_t>::max();

class ZeLoader {
 public:
  // Opens `library` and resolves the entry points; throws plexus::error(device) naming the
  // library and dlerror()'s text, or the missing symbol.
  explicit ZeLoader(std::string library);
  ~ZeLoader();
  ZeLoader(const ZeLoader&) = delete;
  ZeLoader& operator=(const ZeLoader&) = delete;

  const std::string& library() const { return library_; }

  // "ZE_RESULT_ERROR_DEVICE_LOST" (or "ze_result_t 0x..." for a code this header lacks).
  static std::string result_name(ze_result_t result);
  // "<call> failed: ZE_RESULT_... (0x...)", with a hint for the codes that have one.
  static std::string describe_failure(std::string_view call, ze_result_t result);
  // Throws plexus::error(device) with describe_failure() unless `result` is ZE_RESULT_SUCCESS
  // (out of memory included: callers that know the size say so themselves).
  static void check(std::string_view call, ze_result_t result);

  // The loader's own version ("1.8.12"), from zelLoaderGetVersions; empty where it lacks it.
  std::string loader_version() const;

  decltype(&::zeInit) init = nullptr;
  decltype(&::zeDriverGet) driver_get = nullptr;
  decltype(&::zeDriverGetApiVersion) driver_get_api_version = nullptr;
  decltype(&::zeDriverGetProperties) driver_get_properties = nullptr;
  decltype(&::zeDeviceGet) device_get = nullptr;
  decltype(&::zeDeviceGetProperties) device_get_properties = nullptr;
  decltype(&::zeDeviceGetComputeProperties) device_get_compute_properties = nullptr;
  decltype(&::zeDeviceGetModuleProperties) device_get_module_properties = nullptr;
  decltype(&::zeDeviceGetMemoryProperties) device_get_memory_properties = nullptr;
  decltype(&::zeDeviceGetMemoryAccessProperties) device_get_memory_access_properties = nullptr;
  decltype(&::zeDeviceGetCommandQueueGroupProperties) device_get_command_queue_group_properties =
      nullptr;
  decltype(&::zeDeviceCanAccessPeer) device_can_access_peer = nullptr;
  decltype(&::zeDeviceGetGlobalTimestamps) device_get_global_timestamps = nullptr;
  decltype(&::zeContextCreate) context_create = nullptr;
  decltype(&::zeContextDestroy) context_destroy = nullptr;
  // Memory.
  decltype(&::zeMemAllocDevice) mem_alloc_device = nullptr;
  decltype(&::zeMemAllocHost) mem_alloc_host = nullptr;
  decltype(&::zeMemAllocShared) mem_alloc_shared = nullptr;
  decltype(&::zeMemFree) mem_free = nullptr;
  decltype(&::zeMemGetAddressRange) mem_get_address_range = nullptr;
  // Modules and kernels.
  decltype(&::zeModuleCreate) module_create = nullptr;
  decltype(&::zeModuleDestroy) module_destroy = nullptr;
  decltype(&::zeModuleBuildLogGetString) module_build_log_get_string = nullptr;
  decltype(&::zeModuleBuildLogDestroy) module_build_log_destroy = nullptr;
  decltype(&::zeKernelCreate) kernel_create = nullptr;
  decltype(&::zeKernelDestroy) kernel_destroy = nullptr;
  decltype(&::zeKernelGetProperties) kernel_get_properties = nullptr;
  decltype(&::zeKernelSetIndirectAccess) kernel_set_indirect_access = nullptr;
  decltype(&::zeKernelSetGroupSize) kernel_set_group_size = nullptr;
  decltype(&::zeKernelSuggestGroupSize) kernel_suggest_group_size = nullptr;
  decltype(&::zeKernelSetArgumentValue) kernel_set_argument_value = nullptr;
  // Command lists, queues, events, fences.
  decltype(&::zeCommandListCreateImmediate) command_list_create_immediate = nullptr;
  decltype(&::zeCommandListCreate) command_list_create = nullptr;
  decltype(&::zeCommandListDestroy) command_list_destroy = nullptr;
  decltype(&::zeCommandListClose) command_list_close = nullptr;
  decltype(&::zeCommandListReset) command_list_reset = nullptr;
  decltype(&::zeCommandListAppendBarrier) command_list_append_barrier = nullptr;
  decltype(&::zeCommandListAppendMemoryCopy) command_list_append_memory_copy = nullptr;
  decltype(&::zeCommandListAppendMemoryCopyRegion) command_list_append_memory_copy_region =
      nullptr;
  decltype(&::zeCommandListAppendMemoryFill) command_list_append_memory_fill = nullptr;
  decltype(&::zeCommandListAppendLaunchKernel) command_list_append_launch_kernel = nullptr;
  decltype(&::zeCommandListAppendWaitOnEvents) command_list_append_wait_on_events = nullptr;
  decltype(&::zeCommandQueueCreate) command_queue_create = nullptr;
  decltype(&::zeCommandQueueDestroy) command_queue_destroy = nullptr;
  decltype(&::zeCommandQueueExecuteCommandLists) command_queue_execute_command_lists = nullptr;
  decltype(&::zeEventPoolCreate) event_pool_create = nullptr;
  decltype(&::zeEventPoolDestroy) event_pool_destroy = nullptr;
  decltype(&::zeEventCreate) event_create = nullptr;
  decltype(&::zeEventDestroy) event_destroy = nullptr;
  decltype(&::zeEventHostSynchronize) event_host_synchronize = nullptr;
  decltype(&::zeEventQueryStatus) event_query_status = nullptr;
  decltype(&::zeEventHostReset) event_host_reset = nullptr;
  decltype(&::zeEventQueryKernelTimestamp) event_query_kernel_timestamp = nullptr;
  decltype(&::zeFenceCreate) fence_create = nullptr;
  decltype(&::zeFenceDestroy) fence_destroy = nullptr;
  decltype(&::zeFenceHostSynchronize) fence_host_synchronize = nullptr;
  decltype(&::zeFenceReset) fence_reset = nullptr;
  // Optional (nullptr where the loader lacks them): a non-zero global offset needs the
  // first (ZE_experimental_global_offset); the second frees memory only once the device is
  // done with it (ZE_extension_memory_free_policies), else zeMemFree.
  decltype(&::zeKernelSetGlobalOffsetExp) kernel_set_global_offset = nullptr;
  decltype(&::zeMemFreeExt) mem_free_ext = nullptr;

 private:
  template <class Function>
  void resolve(Function& function, const char* symbol);

  std::string library_;
  void* handle_ = nullptr;
};

}  // namespace plexus::level_zero
