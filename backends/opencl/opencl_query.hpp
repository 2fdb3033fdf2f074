// OpenCL queries with errors that explain themselves: each failed clGet*Info call throws
// plexus::error(device) naming the call, the query and the CL error code by name.
// Stateless free functions: thread-safe as far as the OpenCL implementation is.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "opencl_api.hpp"

namespace plexus::opencl {

// "CL_INVALID_DEVICE (-33)"; unknown codes as "unknown OpenCL error (-1234)".
std::string error_name(cl_int code);

// Throws plexus::error(device): "<call>(<query>) failed: <error_name(code)>".
[[noreturn]] void throw_cl_error(std::string_view call, std::string_view query, cl_int code);

std::string platform_string(cl_platform_id platform, cl_platform_info param,
                            std::string_view query);
std::string device_string(cl_device_id device, cl_device_info param, std::string_view query);
// For queries a device may not know (newer than its OpenCL version, vendor extensions):
// nothing instead of an error.
std::optional<std::string> try_device_string(cl_device_id device, cl_device_info param);

template <class T>
T device_scalar(cl_device_id device, cl_device_info param, std::string_view query) {
  T value{};
  if (const cl_int code = clGetDeviceInfo(device, param, sizeof(T), &value, nullptr);
      code != CL_SUCCESS)
    throw_cl_error("clGetDeviceInfo", query, code);
  return value;
}

template <class T>
std::optional<T> try_device_scalar(cl_device_id device, cl_device_info param) {
  T value{};
  if (clGetDeviceInfo(device, param, sizeof(T), &value, nullptr) != CL_SUCCESS)
    return std::nullopt;
  return value;
}

// Whether a space-separated extension list (CL_DEVICE_EXTENSIONS) names `extension`.
bool has_extension(std::string_view extensions, std::string_view extension);

}  // namespace plexus::opencl
