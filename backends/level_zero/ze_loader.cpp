#include "ze_loader.hpp"

#include <dlfcn.h>
#include <level_zero/loader/ze_loader.h>

#include <cstdio>
#include <utility>
#include <vector>

#include "plexus/error.hpp"

namespace plexus::level_zero {
namespace {

struct ResultName {
  ze_result_t result;
  const char* name;
};

constexpr ResultName result_names[] = {
    {ZE_RESULT_SUCCESS, "ZE_RESULT_SUCCESS"},
    {ZE_RESULT_NOT_READY, "ZE_RESULT_NOT_READY"},
    {ZE_RESULT_ERROR_DEVICE_LOST, "ZE_RESULT_ERROR_DEVICE_LOST"},
    {ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY, "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY"},
    {ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY"},
    {ZE_RESULT_ERROR_MODULE_BUILD_FAILURE, "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE"},
    {ZE_RESULT_ERROR_MODULE_LINK_FAILURE, "ZE_RESULT_ERROR_MODULE_LINK_FAILURE"},
    {ZE_RESULT_ERROR_DEVICE_REQUIRES_RESET, "ZE_RESULT_ERROR_DEVICE_REQUIRES_RESET"},
    {ZE_RESULT_ERROR_DEVICE_IN_LOW_POWER_STATE, "ZE_RESULT_ERROR_DEVICE_IN_LOW_POWER_STATE"},
    {ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS, "ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS"},
    {ZE_RESULT_ERROR_NOT_AVAILABLE, "ZE_RESULT_ERROR_NOT_AVAILABLE"},
    {ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE, "ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE"},
    {ZE_RESULT_WARNING_DROPPED_DATA, "ZE_RESULT_WARNING_DROPPED_DATA"},
    {ZE_RESULT_ERROR_UNINITIALIZED, "ZE_RESULT_ERROR_UNINITIALIZED"},
    {ZE_RESULT_ERROR_UNSUPPORTED_VERSION, "ZE_RESULT_ERROR_UNSUPPORTED_VERSION"},
    {ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "ZE_RESULT_ERROR_UNSUPPORTED_FEATURE"},
    {ZE_RESULT_ERROR_INVALID_ARGUMENT, "ZE_RESULT_ERROR_INVALID_ARGUMENT"},
    {ZE_RESULT_ERROR_INVALID_NULL_HANDLE, "ZE_RESULT_ERROR_INVALID_NULL_HANDLE"},
    {ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, "ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE"},
    {ZE_RESULT_ERROR_INVALID_NULL_POINTER, "ZE_RESULT_ERROR_INVALID_NULL_POINTER"},
    {ZE_RESULT_ERROR_INVALID_SIZE, "ZE_RESULT_ERROR_INVALID_SIZE"},
    {ZE_RESULT_ERROR_UNSUPPORTED_SIZE, "ZE_RESULT_ERROR_UNSUPPORTED_SIZE"},
    {ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT, "ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT"},
    {ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT, "ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT"},
    {ZE_RESULT_ERROR_INVALID_ENUMERATION, "ZE_RESULT_ERROR_INVALID_ENUMERATION"},
    {ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION, "ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION"},
    {ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT, "ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT"},
    {ZE_RESULT_ERROR_INVALID_NATIVE_BINARY, "ZE_RESULT_ERROR_INVALID_NATIVE_BINARY"},
    {ZE_RESULT_ERROR_INVALID_GLOBAL_NAME, "ZE_RESULT_ERROR_INVALID_GLOBAL_NAME"},
    {ZE_RESULT_ERROR_INVALID_KERNEL_NAME, "ZE_RESULT_ERROR_INVALID_KERNEL_NAME"},
    {ZE_RESULT_ERROR_INVALID_FUNCTION_NAME, "ZE_RESULT_ERROR_INVALID_FUNCTION_NAME"},
    {ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION, "ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION"},
    {ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION, "ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION"},
    {ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX, "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX"},
    {ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE"},
    {ZE_RESULT_ERROR_INVALID_KERNEL_ATTRIBUTE_VALUE, "ZE_RESULT_ERROR_INVALID_KERNEL_ATTRIBUTE_VALUE"},
    {ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED, "ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED"},
    {ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE, "ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE"},
    {ZE_RESULT_ERROR_OVERLAPPING_REGIONS, "ZE_RESULT_ERROR_OVERLAPPING_REGIONS"},
    {ZE_RESULT_WARNING_ACTION_REQUIRED, "ZE_RESULT_WARNING_ACTION_REQUIRED"},
    {ZE_RESULT_ERROR_UNKNOWN, "ZE_RESULT_ERROR_UNKNOWN"},
};

// What to do about the codes a user meets without a device.
const char* hint(ze_result_t result) {
  switch (result) {
    case ZE_RESULT_ERROR_UNINITIALIZED:
      return ": the loader found no Level Zero driver (install a GPU driver that provides one, "
             "e.g. Intel's compute runtime with libze_intel_gpu.so.1, or set "
             "ZE_ENABLE_LOADER_DEBUG_TRACE=1 to see what the loader tried)";
    case ZE_RESULT_ERROR_DEVICE_LOST:
      return ": the device is lost (a kernel fault or a reset); restart the process to use it "
             "again";
    default:
      return "";
  }
}

}  // namespace

ZeLoader::ZeLoader(std::string library) : library_(std::move(library)) {
  dlerror();
  handle_ = dlopen(library_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    const char* why = dlerror();
    throw error(error_category::device,
                "cannot load the Level Zero loader " + library_ + ": " +
                    (why ? why : "unknown dlopen error") +
                    ". Install it (Debian: libze1), or set the option `library` of "
                    "[backends.level_zero] to the loader's path");
  }
  try {
    resolve(init, "zeInit");
    resolve(driver_get, "zeDriverGet");
    resolve(driver_get_api_version, "zeDriverGetApiVersion");
    resolve(driver_get_properties, "zeDriverGetProperties");
    resolve(device_get, "zeDeviceGet");
    resolve(device_get_properties, "zeDeviceGetProperties");
    resolve(device_get_compute_properties, "zeDeviceGetComputeProperties");
    resolve(device_get_module_properties, "zeDeviceGetModuleProperties");
    resolve(device_get_memory_properties, "zeDeviceGetMemoryProperties");
    resolve(device_get_memory_access_properties, "zeDeviceGetMemoryAccessProperties");
    resolve(device_get_command_queue_group_properties, "zeDeviceGetCommandQueueGroupProperties");
    resolve(device_can_access_peer, "zeDeviceCanAccessPeer");
    resolve(device_get_global_timestamps, "zeDeviceGetGlobalTimestamps");
    resolve(context_create, "zeContextCreate");
    resolve(context_destroy, "zeContextDestroy");
    resolve(mem_alloc_device, "zeMemAllocDevice");
    resolve(mem_alloc_host, "zeMemAllocHost");
    resolve(mem_alloc_shared, "zeMemAllocShared");
    resolve(mem_free, "zeMemFree");
    resolve(mem_get_address_range, "zeMemGetAddressRange");
    resolve(module_create, "zeModuleCreate");
    resolve(module_destroy, "zeModuleDestroy");
    resolve(module_build_log_get_string, "zeModuleBuildLogGetString");
    resolve(module_build_log_destroy, "zeModuleBuildLogDestroy");
    resolve(kernel_create, "zeKernelCreate");
    resolve(kernel_destroy, "zeKernelDestroy");
    resolve(kernel_get_properties, "zeKernelGetProperties");
    resolve(kernel_set_indirect_access, "zeKernelSetIndirectAccess");
    resolve(kernel_set_group_size, "zeKernelSetGroupSize");
    resolve(kernel_suggest_group_size, "zeKernelSuggestGroupSize");
    resolve(kernel_set_argument_value, "zeKernelSetArgumentValue");
    resolve(command_list_create_immediate, "zeCommandListCreateImmediate");
    resolve(command_list_create, "zeCommandListCreate");
    resolve(command_list_destroy, "zeCommandListDestroy");
    resolve(command_list_close, "zeCommandListClose");
    resolve(command_list_reset, "zeCommandListReset");
    resolve(command_list_append_barrier, "zeCommandListAppendBarrier");
    resolve(command_list_append_memory_copy, "zeCommandListAppendMemoryCopy");
    resolve(command_list_append_memory_copy_region, "zeCommandListAppendMemoryCopyRegion");
    resolve(command_list_append_memory_fill, "zeCommandListAppendMemoryFill");
    resolve(command_list_append_launch_kernel, "zeCommandListAppendLaunchKernel");
    resolve(command_list_append_wait_on_events, "zeCommandListAppendWaitOnEvents");
    resolve(command_queue_create, "zeCommandQueueCreate");
    resolve(command_queue_destroy, "zeCommandQueueDestroy");
    resolve(command_queue_execute_command_lists, "zeCommandQueueExecuteCommandLists");
    resolve(event_pool_create, "zeEventPoolCreate");
    resolve(event_pool_destroy, "zeEventPoolDestroy");
    resolve(event_create, "zeEventCreate");
    resolve(event_destroy, "zeEventDestroy");
    resolve(event_host_synchronize, "zeEventHostSynchronize");
    resolve(event_query_status, "zeEventQueryStatus");
    resolve(event_host_reset, "zeEventHostReset");
    resolve(event_query_kernel_timestamp, "zeEventQueryKernelTimestamp");
    resolve(fence_create, "zeFenceCreate");
    resolve(fence_destroy, "zeFenceDestroy");
    resolve(fence_host_synchronize, "zeFenceHostSynchronize");
    resolve(fence_reset, "zeFenceReset");
    kernel_set_global_offset =
        reinterpret_cast<decltype(kernel_set_global_offset)>(dlsym(handle_, "zeKernelSetGlobalOffsetExp"));
    mem_free_ext = reinterpret_cast<decltype(mem_free_ext)>(dlsym(handle_, "zeMemFreeExt"));
  } catch (...) {
    dlclose(handle_);
    throw;
  }
}

ZeLoader::~ZeLoader() { dlclose(handle_); }

template <class Function>
void ZeLoader::resolve(Function& function, const char* symbol) {
  dlerror();
  void* address = dlsym(handle_, symbol);
  if (!address) {
    const char* why = dlerror();
    throw error(error_category::device,
                "the Level Zero loader " + library_ + " lacks " + symbol + " (" +
                    (why ? why : "null symbol") + "): it is too old or not libze_loader");
  }
  function = reinterpret_cast<Function>(address);
}

std::string ZeLoader::loader_version() const {
  using GetVersions = decltype(&::zelLoaderGetVersions);
  const auto get = reinterpret_cast<GetVersions>(dlsym(handle_, "zelLoaderGetVersions"));
  if (!get) return {};
  std::size_t count = 0;
  if (get(&count, nullptr) != ZE_RESULT_SUCCESS || count == 0) return {};
  std::vector<zel_component_version_t> versions(count);
  if (get(&count, versions.data()) != ZE_RESULT_SUCCESS) return {};
  for (const auto& version : versions)
    if (std::string_view(version.component_name) == "loader")
      return std::to_string(version.component_lib_version.major) + "." +
             std::to_string(version.component_lib_version.minor) + "." +
             std::to_string(version.component_lib_version.patch);
  return {};
}

std::string ZeLoader::result_name(ze_result_t result) {
  for (const ResultName& known : result_names)
    if (known.result == result) return known.name;
  char text[32];
  std::snprintf(text, sizeof text, "ze_result_t 0x%x", static_cast<unsigned>(result));
  return text;
}

std::string ZeLoader::describe_failure(std::string_view call, ze_result_t result) {
  char code[16];
  std::snprintf(code, sizeof code, "0x%x", static_cast<unsigned>(result));
  return std::string(call) + " failed: " + result_name(result) + " (" + code + ")" + hint(result);
}

void ZeLoader::check(std::string_view call, ze_result_t result) {
  if (result != ZE_RESULT_SUCCESS) throw error(error_category::device, describe_failure(call, result));
}

}  // namespace plexus::level_zero
