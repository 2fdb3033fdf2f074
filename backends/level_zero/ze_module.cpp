#include "ze_module.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "ze_device.hpp"

namespace plexus::level_zero {
namespace {

std::string kernel_names(const std::vector<KernelInfo>& kernels) {
  std::string text;
  for (const auto& kernel : kernels) text += (text.empty() ? "'" : ", '") + kernel.name + "'";
  return text.empty() ? "none" : text;
}

// The build log's text; empty when there is none.
std::string build_log(const ZeLoader& loader, ze_module_build_log_handle_t log) {
  if (!log) return {};
  std::size_t size = 0;
  std::string text;
  if (loader.module_build_log_get_string(log, &size, nullptr) == ZE_RESULT_SUCCESS && size > 0) {
    text.resize(size);
    if (loader.module_build_log_get_string(log, &size, text.data()) != ZE_RESULT_SUCCESS)
      text.clear();
    text.resize(text.find('\0') == std::string::npos ? text.size() : text.find('\0'));
  }
  loader.module_build_log_destroy(log);
  return text;
}

// A kernel's largest work-group: its sub-groups at most (zeKernelGetProperties:
// maxNumSubgroups of maxSubgroupSize work-items, what the compiled code allows), within the
// device's maxTotalGroupSize; the device's alone when the driver reports neither.
std::uint64_t group_size_limit(const ZeLoader& loader, ze_kernel_handle_t kernel,
                               const ZeDevice& device) {
  std::uint64_t limit = device.info().max_work_group_size;
  ze_kernel_properties_t properties{};
  properties.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
  if (loader.kernel_get_properties(kernel, &properties) == ZE_RESULT_SUCCESS &&
      properties.maxSubgroupSize > 0 && properties.maxNumSubgroups > 0)
    limit = std::min<std::uint64_t>(
        limit, std::uint64_t{properties.maxSubgroupSize} * properties.maxNumSubgroups);
  return limit;
}

}  // namespace

ZeModule::ZeModule(ZeDevice& device, std::span<const std::byte> spirv,
                   const std::vector<KernelInfo>& kernels)
    : device_(device), infos_(kernels) {
  const ZeLoader& loader = device.loader();
  ze_module_desc_t description{};
  description.stype = ZE_STRUCTURE_TYPE_MODULE_DESC;
  description.format = ZE_MODULE_FORMAT_IL_SPIRV;
  description.inputSize = spirv.size();
  description.pInputModule = reinterpret_cast<const std::uint8_t*>(spirv.data());
  description.pBuildFlags = "";
  ze_module_build_log_handle_t log = nullptr;
  const ze_result_t result =
      loader.module_create(device.context(), device.handle(), &description, &module_, &log);
  const std::string text = build_log(loader, log);
  if (result != ZE_RESULT_SUCCESS) {
    const bool rejected = result == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE ||
                          result == ZE_RESULT_ERROR_MODULE_LINK_FAILURE ||
                          result == ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
    throw error(rejected ? error_category::build : error_category::device,
                "Level Zero device '" + device.info().name + "': " +
                    ZeLoader::describe_failure("zeModuleCreate of " +
                                                   std::to_string(spirv.size()) +
                                                   " bytes of SPIR-V",
                                               result) +
                    "; build log:\n" + (text.empty() ? "(empty)" : text));
  }
  if (!text.empty()) logger().debug("level_zero backend: build log: {}", text);
  try {
    for (const KernelInfo& info : infos_) {
      ze_kernel_desc_t kernel_description{};
      kernel_description.stype = ZE_STRUCTURE_TYPE_KERNEL_DESC;
      kernel_description.pKernelName = info.name.c_str();
      ze_kernel_handle_t kernel = nullptr;
      if (const ze_result_t found = loader.kernel_create(module_, &kernel_description, &kernel);
          found != ZE_RESULT_SUCCESS)
        throw error(found == ZE_RESULT_ERROR_INVALID_KERNEL_NAME ? error_category::build
                                                                 : error_category::device,
                    ZeLoader::describe_failure("zeKernelCreate('" + info.name + "')", found) +
                        " (the compiler reported a kernel the module does not define)");
      kernels_.push_back(std::make_unique<ZeKernel>(info, kernel, device,
                                                    group_size_limit(loader, kernel, device)));
      ZeLoader::check("zeKernelSetIndirectAccess",
                      loader.kernel_set_indirect_access(
                          kernel, ZE_KERNEL_INDIRECT_ACCESS_FLAG_HOST |
                                      ZE_KERNEL_INDIRECT_ACCESS_FLAG_DEVICE |
                                      ZE_KERNEL_INDIRECT_ACCESS_FLAG_SHARED));
    }
  } catch (...) {
    for (const auto& kernel : kernels_) loader.kernel_destroy(kernel->handle());
    loader.module_destroy(module_);
    throw;
  }
}

ZeModule::~ZeModule() {
  const ZeLoader& loader = device_.loader();
  for (const auto& kernel : kernels_) loader.kernel_destroy(kernel->handle());
  kernels_.clear();
  if (const ze_result_t result = loader.module_destroy(module_); result != ZE_RESULT_SUCCESS)
    logger().warn("level_zero backend: {}", ZeLoader::describe_failure("zeModuleDestroy", result));
}

Device& ZeModule::device() const { return device_; }

const DeviceKernel& ZeModule::kernel(const std::string& name) const {
  for (const auto& kernel : kernels_)
    if (kernel->info().name == name) return *kernel;
  throw error(error_category::invalid_argument,
              "no kernel '" + name + "' in this module on Level Zero device '" +
                  device_.info().name + "'; its kernels: " + kernel_names(infos_));
}

}  // namespace plexus::level_zero
