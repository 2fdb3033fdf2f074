#include "hip_backend.hpp"

#include <cstdlib>
#include <filesystem>
#include <string>

#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus::hip {
namespace {

constexpr const char* default_library = "libamdhip64.so.5";

std::string library_option(const ComponentOptions& options) {
  return options.get<std::string>("library", default_library);
}

bool device_node_check_option(const ComponentOptions& options) {
  return options.get<bool>("device_node_check", true);
}

// The HIP runtime reaches AMD GPUs through /dev/kfd (the amdgpu kernel driver), or /dev/dxg
// under WSL. Without either it can find no device, and loading it only to hear so costs every
// process start 25-45 ms (its dlopen: libhsa-runtime64, libamd_comgr, their initializers);
// docs/benchmarks.md "Backend probes without hardware".
bool device_node_exists() {
  std::error_code ignored;
  return std::filesystem::exists("/dev/kfd", ignored) ||
         std::filesystem::exists("/dev/dxg", ignored);
}

// 50221153 -> "5.2"; HIP packs major * 10^7 + minor * 10^5 + patch.
std::string hip_version_text(int version) {
  return std::to_string(version / 10000000) + "." + std::to_string(version / 100000 % 100);
}

// Why the runtime may see no device although the machine has one (or has none at all).
std::string visibility_note() {
  std::string note;
  std::error_code ignored;
  if (!std::filesystem::exists("/dev/kfd", ignored))
    note += " (/dev/kfd does not exist: no AMD GPU with the amdgpu kernel driver is visible "
            "here)";
  for (const char* name : {"HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES"})
    if (const char* value = std::getenv(name))
      note += std::string(" (") + name + " is set to '" + value + "')";
  return note;
}

}  // namespace

void HipBackend::check_options(const ComponentOptions& options) {
  library_option(options);
  device_node_check_option(options);
}

HipBackend::HipBackend(PluginContext& context) {
  const std::string library = library_option(context.options);
  try {
    if (device_node_check_option(context.options) && !device_node_exists()) {
      status_ = {false, "/dev/kfd does not exist: no AMD GPU with the amdgpu kernel driver is "
                        "visible here, so the HIP runtime " + library +
                        " was not loaded (option `device_node_check = false` of [backends.hip] "
                        "loads it anyway)"};
    } else {
      runtime_ = std::make_unique<HipRuntime>(library);
      status_ = discover();
    }
  } catch (const error& e) {
    devices_.clear();
    status_ = {false, e.what()};
  }
  if (status_.available)
    logger().debug("hip backend: {}", status_.reason);
  else
    logger().debug("hip backend unavailable: {}", status_.reason);
}

HipBackend::~HipBackend() {
  devices_.clear();
  runtime_.reset();
}

Device& HipBackend::device_at(std::size_t index) const { return *devices_[index]; }

BackendStatus HipBackend::discover() {
  const HipRuntime& runtime = *runtime_;
  int version = 0;
  const std::string named =
      "HIP runtime " + runtime.library() +
      (runtime.runtime_get_version(&version) == hipSuccess && version > 0
           ? " (HIP " + hip_version_text(version) + ")"
           : "");
  if (const hipError_t result = runtime.init(0); result != hipSuccess)
    return {false, named + ": " + runtime.describe_failure("hipInit", result) + visibility_note()};
  int count = 0;
  if (const hipError_t result = runtime.get_device_count(&count);
      result != hipSuccess || count == 0)
    return {false, named + (result != hipSuccess
                                ? ": " + runtime.describe_failure("hipGetDeviceCount", result)
                                : std::string(" reports no device")) +
                       visibility_note()};
  std::string notes;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    try {
      devices_.push_back(std::make_unique<HipDevice>(*this, runtime, ordinal));
    } catch (const error& e) {
      notes += "; skipped device " + std::to_string(ordinal) + ": " + e.what();
      logger().warn("hip backend: skipped device {}: {}", ordinal, e.what());
    }
  }
  if (devices_.empty()) return {false, named + ": no usable device" + notes};
  return {true, std::to_string(devices_.size()) + " device(s), " + named + notes};
}

}  // namespace plexus::hip
