#include "hip_module.hpp"

#include <string>

#include "hip_device.hpp"
#include "hip_device_scope.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus::hip {
namespace {

std::string kernel_names(const std::vector<KernelInfo>& kernels) {
  std::string text;
  for (const auto& kernel : kernels) text += (text.empty() ? "'" : ", '") + kernel.name + "'";
  return text.empty() ? "none" : text;
}

std::size_t attribute(const HipDevice& device, hipFunction_t function,
                      hipFunction_attribute which, const char* name) {
  int value = 0;
  if (const hipError_t result = device.runtime().func_get_attribute(&value, which, function);
      result != hipSuccess)
    device.fail("a kernel's attributes", name, result);
  return static_cast<std::size_t>(value);
}

}  // namespace

HipModule::HipModule(HipDevice& device, std::span<const std::byte> code_object,
                     const std::vector<KernelInfo>& kernels)
    : device_(device), infos_(kernels) {
  const HipRuntime& runtime = device.runtime();
  ScopedDevice scope(runtime, device.ordinal());
  if (const hipError_t result = runtime.module_load_data(&module_, code_object.data());
      result != hipSuccess) {
    const bool rejected = result == hipErrorInvalidImage || result == hipErrorNoBinaryForGpu ||
                          result == hipErrorInvalidKernelFile ||
                          result == hipErrorSharedObjectInitFailed ||
                          result == hipErrorInvalidSource;
    throw error(rejected ? error_category::build : error_category::device,
                "HIP device '" + device.info().name + "' (" + device.info().architecture +
                    "): " +
                    runtime.describe_failure("hipModuleLoadData of a " +
                                                 std::to_string(code_object.size()) +
                                                 "-byte code object",
                                             result) +
                    (rejected ? " (a code object must be built for this GPU's architecture, " +
                                    device.info().architecture + ")"
                              : ""));
  }
  try {
    for (const KernelInfo& info : infos_) {
      hipFunction_t function = nullptr;
      if (const hipError_t found =
              runtime.module_get_function(&function, module_, info.name.c_str());
          found != hipSuccess)
        throw error(error_category::build,
                    runtime.describe_failure("hipModuleGetFunction('" + info.name + "')", found) +
                        " (the compiler reported a kernel the code object does not define)");
      kernels_.push_back(std::make_unique<HipKernel>(
          info, function, device,
          attribute(device, function, HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                    "hipFuncGetAttribute(SHARED_SIZE_BYTES)"),
          attribute(device, function, HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                    "hipFuncGetAttribute(MAX_THREADS_PER_BLOCK)")));
    }
  } catch (...) {
    (void)runtime.module_unload(module_);
    throw;
  }
}

HipModule::~HipModule() {
  kernels_.clear();
  try {
    ScopedDevice scope(device_.runtime(), device_.ordinal());
    if (const hipError_t result = device_.runtime().module_unload(module_); result != hipSuccess)
      logger().warn("hip backend: {}", device_.runtime().describe_failure("hipModuleUnload", result));
  } catch (const std::exception& e) {
    logger().warn("hip backend: unloading a module: {}", e.what());
  }
}

Device& HipModule::device() const { return device_; }

const DeviceKernel& HipModule::kernel(const std::string& name) const {
  for (const auto& kernel : kernels_)
    if (kernel->info().name == name) return *kernel;
  throw error(error_category::invalid_argument,
              "no kernel '" + name + "' in this module on HIP device '" + device_.info().name +
                  "'; its kernels: " + kernel_names(infos_));
}

}  // namespace plexus::hip
