#include "opencl_device.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "opencl_query.hpp"

namespace plexus::opencl {
namespace {

DeviceType device_type(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return DeviceType::gpu;
  if (type & CL_DEVICE_TYPE_CPU) return DeviceType::cpu;
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return DeviceType::accelerator;
  return DeviceType::other;
}

bool is_llvm_cpu_token(std::string_view token) {
  if (token.empty()) return false;
  for (const char c : token)
    if (!(std::islower(static_cast<unsigned char>(c)) ||
          std::isdigit(static_cast<unsigned char>(c)) || c == '_' || c == '.'))
      return false;
  return true;
}

// PoCL names CPU devices "<driver>-<LLVM CPU>-<CPU model>", e.g.
// "pthread-skylake-avx512-Intel(R) Xeon(R) Processor": the LLVM CPU name is the run of
// lower-case tokens after the driver name. Empty when the name has another shape.
std::string pocl_llvm_cpu(std::string_view name) {
  std::vector<std::string_view> tokens;
  for (std::size_t pos = 0; pos <= name.size();) {
    const std::size_t end = std::min(name.find('-', pos), name.size());
    tokens.push_back(name.substr(pos, end - pos));
    pos = end + 1;
  }
  std::string cpu;
  for (std::size_t i = 1; i < tokens.size() && is_llvm_cpu_token(tokens[i]); ++i)
    cpu += (cpu.empty() ? "" : "-") + std::string(tokens[i]);
  return cpu;
}

std::string architecture(cl_device_id device, const DeviceInfo& info,
                         const PlatformTraits& traits, std::string_view extensions) {
  if (has_extension(extensions, "cl_nv_device_attribute_query")) {
    const auto major = try_device_scalar<cl_uint>(device, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV);
    const auto minor = try_device_scalar<cl_uint>(device, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV);
    if (major && minor) return "sm_" + std::to_string(*major) + std::to_string(*minor);
  }
  if (traits.is_pocl() && info.type == DeviceType::cpu) {
    if (std::string cpu = pocl_llvm_cpu(info.name); !cpu.empty()) return cpu;
  }
  return info.name;
}

// Most preferred first; OpenCL C source is the last resort every device accepts.
std::vector<BinaryFormat> formats(cl_device_id device, const PlatformTraits& traits,
                                  std::string_view extensions) {
  std::vector<BinaryFormat> result;
  const std::string il_version = try_device_string(device, CL_DEVICE_IL_VERSION).value_or("");
  if (has_extension(extensions, "cl_khr_il_program") || !il_version.empty())
    result.push_back(BinaryFormat::spirv);
  if (has_extension(extensions, "cl_khr_spir")) result.push_back(BinaryFormat::spir_bitcode);
  if (traits.is_nvidia()) result.push_back(BinaryFormat::ptx);
  result.push_back(BinaryFormat::opencl_c_source);
  return result;
}

// "1.2" from CL_DEVICE_IL_VERSION ("SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2"): the highest SPIR-V
// version named; empty when none is.
std::string highest_spirv_version(const std::string& il_version) {
  std::pair<int, int> highest{-1, -1};
  constexpr std::string_view prefix = "SPIR-V_";
  for (std::size_t at = il_version.find(prefix); at != std::string::npos;
       at = il_version.find(prefix, at + 1)) {
    int major = -1, minor = -1;
    if (std::sscanf(il_version.c_str() + at + prefix.size(), "%d.%d", &major, &minor) == 2)
      highest = std::max(highest, std::pair(major, minor));
  }
  if (highest.first < 0) return {};
  return std::to_string(highest.first) + "." + std::to_string(highest.second);
}

DeviceInfo describe(cl_device_id device, const PlatformTraits& traits) {
  DeviceInfo info;
  info.name = device_string(device, CL_DEVICE_NAME, "CL_DEVICE_NAME");
  info.vendor = device_string(device, CL_DEVICE_VENDOR, "CL_DEVICE_VENDOR");
  if (info.vendor.empty()) info.vendor = traits.vendor;
  info.version = device_string(device, CL_DEVICE_VERSION, "CL_DEVICE_VERSION");
  info.driver_version = device_string(device, CL_DRIVER_VERSION, "CL_DRIVER_VERSION");
  info.type = device_type(device_scalar<cl_device_type>(device, CL_DEVICE_TYPE, "CL_DEVICE_TYPE"));
  info.compute_units =
      device_scalar<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS, "CL_DEVICE_MAX_COMPUTE_UNITS");
  info.global_memory_bytes =
      device_scalar<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE, "CL_DEVICE_GLOBAL_MEM_SIZE");
  info.local_memory_bytes =
      device_scalar<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE, "CL_DEVICE_LOCAL_MEM_SIZE");
  info.max_work_group_size = device_scalar<std::size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                                                        "CL_DEVICE_MAX_WORK_GROUP_SIZE");
  const std::string extensions = device_string(device, CL_DEVICE_EXTENSIONS, "CL_DEVICE_EXTENSIONS");
  info.architecture = architecture(device, info, traits, extensions);
  info.formats = formats(device, traits, extensions);
  info.spirv_version =
      highest_spirv_version(try_device_string(device, CL_DEVICE_IL_VERSION).value_or(""));
  return info;
}

}  // namespace

bool PlatformTraits::is_nvidia() const {
  return vendor.find("NVIDIA") != std::string::npos || name.find("NVIDIA") != std::string::npos;
}

bool PlatformTraits::is_pocl() const {
  return name.find("Portable Computing Language") != std::string::npos ||
         vendor.find("pocl") != std::string::npos;
}

OpenclDevice::OpenclDevice(Backend& backend, cl_platform_id platform, cl_device_id device,
                           const PlatformTraits& traits)
    : backend_(backend), platform_(platform), device_(device), info_(describe(device, traits)) {
  // OpenCL 1.x devices do not know the query: no SVM.
  if (clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof svm_, &svm_, nullptr) != CL_SUCCESS)
    svm_ = 0;
  command_buffers_ = CommandBufferApi::load(
      platform, device, try_device_string(device, CL_DEVICE_EXTENSIONS).value_or(""));
}

CancelCells& OpenclDevice::cancel_cells() const {
  std::call_once(cancel_once_, [this] {
    constexpr cl_device_svm_capabilities needed =
        CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_ATOMICS;
    cancel_cells_ = std::make_shared<CancelCells>(context(), (svm_ & needed) == needed);
  });
  return *cancel_cells_;
}

}  // namespace plexus::opencl
