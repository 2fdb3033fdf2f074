#include "opencl_backend.hpp"

#include <string>
#include <vector>

#include "opencl_query.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus::opencl {
namespace {

constexpr const char* no_icd_hint =
    "no OpenCL platform found: the ICD loader (libOpenCL.so.1) has no vendor driver "
    "registered. Install an OpenCL driver (e.g. PoCL: `apt install pocl-opencl-icd`), "
    "which puts a .icd file in /etc/OpenCL/vendors, or set OCL_ICD_VENDORS to a directory "
    "holding .icd files (or to one .icd file); `clinfo -l` lists what the loader sees";

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

}  // namespace

namespace {
// [backends.opencl] platform (a name filter, "" for all) and share_context.
std::pair<std::string, bool> platform_and_sharing(const ComponentOptions& options) {
  return {options.get<std::string>("platform", ""), options.get<bool>("share_context", true)};
}
}  // namespace

void OpenclBackend::check_options(const ComponentOptions& options) {
  platform_and_sharing(options);
}

OpenclBackend::OpenclBackend(PluginContext& context) {
  const auto [filter, share] = platform_and_sharing(context.options);
  share_context_ = share;
  std::string table = context.options.table_path();
  discover(filter, table.empty() ? "backends.opencl" : table);
  if (status_.available)
    logger().debug("opencl backend: {}", status_.reason);
  else
    logger().debug("opencl backend unavailable: {}", status_.reason);
}

OpenclBackend::~OpenclBackend() = default;

Device& OpenclBackend::device_at(std::size_t index) const { return *devices_[index]; }

void OpenclBackend::discover(const std::string& filter, const std::string& option_table) {
  cl_uint count = 0;
  cl_int code = clGetPlatformIDs(0, nullptr, &count);
  if (code == CL_PLATFORM_NOT_FOUND_KHR || (code == CL_SUCCESS && count == 0)) {
    status_ = {false, no_icd_hint};
    return;
  }
  std::vector<cl_platform_id> platforms(count);
  if (code == CL_SUCCESS) code = clGetPlatformIDs(count, platforms.data(), nullptr);
  if (code != CL_SUCCESS) {
    status_ = {false, "clGetPlatformIDs failed: " + error_name(code) +
                          "; check the OpenCL installation with `clinfo -l`"};
    return;
  }

  std::vector<std::string> all_names, used_names;
  for (cl_platform_id platform : platforms) {
    PlatformTraits traits;
    try {
      traits.name = platform_string(platform, CL_PLATFORM_NAME, "CL_PLATFORM_NAME");
      traits.vendor = platform_string(platform, CL_PLATFORM_VENDOR, "CL_PLATFORM_VENDOR");
    } catch (const error& e) {
      notes_.push_back("skipped a platform: " + std::string(e.what()));
      continue;
    }
    all_names.push_back("\"" + traits.name + "\"");
    if (!filter.empty() && traits.name.find(filter) == std::string::npos) continue;
    used_names.push_back("\"" + traits.name + "\"");
    add_platform(platform, traits);
  }

  const std::string notes = notes_.empty() ? "" : "; " + join(notes_, "; ");
  if (!filter.empty() && used_names.empty()) {
    status_ = {false, "no OpenCL platform name contains \"" + filter + "\" (option `platform` "
                      "of [" + option_table + "]); platforms found: " +
                          (all_names.empty() ? "none" : join(all_names, ", ")) + notes};
  } else if (devices_.empty()) {
    status_ = {false, "no usable OpenCL device on platform(s) " + join(used_names, ", ") + notes};
  } else {
    status_ = {true, std::to_string(devices_.size()) + " device(s) on " +
                         join(used_names, ", ") + notes};
  }
}

void OpenclBackend::add_platform(cl_platform_id platform, const PlatformTraits& traits) {
  cl_uint count = 0;
  cl_int code = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
  if (code == CL_DEVICE_NOT_FOUND || (code == CL_SUCCESS && count == 0)) {
    notes_.push_back("platform \"" + traits.name + "\" has no devices");
    return;
  }
  std::vector<cl_device_id> ids(count);
  if (code == CL_SUCCESS) code = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, ids.data(), nullptr);
  if (code != CL_SUCCESS) {
    notes_.push_back("platform \"" + traits.name +
                     "\": clGetDeviceIDs failed: " + error_name(code));
    return;
  }
  const std::size_t first = devices_.size();
  std::vector<cl_device_id> usable;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    try {
      devices_.push_back(std::make_unique<OpenclDevice>(*this, platform, ids[i], traits));
      usable.push_back(ids[i]);
    } catch (const error& e) {
      notes_.push_back("skipped device " + std::to_string(i) + " of platform \"" + traits.name +
                       "\": " + e.what());
      logger().warn("opencl backend: {}", notes_.back());
    }
  }
  if (!share_context_ || usable.empty()) return;
  auto shared = std::make_shared<const PlatformContext>(platform, std::move(usable));
  for (std::size_t i = first; i < devices_.size(); ++i) devices_[i]->share_context(shared);
}

}  // namespace plexus::opencl
