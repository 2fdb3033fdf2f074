#include "cuda_backend.hpp"

#include <cstdlib>
#include <string>

#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus::cuda {
namespace {

constexpr const char* default_library = "libcuda.so.1";

// 13000 -> "13.0", 12040 -> "12.4".
std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

// Why the driver may see no device although the machine has one: CUDA_VISIBLE_DEVICES.
std::string visible_devices_note() {
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  if (!visible) return "";
  return std::string(" (CUDA_VISIBLE_DEVICES is set to '") + visible +
         "': the driver sees only the devices it lists)";
}

}  // namespace

namespace {
std::string library_option(const ComponentOptions& options) {
  return options.get<std::string>("library", default_library);
}
}  // namespace

void CudaBackend::check_options(const ComponentOptions& options) { library_option(options); }

CudaBackend::CudaBackend(PluginContext& context) {
  const std::string library = library_option(context.options);
  try {
    driver_ = std::make_unique<CudaDriver>(library);
    status_ = discover();
  } catch (const error& e) {
    devices_.clear();
    status_ = {false, e.what()};
  }
  if (status_.available)
    logger().debug("cuda backend: {}", status_.reason);
  else
    logger().debug("cuda backend unavailable: {}", status_.reason);
}

CudaBackend::~CudaBackend() {
  devices_.clear();
  driver_.reset();
}

Device& CudaBackend::device_at(std::size_t index) const { return *devices_[index]; }

BackendStatus CudaBackend::discover() {
  const CudaDriver& driver = *driver_;
  if (const CUresult result = driver.init(0); result != CUDA_SUCCESS)
    return {false, "CUDA driver " + driver.library() + ": " +
                       driver.describe_failure("cuInit", result) + visible_devices_note()};
  int version = 0;
  driver.check("cuDriverGetVersion", driver.driver_get_version(&version));
  const std::string version_text = cuda_version_text(version);
  int count = 0;
  driver.check("cuDeviceGetCount", driver.device_get_count(&count));
  if (count == 0)
    return {false, "the CUDA driver " + driver.library() + " (CUDA " + version_text +
                       ") reports no device" + visible_devices_note()};

  std::string notes;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    try {
      devices_.push_back(std::make_unique<CudaDevice>(*this, driver, ordinal, version_text));
    } catch (const error& e) {
      notes += "; skipped device " + std::to_string(ordinal) + ": " + e.what();
      logger().warn("cuda backend: skipped device {}: {}", ordinal, e.what());
    }
  }
  if (devices_.empty())
    return {false, "no usable CUDA device (CUDA " + version_text + ")" + notes};
  return {true, std::to_string(devices_.size()) + " device(s), CUDA driver " + version_text +
                    " (" + driver.library() + ")" + notes};
}

}  // namespace plexus::cuda
