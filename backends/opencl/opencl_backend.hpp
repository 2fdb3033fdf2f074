// OpenclBackend: every device of every OpenCL platform the ICD loader finds (PoCL,
// NVIDIA, Intel, ...), optionally only platforms whose name contains the `platform`
// option. Without an ICD or a device it is unavailable, with the reason and the fix.
//
// Ownership: owns its OpenclDevices. Thread-safety: devices are discovered in the
// constructor and immutable afterwards; every member is safe from any thread.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "opencl_api.hpp"
#include "opencl_device.hpp"
#include "plexus/backend.hpp"
#include "plexus/plugin_context.hpp"

namespace plexus::opencl {

class OpenclBackend final : public Backend {
 public:
  // Options: `platform` (string): only platforms whose name contains it; `share_context`
  // (bool, default true): the devices of a platform share one context (PlatformContext),
  // so that copies between them run on the devices; false: a context per device.
  explicit OpenclBackend(PluginContext& context);
  // Reads the options as the constructor does (plugin.hpp): for a table not selected.
  static void check_options(const ComponentOptions& options);
  ~OpenclBackend() override;

  BackendStatus status() const override { return status_; }
  std::size_t device_count() const override { return devices_.size(); }

 protected:
  Device& device_at(std::size_t index) const override;

 private:
  void discover(const std::string& platform_filter, const std::string& option_table);
  // Adds the devices of one platform; problems go to notes_.
  void add_platform(cl_platform_id platform, const PlatformTraits& traits);

  std::vector<std::unique_ptr<OpenclDevice>> devices_;
  std::vector<std::string> notes_;  // platforms or devices skipped, and why
  bool share_context_ = true;       // one context per platform (PlatformContext)
  BackendStatus status_;
};

}  // namespace plexus::opencl
