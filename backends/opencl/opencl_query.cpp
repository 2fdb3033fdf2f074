#include "opencl_query.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "plexus/error.hpp"

namespace plexus::opencl {
namespace {

const char* known_error_name(cl_int code) {
#define PLEXUS_CL_ERROR(name) \
  case name:                  \
    return #name;
  switch (code) {
    PLEXUS_CL_ERROR(CL_SUCCESS)
    PLEXUS_CL_ERROR(CL_DEVICE_NOT_FOUND)
    PLEXUS_CL_ERROR(CL_DEVICE_NOT_AVAILABLE)
    PLEXUS_CL_ERROR(CL_COMPILER_NOT_AVAILABLE)
    PLEXUS_CL_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    PLEXUS_CL_ERROR(CL_OUT_OF_RESOURCES)
    PLEXUS_CL_ERROR(CL_OUT_OF_HOST_MEMORY)
    PLEXUS_CL_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE)
    PLEXUS_CL_ERROR(CL_MEM_COPY_OVERLAP)
    PLEXUS_CL_ERROR(CL_IMAGE_FORMAT_MISMATCH)
    PLEXUS_CL_ERROR(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    PLEXUS_CL_ERROR(CL_BUILD_PROGRAM_FAILURE)
    PLEXUS_CL_ERROR(CL_MAP_FAILURE)
    PLEXUS_CL_ERROR(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    PLEXUS_CL_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    PLEXUS_CL_ERROR(CL_COMPILE_PROGRAM_FAILURE)
    PLEXUS_CL_ERROR(CL_LINKER_NOT_AVAILABLE)
    PLEXUS_CL_ERROR(CL_LINK_PROGRAM_FAILURE)
    PLEXUS_CL_ERROR(CL_DEVICE_PARTITION_FAILED)
    PLEXUS_CL_ERROR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    PLEXUS_CL_ERROR(CL_INVALID_VALUE)
    PLEXUS_CL_ERROR(CL_INVALID_DEVICE_TYPE)
    PLEXUS_CL_ERROR(CL_INVALID_PLATFORM)
    PLEXUS_CL_ERROR(CL_INVALID_DEVICE)
    PLEXUS_CL_ERROR(CL_INVALID_CONTEXT)
    PLEXUS_CL_ERROR(CL_INVALID_QUEUE_PROPERTIES)
    PLEXUS_CL_ERROR(CL_INVALID_COMMAND_QUEUE)
    PLEXUS_CL_ERROR(CL_INVALID_HOST_PTR)
    PLEXUS_CL_ERROR(CL_INVALID_MEM_OBJECT)
    PLEXUS_CL_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    PLEXUS_CL_ERROR(CL_INVALID_IMAGE_SIZE)
    PLEXUS_CL_ERROR(CL_INVALID_SAMPLER)
    PLEXUS_CL_ERROR(CL_INVALID_BINARY)
    PLEXUS_CL_ERROR(CL_INVALID_BUILD_OPTIONS)
    PLEXUS_CL_ERROR(CL_INVALID_PROGRAM)
    PLEXUS_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE)
    PLEXUS_CL_ERROR(CL_INVALID_KERNEL_NAME)
    PLEXUS_CL_ERROR(CL_INVALID_KERNEL_DEFINITION)
    PLEXUS_CL_ERROR(CL_INVALID_KERNEL)
    PLEXUS_CL_ERROR(CL_INVALID_ARG_INDEX)
    PLEXUS_CL_ERROR(CL_INVALID_ARG_VALUE)
    PLEXUS_CL_ERROR(CL_INVALID_ARG_SIZE)
    PLEXUS_CL_ERROR(CL_INVALID_KERNEL_ARGS)
    PLEXUS_CL_ERROR(CL_INVALID_WORK_DIMENSION)
    PLEXUS_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE)
    PLEXUS_CL_ERROR(CL_INVALID_WORK_ITEM_SIZE)
    PLEXUS_CL_ERROR(CL_INVALID_GLOBAL_OFFSET)
    PLEXUS_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST)
    PLEXUS_CL_ERROR(CL_INVALID_EVENT)
    PLEXUS_CL_ERROR(CL_INVALID_OPERATION)
    PLEXUS_CL_ERROR(CL_INVALID_GL_OBJECT)
    PLEXUS_CL_ERROR(CL_INVALID_BUFFER_SIZE)
    PLEXUS_CL_ERROR(CL_INVALID_MIP_LEVEL)
    PLEXUS_CL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE)
    PLEXUS_CL_ERROR(CL_INVALID_PROPERTY)
    PLEXUS_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR)
    PLEXUS_CL_ERROR(CL_INVALID_COMPILER_OPTIONS)
    PLEXUS_CL_ERROR(CL_INVALID_LINKER_OPTIONS)
    PLEXUS_CL_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT)
    PLEXUS_CL_ERROR(CL_INVALID_PIPE_SIZE)
    PLEXUS_CL_ERROR(CL_INVALID_DEVICE_QUEUE)
    PLEXUS_CL_ERROR(CL_INVALID_SPEC_ID)
    PLEXUS_CL_ERROR(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
    PLEXUS_CL_ERROR(CL_PLATFORM_NOT_FOUND_KHR)
    default:
      return nullptr;
  }
#undef PLEXUS_CL_ERROR
}

// Two-step string query shared by platforms and devices: size, then text.
template <class Handle, class Param, class Query>
cl_int query_string(Query query, Handle handle, Param param, std::string& text) {
  std::size_t size = 0;
  if (const cl_int code = query(handle, param, 0, nullptr, &size); code != CL_SUCCESS)
    return code;
  std::vector<char> buffer(size + 1, '\0');
  if (const cl_int code = query(handle, param, size, buffer.data(), nullptr); code != CL_SUCCESS)
    return code;
  text.assign(buffer.data());  // stops at the terminating NUL the driver wrote
  return CL_SUCCESS;
}

}  // namespace

std::string error_name(cl_int code) {
  const char* name = known_error_name(code);
  return std::string(name ? name : "unknown OpenCL error") + " (" + std::to_string(code) + ")";
}

void throw_cl_error(std::string_view call, std::string_view query, cl_int code) {
  std::string message(call);
  if (!query.empty()) message += "(" + std::string(query) + ")";
  throw error(error_category::device, message + " failed: " + error_name(code));
}

std::string platform_string(cl_platform_id platform, cl_platform_info param,
                            std::string_view query) {
  std::string text;
  if (const cl_int code = query_string(clGetPlatformInfo, platform, param, text);
      code != CL_SUCCESS)
    throw_cl_error("clGetPlatformInfo", query, code);
  return text;
}

std::string device_string(cl_device_id device, cl_device_info param, std::string_view query) {
  std::string text;
  if (const cl_int code = query_string(clGetDeviceInfo, device, param, text); code != CL_SUCCESS)
    throw_cl_error("clGetDeviceInfo", query, code);
  return text;
}

std::optional<std::string> try_device_string(cl_device_id device, cl_device_info param) {
  std::string text;
  if (query_string(clGetDeviceInfo, device, param, text) != CL_SUCCESS) return std::nullopt;
  return text;
}

bool has_extension(std::string_view extensions, std::string_view extension) {
  std::size_t pos = 0;
  while (pos < extensions.size()) {
    const std::size_t end = std::min(extensions.find(' ', pos), extensions.size());
    if (extensions.substr(pos, end - pos) == extension) return true;
    pos = end + 1;
  }
  return false;
}

}  // namespace plexus::opencl
