#include "ze_backend.hpp"

#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus::level_zero {
namespace {

constexpr const char* default_library = "libze_loader.so.1";

std::string library_option(const ComponentOptions& options) {
  return options.get<std::string>("library", default_library);
}

bool device_node_check_option(const ComponentOptions& options) {
  return options.get<bool>("device_node_check", true);
}

bool has_entry(const char* directory, std::string_view prefix) {
  std::error_code error;
  for (std::filesystem::directory_iterator it(directory, error), end; !error && it != end;
       it.increment(error))
    if (it->path().filename().string().starts_with(prefix)) return true;
  return false;
}

// Whether a Level Zero driver can have a device here: the loader's drivers reach theirs
// through a DRM render node (GPUs: Intel's compute runtime), an accel node (NPUs) or /dev/dxg
// (WSL); drivers named by ZE_ENABLE_ALT_DRIVERS or the loader's null driver
// (ZE_ENABLE_NULL_DRIVER) may need none. Without any, loading the loader and its zeInit only to
// hear so costs every process start ~15 ms; docs/benchmarks.md "Backend probes without
// hardware".
bool device_node_exists() {
  std::error_code ignored;
  return has_entry("/dev/dri", "renderD") || has_entry("/dev/accel", "accel") ||
         std::filesystem::exists("/dev/dxg", ignored) || std::getenv("ZE_ENABLE_ALT_DRIVERS") ||
         std::getenv("ZE_ENABLE_NULL_DRIVER");
}

// Why the loader may find no device although the machine has one: the variables that filter
// devices and drivers.
std::string filter_note() {
  std::string note;
  for (const char* name : {"ZE_AFFINITY_MASK", "ONEAPI_DEVICE_SELECTOR", "ZE_ENABLE_ALT_DRIVERS"})
    if (const char* value = std::getenv(name))
      note += std::string(" (") + name + " is set to '" + value + "')";
  return note;
}

}  // namespace

void ZeBackend::check_options(const ComponentOptions& options) {
  library_option(options);
  device_node_check_option(options);
}

ZeBackend::ZeBackend(PluginContext& context) {
  const std::string library = library_option(context.options);
  try {
    if (device_node_check_option(context.options) && !device_node_exists()) {
      status_ = {false, "no GPU render node (/dev/dri/renderD*), accelerator node "
                        "(/dev/accel/accel*) or /dev/dxg exists: no Level Zero driver can have "
                        "a device here, so the Level Zero loader " + library +
                        " was not loaded (option `device_node_check = false` of "
                        "[backends.level_zero] loads it anyway)"};
    } else {
      loader_ = std::make_unique<ZeLoader>(library);
      status_ = discover();
    }
  } catch (const error& e) {
    devices_.clear();
    drivers_.clear();
    status_ = {false, e.what()};
  }
  if (status_.available)
    logger().debug("level_zero backend: {}", status_.reason);
  else
    logger().debug("level_zero backend unavailable: {}", status_.reason);
}

ZeBackend::~ZeBackend() {
  devices_.clear();
  drivers_.clear();
  loader_.reset();
}

Device& ZeBackend::device_at(std::size_t index) const { return *devices_[index]; }

BackendStatus ZeBackend::discover() {
  const ZeLoader& loader = *loader_;
  const std::string version = loader.loader_version();
  const std::string named =
      "Level Zero loader " + loader.library() + (version.empty() ? "" : " " + version);
  if (const ze_result_t result = loader.init(0); result != ZE_RESULT_SUCCESS)
    return {false, named + ": " + ZeLoader::describe_failure("zeInit", result) + filter_note()};
  std::uint32_t count = 0;
  ZeLoader::check("zeDriverGet", loader.driver_get(&count, nullptr));
  std::vector<ze_driver_handle_t> handles(count);
  if (count > 0) ZeLoader::check("zeDriverGet", loader.driver_get(&count, handles.data()));
  if (count == 0) return {false, named + " reports no driver" + filter_note()};

  std::string notes;
  for (std::uint32_t d = 0; d < count; ++d) {
    try {
      auto driver = std::make_unique<ZeDriver>(loader, handles[d]);
      std::uint32_t devices = 0;
      ZeLoader::check("zeDeviceGet", loader.device_get(handles[d], &devices, nullptr));
      std::vector<ze_device_handle_t> found(devices);
      if (devices > 0) ZeLoader::check("zeDeviceGet", loader.device_get(handles[d], &devices, found.data()));
      for (std::uint32_t i = 0; i < devices; ++i) {
        try {
          devices_.push_back(std::make_unique<ZeDevice>(*this, *driver, found[i]));
        } catch (const error& e) {
          notes += "; skipped device " + std::to_string(i) + " of driver " + std::to_string(d) +
                   ": " + e.what();
          logger().warn("level_zero backend: skipped a device: {}", e.what());
        }
      }
      drivers_.push_back(std::move(driver));
    } catch (const error& e) {
      notes += "; skipped driver " + std::to_string(d) + ": " + e.what();
      logger().warn("level_zero backend: skipped driver {}: {}", d, e.what());
    }
  }
  if (devices_.empty()) return {false, named + ": no usable device" + filter_note() + notes};
  return {true, std::to_string(devices_.size()) + " device(s) on " +
                    std::to_string(drivers_.size()) + " driver(s), Level Zero API " +
                    drivers_.front()->api_version_text() + " (" + loader.library() + ")" + notes};
}

}  // namespace plexus::level_zero
